/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fluid-connection.h"

#include "fluid-dcqcn.h"
#include "fluid-host.h"
#include "fluid-transport.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluidConnection");
NS_OBJECT_ENSURE_REGISTERED(FluidConnection);

TypeId
FluidConnection::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FluidConnection")
            .SetParent<MessageConnection>()
            .SetGroupName("Mlnet")
            .AddAttribute(
                "Aggregate",
                "true: the messages drain in the fabric's aggregate background model "
                "(FluidAggregate: the main network sees their load per link and "
                "interval, not per message); false: each message is a flow of the "
                "fabric's network. Settable while the connection is idle",
                BooleanValue(false),
                MakeBooleanAccessor(&FluidConnection::SetAggregate, &FluidConnection::GetAggregate),
                MakeBooleanChecker())
            .AddTraceSource("MessageComplete",
                            "A posted message was acknowledged: (id, bytes, posted, done)",
                            MakeTraceSourceAccessor(&FluidConnection::m_msgTrace),
                            "ns3::FluidConnection::MessageTracedCallback");
    return tid;
}

FluidConnection::FluidConnection() = default;
FluidConnection::~FluidConnection() = default;

void
FluidConnection::DoDispose()
{
    m_waiting.clear();
    m_ring.reset();
    if (m_local && m_local->GetFabric())
    {
        if (Ptr<FluidDcqcn> cc = FluidDcqcn::Of(m_local->GetFabric()->GetNetwork()))
        {
            cc->Forget(this); // its reaction point
        }
    }
    m_local = nullptr;
    m_remote = nullptr;
    MessageConnection::DoDispose();
}

uint64_t
FluidConnection::PostSend(uint64_t bytes, CompletionCallback cb)
{
    if (bytes == 0)
    {
        throw std::invalid_argument("FluidConnection::PostSend: bytes = 0 is out of range (>= 1)");
    }
    const uint64_t id = m_nextId++;
    m_posted += bytes;
    m_waiting.push_back(Message{id, bytes, Simulator::Now(), cb});
    if (!m_sending)
    {
        NotifyHost(true);
        StartNext();
    }
    return id;
}

void
FluidConnection::StartNext()
{
    Message m = m_waiting.front();
    m_waiting.pop_front();
    FluidNetwork::FlowSpec s;
    s.path = m_path;
    s.reversePath = m_reversePath;
    s.reverseShare = m_reverseShare;
    s.bytes = m_local->WireBytes(m.bytes);
    s.cls = m_class;
    s.rateCap = double(m_maxRate) / 8.0;
    s.extraLatency = m_ackLatency;
    s.drained = FluidNetwork::FlowCallback([this](uint64_t) { OnDrained(); });
    FluidTransport* remote = m_remote;
    const Ipv4Address src(m_local->m_address);
    const uint32_t qpn = m_qpn;
    const uint64_t bytes = m.bytes;
    s.delivered = FluidNetwork::FlowCallback([this, remote, src, qpn, bytes](uint64_t) {
        m_delivered += bytes;
        m_lastDelivery = Simulator::Now();
        remote->Receive(src, qpn, bytes);
    });
    s.completed = FluidNetwork::FlowCallback(
        [this, m](uint64_t) { OnCompleted(m.id, m.bytes, m.posted, m.cb); });
    m_sending = true;
    m_sendingBytes = m.bytes;
    m_sendingWire = s.bytes;
    if (m_aggregate)
    {
        m_flow = m_local->GetFabric()->GetAggregate()->StartFlow(std::move(s));
        return;
    }
    Ptr<FluidNetwork> net = m_local->GetFabric()->GetNetwork();
    if (Ptr<FluidDcqcn> cc = FluidDcqcn::Of(net)) // DCQCN at flow level (opt-in)
    {
        if (m_ccFactory)
        {
            cc->SetOwnerCongestionControl(this, *m_ccFactory);
            m_ccFactory.reset();
        }
        m_flow = cc->StartFlow(this,
                               std::move(s),
                               double(m_local->GetLineRate().GetBitRate()),
                               1.0 / m_local->GetWirePerPayload());
        return;
    }
    m_flow = net->StartFlow(std::move(s));
}

Ptr<FluidNetwork>
FluidConnection::MessageNetwork() const
{
    return m_aggregate ? m_local->GetFabric()->GetAggregate()->GetNetwork()
                       : m_local->GetFabric()->GetNetwork();
}

void
FluidConnection::SetAggregate(bool aggregate)
{
    if (aggregate == m_aggregate)
    {
        return;
    }
    if (m_sending || m_ring || !m_waiting.empty())
    {
        throw std::invalid_argument("FluidConnection::SetAggregate: the connection must be idle "
                                    "(no message draining, no ring)");
    }
    m_aggregate = aggregate;
}

bool
FluidConnection::GetAggregate() const
{
    return m_aggregate;
}

void
FluidConnection::OnDrained()
{
    m_sending = false;
    m_sent += m_sendingBytes;
    if (!m_waiting.empty())
    {
        StartNext();
    }
    else
    {
        NotifyHost(false);
    }
}

