/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-queue-pair.h"

#include "rdma-nic.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQueuePair");
NS_OBJECT_ENSURE_REGISTERED(RdmaQueuePair);

TypeId
RdmaQueuePair::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaQueuePair")
            .SetParent<MessageConnection>()
            .SetGroupName("Mlnet")
            .AddAttribute(
                "MaxRate",
                "Cap on the pacing rate, whatever congestion control allows (wire "
                "bit/s, headers included; 0 = no cap)",
                DataRateValue(DataRate(0)),
                MakeDataRateAccessor(&RdmaQueuePair::SetMaxRate, &RdmaQueuePair::GetMaxRate),
                MakeDataRateChecker())
            .AddTraceSource("Rate",
                            "Current sending rate Rc changed (bit/s)",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_rateTrace),
                            "ns3::RdmaQueuePair::RateTracedCallback")
            .AddTraceSource("TargetRate",
                            "Target rate Rt changed (bit/s)",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_targetTrace),
                            "ns3::RdmaQueuePair::RateTracedCallback")
            .AddTraceSource("MessageComplete",
                            "A posted message was fully acknowledged: (id, bytes, posted, done)",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_msgTrace),
                            "ns3::RdmaQueuePair::MessageTracedCallback");
    return tid;
}

RdmaQueuePair::RdmaQueuePair()
{
    m_rto.Bind<RdmaQueuePair, &RdmaQueuePair::OnRtoTimer>(this);
}

RdmaQueuePair::~RdmaQueuePair() = default;

void
RdmaQueuePair::OnRtoTimer()
{
    if (m_nic)
    {
        m_nic->OnRtoTimer(*this);
    }
}

void
RdmaQueuePair::DoDispose()
{
    m_rto.Cancel();
    m_nic = nullptr;
    m_ops = nullptr;
    m_msgs.clear();
    Object::DoDispose();
}

uint64_t
RdmaQueuePair::PostSend(uint64_t bytes, CompletionCallback cb)
{
    if (bytes == 0)
    {
        throw std::invalid_argument("RdmaQueuePair::PostSend: bytes must be >= 1, got 0");
    }
    Message m;
    m.id = m_nextMsgId++;
    m.bytes = bytes;
    m.firstPsn = m_psnEnd;
    m.lastPsn = m_psnEnd + (bytes + m_mtu - 1) / m_mtu - 1;
    m.posted = Simulator::Now();
    m.cb = cb;
    m_psnEnd = m.lastPsn + 1;
    m_bytesPosted += bytes;
    m_msgs.push_back(m);
    NS_LOG_DEBUG("qp " << m_qpn << " post msg " << m.id << " bytes " << bytes << " psn ["
                       << m.firstPsn << "," << m.lastPsn << "]");
    m_nic->Kick();
    return m.id;
}

void
RdmaQueuePair::StartIteration(uint64_t bytes)
{
    m_cc.iterationBytes = bytes;
    m_cc.iterationSent = 0;
}

bool
RdmaQueuePair::CanSend() const
{
    if (m_sndNxt >= m_psnEnd)
    {
        return false;
    }
    if (m_classFence && m_sndNxt >= m_fencePsn)
    {
        return false;
    }
    return m_maxInflight == 0 || (m_sndNxt - m_sndUna) * m_mtu < m_maxInflight;
}

void
RdmaQueuePair::SetPriorityClass(uint8_t cls)
{
    if (cls > 7)
    {
        throw std::invalid_argument("RdmaQueuePair::SetPriorityClass: class " +
                                    std::to_string(cls) + " is out of range [0, 7]");
    }
    m_nextClass = cls;
    if (cls == m_class)
    {
        m_classFence = false;
        return;
    }
    if (m_sndUna >= m_highSent)
    {
        m_classFence = false;
        m_class = cls;
        if (m_nic)
        {
            m_nic->m_classesInUse |= uint8_t(1u << cls);
            m_nic->Kick();
        }
        return;
    }
    m_classFence = true;
    m_fencePsn = m_highSent;
    NS_LOG_DEBUG("qp " << m_qpn << " class " << unsigned(m_class) << " -> " << unsigned(cls)
                       << " after psn " << m_fencePsn);
}

