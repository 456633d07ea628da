/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// FabricNetDevice's ns3::NetDevice interface: interface index, addresses, MTU, link state,
// node and callbacks, and Send() for packets from ns-3's IP stack (mlnet's own models enqueue
// frames directly, fabric-net-device.cc).
#include "fabric-channel.h"
#include "fabric-net-device.h"
#include "fabric-wire.h"

#include "ns3/node.h"

namespace ns3
{

void
FabricNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
FabricNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
FabricNetDevice::GetChannel() const
{
    return m_channel;
}

void
FabricNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
FabricNetDevice::GetAddress() const
{
    return m_address;
}

bool
FabricNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
FabricNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
FabricNetDevice::IsLinkUp() const
{
    return m_channel != nullptr;
}

void
FabricNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
}

bool
FabricNetDevice::IsBroadcast() const
{
    return true;
}

Address
FabricNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
FabricNetDevice::IsMulticast() const
{
    return true;
}

Address
FabricNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
FabricNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
FabricNetDevice::IsBridge() const
{
    return false;
}

bool
FabricNetDevice::IsPointToPoint() const
{
    return true;
}

bool
FabricNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    if (protocolNumber != kEtherTypeIpv4)
    {
        m_macTxDropTrace(packet);
        return false;
    }
    uint8_t cls = ClassOfIpv4(*packet);
    if (m_hostQueueLimit > 0 && m_egress.GetBytes(cls) + packet->GetSize() > m_hostQueueLimit)
    {
        m_macTxDropTrace(packet);
        return false;
    }
    Enqueue(packet, cls, 0);
    return true;
}

bool
FabricNetDevice::SendFrom(Ptr<Packet> packet,
                          const Address& source,
                          const Address& dest,
                          uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

Ptr<Node>
FabricNetDevice::GetNode() const
{
    return m_node;
}

void
FabricNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
    m_txContext = node ? node->GetId() : 0;
    m_wire->m_context = m_txContext;
}

bool
FabricNetDevice::NeedsArp() const
{
    return false;
}

void
FabricNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
    SetWatched(W_RX_CB, !cb.IsNull());
}

void
FabricNetDevice::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
    SetWatched(W_PROMISC_CB, !cb.IsNull());
}

bool
FabricNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
