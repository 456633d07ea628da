/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-sink.h"

#include "ns3/fabric-net-device.h"
#include "ns3/flow-key.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowSink");
NS_OBJECT_ENSURE_REGISTERED(FlowSink);

TypeId
FlowSink::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FlowSink")
                            .SetParent<Application>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<FlowSink>()
                            .AddTraceSource("Rx",
                                            "A packet was received",
                                            MakeTraceSourceAccessor(&FlowSink::m_rxTrace),
                                            "ns3::Packet::TracedCallback");
    return tid;
}

FlowSink::FlowSink() = default;

void
FlowSink::StartApplication()
{
    GetNode()->RegisterProtocolHandler(MakeCallback(&FlowSink::Receive, this),
                                       FabricNetDevice::kEtherTypeIpv4,
                                       nullptr);
}

void
FlowSink::StopApplication()
{
    GetNode()->UnregisterProtocolHandler(MakeCallback(&FlowSink::Receive, this));
}

void
FlowSink::Receive(Ptr<NetDevice> dev,
                  Ptr<const Packet> p,
                  uint16_t protocol,
                  const Address& from,
                  const Address& to,
                  NetDevice::PacketType packetType)
{
    FlowKey key;
    if (!key.Parse(*p) || key.protocol != 17)
    {
        return;
    }
    // ConstantRateFlow's SeqTsHeader: 32-bit sequence number right after IPv4 + UDP.
    uint8_t buf[32];
    uint64_t seq = 0;
    if (p->CopyData(buf, sizeof(buf)) == sizeof(buf))
    {
        for (int i = 0; i < 4; ++i)
        {
            seq = (seq << 8) | buf[28 + i];
        }
    }
    FlowRecord& r = m_flows[FlowId(key.src, key.sport, key.dport)];
    Time now = Simulator::Now();
    if (r.packets == 0)
    {
        r.first = now;
    }
    else if (seq < r.maxSeq)
    {
        r.reordered++;
    }
    r.maxSeq = std::max(r.maxSeq, seq);
    r.last = now;
    r.packets++;
    r.bytes += p->GetSize();
    r.ceMarked += (key.ecn == 3) ? 1 : 0;
    m_total += p->GetSize();
    m_rxTrace(p);
}

const std::map<FlowSink::FlowId, FlowSink::FlowRecord>&
FlowSink::GetFlows() const
{
    return m_flows;
}

uint64_t
FlowSink::GetTotalBytes() const
{
    return m_total;
}

uint64_t
FlowSink::GetTotalReordered() const
{
    uint64_t n = 0;
    for (const auto& kv : m_flows)
    {
        n += kv.second.reordered;
    }
    return n;
}

} // namespace ns3
