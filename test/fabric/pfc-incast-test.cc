/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Small simulations of an 8-to-1 incast: lossless with PFC, lossy without.

#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{
struct IncastResult
{
    uint64_t sent{0};
    uint64_t received{0};
    uint64_t dropped{0};
    uint64_t pauses{0};
    uint64_t reordered{0};
};

IncastResult
RunIncast(bool pfc, uint64_t buffer, uint64_t bytesPerSender)
{
    FabricTopologyHelper topo;
    topo.Fabric().SetSwitchAttribute("PfcEnabled", BooleanValue(pfc));
    topo.Fabric().SetSwitchAttribute("BufferSize", UintegerValue(buffer));
    topo.Fabric().SetSwitchAttribute("PfcClassMask",
                                     UintegerValue(1u << DataClass::DEFAULT)); // the flows' class
    FabricTopology t = topo.BuildDumbbell(8, 1);
    Ptr<FlowSink> sink = CreateObject<FlowSink>();
    t.hosts.Get(8)->AddApplication(sink);
    std::vector<Ptr<ConstantRateFlow>> flows;
    for (uint32_t i = 0; i < 8; ++i)
    {
        Ptr<ConstantRateFlow> f = CreateObject<ConstantRateFlow>();
        f->SetAttribute("Remote", Ipv4AddressValue(t.HostAddress(8)));
        f->SetAttribute("SourcePort", UintegerValue(1000 + i));
        f->SetAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
        f->SetAttribute("MaxBytes", UintegerValue(bytesPerSender));
        f->SetAttribute("Ect", BooleanValue(false));
        t.hosts.Get(i)->AddApplication(f);
        flows.push_back(f);
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    IncastResult r;
    for (auto& f : flows)
    {
        r.sent += f->GetBytesSent();
    }
    r.received = sink->GetTotalBytes();
    r.reordered = sink->GetTotalReordered();
    for (uint32_t s = 0; s < t.switches.GetN(); ++s)
    {
        Ptr<FabricSwitch> sw = t.switches.Get(s)->GetObject<FabricSwitch>();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            r.dropped += sw->GetPortStats(p).dropBytes;
            r.pauses += sw->GetPortStats(p).pauseSent;
        }
    }
    Simulator::Destroy();
    return r;
}
} // namespace

TEST_CASE("fabric: 8-to-1 incast at 100 Gbps with PFC loses nothing and pauses", "[fabric]")
{
    IncastResult r = RunIncast(true, 4u * 1024 * 1024, 2000000);
    REQUIRE(r.sent >= 8 * 1990000);
    REQUIRE(r.dropped == 0);
    REQUIRE(r.received == r.sent);
    REQUIRE(r.pauses > 0);
    REQUIRE(r.reordered == 0);
}

TEST_CASE("fabric: incast without PFC and a small buffer drops, and bytes are conserved",
          "[fabric]")
{
    IncastResult r = RunIncast(false, 1u * 1024 * 1024, 2000000);
    REQUIRE(r.dropped > 0);
    REQUIRE(r.pauses == 0);
    REQUIRE(r.sent == r.received + r.dropped);
}
