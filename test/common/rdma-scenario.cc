/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-scenario.h"

using namespace ns3;

namespace mlnettest
{

RdmaDumbbell::RdmaDumbbell(uint32_t nLeft,
                           uint32_t nRight,
                           bool pfc,
                           uint64_t buffer,
                           const std::string& cc)
{
    FabricTopologyHelper th;
    th.Fabric().SetSwitchAttribute("PfcEnabled", BooleanValue(pfc));
    th.Fabric().SetSwitchAttribute("BufferSize", UintegerValue(buffer));
    topo = th.BuildDumbbell(nLeft, nRight);
    RdmaHelper rdma;
    rdma.SetCongestionControl(cc);
    nics = rdma.Install(topo.hosts);
}

Ptr<RdmaQueuePair>
RdmaDumbbell::Connect(uint32_t a, uint32_t b, const ObjectFactory* cc)
{
    return nics.at(a)->Connect(nics.at(b), 3, cc);
}

uint64_t
RdmaDumbbell::DroppedBytes() const
{
    uint64_t d = 0;
    for (uint32_t s = 0; s < topo.switches.GetN(); ++s)
    {
        Ptr<FabricSwitch> sw = topo.switches.Get(s)->GetObject<FabricSwitch>();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            d += sw->GetPortStats(p).dropBytes;
        }
    }
    return d;
}

uint64_t
RdmaDumbbell::Pauses() const
{
    uint64_t n = 0;
    for (uint32_t s = 0; s < topo.switches.GetN(); ++s)
    {
        Ptr<FabricSwitch> sw = topo.switches.Get(s)->GetObject<FabricSwitch>();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            n += sw->GetPortStats(p).pauseSent;
        }
    }
    return n;
}

std::vector<Ptr<MessageTransport>>
FluidHosts(const FabricTopology& t, uint32_t n)
{
    NodeContainer all;
    all.Add(t.hosts);
    all.Add(t.switches);
    Ptr<FluidFabric> fabric = CreateObject<FluidFabric>();
    fabric->Build(all);
    std::vector<Ptr<MessageTransport>> v;
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<FluidTransport> tr = CreateObject<FluidTransport>();
        tr->Bind(fabric, t.HostAddress(i));
        v.push_back(tr);
    }
    return v;
}

double
MaxGoodput(double rate, uint32_t mtu)
{
    // IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + Ethernet framing 38 per packet.
    return rate * mtu / double(mtu + 20 + 8 + 12 + 4 + 38);
}

} // namespace mlnettest
