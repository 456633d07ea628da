/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective.h"

#include "rdma-message-dispatcher.h"

#include "ns3/fabric-net-device.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Collective");
NS_OBJECT_ENSURE_REGISTERED(Collective);
NS_OBJECT_ENSURE_REGISTERED(RingAllReduce);
NS_OBJECT_ENSURE_REGISTERED(RingReduceScatter);
NS_OBJECT_ENSURE_REGISTERED(RingAllGather);
NS_OBJECT_ENSURE_REGISTERED(PipelineBroadcast);
NS_OBJECT_ENSURE_REGISTERED(AllToAll);

TypeId
Collective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Collective")
            .SetParent<Object>()
            .SetGroupName("Mlnet")
            .AddAttribute("PriorityClass",
                          DataClass::Help("the collective's queue pairs"),
                          UintegerValue(DataClass::DEFAULT),
                          MakeUintegerAccessor(&Collective::m_class),
                          DataClass::Checker())
            .AddAttribute("SubChunks",
                          "Pipeline pieces per chunk (1 = no pipelining); ignored by AllToAll",
                          UintegerValue(1),
                          MakeUintegerAccessor(&Collective::m_subChunks),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddTraceSource("Completed",
                            "An invocation finished: (bytes, duration)",
                            MakeTraceSourceAccessor(&Collective::m_completedTrace),
                            "ns3::Collective::CompletedTracedCallback")
            .AddTraceSource("ParticipantDone",
                            "A participant finished: (rank, bytes sent, bytes received)",
                            MakeTraceSourceAccessor(&Collective::m_participantTrace),
                            "ns3::Collective::ParticipantTracedCallback");
    return tid;
}

Collective::Collective() = default;
Collective::~Collective() = default;

void
Collective::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_nics.clear();
    m_qps.clear();
    m_pending.clear();
    m_cur = Invocation();
    Object::DoDispose();
}

void
Collective::SetGroup(const std::vector<Ptr<MessageTransport>>& nics)
{
    NS_LOG_FUNCTION(this);
    if (nics.empty() || nics.size() > 4096)
    {
        throw std::invalid_argument("Collective::SetGroup: group size " +
                                    std::to_string(nics.size()) + " must be in [1, 4096]");
    }
    if (!m_qps.empty() || m_running)
    {
        throw std::invalid_argument("Collective::SetGroup: group can only be set before Start");
    }
    std::set<MessageTransport*> seen;
    for (const auto& n : nics)
    {
        if (!n || !seen.insert(PeekPointer(n)).second)
        {
            throw std::invalid_argument("Collective::SetGroup: nics must be non-null and distinct");
        }
    }
    m_nics = nics;
}

uint32_t
Collective::GetGroupSize() const
{
    return m_nics.size();
}

uint64_t
Collective::GetMinBytes() const
{
    return 1;
}

uint64_t
Collective::SplitSize(uint64_t total, uint64_t parts, uint64_t index)
{
    return total / parts + (index < total % parts ? 1 : 0);
}

uint32_t
Collective::EffectiveSubChunks(uint64_t chunkBytes) const
{
    return static_cast<uint32_t>(
        std::max<uint64_t>(1, std::min<uint64_t>(m_subChunks, chunkBytes)));
}

void
Collective::Start(uint64_t bytes, ParticipantCallback perRank, DoneCallback done)
{
    NS_LOG_FUNCTION(this << bytes);
    if (m_nics.empty())
    {
        throw std::invalid_argument(GetName() + "::Start: no group (call SetGroup first)");
    }
    if (bytes < GetMinBytes())
    {
        throw std::invalid_argument(GetName() + "::Start: bytes " + std::to_string(bytes) +
                                    " must be >= " + std::to_string(GetMinBytes()));
    }
    m_pending.push_back({bytes, perRank, done});
    if (!m_running)
    {
        StartNext();
    }
}

bool
Collective::IsBusy() const
{
    return m_running || !m_pending.empty();
}

uint64_t
Collective::GetCompletedInvocations() const
{
    return m_completed;
}

Time
Collective::GetLastDuration() const
{
    return m_lastDuration;
}

uint32_t
Collective::GetNQueuePairs() const
{
    return m_qps.size();
}

