/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Fat-tree construction: sizes, and all-pairs reachability along the installed ECMP routes.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{
/// Follow the routes from host s to host d; return the number of switches crossed (-1: lost).
int
Walk(const FabricTopology& t, uint32_t s, uint32_t d, uint16_t sport)
{
    FlowKey key;
    key.src = t.HostAddress(s).Get();
    key.dst = t.HostAddress(d).Get();
    key.protocol = 17;
    key.sport = sport;
    key.dport = 4791;
    Ptr<Node> node = t.HostDevice(s)->GetPeer()->GetNode();
    for (int hops = 1; hops <= 16; ++hops)
    {
        Ptr<FabricSwitch> sw = node->GetObject<FabricSwitch>();
        int port = sw->SelectEgress(key);
        if (port < 0)
        {
            return -1;
        }
        node = sw->GetPort(port)->GetPeer()->GetNode();
        if (!node->GetObject<FabricSwitch>())
        {
            return node == t.hosts.Get(d) ? hops : -1;
        }
    }
    return -1;
}
} // namespace

TEST_CASE("fabric: k-ary fat-trees have the right size and connect every host pair", "[fabric]")
{
    for (uint32_t k : {4u, 8u})
    {
        FabricTopologyHelper topo;
        FabricTopology t = topo.BuildFatTree(k);
        REQUIRE(t.hosts.GetN() == k * k * k / 4);
        REQUIRE(t.edge.GetN() == k * k / 2);
        REQUIRE(t.agg.GetN() == k * k / 2);
        REQUIRE(t.core.GetN() == k * k / 4);
        REQUIRE(t.links == 3 * k * k * k / 4);
        uint32_t n = t.hosts.GetN();
        uint32_t bad = 0;
        uint32_t maxHops = 0;
        for (uint32_t s = 0; s < n; ++s)
        {
            for (uint32_t d = 0; d < n; ++d)
            {
                if (s == d)
                {
                    continue;
                }
                int hops = Walk(t, s, d, uint16_t(s * 7 + d));
                bad += hops < 0 ? 1 : 0;
                maxHops = std::max<uint32_t>(maxHops, hops);
                // Same edge: 1 switch; same pod: 3; across pods: 5 (shortest paths only).
                uint32_t perEdge = k / 2;
                uint32_t perPod = perEdge * k / 2;
                int expect = (s / perEdge == d / perEdge) ? 1 : (s / perPod == d / perPod ? 3 : 5);
                if (hops != expect)
                {
                    bad++;
                }
            }
        }
        REQUIRE(bad == 0);
        REQUIRE(maxHops == 5);
        Simulator::Destroy();
    }
}

TEST_CASE("fabric: every host pair of a k=4 fat-tree exchanges packets in simulation", "[fabric]")
{
    FabricTopologyHelper topo;
    FabricTopology t = topo.BuildFatTree(4);
    uint32_t n = t.hosts.GetN();
    std::vector<Ptr<FlowSink>> sinks;
    for (uint32_t d = 0; d < n; ++d)
    {
        Ptr<FlowSink> s = CreateObject<FlowSink>();
        t.hosts.Get(d)->AddApplication(s);
        sinks.push_back(s);
        for (uint32_t src = 0; src < n; ++src)
        {
            if (src == d)
            {
                continue;
            }
            Ptr<ConstantRateFlow> f = CreateObject<ConstantRateFlow>();
            f->SetAttribute("Remote", Ipv4AddressValue(t.HostAddress(d)));
            f->SetAttribute("SourcePort", UintegerValue(30000 + d));
            f->SetAttribute("MaxBytes", UintegerValue(2 * 1028));
            t.hosts.Get(src)->AddApplication(f);
        }
    }
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    for (uint32_t d = 0; d < n; ++d)
    {
        REQUIRE(sinks[d]->GetFlows().size() == n - 1);
        REQUIRE(sinks[d]->GetTotalBytes() == (n - 1) * 2 * 1028);
    }
    Simulator::Destroy();
}

TEST_CASE("fabric: topology builders reject out-of-range arguments", "[fabric]")
{
    FabricTopologyHelper topo;
    REQUIRE_THROWS_WITH(topo.BuildFatTree(5), Catch::Contains("k = 5 must be even"));
    REQUIRE_THROWS_WITH(topo.BuildFatTree(0), Catch::Contains("k = 0 is out of range [2, 48]"));
    REQUIRE_THROWS_WITH(topo.BuildLeafSpine(0, 1, 1), Catch::Contains("nLeaf"));
    REQUIRE_THROWS_WITH(topo.BuildDumbbell(1, 0), Catch::Contains("nRight"));
    Simulator::Destroy();
}
