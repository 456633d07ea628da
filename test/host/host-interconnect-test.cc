/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The host path in small simulations: line rate without contention, throughput against memory
// demand, byte conservation, PFC instead of drops, IOTLB working set, hostCC response, and no
// change at all when the model is off.

#include "common/rdma-scenario.h"
#include "common/test-utilities.h"

#include "ns3/host-interconnect-helper.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{

/// One sender with `qps` queue pairs to one receiver whose host path is modelled.
struct HostRun
{
    uint32_t qps{1};
    double demand{0};
    bool pfc{false};
    bool iommu{true};
    uint64_t page{4096};
    bool marking{false};
    bool throttling{false};
    uint64_t bytesPerQp{uint64_t(1) << 40}; //!< posted per QP (default: never ends)
    Time window0{MilliSeconds(1)};          //!< goodput measured from here ...
    Time window1{MilliSeconds(3)};          //!< ... to here (also the end of the run)
    std::string cc{"ns3::Dcqcn"};

    // results
    double goodput{0}; //!< DMA payload bit/s in the window
    HostPathStats stats;
    HostPathTiming::Operating op;
    uint64_t completedBytes{0};
    uint64_t switchDrops{0};
    uint64_t buffered{0};     //!< bytes left in the NIC buffer at the end
    uint64_t delivered{0};    //!< in-order payload the receiver's transport accepted
    double inOrderGoodput{0}; //!< in-order payload accepted in the window, bit/s
    double streamRate{0};     //!< analytical DMA rate of `qps` streams (GetStreamWriteRate)

    void Run()
    {
        mlnettest::RdmaDumbbell d(1, 1, true, 32u * 1024 * 1024, cc);
        HostInterconnectHelper hh;
        hh.SetAttribute("MemoryAppDemand", DoubleValue(demand));
        hh.SetAttribute("Pfc", BooleanValue(pfc));
        hh.SetAttribute("Iommu", BooleanValue(iommu));
        hh.SetAttribute("PageSize", UintegerValue(page));
        hh.SetAttribute("HostCcMarking", BooleanValue(marking));
        hh.SetAttribute("HostCcThrottling", BooleanValue(throttling));
        Ptr<HostInterconnect> host = hh.Install(NodeContainer(d.topo.hosts.Get(1))).front();
        for (uint32_t q = 0; q < qps; ++q)
        {
            d.Connect(0, 1)->PostSend(bytesPerQp,
                                      RdmaQueuePair::CompletionCallback(
                                          [this](uint64_t, uint64_t b) { completedBytes += b; }));
        }
        streamRate = 2 * qps <= 64 ? host->GetStreamWriteRate(qps) : 0.0;
        uint64_t at0 = 0;
        uint64_t inOrder0 = 0;
        Simulator::Schedule(window0, [&] {
            at0 = host->GetStats().dmaPayloadBytes;
            inOrder0 = d.nics[1]->GetBytesReceived();
        });
        Simulator::Stop(window1);
        Simulator::Run();
        goodput = (host->GetStats().dmaPayloadBytes - at0) * 8.0 / (window1 - window0).GetSeconds();
        inOrderGoodput =
            (d.nics[1]->GetBytesReceived() - inOrder0) * 8.0 / (window1 - window0).GetSeconds();
        stats = host->GetStats();
        op = host->GetOperatingPoint();
        switchDrops = d.DroppedBytes();
        buffered = host->GetBufferBytes();
        delivered = d.nics[1]->GetBytesReceived();
        Simulator::Destroy();
    }

    /// received = delivered + dropped + still buffered
    bool Conserved() const
    {
        return stats.rxBytes == stats.deliveredBytes + stats.dropBytes + buffered;
    }
};

} // namespace

TEST_CASE("host: no contention and IOMMU off sustains line rate with zero drops", "[host]")
{
    HostRun r;
    r.iommu = false;
    r.Run();
    double bound = mlnettest::MaxGoodput(100e9, 1000);
    INFO("goodput " << r.goodput / 1e9 << " Gb/s, bound " << bound / 1e9);
    REQUIRE(r.goodput >= 0.98 * bound);
    REQUIRE(r.stats.dropPackets == 0);
    REQUIRE(r.stats.maxBufferBytes < 16 * 1024); // the DMA keeps up: a few packets at most
    REQUIRE(r.Conserved());
}