uint32_t
Collective::AddMessage(uint32_t src,
                       uint32_t dst,
                       uint64_t bytes,
                       const std::vector<uint32_t>& deps)
{
    NS_LOG_FUNCTION(this << src << dst << bytes);
    NS_ASSERT(src != dst && src < m_nics.size() && dst < m_nics.size() && bytes > 0);
    uint32_t idx = m_msgs.size();
    m_msgs.push_back({src, dst, bytes, static_cast<uint32_t>(deps.size()), {}});
    for (uint32_t d : deps)
    {
        m_msgs[d].dependents.push_back(idx);
    }
    return idx;
}

void
Collective::AddRingSteps(uint64_t bytes, uint32_t firstStep, uint32_t lastStep)
{
    NS_LOG_FUNCTION(this << bytes << firstStep << lastStep);
    const uint32_t n = m_nics.size();
    if (n < 2)
    {
        return;
    }
    const uint32_t p = EffectiveSubChunks(bytes / n);
    // prev[i][j]: message of the previous step sent by rank i, sub-chunk j
    std::vector<std::vector<uint32_t>> prev(n), cur(n);
    for (uint32_t s = firstStep; s < lastStep; ++s)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            uint64_t chunkBytes = SplitSize(bytes, n, RingChunk(i, s, n));
            cur[i].assign(p, 0);
            for (uint32_t j = 0; j < p; ++j)
            {
                std::vector<uint32_t> deps;
                if (s > firstStep)
                {
                    deps.push_back(prev[(i + n - 1) % n][j]);
                }
                cur[i][j] = AddMessage(i, (i + 1) % n, SplitSize(chunkBytes, p, j), deps);
            }
        }
        std::swap(prev, cur);
    }
}

uint32_t
Collective::RingChunk(uint32_t rank, uint32_t step, uint32_t n)
{
    return step < n - 1 ? (rank + n - step % n) % n : (rank + 1 + n - (step - (n - 1)) % n) % n;
}

bool
Collective::GetRingSteps(uint32_t&, uint32_t&) const
{
    return false;
}

bool
Collective::StartRingUnit()
{
    NS_LOG_FUNCTION(this);
    const uint32_t n = m_nics.size();
    uint32_t first = 0;
    uint32_t last = 0;
    if (n < 2 || !GetRingSteps(first, last) || last <= first)
    {
        return false;
    }
    const uint64_t bytes = m_cur.bytes;
    RingTransfer ring;
    ring.steps = last - first;
    // The messages of one step of the largest chunk (SplitSize gives index 0 the remainder),
    // split in sub-chunks as AddRingSteps() splits every chunk.
    const uint64_t maxChunk = SplitSize(bytes, n, 0);
    const uint32_t p = EffectiveSubChunks(bytes / n);
    for (uint32_t j = 0; j < p; ++j)
    {
        const uint64_t piece = SplitSize(maxChunk, p, j);
        if (piece > 0)
        {
            ring.stepMessages.push_back(piece);
        }
    }
    ring.sent.assign(n, 0);
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t s = first; s < last; ++s)
        {
            ring.sent[i] += SplitSize(bytes, n, RingChunk(i, s, n));
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        // in the order the messages would open them: the same connections either way
        ring.conns.push_back(GetQp(i, (i + 1) % n));
    }
    ring.rankDone = Callback<void, uint32_t>([this](uint32_t rank) { Progress(rank); });
    if (!m_nics[0]->StartRing(ring))
    {
        return false;
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        m_remaining[i] = 1;
        m_sent[i] = ring.sent[i];
        m_received[(i + 1) % n] = ring.sent[i];
    }
    NS_LOG_INFO(GetName() << " start " << bytes << " B over " << n << " ranks as one ring unit, "
                          << ring.steps << " steps");
    return true;
}

Ptr<MessageConnection>
Collective::GetQp(uint32_t src, uint32_t dst)
{
    auto key = std::make_pair(src, dst);
    auto it = m_qps.find(key);
    if (it != m_qps.end())
    {
        return it->second;
    }
    Ptr<MessageConnection> qp = m_nics[src]->Open(m_nics[dst], m_class);
    Ptr<RdmaMessageDispatcher> d = RdmaMessageDispatcher::Get(m_nics[dst]);
    d->Register(
        m_nics[src]->GetAddress(),
        qp->GetQpn(),
        RdmaMessageDispatcher::ReceiveCallback(
            [this, src, dst](Ipv4Address, uint32_t, uint64_t b) { OnReceived(src, dst, b); }));
    m_qps[key] = qp;
    return qp;
}

