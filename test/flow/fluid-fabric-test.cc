/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The flow backend routes a flow as the packet fabric forwards its packets: for random
// 5-tuples, the fluid path equals the ports a real packet of that 5-tuple leaves through.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <set>

using namespace ns3;

namespace
{
/// Every FabricNetDevice of the topology's nodes.
std::vector<Ptr<FabricNetDevice>>
AllDevices(const NodeContainer& nodes)
{
    std::vector<Ptr<FabricNetDevice>> devs;
    for (uint32_t n = 0; n < nodes.GetN(); ++n)
    {
        for (uint32_t i = 0; i < nodes.Get(n)->GetNDevices(); ++i)
        {
            if (auto d = DynamicCast<FabricNetDevice>(nodes.Get(n)->GetDevice(i)))
            {
                devs.push_back(d);
            }
        }
    }
    return devs;
}

/**
 * Send one packet per random 5-tuple, each alone in its own 50 us window, and compare the
 * devices that transmitted it with the fluid path of the same 5-tuple. \return flows compared
 */
uint32_t
ComparePaths(const FabricTopology& t, uint32_t nFlows, uint32_t run)
{
    NodeContainer all;
    all.Add(t.hosts);
    all.Add(t.switches);
    Ptr<FluidFabric> fluid = CreateObject<FluidFabric>();
    fluid->Build(all);
    const std::vector<Ptr<FabricNetDevice>> devs = AllDevices(all);

    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(int64_t(run));
    const Time window = MicroSeconds(50);
    std::vector<std::set<FabricNetDevice*>> expected(nFlows);
    std::vector<std::set<FabricNetDevice*>> seen(nFlows);
    std::vector<uint64_t> before(devs.size());
    uint32_t multiPath = 0; // flows whose path has a choice (crosses an ECMP group)
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        const uint32_t src = u->GetInteger(0, t.hosts.GetN() - 1);
        uint32_t dst = u->GetInteger(0, t.hosts.GetN() - 2);
        dst += dst >= src ? 1 : 0;
        FlowKey key;
        key.src = t.HostAddress(src).Get();
        key.dst = t.HostAddress(dst).Get();
        key.sport = uint16_t(u->GetInteger(1024, 65535));
        key.dport = uint16_t(u->GetInteger(1, 65535));
        key.protocol = 17;
        for (uint32_t link : fluid->Route(key))
        {
            expected[i].insert(PeekPointer(fluid->GetDevice(link)));
        }
        multiPath += expected[i].size() > 2 ? 1 : 0;

        Ptr<ConstantRateFlow> app = CreateObject<ConstantRateFlow>();
        app->SetAttribute("Remote", Ipv4AddressValue(Ipv4Address(key.dst)));
        app->SetAttribute("SourcePort", UintegerValue(key.sport));
        app->SetAttribute("DestinationPort", UintegerValue(key.dport));
        app->SetAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
        app->SetAttribute("MaxBytes", UintegerValue(1028)); // one packet
        app->SetStartTime(window * i + MicroSeconds(1));
        app->SetStopTime(window * (i + 1) - MicroSeconds(1));
        t.hosts.Get(src)->AddApplication(app);
        // At the end of the window: the devices that sent since its start.
        Simulator::Schedule(window * i, [&before, &devs]() {
            for (std::size_t d = 0; d < devs.size(); ++d)
            {
                before[d] = devs[d]->GetTxPackets();
            }
        });
        Simulator::Schedule(window * (i + 1) - NanoSeconds(1), [&before, &devs, &seen, i]() {
            for (std::size_t d = 0; d < devs.size(); ++d)
            {
                if (devs[d]->GetTxPackets() != before[d])
                {
                    seen[i].insert(PeekPointer(devs[d]));
                }
            }
        });
    }
    Simulator::Stop(window * nFlows);
    Simulator::Run();
    uint32_t equal = 0;
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        INFO("flow " << i);
        CHECK(seen[i] == expected[i]);
        equal += seen[i] == expected[i] ? 1 : 0;
    }
    CHECK(multiPath > nFlows / 2); // the check is about ECMP choices, not fixed paths
    Simulator::Destroy();
    return equal;
}
} // namespace

TEST_CASE("flow: fluid paths equal packet paths in a fat-tree", "[flow]")
{
    RngSeedManager::SetRun(3);
    FabricTopologyHelper helper;
    FabricTopology t = helper.BuildFatTree(4);
    CHECK(ComparePaths(t, 200, 1) == 200);
}

TEST_CASE("flow: fluid paths equal packet paths in an oversubscribed leaf-spine", "[flow]")
{
    RngSeedManager::SetRun(5);
    FabricTopologyHelper helper;
    FabricTopology t = helper.BuildLeafSpine(4, 3, 6);
    CHECK(ComparePaths(t, 200, 2) == 200);
}

TEST_CASE("flow: fluid routing rejects addresses outside the fabric", "[flow]")
{
    FabricTopologyHelper helper;
    FabricTopology t = helper.BuildLeafSpine(2, 2, 2);
    NodeContainer all;
    all.Add(t.hosts);
    all.Add(t.switches);
    Ptr<FluidFabric> fluid = CreateObject<FluidFabric>();
    fluid->Build(all);
    FlowKey key;
    key.src = t.HostAddress(0).Get();
    key.dst = Ipv4Address("10.9.9.9").Get();
    CHECK_THROWS_WITH(fluid->Route(key), Catch::Contains("destination 10.9.9.9"));
    key.src = Ipv4Address("10.9.9.8").Get();
    CHECK_THROWS_WITH(fluid->Route(key), Catch::Contains("source 10.9.9.8"));
    // one link per device direction: 2 x (4 host links + 4 fabric links)
    CHECK(fluid->GetNetwork()->GetNLinks() == 16);
    Simulator::Destroy();
}