TEST_CASE("host: throughput falls monotonically as memory demand rises (PFC on)", "[host]")
{
    double prev = 1e12;
    double first = 0;
    for (double demand : {0.0, 0.6, 0.8, 0.9, 0.95, 1.0})
    {
        HostRun r;
        r.demand = demand;
        r.pfc = true;
        r.cc = "ns3::RdmaFixedRate"; // line rate: the host path alone sets the throughput
        r.Run();
        // Lossless: the receiver gets exactly what the host path writes, min(line, DMA rate).
        double expect = std::min(mlnettest::MaxGoodput(100e9, 1000), r.op.writeRate);
        INFO("demand " << demand << " goodput " << r.goodput / 1e9 << " Gb/s, model "
                       << expect / 1e9);
        REQUIRE(r.goodput <= prev * 1.001);
        REQUIRE(r.goodput == Approx(expect).epsilon(0.03));
        REQUIRE(r.stats.dropPackets == 0);
        REQUIRE(r.Conserved());
        prev = r.goodput;
        first = first == 0 ? r.goodput : first;
    }
    REQUIRE(prev < 0.5 * first); // more than 50% loss at full demand
}

TEST_CASE("host: PFC on pauses the link instead of dropping", "[host]")
{
    HostRun drop;
    drop.demand = 1.0;
    drop.Run();
    HostRun pause = drop;
    pause.pfc = true;
    pause.Run();
    INFO("drops without PFC " << drop.stats.dropPackets << ", pauses with PFC "
                              << pause.stats.pausesSent);
    REQUIRE(drop.stats.dropPackets > 0);
    REQUIRE(drop.stats.pausesSent == 0);
    REQUIRE(pause.stats.dropPackets == 0);
    REQUIRE(pause.stats.pausesSent > 0);
    REQUIRE(pause.switchDrops == 0);
    REQUIRE(pause.stats.maxBufferBytes <= uint64_t(1) << 20);
}

TEST_CASE("host: bytes are conserved and every message completes despite host drops", "[host]")
{
    HostRun r;
    r.qps = 2;
    r.demand = 0.8;
    r.bytesPerQp = 8000000;
    r.window0 = MilliSeconds(1);
    r.window1 = MilliSeconds(40);
    r.Run();
    INFO("rx " << r.stats.rxBytes << " delivered " << r.stats.deliveredBytes << " dropped "
               << r.stats.dropBytes);
    REQUIRE(r.stats.dropPackets > 0);
    REQUIRE(r.Conserved());
    REQUIRE(r.buffered == 0); // nothing left in the buffer
    REQUIRE(r.completedBytes == 2 * r.bytesPerQp);
    // Host drops (> 1% of arrivals) make the transport resend: more arrived than the messages.
    REQUIRE(double(r.stats.dropPackets) / r.stats.rxPackets > 0.01);
}

TEST_CASE("host: more queue pairs miss in the IOTLB, huge pages recover the hit rate", "[host]")
{
    HostRun one;
    one.window1 = MilliSeconds(1.5);
    one.Run();
    HostRun many = one;
    many.qps = 16;
    many.Run();
    HostRun huge = many;
    huge.page = 2u << 20;
    huge.Run();
    double hit1 = double(one.stats.iotlbHits) / (one.stats.iotlbHits + one.stats.iotlbMisses);
    double hit16 = double(many.stats.iotlbHits) / (many.stats.iotlbHits + many.stats.iotlbMisses);
    double hitHuge = double(huge.stats.iotlbHits) / (huge.stats.iotlbHits + huge.stats.iotlbMisses);
    INFO("hit rate 1 QP " << hit1 << ", 16 QPs " << hit16 << ", 16 QPs on 2 MiB " << hitHuge);
    REQUIRE(hit1 > 0.99);  // 16 pages of one buffer fit in 64 entries
    REQUIRE(hit16 < 0.85); // 256 pages do not
    REQUIRE(hitHuge > 0.99);
}