void
Collective::StartNext()
{
    NS_LOG_FUNCTION(this);
    if (m_pending.empty())
    {
        m_running = false;
        return;
    }
    m_running = true;
    m_cur = m_pending.front();
    m_pending.pop_front();
    m_curStart = Simulator::Now();
    const uint32_t n = m_nics.size();
    m_msgs.clear();
    m_remaining.assign(n, 0);
    m_sent.assign(n, 0);
    m_received.assign(n, 0);
    m_ranksDone = 0;
    if (StartRingUnit())
    {
        return;
    }
    BuildPlan(m_cur.bytes);
    for (const auto& m : m_msgs)
    {
        ++m_remaining[m.src];
        ++m_remaining[m.dst];
    }
    NS_LOG_INFO(GetName() << " start " << m_cur.bytes << " B over " << n << " ranks, "
                          << m_msgs.size() << " messages");
    for (uint32_t r = 0; r < n; ++r)
    {
        if (m_remaining[r] == 0)
        {
            ++m_remaining[r]; // completed through Progress below
            Simulator::ScheduleNow(&Collective::Progress, this, r);
        }
    }
    for (uint32_t i = 0; i < m_msgs.size(); ++i)
    {
        if (m_msgs[i].pendingDeps == 0)
        {
            Post(i);
        }
    }
}

void
Collective::Post(uint32_t m)
{
    NS_LOG_FUNCTION(this << m);
    const Msg& msg = m_msgs[m];
    Ptr<MessageConnection> qp = GetQp(msg.src, msg.dst);
    m_inFlight[std::make_pair(msg.src, msg.dst)].push_back(m);
    qp->PostSend(msg.bytes, MessageConnection::CompletionCallback([this, m](uint64_t, uint64_t) {
                     OnAcked(m);
                 }));
}

void
Collective::OnReceived(uint32_t src, uint32_t dst, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << src << dst << bytes);
    auto& q = m_inFlight[std::make_pair(src, dst)];
    if (q.empty())
    {
        NS_LOG_WARN(GetName() << ": unexpected message " << src << "->" << dst);
        return;
    }
    uint32_t m = q.front();
    q.pop_front();
    NS_ASSERT(m_msgs[m].bytes == bytes);
    m_received[dst] += bytes;
    std::vector<uint32_t> ready;
    for (uint32_t d : m_msgs[m].dependents)
    {
        if (--m_msgs[d].pendingDeps == 0)
        {
            ready.push_back(d);
        }
    }
    for (uint32_t d : ready)
    {
        Post(d);
    }
    Progress(dst);
}

void
Collective::OnAcked(uint32_t m)
{
    NS_LOG_FUNCTION(this << m);
    m_sent[m_msgs[m].src] += m_msgs[m].bytes;
    Progress(m_msgs[m].src);
}

void
Collective::Progress(uint32_t rank)
{
    NS_LOG_FUNCTION(this << rank);
    if (--m_remaining[rank] != 0)
    {
        return;
    }
    NS_LOG_INFO(GetName() << " rank " << rank << " done: sent " << m_sent[rank] << " received "
                          << m_received[rank]);
    m_participantTrace(rank, m_sent[rank], m_received[rank]);
    if (!m_cur.perRank.IsNull())
    {
        m_cur.perRank(rank, m_sent[rank], m_received[rank]);
    }
    if (++m_ranksDone < m_nics.size())
    {
        return;
    }
    m_lastDuration = Simulator::Now() - m_curStart;
    ++m_completed;
    m_completedTrace(m_cur.bytes, m_lastDuration);
    DoneCallback done = m_cur.done;
    m_running = false;
    if (!m_pending.empty())
    {
        Simulator::ScheduleNow(&Collective::StartNext, this);
        m_running = true;
    }
    if (!done.IsNull())
    {
        done();
    }
}

// ---- RingAllReduce ----

TypeId
RingAllReduce::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingAllReduce")
                            .SetParent<Collective>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<RingAllReduce>();
    return tid;
}

std::string
RingAllReduce::GetName() const
{
    return "RingAllReduce";
}

