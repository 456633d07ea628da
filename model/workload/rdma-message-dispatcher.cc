/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-message-dispatcher.h"

#include "ns3/log.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaMessageDispatcher");
NS_OBJECT_ENSURE_REGISTERED(RdmaMessageDispatcher);

TypeId
RdmaMessageDispatcher::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaMessageDispatcher")
                            .SetParent<Object>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<RdmaMessageDispatcher>();
    return tid;
}

RdmaMessageDispatcher::RdmaMessageDispatcher() = default;
RdmaMessageDispatcher::~RdmaMessageDispatcher() = default;

Ptr<RdmaMessageDispatcher>
RdmaMessageDispatcher::Get(Ptr<MessageTransport> nic)
{
    if (!nic)
    {
        throw std::invalid_argument("RdmaMessageDispatcher::Get: nic must not be null");
    }
    Ptr<RdmaMessageDispatcher> d = nic->GetObject<RdmaMessageDispatcher>();
    if (!d)
    {
        d = CreateObject<RdmaMessageDispatcher>();
        nic->AggregateObject(d);
        nic->SetReceiveCallback(MakeCallback(&RdmaMessageDispatcher::Receive, PeekPointer(d)));
    }
    return d;
}

void
RdmaMessageDispatcher::Register(Ipv4Address src, uint32_t srcQpn, ReceiveCallback cb)
{
    NS_LOG_FUNCTION(this << src << srcQpn);
    auto key = std::make_pair(src.Get(), srcQpn);
    if (m_handlers.count(key))
    {
        throw std::invalid_argument("RdmaMessageDispatcher::Register: source QPN " +
                                    std::to_string(srcQpn) + " already registered");
    }
    m_handlers[key] = cb;
}

void
RdmaMessageDispatcher::Register(Ptr<MessageConnection> qp,
                                Ipv4Address srcAddress,
                                ReceiveCallback cb)
{
    NS_LOG_FUNCTION(this << qp << srcAddress);
    Register(srcAddress, qp->GetQpn(), cb);
}

void
RdmaMessageDispatcher::Unregister(Ipv4Address src, uint32_t srcQpn)
{
    NS_LOG_FUNCTION(this << src << srcQpn);
    m_handlers.erase(std::make_pair(src.Get(), srcQpn));
}

void
RdmaMessageDispatcher::SetDefaultCallback(ReceiveCallback cb)
{
    NS_LOG_FUNCTION(this);
    m_default = cb;
}

uint64_t
RdmaMessageDispatcher::GetUnmatchedMessages() const
{
    return m_unmatched;
}

void
RdmaMessageDispatcher::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_handlers.clear();
    m_default = ReceiveCallback();
    Object::DoDispose();
}

void
RdmaMessageDispatcher::Receive(Ipv4Address src, uint32_t srcQpn, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << src << srcQpn << bytes);
    auto it = m_handlers.find(std::make_pair(src.Get(), srcQpn));
    if (it != m_handlers.end())
    {
        it->second(src, srcQpn, bytes);
        return;
    }
    NS_LOG_DEBUG("unmatched message from " << src << " qpn " << srcQpn << " " << bytes << " B");
    ++m_unmatched;
    if (!m_default.IsNull())
    {
        m_default(src, srcQpn, bytes);
    }
}

} // namespace ns3