void
FluidConnection::NotifyHost(bool started)
{
    if (FluidHost* host = m_remote ? PeekPointer(m_remote->m_host) : nullptr)
    {
        if (started)
        {
            host->ConnectionStarted();
        }
        else
        {
            host->ConnectionStopped();
        }
    }
}

void
FluidConnection::OnCompleted(uint64_t id, uint64_t bytes, Time posted, CompletionCallback cb)
{
    m_acked += bytes;
    m_msgTrace(id, bytes, posted, Simulator::Now());
    if (!cb.IsNull())
    {
        cb(id, bytes);
    }
}

void
FluidConnection::StartIteration(uint64_t bytes)
{
    if (Ptr<FluidDcqcn> cc = m_local && !m_aggregate ? FluidDcqcn::Of(MessageNetwork()) : nullptr)
    {
        cc->StartIteration(this, bytes);
    }
}

void
FluidConnection::SetCongestionControl(const ObjectFactory& factory)
{
    m_ccFactory = factory;
}

uint32_t
FluidConnection::GetQpn() const
{
    return m_qpn;
}

Ipv4Address
FluidConnection::GetPeer() const
{
    return m_remote ? m_remote->GetAddress() : Ipv4Address();
}

uint8_t
FluidConnection::GetPriorityClass() const
{
    return m_class;
}

void
FluidConnection::SetPriorityClass(uint8_t cls)
{
    if (cls > 7)
    {
        throw std::invalid_argument("FluidConnection::SetPriorityClass: class " +
                                    std::to_string(cls) + " out of range [0, 7]");
    }
    m_class = cls;
    if (m_ring)
    {
        // a common group moves to the class as a whole (its members are one flow)
        Ptr<FluidNetwork> net = m_local->GetFabric()->GetNetwork();
        const uint64_t flow = m_ring->common ? m_ring->flow : m_flow;
        if (net->IsTransmitting(flow))
        {
            net->SetClass(flow, cls);
        }
    }
    else if (m_sending)
    {
        MessageNetwork()->SetClass(m_flow, cls);
        if (Ptr<FluidDcqcn> cc = m_aggregate ? nullptr : FluidDcqcn::Of(MessageNetwork()))
        {
            cc->SetClass(this, cls); // its virtual queues are the class's
        }
    }
}

void
FluidConnection::SetMaxRate(DataRate cap)
{
    m_maxRate = cap.GetBitRate();
    if (m_ring)
    {
        UpdateRingCap();
    }
    else if (m_sending)
    {
        Ptr<FluidDcqcn> cc = m_aggregate ? nullptr : FluidDcqcn::Of(MessageNetwork());
        if (cc && cc->GetOps(this))
        {
            cc->SetRateCap(this, double(m_maxRate) / 8.0); // with its DCQCN rate
        }
        else
        {
            MessageNetwork()->SetRateCap(m_flow, double(m_maxRate) / 8.0);
        }
    }
}

void
FluidConnection::UpdateRingCap()
{
    Ptr<FluidNetwork> net = m_local->GetFabric()->GetNetwork();
    if (!m_ring->common)
    {
        if (net->IsTransmitting(m_flow))
        {
            net->SetRateCap(m_flow, double(m_maxRate) / 8.0); // its own flow of the phase
        }
        return;
    }
    uint64_t cap = 0;
    for (const FluidConnection* c : m_ring->members)
    {
        if (c->m_maxRate > 0 && (cap == 0 || c->m_maxRate < cap))
        {
            cap = c->m_maxRate;
        }
    }
    if (net->IsTransmitting(m_ring->flow))
    {
        net->SetRateCap(m_ring->flow, double(cap) / 8.0);
    }
}

DataRate
FluidConnection::GetMaxRate() const
{
    return DataRate(m_maxRate);
}

uint64_t
FluidConnection::GetBytesPosted() const
{
    return m_posted;
}

uint64_t
FluidConnection::GetBytesSent() const
{
    if (!m_sending || m_ring)
    {
        return m_sent; // a ring's bytes count once it has drained
    }
    const double left = MessageNetwork()->GetRemaining(m_flow);
    const double share = 1.0 - std::min(1.0, left / double(m_sendingWire));
    return m_sent + uint64_t(std::floor(share * double(m_sendingBytes)));
}

uint64_t
FluidConnection::GetBytesAcked() const
{
    return m_acked;
}

bool
FluidConnection::IsBusy() const
{
    return m_acked < m_posted;
}

const std::vector<uint32_t>&
FluidConnection::GetPath() const
{
    return m_path;
}

uint16_t
FluidConnection::GetUdpSourcePort() const
{
    return m_srcPort;
}

Time
FluidConnection::GetAckLatency() const
{
    return m_ackLatency;
}

uint64_t
FluidConnection::GetBytesDelivered() const
{
    return m_delivered;
}

Time
FluidConnection::GetLastDelivery() const
{
    return m_lastDelivery;
}

} // namespace ns3
