/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fluid-transport.h"

#include "ns3/log.h"
#include "ns3/rdma-nic.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluidTransport");
NS_OBJECT_ENSURE_REGISTERED(FluidTransport);

namespace
{
constexpr uint16_t kRoceV2Port = 4791; //!< RoCEv2's UDP destination port
constexpr uint8_t kUdp = 17;
} // namespace

TypeId
FluidTransport::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::FluidTransport")
              .SetParent<MessageTransport>()
              .SetGroupName("Mlnet")
              .AddConstructor<FluidTransport>()
              .AddAttribute("Mtu", "Payload bytes per packet, as the RDMA NIC's Mtu (bytes)",
                            UintegerValue(1000), MakeUintegerAccessor(&FluidTransport::m_mtu),
                            MakeUintegerChecker<uint32_t>(64, 9000))
              .AddAttribute("HeaderBytes",
                            "Header bytes per packet: IPv4 20 + UDP 8 + BTH 12 + ICRC 4 (bytes)",
                            UintegerValue(44), MakeUintegerAccessor(&FluidTransport::m_headerBytes),
                            MakeUintegerChecker<uint32_t>(0, 1024))
              .AddAttribute("FrameOverhead",
                            "Wire bytes per frame beyond the IPv4 datagram, as the fabric's "
                            "FrameOverhead: Ethernet header 14 + FCS 4 + preamble 8 + gap 12",
                            UintegerValue(38),
                            MakeUintegerAccessor(&FluidTransport::m_frameOverhead),
                            MakeUintegerChecker<uint32_t>(0, 1024))
              .AddAttribute("AckFrameBytes",
                            "Wire bytes of an acknowledgement frame (a minimum Ethernet frame "
                            "with preamble and gap), serialized per hop on the way back",
                            UintegerValue(84),
                            MakeUintegerAccessor(&FluidTransport::m_ackFrameBytes),
                            MakeUintegerChecker<uint32_t>(1, 9000))
              .AddAttribute("AckInterval",
                            "Data packets per acknowledgement, as the RDMA NIC's AckInterval: "
                            "the acknowledgements load the reverse path with AckFrameBytes per "
                            "AckInterval full frames",
                            UintegerValue(1), MakeUintegerAccessor(&FluidTransport::m_ackInterval),
                            MakeUintegerChecker<uint32_t>(1, 65536))
              .AddTraceSource("MessageRx",
                              "A message was received completely: (source, source QP, bytes)",
                              MakeTraceSourceAccessor(&FluidTransport::m_msgRxTrace),
                              "ns3::FluidTransport::MessageRxTracedCallback");
    return tid;
}

FluidTransport::FluidTransport() = default;
FluidTransport::~FluidTransport() = default;

void
FluidTransport::DoDispose()
{
    for (auto& c : m_conns)
    {
        c->Dispose();
    }
    m_conns.clear();
    m_fabric = nullptr;
    m_rxCb = ReceiveCallback();
    MessageTransport::DoDispose();
}

void
FluidTransport::Bind(Ptr<FluidFabric> fabric, Ipv4Address address)
{
    if (!fabric || !fabric->GetHostDevice(address.Get()))
    {
        std::ostringstream os;
        address.Print(os);
        throw std::invalid_argument("FluidTransport::Bind: " + os.str()
                                    + " is not a host of the fluid fabric");
    }
    m_fabric = fabric;
    m_address = address.Get();
}

Ptr<FluidFabric>
FluidTransport::GetFabric() const
{
    return m_fabric;
}

Ipv4Address
FluidTransport::GetAddress() const
{
    return Ipv4Address(m_address);
}

void
FluidTransport::SetReceiveCallback(ReceiveCallback cb)
{
    m_rxCb = cb;
}

DataRate
FluidTransport::GetLineRate() const
{
    Ptr<FabricNetDevice> dev = m_fabric ? m_fabric->GetHostDevice(m_address) : nullptr;
    return dev ? dev->GetDataRate() : DataRate(0);
}

double
FluidTransport::GetWirePerPayload() const
{
    return double(m_mtu + m_headerBytes + m_frameOverhead) / m_mtu;
}

uint64_t
FluidTransport::WireBytes(uint64_t payload) const
{
    const uint64_t packets = (payload + m_mtu - 1) / m_mtu;
    return payload + packets * (uint64_t(m_headerBytes) + m_frameOverhead);
}

uint32_t
FluidTransport::GetNConnections() const
{
    return uint32_t(m_conns.size());
}

Ptr<FluidConnection>
FluidTransport::GetConnection(uint32_t qpn) const
{
    return qpn < m_conns.size() ? m_conns[qpn] : nullptr;
}

uint64_t
FluidTransport::GetBytesReceived() const
{
    return m_bytesRx;
}

Ptr<MessageConnection>
FluidTransport::Open(Ptr<MessageTransport> remote, uint8_t cls)
{
    if (cls > 7)
    {
        throw std::invalid_argument("FluidTransport::Open: priority class " + std::to_string(cls)
                                    + " out of range [0, 7]");
    }
    Ptr<FluidTransport> peer = DynamicCast<FluidTransport>(remote);
    if (!peer)
    {
        throw std::invalid_argument("FluidTransport::Open: the remote transport is not a "
                                    "FluidTransport (both ends of a connection must be of one "
                                    "backend)");
    }
    if (!m_fabric || peer->m_fabric != m_fabric)
    {
        throw std::invalid_argument("FluidTransport::Open: both transports must be bound to "
                                    "one fluid fabric");
    }
    Ptr<FluidConnection> c = CreateObject<FluidConnection>();
    c->m_local = this;
    c->m_remote = PeekPointer(peer);
    c->m_qpn = uint32_t(m_conns.size());
    c->m_class = cls;
    // The 5-tuple of the RDMA NIC's queue pair opened at the same point: the same ECMP path.
    c->m_srcPort = RdmaNic::QueuePairSourcePort(m_address, c->m_qpn, peer->m_responders++);
    FlowKey key;
    key.src = m_address;
    key.dst = peer->m_address;
    key.sport = c->m_srcPort;
    key.dport = kRoceV2Port;
    key.protocol = kUdp;
    key.dscp = cls;
    c->m_path = m_fabric->Route(key);
    // The acknowledgement's way back: each link's reverse direction, its delay and the
    // serialization of one acknowledgement frame.
    Ptr<FluidNetwork> net = m_fabric->GetNetwork();
    double ack = 0;
    for (uint32_t l : c->m_path)
    {
        const int64_t back = m_fabric->GetLink(m_fabric->GetDevice(l)->GetPeer());
        const uint32_t r = back >= 0 ? uint32_t(back) : l;
        ack += net->GetLinkDelay(r).GetSeconds()
               + double(m_ackFrameBytes) / net->GetLinkCapacity(r);
        if (back >= 0)
        {
            c->m_reversePath.push_back(r);
        }
    }
    c->m_reverseShare = std::min(1.0, double(m_ackFrameBytes)
                                          / (double(m_ackInterval) * double(WireBytes(m_mtu))));
    c->m_ackLatency = NanoSeconds(int64_t(std::llround(ack * 1e9)));
    m_conns.push_back(c);
    return c;
}

void
FluidTransport::Receive(Ipv4Address src, uint32_t qpn, uint64_t bytes)
{
    m_bytesRx += bytes;
    m_msgRxTrace(src, qpn, bytes);
    if (!m_rxCb.IsNull())
    {
        m_rxCb(src, qpn, bytes);
    }
}

} // namespace ns3
