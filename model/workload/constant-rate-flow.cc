/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "constant-rate-flow.h"

#include "ns3/boolean.h"
#include "ns3/fabric-net-device.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/seq-ts-header.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ConstantRateFlow");
NS_OBJECT_ENSURE_REGISTERED(ConstantRateFlow);

TypeId
ConstantRateFlow::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ConstantRateFlow")
            .SetParent<Application>()
            .SetGroupName("Mlnet")
            .AddConstructor<ConstantRateFlow>()
            .AddAttribute("Remote",
                          "Destination host address",
                          Ipv4AddressValue(),
                          MakeIpv4AddressAccessor(&ConstantRateFlow::m_remote),
                          MakeIpv4AddressChecker())
            .AddAttribute("SourcePort",
                          "UDP source port (part of the 5-tuple ECMP hashes)",
                          UintegerValue(10000),
                          MakeUintegerAccessor(&ConstantRateFlow::m_srcPort),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("DestinationPort",
                          "UDP destination port",
                          UintegerValue(9),
                          MakeUintegerAccessor(&ConstantRateFlow::m_dstPort),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("DataRate",
                          "Sending rate (bit/s, IPv4 bytes)",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&ConstantRateFlow::m_rate),
                          MakeDataRateChecker())
            .AddAttribute("PayloadSize",
                          "UDP payload bytes per packet",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&ConstantRateFlow::m_payload),
                          MakeUintegerChecker<uint32_t>(12, 9000))
            .AddAttribute("MaxBytes",
                          "Stop after this many IPv4 bytes (0 = until StopTime)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ConstantRateFlow::m_maxBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("PriorityClass",
                          DataClass::Help("the flow (sent as DSCP)"),
                          UintegerValue(DataClass::DEFAULT),
                          MakeUintegerAccessor(&ConstantRateFlow::m_class),
                          DataClass::Checker())
            .AddAttribute("Ect",
                          "Mark packets ECN-capable (ECT(0))",
                          BooleanValue(true),
                          MakeBooleanAccessor(&ConstantRateFlow::m_ect),
                          MakeBooleanChecker())
            .AddAttribute("BacklogLimit",
                          "Hold back while this many bytes wait in the port's class queue "
                          "(0 = two packets)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ConstantRateFlow::m_backlogLimit),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Tx",
                            "A packet was sent",
                            MakeTraceSourceAccessor(&ConstantRateFlow::m_txTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

ConstantRateFlow::ConstantRateFlow() = default;

void
ConstantRateFlow::SetDevice(Ptr<FabricNetDevice> dev)
{
    m_dev = dev;
}

uint64_t
ConstantRateFlow::GetBytesSent() const
{
    return m_bytesSent;
}

uint64_t
ConstantRateFlow::GetPacketsSent() const
{
    return m_seq;
}

void
ConstantRateFlow::DoDispose()
{
    m_dev = nullptr;
    Application::DoDispose();
}

void
ConstantRateFlow::StartApplication()
{
    if (!m_dev)
    {
        for (uint32_t i = 0; i < GetNode()->GetNDevices(); ++i)
        {
            m_dev = DynamicCast<FabricNetDevice>(GetNode()->GetDevice(i));
            if (m_dev)
            {
                break;
            }
        }
    }
    if (!m_dev)
    {
        throw std::invalid_argument("ConstantRateFlow: node " + std::to_string(GetNode()->GetId()) +
                                    " has no FabricNetDevice");
    }
    if (m_rate.GetBitRate() == 0)
    {
        throw std::invalid_argument("ConstantRateFlow: DataRate must be > 0 bit/s");
    }
    m_clock.Reset();
    SendNext();
}

void
ConstantRateFlow::StopApplication()
{
    m_event.Cancel();
}

void
ConstantRateFlow::SendNext()
{
    const uint32_t ipBytes = m_payload + 8 + 20;
    if (m_maxBytes > 0 && m_bytesSent + ipBytes > m_maxBytes)
    {
        return;
    }
    uint32_t limit = m_backlogLimit > 0 ? m_backlogLimit : 2 * ipBytes;
    if (m_dev->GetQueueBytes(m_class) >= limit)
    {
        // Transmit ring full (port paused or slower than our rate): try again one packet later.
        m_event = Simulator::Schedule(m_dev->TxTime(ipBytes), &ConstantRateFlow::SendNext, this);
        return;
    }
    // Sequence number and send time in the first payload bytes (SeqTsHeader, 12 bytes); the
    // rest of the payload is virtual (zero-filled, never materialised).
    SeqTsHeader seq;
    seq.SetSeq(uint32_t(m_seq));
    Ptr<Packet> p = Create<Packet>(m_payload - seq.GetSerializedSize());
    p->AddHeader(seq);
    UdpHeader udp;
    udp.SetSourcePort(m_srcPort);
    udp.SetDestinationPort(m_dstPort);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(m_dev->GetIpv4Address());
    ip.SetDestination(m_remote);
    ip.SetProtocol(17);
    ip.SetPayloadSize(p->GetSize());
    ip.SetTtl(64);
    ip.SetDscp(Ipv4Header::DscpType(m_class));
    ip.SetEcn(m_ect ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT);
    p->AddHeader(ip);
    m_txTrace(p);
    m_dev->Send(p, m_dev->GetBroadcast(), FabricNetDevice::kEtherTypeIpv4);
    m_seq++;
    m_bytesSent += ipBytes;
    // Exact rate: the sub-step remainder of each interval is carried into the next.
    m_event = Simulator::Schedule(m_clock.Next(8 * uint64_t(ipBytes), m_rate.GetBitRate()),
                                  &ConstantRateFlow::SendNext,
                                  this);
}

} // namespace ns3