uint64_t
RingAllReduce::GetMinBytes() const
{
    return std::max<uint64_t>(1, GetGroupSize());
}

bool
RingAllReduce::GetRingSteps(uint32_t& first, uint32_t& last) const
{
    first = 0;
    last = 2 * (GetGroupSize() - 1);
    return GetGroupSize() >= 2;
}

void
RingAllReduce::BuildPlan(uint64_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    uint32_t first = 0;
    uint32_t last = 0;
    if (GetRingSteps(first, last))
    {
        AddRingSteps(bytes, first, last);
    }
}

// ---- RingReduceScatter ----

TypeId
RingReduceScatter::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingReduceScatter")
                            .SetParent<Collective>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<RingReduceScatter>();
    return tid;
}

std::string
RingReduceScatter::GetName() const
{
    return "RingReduceScatter";
}

uint64_t
RingReduceScatter::GetMinBytes() const
{
    return std::max<uint64_t>(1, GetGroupSize());
}

bool
RingReduceScatter::GetRingSteps(uint32_t& first, uint32_t& last) const
{
    first = 0;
    last = GetGroupSize() - 1;
    return GetGroupSize() >= 2;
}

void
RingReduceScatter::BuildPlan(uint64_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    uint32_t first = 0;
    uint32_t last = 0;
    if (GetRingSteps(first, last))
    {
        AddRingSteps(bytes, first, last);
    }
}

// ---- RingAllGather ----

TypeId
RingAllGather::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingAllGather")
                            .SetParent<Collective>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<RingAllGather>();
    return tid;
}

std::string
RingAllGather::GetName() const
{
    return "RingAllGather";
}

uint64_t
RingAllGather::GetMinBytes() const
{
    return std::max<uint64_t>(1, GetGroupSize());
}

bool
RingAllGather::GetRingSteps(uint32_t& first, uint32_t& last) const
{
    first = GetGroupSize() - 1;
    last = 2 * (GetGroupSize() - 1);
    return GetGroupSize() >= 2;
}

void
RingAllGather::BuildPlan(uint64_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    uint32_t first = 0;
    uint32_t last = 0;
    if (GetRingSteps(first, last))
    {
        AddRingSteps(bytes, first, last);
    }
}

// ---- PipelineBroadcast ----

TypeId
PipelineBroadcast::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PipelineBroadcast")
                            .SetParent<Collective>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<PipelineBroadcast>()
                            .AddAttribute("Root",
                                          "Rank that holds the data (must be < group size)",
                                          UintegerValue(0),
                                          MakeUintegerAccessor(&PipelineBroadcast::m_root),
                                          MakeUintegerChecker<uint32_t>());
    return tid;
}

std::string
PipelineBroadcast::GetName() const
{
    return "PipelineBroadcast";
}

void
PipelineBroadcast::BuildPlan(uint64_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    uint32_t n = GetGroupSize();
    if (m_root >= n)
    {
        throw std::invalid_argument("PipelineBroadcast: Root " + std::to_string(m_root) +
                                    " must be in [0, " + std::to_string(n - 1) + "]");
    }
    uint32_t p = EffectiveSubChunks(bytes);
    std::vector<uint32_t> prev;
    for (uint32_t h = 0; h + 1 < n; ++h)
    {
        std::vector<uint32_t> cur(p);
        uint32_t src = (m_root + h) % n;
        for (uint32_t j = 0; j < p; ++j)
        {
            std::vector<uint32_t> deps;
            if (h > 0)
            {
                deps.push_back(prev[j]);
            }
            cur[j] = AddMessage(src, (src + 1) % n, SplitSize(bytes, p, j), deps);
        }
        prev = cur;
    }
}

// ---- AllToAll ----

TypeId
AllToAll::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AllToAll")
                            .SetParent<Collective>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<AllToAll>();
    return tid;
}

std::string
AllToAll::GetName() const
{
    return "AllToAll";
}

uint64_t
AllToAll::GetMinBytes() const
{
    return std::max<uint64_t>(1, GetGroupSize());
}

void
AllToAll::BuildPlan(uint64_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    uint32_t n = GetGroupSize();
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t k = 1; k < n; ++k)
        {
            uint32_t dst = (i + k) % n;
            AddMessage(i, dst, SplitSize(bytes, n, dst));
        }
    }
}

} // namespace ns3
