/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Flowlet load balancing (FabricSwitch::LoadBalancing = Flowlet, FlowletTable): a flow keeps
// its member within a flowlet, draws again after a gap, uniformly; the switch sprays a paced
// flow over every spine, keeps a continuous one on one path, and delivers every byte.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>

using namespace ns3;

TEST_CASE("fabric: a flowlet keeps its member until a gap longer than the timeout", "[fabric]")
{
    FlowletTable t;
    t.Configure(1024, 1000);
    const uint32_t first = t.Select(0xabcdef, 8, 4, 0);
    REQUIRE(first < 4);
    // packets 999 ns apart: one flowlet for 10 us
    for (int64_t now = 999; now < 10000; now += 999)
    {
        REQUIRE(t.Select(0xabcdef, 8, 4, now) == first);
    }
    REQUIRE(t.GetFlowlets() == 1);
    // a gap of 1001 ns starts a flowlet; another group starts one too
    t.Select(0xabcdef, 8, 4, 9990 + 1001);
    REQUIRE(t.GetFlowlets() == 2);
    t.Select(0xabcdef, 12, 4, 9990 + 1002);
    REQUIRE(t.GetFlowlets() == 3);
    // a one-member group always gives member 0
    REQUIRE(t.Select(0x1234, 16, 1, 50000) == 0);
}

TEST_CASE("fabric: flowlets draw their members uniformly", "[fabric]")
{
    FlowletTable t;
    t.Configure(64, 10);
    std::vector<uint32_t> count(4, 0);
    const uint32_t n = 40000;
    for (uint32_t i = 0; i < n; ++i)
    {
        // 64 flows, each packet after a gap: every packet is a new flowlet
        count[t.Select(i % 64 * 2654435761u, 4, 4, int64_t(i) * 100)]++;
    }
    REQUIRE(t.GetFlowlets() == n);
    // binomial(40000, 1/4): mean 10000, sd 87; allow 5 sd
    for (uint32_t c : count)
    {
        INFO("draws of one member: " << c);
        REQUIRE(c > 10000 - 435);
        REQUIRE(c < 10000 + 435);
    }
}

TEST_CASE("fabric: flowlet table size and timeout are validated with their ranges", "[fabric]")
{
    FlowletTable t;
    REQUIRE_THROWS_WITH(t.Configure(1000, 10),
                        Catch::Contains("FlowletTableSize = 1000") &&
                            Catch::Contains("power of two"));
    REQUIRE_THROWS_WITH(t.Configure(0, 10), Catch::Contains("FlowletTableSize"));
    REQUIRE_THROWS_WITH(t.Configure(16, 0), Catch::Contains("FlowletTimeout = 0 ns"));
    REQUIRE_NOTHROW(t.Configure(1, 1));
}

namespace
{
struct SprayResult
{
    std::vector<uint64_t> spinePackets; //!< packets leaf 0 sent to each spine
    uint64_t flowlets{0};               //!< flowlets at leaf 0
    uint64_t sent{0};
    uint64_t received{0};
};

/// One flow of 200 packets from a leaf-0 host to a leaf-1 host over 4 spines, paced at `rate`.
SprayResult
RunOneFlow(const std::string& lb, Time timeout, const std::string& rate)
{
    RngSeedManager::SetRun(1);
    FabricTopologyHelper topo;
    topo.Fabric().SetSwitchAttribute("LoadBalancing", StringValue(lb));
    topo.Fabric().SetSwitchAttribute("FlowletTimeout", TimeValue(timeout));
    FabricTopology t = topo.BuildLeafSpine(2, 4, 1);
    Ptr<FlowSink> sink = CreateObject<FlowSink>();
    t.hosts.Get(1)->AddApplication(sink);
    Ptr<ConstantRateFlow> f = CreateObject<ConstantRateFlow>();
    f->SetAttribute("Remote", Ipv4AddressValue(t.HostAddress(1)));
    f->SetAttribute("DataRate", DataRateValue(DataRate(rate)));
    f->SetAttribute("MaxBytes", UintegerValue(200 * 1028));
    t.hosts.Get(0)->AddApplication(f);
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    SprayResult r;
    Ptr<FabricSwitch> leaf = t.edge.Get(0)->GetObject<FabricSwitch>();
    for (uint32_t p = 0; p < leaf->GetNPorts(); ++p)
    {
        if (leaf->GetPort(p)->GetPeer()->GetNode()->GetObject<FabricSwitch>())
        {
            r.spinePackets.push_back(leaf->GetPortStats(p).txPackets);
        }
    }
    r.flowlets = leaf->GetFlowlets();
    r.sent = f->GetBytesSent();
    r.received = sink->GetTotalBytes();
    Simulator::Destroy();
    return r;
}
} // namespace

TEST_CASE("fabric: flowlet switching sprays a paced flow over every spine and delivers it all",
          "[fabric]")
{
    // 5 Gb/s on 100 Gb/s ports: a 1028-byte packet every 1.64 us. With a 1 us timeout every
    // packet is a flowlet (200 draws over 4 spines: binomial mean 50, sd 6.1); with 20 us the
    // flow is one flowlet on one spine, as with the flow hash.
    SprayResult spray = RunOneFlow("Flowlet", MicroSeconds(1), "5Gbps");
    REQUIRE(spray.sent == 200 * 1028);
    REQUIRE(spray.received == spray.sent);
    REQUIRE(spray.flowlets == 200);
    for (uint64_t n : spray.spinePackets)
    {
        INFO("packets via one spine: " << n);
        REQUIRE(n >= 50 - 25);
        REQUIRE(n <= 50 + 25);
    }
    for (const auto& [lb, timeout] :
         {std::pair{"Flowlet", MicroSeconds(20)}, std::pair{"FlowHash", MicroSeconds(1)}})
    {
        SprayResult one = RunOneFlow(lb, timeout, "5Gbps");
        INFO(lb);
        REQUIRE(one.received == one.sent);
        REQUIRE(*std::max_element(one.spinePackets.begin(), one.spinePackets.end()) == 200);
        REQUIRE(one.flowlets == (std::string(lb) == "Flowlet" ? 1 : 0));
    }
}