TEST_CASE("host: a lossless host path delivers the DMA rate with one page walk per page, and drops "
          "collapse it",
          "[host]")
{
    // 16 QPs x 64 KiB of 4 KiB pages = 256 pages for 64 IOTLB entries: every page is missed
    // once. Analytically (Gen3 x16, no memory load): the write rate is the PCIe payload rate
    // 115.2 Gb/s, a walk is one access at the loaded latency L = 80 + 50 u / 2(1 - u) ns with
    // u = 115.2 / 600, so 4096 x 8 / (4096 x 8 / 115.2e9 + L) = 88.5 Gb/s < 92.4 of the link.
    HostRun lossless;
    lossless.qps = 16;
    lossless.pfc = true;
    lossless.cc = "ns3::RdmaFixedRate"; // line rate: the host path alone sets the throughput
    lossless.Run();
    const double link = mlnettest::MaxGoodput(100e9, 1000);
    const double u = lossless.op.writeRate / 600e9;
    const double walk = 80e-9 + 50e-9 * u / (2 * (1 - u));
    const double byHand = 4096 * 8 / (4096 * 8 / lossless.op.writeRate + walk);
    INFO("lossless goodput " << lossless.inOrderGoodput / 1e9 << " Gb/s, model "
                             << lossless.streamRate / 1e9 << ", by hand " << byHand / 1e9
                             << ", link " << link / 1e9);
    REQUIRE(lossless.op.writeRate == Approx(115.2e9).epsilon(1e-3));
    REQUIRE(lossless.streamRate == Approx(byHand).epsilon(1e-9));
    REQUIRE(lossless.streamRate == Approx(88.5e9).epsilon(2e-3));
    REQUIRE(lossless.inOrderGoodput == Approx(std::min(link, lossless.streamRate)).epsilon(0.01));
    REQUIRE(lossless.stats.dropPackets == 0);
    REQUIRE(lossless.stats.pausesSent > 0);
    // The same 4% deficit with drops: RoCE's go-back-N resends every packet behind a dropped
    // one, so the in-order goodput falls far below the DMA rate (a collapse, not a 4% loss).
    // The 1 MiB buffer fills at the deficit (about 4 Gb/s) in about 2 ms: measure after that.
    HostRun lossy = lossless;
    lossy.pfc = false;
    lossy.cc = "ns3::Dcqcn";
    lossy.window0 = MilliSeconds(3);
    lossy.window1 = MilliSeconds(6);
    lossy.Run();
    INFO("lossy goodput " << lossy.inOrderGoodput / 1e9 << " Gb/s, drops "
                          << lossy.stats.dropPackets);
    REQUIRE(lossy.stats.dropPackets > 0);
    REQUIRE(lossy.inOrderGoodput < 0.5 * lossless.inOrderGoodput);
    // Huge pages: the 16 buffers are 16 pages, no walk, the link's rate again.
    HostRun huge = lossy;
    huge.page = 2u << 20;
    huge.window1 = MilliSeconds(4);
    huge.Run();
    REQUIRE(huge.streamRate == Approx(lossless.op.writeRate));
    REQUIRE(huge.stats.dropPackets == 0);
    REQUIRE(huge.inOrderGoodput >= 0.98 * link);
}

TEST_CASE("host: the hostCC response removes host drops", "[host]")
{
    HostRun off;
    off.qps = 4;
    off.demand = 0.95;
    off.window1 = MilliSeconds(4);
    off.Run();
    HostRun on = off;
    on.marking = true;
    on.throttling = true;
    on.Run();
    HostRun throttle = off;
    throttle.throttling = true;
    throttle.Run();
    INFO("without: goodput " << off.goodput / 1e9 << " drops " << off.stats.dropPackets
                             << "; with: goodput " << on.goodput / 1e9 << " drops "
                             << on.stats.dropPackets << " marks " << on.stats.ceMarked);
    REQUIRE(off.stats.dropPackets > 0);
    REQUIRE(on.stats.dropPackets < off.stats.dropPackets / 10);
    REQUIRE(on.stats.ceMarked > 0);
    REQUIRE(on.stats.maxThrottleLevel > 0);
    // Throughput: the in-order payload the transport accepted (go-back-N resends excluded).
    REQUIRE(on.delivered > 10 * off.delivered);
    REQUIRE(throttle.delivered > 10 * off.delivered);
    REQUIRE(throttle.stats.ceMarked == 0);
}

namespace
{
/// Outputs of a small incast with RDMA transport (with or without a disabled host model).
std::vector<int64_t>
IncastOutputs(bool hostModelPresent)
{
    mlnettest::RdmaDumbbell d(2, 1);
    if (hostModelPresent)
    {
        HostInterconnectHelper hh;
        hh.SetAttribute("Enabled", BooleanValue(false));
        hh.Install(d.topo.hosts);
    }
    std::vector<int64_t> out;
    std::vector<Ptr<RdmaQueuePair>> qps;
    for (uint32_t s = 0; s < 2; ++s)
    {
        Ptr<RdmaQueuePair> qp = d.Connect(s, 2);
        qp->PostSend(3000000, RdmaQueuePair::CompletionCallback([&out](uint64_t, uint64_t b) {
                         out.push_back(Simulator::Now().GetPicoSeconds());
                         out.push_back(int64_t(b));
                     }));
        qps.push_back(qp);
    }
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    for (const auto& qp : qps)
    {
        out.push_back(int64_t(qp->GetRetransmittedPackets()));
        out.push_back(int64_t(qp->GetCnpsReceived()));
    }
    out.push_back(int64_t(d.nics[2]->GetBytesReceived()));
    out.push_back(int64_t(d.nics[2]->GetCnpsSent()));
    out.push_back(int64_t(d.nics[2]->GetControlPacketsSent()));
    out.push_back(int64_t(d.DroppedBytes()));
    out.push_back(int64_t(d.Pauses()));
    out.push_back(Simulator::Now().GetPicoSeconds());
    Simulator::Destroy();
    return out;
}
} // namespace

TEST_CASE("host: with the host model off, results are bit-identical", "[host]")
{
    std::vector<int64_t> absent = IncastOutputs(false);
    std::vector<int64_t> disabled = IncastOutputs(true);
    REQUIRE(absent.size() == 2 * 2 + 2 * 2 + 6);
    REQUIRE(absent == disabled);
}
