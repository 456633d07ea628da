/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mlnet-traffic.h"

#include "ns3/boolean.h"
#include "ns3/constant-rate-flow.h"
#include "ns3/fabric-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/rdma-helper.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace bench
{

Ptr<Object>
InstallMlnetSource(Ptr<Node> src, Ptr<Node> dst, uint16_t sport, const MlnetFlowParams& fp)
{
    if (fp.transport == "rdma")
    {
        RdmaHelper rdma;
        rdma.SetNicAttribute("Mtu", UintegerValue(fp.payload));
        for (Ptr<Node> n : {src, dst})
        {
            if (!RdmaHelper::GetNic(n))
            {
                rdma.Install(NodeContainer(n));
            }
        }
        Ptr<RdmaQueuePair> qp = RdmaHelper::GetNic(src)->Connect(RdmaHelper::GetNic(dst), 3);
        Simulator::Schedule(fp.start,
                            [qp]()
                            {
                                qp->PostSend(uint64_t(1) << 40);
                            });
        return qp;
    }
    Ptr<ConstantRateFlow> f = CreateObject<ConstantRateFlow>();
    f->SetAttribute("Remote", Ipv4AddressValue(FabricHelper::GetHostDevice(dst)->GetIpv4Address()));
    f->SetAttribute("SourcePort", UintegerValue(sport));
    f->SetAttribute("DestinationPort", UintegerValue(9));
    f->SetAttribute("DataRate", DataRateValue(fp.rate));
    f->SetAttribute("PayloadSize", UintegerValue(fp.payload));
    f->SetAttribute("PriorityClass", UintegerValue(fp.cls));
    f->SetAttribute("Ect", BooleanValue(true));
    src->AddApplication(f);
    f->SetStartTime(fp.start);
    if (fp.stop.IsStrictlyPositive())
    {
        f->SetStopTime(fp.stop);
    }
    return f;
}

uint64_t
ReceivedBytes(Ptr<Node> host)
{
    uint64_t b = 0;
    if (Ptr<RdmaNic> nic = RdmaHelper::GetNic(host))
    {
        b += nic->GetBytesReceived();
    }
    for (uint32_t i = 0; i < host->GetNApplications(); ++i)
    {
        if (Ptr<FlowSink> s = DynamicCast<FlowSink>(host->GetApplication(i)))
        {
            b += s->GetTotalBytes();
        }
    }
    return b;
}

Ptr<FlowSink>
InstallMlnetSink(Ptr<Node> host)
{
    Ptr<FlowSink> sink = CreateObject<FlowSink>();
    host->AddApplication(sink);
    return sink;
}

MlnetSwitchTotals
SumSwitchStats(const FabricTopology& t)
{
    MlnetSwitchTotals s;
    for (uint32_t i = 0; i < t.switches.GetN(); ++i)
    {
        Ptr<FabricSwitch> sw = t.switches.Get(i)->GetObject<FabricSwitch>();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            const SwitchPortStats& ps = sw->GetPortStats(p);
            s.drops += ps.drops;
            s.ecnMarks += ps.ecnMarks;
            s.pauses += ps.pauseSent;
        }
    }
    return s;
}

} // namespace bench
} // namespace ns3
