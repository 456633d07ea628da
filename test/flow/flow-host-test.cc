/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The host interconnect at flow level (FluidHost): fluid links whose capacities are the host
// path's steady-state rates, computed here by hand (PCIe-limited with the IOMMU off, one page
// walk per 4 KiB page when the IOTLB working set does not fit), a flow through them delivered
// at the computed time, the capacity following the active connections and the memory demand,
// and clear errors.

#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>

using namespace ns3;

namespace
{
/// PCIe Gen3 x8 with 256 B TLP payloads and 24 B of overhead: 8 x 8 GT/s x 128/130 x 256/280.
const double kPcieRate = 8 * 8e9 * 128.0 / 130.0 * 256.0 / 280.0; // 57.61 Gb/s of payload
/// Wire bytes per payload byte of full 1000 B packets: (1000 + 44 + 38) / 1000.
const double kWire = 1.082;

/// The memory latency of the default bus (600 Gb/s, 80 ns idle, 50 ns M/D/1 scale) carrying
/// the NIC's writes at `rate` bit/s alone: 80 ns + 50 ns x u / (2 (1 - u)), u = rate / 600e9.
double
MemoryLatency(double rate)
{
    const double u = rate / 600e9;
    return 80e-9 + 50e-9 * u / (2 * (1 - u));
}

/// The write rate with one page walk (one memory access) per 4 KiB page.
double
MissLimited(double rate)
{
    return 8 * 4096 / (8 * 4096 / rate + MemoryLatency(rate));
}

/// A dumbbell of `left` senders and one receiver (host `left`) on the flow backend, with a
/// host path (Gen3 x8) on the receiver.
struct HostNet
{
    FabricTopology topo;
    Ptr<FluidFabric> fabric;
    Ptr<FluidHost> host;

    HostNet(uint32_t left, bool iommu)
    {
        RngSeedManager::SetRun(1);
        topo = FabricTopologyHelper().BuildDumbbell(left, 1);
        fabric = FlowBackendHelper().Install(topo);
        HostInterconnectHelper h;
        h.SetAttribute("PcieLanes", UintegerValue(8));
        h.SetAttribute("Iommu", BooleanValue(iommu));
        std::vector<Ptr<FluidHost>> v =
            FlowBackendHelper::InstallHost(NodeContainer(topo.hosts.Get(left)), h);
        REQUIRE(v.size() == 1);
        host = v.front();
    }

    Ptr<FluidTransport> Transport(uint32_t i) const
    {
        return FlowBackendHelper::GetTransport(topo.hosts.Get(i));
    }

    /// The unloaded latency terms of a connection: its path's and its acknowledgement's.
    double Latency(Ptr<MessageConnection> c) const
    {
        Ptr<FluidConnection> fc = DynamicCast<FluidConnection>(c);
        return (fabric->GetNetwork()->PathLatency(fc->GetPath()) + fc->GetAckLatency())
            .GetSeconds();
    }
};

/// Post `bytes` on c; the completion time goes to `done`.
void
Post(Ptr<MessageConnection> c, uint64_t bytes, double& done)
{
    c->PostSend(bytes, MessageConnection::CompletionCallback([&done](uint64_t, uint64_t) {
                    done = Simulator::Now().GetSeconds();
                }));
}
} // namespace

TEST_CASE("flow: host path with the IOMMU off is the PCIe rate, and a flow drains at it", "[flow]")
{
    HostNet n(1, false);
    REQUIRE(n.host->GetReceiveRate() == Approx(kPcieRate).epsilon(1e-12));
    // The transmit link (memory -> NIC): DMA reads of 512 B requests, 512 / (512 + 2 x 24) of
    // the same link, also PCIe-limited (64 x 512 B in flight over ~333 ns is 788 Gb/s).
    REQUIRE(n.host->GetTransmitRate() == Approx(kPcieRate).epsilon(1e-12));
    const double cap = n.fabric->GetNetwork()->GetLinkCapacity(uint32_t(n.host->GetReceiveLink()));
    REQUIRE(cap == Approx(kPcieRate / 8 * kWire).epsilon(1e-12));

    // 1 MB into the host (1000 full packets): 8e6 / 57.61 Gb/s = 138.9 us of drain, the link
    // of 100 Gb/s being faster; the connection's path ends with the receive link.
    Ptr<MessageConnection> in = n.Transport(0)->Open(n.Transport(1), 3);
    REQUIRE(DynamicCast<FluidConnection>(in)->GetPath().back() ==
            uint32_t(n.host->GetReceiveLink()));
    // 1 MB out of the host: its path starts with the transmit link.
    Ptr<MessageConnection> out = n.Transport(1)->Open(n.Transport(0), 3);
    REQUIRE(DynamicCast<FluidConnection>(out)->GetPath().front() ==
            uint32_t(n.host->GetTransmitLink()));
    double inDone = 0;
    double outDone = 0;
    Post(in, 1000000, inDone);
    Simulator::Schedule(MilliSeconds(1), [&]() { Post(out, 1000000, outDone); });
    Simulator::Stop(MilliSeconds(3));
    Simulator::Run();
    const double drain = 8e6 / kPcieRate;
    CHECK(inDone == Approx(drain + n.Latency(in)).margin(3e-9));
    CHECK(outDone - 1e-3 == Approx(drain + n.Latency(out)).margin(3e-9));
    CHECK(n.host->GetReceivedPayloadBytes() == Approx(1e6).epsilon(1e-9));
    CHECK(n.host->GetTransmittedPayloadBytes() == Approx(1e6).epsilon(1e-9));
    CHECK(n.host->GetActiveConnections() == 0);
    Simulator::Destroy();
}

