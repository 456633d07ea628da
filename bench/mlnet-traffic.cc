/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mlnet-traffic.h"

#include "ns3/boolean.h"
#include "ns3/constant-rate-flow.h"
#include "ns3/fabric-switch.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace bench
{

Ptr<Application>
InstallMlnetSource(Ptr<Node> src, Ipv4Address dst, uint16_t sport, const MlnetFlowParams& fp)
{
    Ptr<ConstantRateFlow> f = CreateObject<ConstantRateFlow>();
    f->SetAttribute("Remote", Ipv4AddressValue(dst));
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
