/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mlnet-traffic.h"

#include "ns3/boolean.h"
#include "ns3/constant-rate-flow.h"
#include "ns3/double.h"
#include "ns3/fabric-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/rdma-helper.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace bench
{

namespace
{
/// Install an RDMA NIC (fp's Mtu and AckInterval) on a host that has none.
void
EnsureNic(Ptr<Node> host, const MlnetFlowParams& fp)
{
    if (RdmaHelper::GetNic(host))
    {
        return;
    }
    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(fp.payload));
    rdma.SetNicAttribute("AckInterval", UintegerValue(fp.ackInterval));
    rdma.Install(NodeContainer(host));
}
} // namespace

Ptr<Object>
InstallMlnetSource(Ptr<Node> src, Ptr<Node> dst, uint16_t sport, const MlnetFlowParams& fp)
{
    if (fp.transport == "rdma")
    {
        EnsureNic(src, fp);
        EnsureNic(dst, fp);
        Ptr<RdmaQueuePair> qp = RdmaHelper::GetNic(src)->Connect(RdmaHelper::GetNic(dst), 3);
        uint64_t bytes = fp.messageBytes > 0 ? fp.messageBytes : uint64_t(1) << 40;
        std::function<void()> done = fp.onDone;
        Simulator::Schedule(fp.start, [qp, bytes, done]() {
            if (!done)
            {
                qp->PostSend(bytes);
                return;
            }
            qp->PostSend(bytes,
                         RdmaQueuePair::CompletionCallback([done](uint64_t, uint64_t) { done(); }));
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

Ptr<BackgroundTraffic>
InstallMlnetBackground(const NodeContainer& hosts,
                       const std::string& cdf,
                       double load,
                       const MlnetFlowParams& fp,
                       int64_t stream)
{
    std::vector<Ptr<RdmaNic>> nics;
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        EnsureNic(hosts.Get(i), fp);
        nics.push_back(RdmaHelper::GetNic(hosts.Get(i)));
    }
    Ptr<BackgroundTraffic> bg = CreateObject<BackgroundTraffic>();
    bg->SetAttribute("Load", DoubleValue(load));
    bg->SetAttribute("LinkRate", DataRateValue(fp.rate));
    bg->SetHosts(nics, nics);
    bg->SetFlowSizeCdf(FlowSizeCdf::Get(cdf));
    bg->AssignStreams(stream);
    Simulator::Schedule(fp.start, &BackgroundTraffic::Start, bg);
    return bg;
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