TEST_CASE("flow: host path with the IOMMU on follows the IOTLB working set of the active "
          "connections",
          "[flow]")
{
    // 64 IOTLB entries, 64 KiB receive buffers of 16 pages per connection: four connections
    // (64 pages) fit, five (80 pages) miss once per page, one memory access per walk.
    HostNet n(5, true);
    REQUIRE(n.host->GetReceiveRate() == Approx(kPcieRate).epsilon(1e-12));
    const double r5 = MissLimited(kPcieRate); // 50.3 Gb/s
    REQUIRE(r5 == Approx(50.30e9).epsilon(1e-3));

    // Four senders of 1 MB and one of 0.5 MB, all at 0: five connections share r5 until the
    // small one has drained, then four share the PCIe rate.
    std::vector<Ptr<MessageConnection>> c;
    std::vector<double> done(5, 0);
    for (uint32_t i = 0; i < 5; ++i)
    {
        c.push_back(n.Transport(i)->Open(n.Transport(5), 3));
        Post(c[i], i == 4 ? 500000 : 1000000, done[i]);
    }
    const double t1 = 5 * 0.5e6 * 8 / r5;
    const double t2 = 4 * 0.5e6 * 8 / kPcieRate;
    uint32_t activeEarly = 0;
    double rateEarly = 0;
    uint32_t activeLate = 0;
    double rateLate = 0;
    Simulator::Schedule(Seconds(t1 / 2), [&]() {
        activeEarly = n.host->GetActiveConnections();
        rateEarly = n.host->GetReceiveRate();
    });
    Simulator::Schedule(Seconds(t1 + t2 / 2), [&]() {
        activeLate = n.host->GetActiveConnections();
        rateLate = n.host->GetReceiveRate();
    });
    Simulator::Stop(MilliSeconds(3));
    Simulator::Run();
    CHECK(activeEarly == 5);
    CHECK(rateEarly == Approx(r5).epsilon(1e-12));
    CHECK(activeLate == 4);
    CHECK(rateLate == Approx(kPcieRate).epsilon(1e-12));
    CHECK(done[4] == Approx(t1 + n.Latency(c[4])).margin(3e-9));
    for (uint32_t i = 0; i < 4; ++i)
    {
        CHECK(done[i] == Approx(t1 + t2 + n.Latency(c[i])).margin(3e-9));
    }
    CHECK(n.host->GetActiveConnections() == 0);
    Simulator::Destroy();
}

TEST_CASE("flow: the host path's rate follows the memory application's demand", "[flow]")
{
    HostNet n(1, false);
    Ptr<HostInterconnect> hi = n.host->GetHostInterconnect();
    const double idle = n.host->GetReceiveRate();
    hi->SetMemoryAppDemand(0.9);
    const double loaded = n.host->GetReceiveRate();
    // The credits (128 lines in flight) over the loaded latency now limit the writes.
    CHECK(loaded < 0.9 * idle);
    CHECK(loaded == Approx(hi->GetOperatingPoint().writeRate).epsilon(1e-12));
    CHECK(loaded == Approx(hi->GetOperatingPoint().creditRate).epsilon(1e-6));
    CHECK(n.fabric->GetNetwork()->GetLinkCapacity(uint32_t(n.host->GetReceiveLink())) ==
          Approx(loaded / 8 * kWire).epsilon(1e-12));
    hi->SetMemoryAppDemand(0.0);
    CHECK(n.host->GetReceiveRate() == Approx(idle).epsilon(1e-12));
    Simulator::Destroy();
}

TEST_CASE("flow: the round-robin IOTLB replay agrees with the closed form within 1 % and "
          "extends it",
          "[flow]")
{
    for (uint64_t buffers : {1, 4, 5, 16, 32})
    {
        INFO(buffers << " buffers");
        CHECK(Iotlb::InterleavedMissesPerByte(64, 4096, buffers, 65536, 1000) ==
              Approx(Iotlb::CyclicMissesPerByte(64, 4096, buffers, 65536))
                  .epsilon(0.01)
                  .margin(1e-12));
    }
    // 64 buffers or more with 64 entries: every write misses its first page, and again when it
    // crosses into the next one: (1 + 999 / 4096) / 1000 misses per byte on average.
    CHECK(Iotlb::InterleavedMissesPerByte(64, 4096, 80, 65536, 1000) ==
          Approx((1 + 999.0 / 4096) / 1000).epsilon(0.01));
    const double between = Iotlb::InterleavedMissesPerByte(64, 4096, 48, 65536, 1000);
    CHECK(between >= 1.0 / 4096);
    CHECK(between <= (1 + 999.0 / 4096) / 1000 * 1.01);
    CHECK_THROWS_WITH(Iotlb::InterleavedMissesPerByte(64, 4096, 8, 65536, 0),
                      Catch::Contains("write of 0 bytes out of range [1, 65536]"));
}