bool
RdmaQueuePair::IsClassChangePending() const
{
    return m_classFence;
}

void
RdmaQueuePair::MaybeApplyClass()
{
    if (m_classFence && m_sndUna >= m_fencePsn)
    {
        m_classFence = false;
        m_class = m_nextClass;
        m_nic->m_classesInUse |= uint8_t(1u << m_class);
    }
}

void
RdmaQueuePair::SetMaxRate(DataRate cap)
{
    const double before = PacingRate();
    m_maxRate = cap.GetBitRate();
    if (PacingRate() > before && m_nic)
    {
        // the next packet was timed for the lower rate: re-time it
        m_nextAvail = std::min(m_nextAvail, Simulator::Now());
    }
    if (m_nic)
    {
        m_nic->Kick();
    }
}

DataRate
RdmaQueuePair::GetMaxRate() const
{
    return DataRate(m_maxRate);
}

double
RdmaQueuePair::PacingRate() const
{
    const double cap = double(m_maxRate);
    return cap > 0 ? std::min(m_cc.rate, cap) : m_cc.rate;
}

uint32_t
RdmaQueuePair::PayloadOf(uint64_t psn, bool& first, bool& last) const
{
    for (const Message& m : m_msgs)
    {
        if (psn >= m.firstPsn && psn <= m.lastPsn)
        {
            first = psn == m.firstPsn;
            last = psn == m.lastPsn;
            uint64_t offset = (psn - m.firstPsn) * m_mtu;
            return uint32_t(std::min<uint64_t>(m_mtu, m.bytes - offset));
        }
    }
    first = last = false;
    return 0;
}

void
RdmaQueuePair::UpdateRateTraces()
{
    if (m_cc.rate != m_lastRate)
    {
        m_lastRate = m_cc.rate;
        m_rateTrace(m_cc.rate);
    }
    if (m_cc.targetRate != m_lastTarget)
    {
        m_lastTarget = m_cc.targetRate;
        m_targetTrace(m_cc.targetRate);
    }
}

uint32_t
RdmaQueuePair::GetQpn() const
{
    return m_qpn;
}

Ipv4Address
RdmaQueuePair::GetPeer() const
{
    return Ipv4Address(m_peer);
}

uint8_t
RdmaQueuePair::GetPriorityClass() const
{
    return m_class;
}

const RdmaCcState&
RdmaQueuePair::GetCcState() const
{
    return m_cc;
}

Ptr<RdmaCongestionOps>
RdmaQueuePair::GetCongestionOps() const
{
    return m_ops;
}

uint64_t
RdmaQueuePair::GetBytesPosted() const
{
    return m_bytesPosted;
}

uint64_t
RdmaQueuePair::GetBytesSent() const
{
    return GetCcState().bytesSent;
}

uint64_t
RdmaQueuePair::GetBytesAcked() const
{
    return m_bytesAcked;
}

uint64_t
RdmaQueuePair::GetRetransmittedPackets() const
{
    return m_retx;
}

uint64_t
RdmaQueuePair::GetTimeouts() const
{
    return m_timeouts;
}

uint64_t
RdmaQueuePair::GetCnpsReceived() const
{
    return m_cnps;
}

uint64_t
RdmaQueuePair::GetTxPackets() const
{
    return m_txPackets;
}

uint64_t
RdmaQueuePair::GetTxBytes() const
{
    return m_txBytes;
}

uint16_t
RdmaQueuePair::GetUdpSourcePort() const
{
    return m_srcPort;
}

uint32_t
RdmaQueuePair::GetPeerQpn() const
{
    return m_peerQpn;
}

bool
RdmaQueuePair::IsBusy() const
{
    return !m_msgs.empty();
}

} // namespace ns3
