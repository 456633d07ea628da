/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Flow-hash ECMP: no reordering, even spread, seed-controlled and reproducible.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{
struct SpreadResult
{
    std::vector<uint64_t> spinePackets; //!< packets leaf 0 sent to each spine
    uint64_t reordered{0};
    uint64_t received{0};
    uint64_t sent{0};
};

/// 64 flows from leaf 0's hosts to leaf 1's hosts over 4 spines.
SpreadResult
RunSpread(uint32_t run)
{
    RngSeedManager::SetRun(run);
    FabricTopologyHelper topo;
    FabricTopology t = topo.BuildLeafSpine(2, 4, 8);
    std::vector<Ptr<FlowSink>> sinks;
    for (uint32_t h = 8; h < 16; ++h)
    {
        Ptr<FlowSink> s = CreateObject<FlowSink>();
        t.hosts.Get(h)->AddApplication(s);
        sinks.push_back(s);
    }
    std::vector<Ptr<ConstantRateFlow>> flows;
    for (uint32_t i = 0; i < 64; ++i)
    {
        Ptr<ConstantRateFlow> f = CreateObject<ConstantRateFlow>();
        f->SetAttribute("Remote", Ipv4AddressValue(t.HostAddress(8 + i % 8)));
        f->SetAttribute("SourcePort", UintegerValue(20000 + i));
        f->SetAttribute("DataRate", DataRateValue(DataRate("5Gbps")));
        f->SetAttribute("MaxBytes", UintegerValue(100 * 1028));
        t.hosts.Get(i / 8)->AddApplication(f);
        flows.push_back(f);
    }
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    SpreadResult r;
    Ptr<FabricSwitch> leaf = t.edge.Get(0)->GetObject<FabricSwitch>();
    for (uint32_t p = 0; p < leaf->GetNPorts(); ++p)
    {
        Ptr<Node> peer = leaf->GetPort(p)->GetPeer()->GetNode();
        if (peer->GetObject<FabricSwitch>())
        {
            r.spinePackets.push_back(leaf->GetPortStats(p).txPackets);
        }
    }
    for (auto& s : sinks)
    {
        r.reordered += s->GetTotalReordered();
        r.received += s->GetTotalBytes();
    }
    for (auto& f : flows)
    {
        r.sent += f->GetBytesSent();
    }
    Simulator::Destroy();
    return r;
}
} // namespace

TEST_CASE("fabric: ecmp keeps flows in order and spreads them over equal-cost paths", "[fabric]")
{
    SpreadResult r = RunSpread(1);
    REQUIRE(r.received == r.sent);
    REQUIRE(r.reordered == 0);
    REQUIRE(r.spinePackets.size() == 4);
    uint64_t total = 0;
    for (uint64_t n : r.spinePackets)
    {
        total += n;
    }
    REQUIRE(total == 64 * 100);
    // 64 flows into 4 bins: binomial(64, 1/4) has mean 16 flows, sd 3.5; allow mean +- 3.4 sd.
    for (uint64_t n : r.spinePackets)
    {
        INFO("packets via one spine: " << n);
        REQUIRE(n >= 4 * 100);
        REQUIRE(n <= 28 * 100);
    }
}

TEST_CASE("fabric: ecmp spread changes with RngRun and is reproducible for the same run",
          "[fabric]")
{
    SpreadResult a = RunSpread(1);
    SpreadResult b = RunSpread(1);
    SpreadResult c = RunSpread(2);
    REQUIRE(a.spinePackets == b.spinePackets);
    REQUIRE(a.spinePackets != c.spinePackets);
}

TEST_CASE("fabric: a fixed EcmpSeed overrides the random stream", "[fabric]")
{
    std::vector<uint32_t> seeds;
    for (uint32_t run : {1u, 2u})
    {
        RngSeedManager::SetRun(run);
        FabricTopologyHelper topo;
        topo.Fabric().SetSwitchAttribute("EcmpSeed", UintegerValue(12345));
        FabricTopology t = topo.BuildLeafSpine(2, 2, 1);
        seeds.push_back(t.edge.Get(0)->GetObject<FabricSwitch>()->GetEcmpSeed());
        Simulator::Destroy();
    }
    REQUIRE(seeds[0] == 12345);
    REQUIRE(seeds[1] == 12345);
}