TEST_CASE("flow: host paths refuse what they cannot model, naming the parameter", "[flow]")
{
    RngSeedManager::SetRun(1);
    FabricTopology t = FabricTopologyHelper().BuildDumbbell(1, 1);
    HostInterconnectHelper h;
    // not on the flow backend yet
    CHECK_THROWS_WITH(FlowBackendHelper::InstallHost(NodeContainer(t.hosts.Get(1)), h),
                      Catch::Contains("has no FluidTransport (call Install first)"));
    FlowBackendHelper().Install(t);
    // a host whose connections are routed already
    Ptr<FluidTransport> a = FlowBackendHelper::GetTransport(t.hosts.Get(0));
    a->Open(FlowBackendHelper::GetTransport(t.hosts.Get(1)), 3);
    CHECK_THROWS_WITH(FlowBackendHelper::InstallHost(NodeContainer(t.hosts.Get(0)), h),
                      Catch::Contains("install the host path first"));
    // Enabled false: the HostInterconnect is there (hosts.csv), no fluid link
    HostInterconnectHelper off;
    off.SetAttribute("Enabled", BooleanValue(false));
    CHECK(FlowBackendHelper::InstallHost(NodeContainer(t.hosts.Get(1)), off).empty());
    CHECK(HostInterconnectHelper::Get(t.hosts.Get(1)));
    CHECK_THROWS_WITH(FlowBackendHelper::InstallHost(NodeContainer(t.hosts.Get(1)), h),
                      Catch::Contains("already has a host interconnect"));
    Simulator::Destroy();

    // The scenario's host keys are checked as at packet level.
    const std::string bad = mlnettest::ScenarioParseError(
        R"({"topology": {"type": "dumbbell", "left": 1, "right": 1}, "duration": "1us",
            "backend": "flow", "host": {"pcieLanes": 3}, "traffic": []})");
    CHECK(bad.find("host.pcieLanes") != std::string::npos);
    CHECK(bad.find("power of two") != std::string::npos);
}

TEST_CASE("flow: host path at flow level against the packet level, lossless line-rate senders",
          "[flow]")
{
    // The IOTLB case above as a scenario: four senders of 1 MB and one of 0.5 MB into a
    // Gen3 x8 host with the IOMMU on; PFC at the host and line-rate senders ("cc": "fixed"),
    // so that the packet level runs at the host path's rate (with DCQCN its rate cycles:
    // doc/flow-backend.rst, "Host interconnect at flow level").
    auto text = [](const std::string& backend) {
        std::string traffic;
        for (int i = 0; i < 5; ++i)
        {
            traffic += std::string(i ? ", " : "") + R"({"type": "rdma", "src": )" +
                       std::to_string(i) + R"(, "dst": 5, "cc": "fixed", "bytes": ")" +
                       (i == 4 ? "500KB" : "1MB") + R"("})";
        }
        return R"({"topology": {"type": "dumbbell", "left": 5, "right": 1},
                   "host": {"hosts": [5], "pcieLanes": 8, "pfc": true},
                   "duration": "10us", "drain": "100ms", "backend": ")" +
               backend + R"(", "traffic": [)" + traffic + "]}";
    };
    const ScenarioResult packet = mlnettest::RunScenarioText(text("packet"));
    const ScenarioResult flow = mlnettest::RunScenarioText(text("flow"));
    REQUIRE(packet.flows.size() == 5);
    REQUIRE(flow.flows.size() == 5);
    for (size_t i = 0; i < 5; ++i)
    {
        INFO("message " << i << ": packet " << packet.flows[i].completedNs << " ns, flow "
                        << flow.flows[i].completedNs << " ns");
        CHECK(packet.flows[i].Completed());
        CHECK(flow.flows[i].Completed());
        CHECK(std::abs(double(flow.flows[i].completedNs) / double(packet.flows[i].completedNs) -
                       1) < 0.01);
    }
    // The flow level's makespan is the hand-computed t1 + t2 of the IOTLB case plus a few us
    // of latency.
    const double t1 = 5 * 0.5e6 * 8 / MissLimited(kPcieRate);
    const double t2 = 4 * 0.5e6 * 8 / kPcieRate;
    CHECK(double(flow.flows[0].completedNs) * 1e-9 > t1 + t2);
    CHECK(double(flow.flows[0].completedNs) * 1e-9 < t1 + t2 + 10e-6);
    REQUIRE(flow.hosts.size() == 1);
    CHECK(flow.hosts[0].flowLevel);
    CHECK(flow.hosts[0].stats.dmaPayloadBytes == 4500000);
    CHECK(packet.hosts[0].stats.dmaPayloadBytes == 4500000);
    CHECK(packet.hosts[0].stats.dropPackets == 0);
}
