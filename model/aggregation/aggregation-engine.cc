/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-engine.h"

#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AggregationEngine");
NS_OBJECT_ENSURE_REGISTERED(AggregationEngine);

namespace
{
uint32_t
Key(uint16_t job, uint16_t tree)
{
    return (uint32_t(job) << 16) | tree;
}

} // namespace

TypeId
AggregationEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AggregationEngine")
            .SetParent<Object>()
            .SetGroupName("Mlnet")
            .AddConstructor<AggregationEngine>()
            .AddAttribute("BufferBytesPerJob",
                          "On-chip memory for the slot pools of one job (bytes): every tree of "
                          "the job installed here takes 2 versions x slots x chunk bytes",
                          UintegerValue(2u * 1024 * 1024),
                          MakeUintegerAccessor(&AggregationEngine::m_bufferPerJob),
                          MakeUintegerChecker<uint64_t>(1, uint64_t(1) << 36))
            .AddAttribute("MaxJobs",
                          "Jobs the engine can hold at once, in [1, 4096]",
                          UintegerValue(16),
                          MakeUintegerAccessor(&AggregationEngine::m_maxJobs),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("TimingModel",
                          "Timing of the adder datapath (null: a new "
                          "ns3::AdderTreeTimingModel of this engine's own)",
                          PointerValue(),
                          MakePointerAccessor(&AggregationEngine::SetTimingModel,
                                              &AggregationEngine::GetTimingModel),
                          MakePointerChecker<AggregationTimingModel>())
            .AddTraceSource("SlotComplete",
                            "Every child of a slot is in: (job, tree, chunk sequence number)",
                            MakeTraceSourceAccessor(&AggregationEngine::m_completeTrace),
                            "ns3::AggregationEngine::SlotTracedCallback")
            .AddTraceSource("Rx",
                            "An aggregation packet addressed to this point arrived",
                            MakeTraceSourceAccessor(&AggregationEngine::m_rxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Tx",
                            "The engine sent a partial sum, a result or a resend",
                            MakeTraceSourceAccessor(&AggregationEngine::m_txTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

AggregationEngine::AggregationEngine()
{
    // Its own datapath (the attribute's null default leaves this in place).
    SetTimingModel(nullptr);
}

AggregationEngine::~AggregationEngine() = default;

void
AggregationEngine::DoDispose()
{
    m_emit = EmitCallback();
    m_timing = nullptr;
    m_trees.clear();
    Object::DoDispose();
}

void
AggregationEngine::SetAddress(Ipv4Address a)
{
    m_address = a;
}

Ipv4Address
AggregationEngine::GetAddress() const
{
    return m_address;
}

void
AggregationEngine::SetEmitCallback(EmitCallback cb)
{
    m_emit = cb;
}

void
AggregationEngine::SetName(const std::string& name)
{
    m_name = name;
}

const std::string&
AggregationEngine::GetName() const
{
    return m_name;
}

Ptr<AggregationTimingModel>
AggregationEngine::GetTimingModel() const
{
    return m_timing;
}

void
AggregationEngine::SetTimingModel(Ptr<AggregationTimingModel> timing)
{
    // A fresh model per engine: the model holds the datapath's clock state (the next free
    // cycle), which must not be shared between aggregation points.
    m_timing = timing;
    if (!m_timing)
    {
        m_timing = CreateObject<AdderTreeTimingModel>();
    }
}

uint32_t
AggregationEngine::MaxSlots(uint32_t trees, uint32_t chunkBytes) const
{
    uint64_t per = AggregationContext::PoolBytes(1, chunkBytes) * std::max<uint32_t>(trees, 1);
    return uint32_t(std::min<uint64_t>(m_bufferPerJob / per, 0xffffffffu));
}

void
AggregationEngine::AddTree(const AggTreeConfig& cfg)
{
    const AggTreeSpec& s = cfg.spec;
    uint32_t key = Key(s.jobId, s.treeId);
    if (m_trees.count(key))
    {
        throw std::invalid_argument(m_name + ": job " + std::to_string(s.jobId) + " tree " +
                                    std::to_string(s.treeId) + " is installed already");
    }
    if (cfg.children.size() != s.fanIn || cfg.childrenOnLinkSide.size() != s.fanIn)
    {
        throw std::invalid_argument(m_name + ": tree child lists do not match its fan-in");
    }
    bool newJob = m_jobBuffer.find(s.jobId) == m_jobBuffer.end();
    if (newJob && m_jobBuffer.size() >= m_maxJobs)
    {
        throw std::invalid_argument(m_name + ": cannot hold job " + std::to_string(s.jobId) +
                                    ": it holds MaxJobs = " + std::to_string(m_maxJobs) +
                                    " jobs already");
    }
    uint32_t chunkBytes = cfg.chunkElements * AggElementBytes(s.elementType);
    if (AggregationContext::PoolBytes(1, chunkBytes) > m_bufferPerJob)
    {
        throw std::invalid_argument(m_name +
                                    ": BufferBytesPerJob = " + std::to_string(m_bufferPerJob) +
                                    " B is smaller than one slot (2 versions x " +
                                    std::to_string(chunkBytes) + " B per packet)");
    }
    uint64_t need = AggregationContext::PoolBytes(s.slots, chunkBytes);
    uint64_t used = newJob ? 0 : m_jobBuffer[s.jobId];
    if (used + need > m_bufferPerJob)
    {
        throw std::invalid_argument(
            m_name + ": job " + std::to_string(s.jobId) + " needs " + std::to_string(used + need) +
            " B of aggregation buffer, BufferBytesPerJob = " + std::to_string(m_bufferPerJob) +
            " B");
    }
    Tree t;
    t.cfg = cfg;
    t.ctx = std::make_unique<AggregationContext>(s);
    m_trees.emplace(key, std::move(t));
    m_jobBuffer[s.jobId] = used + need;
}

bool
AggregationEngine::HasTree(uint16_t job, uint16_t tree) const
{
    return m_trees.count(Key(job, tree)) != 0;
}

uint64_t
AggregationEngine::GetJobBufferBytes(uint16_t job) const
{
    auto it = m_jobBuffer.find(job);
    return it == m_jobBuffer.end() ? 0 : it->second;
}

uint32_t
AggregationEngine::GetNJobs() const
{
    return m_jobBuffer.size();
}

const AggregationEngineStats&
AggregationEngine::GetStats() const
{
    return m_stats;
}

Ptr<Packet>
AggregationEngine::Make(const Tree& t,
                        Ipv4Address dst,
                        uint8_t type,
                        const AggregationContext::Slot& s,
                        bool ecn,
                        uint16_t sender,
                        uint16_t fanIn,
                        uint8_t dscp,
                        bool retransmit) const
{
    AggregationStackHeader h;
    h.src = m_address;
    h.dst = dst;
    h.dscp = dscp;
    h.ecn = 2; // ECT(0): a fresh packet, marks so far travel in the ECN_OR flag
    h.sport = AggregationStackHeader::SourcePort(m_address.Get(),
                                                 t.cfg.spec.jobId,
                                                 t.cfg.spec.treeId,
                                                 dst.Get());
    h.agg.type = type;
    h.agg.elementType = uint8_t(t.cfg.spec.elementType);
    h.agg.scaleExponent = s.scaleExponent;
    h.agg.jobId = t.cfg.spec.jobId;
    h.agg.treeId = t.cfg.spec.treeId;
    h.agg.seq = s.seq;
    h.agg.sender = sender;
    h.agg.fanIn = fanIn;
    h.agg.elements = s.elements;
    h.agg.SetEcnOr(ecn);
    if (retransmit)
    {
        h.agg.flags |= AggregationHeader::RETRANSMIT;
    }
    return AggregationStackHeader::Build(h, s.acc.empty() ? nullptr : &s.acc);
}

void
AggregationEngine::EmitPacket(Ptr<Packet> p, bool linkSide)
{
    m_txTrace(p);
    if (!m_emit.IsNull())
    {
        m_emit(p, linkSide);
    }
}

Time
AggregationEngine::Receive(Ptr<Packet> p, const AggregationStackHeader& h, bool fromLinkSide)
{
    Time now = Simulator::Now();
    m_rxTrace(p);
    auto it = m_trees.find(Key(h.agg.jobId, h.agg.treeId));
    if (it == m_trees.end())
    {
        m_stats.unknown++;
        NS_LOG_DEBUG(m_name << ": packet for unknown job " << h.agg.jobId << " tree "
                            << h.agg.treeId);
        return now;
    }
    Tree& t = it->second;
    std::vector<uint32_t> values = AggregationStackHeader::ReadValues(*p, h);
    const std::vector<uint32_t>* vp = values.empty() ? nullptr : &values;
    bool ecn = h.ecn == 3 || h.agg.GetEcnOr();
    if (ecn)
    {
        // Where a tree's congestion signal enters a slot (CE: marked on the way here; ECN_OR:
        // marked below the sender), to trace a result's mark back to its contribution.
        NS_LOG_LOGIC(m_name << ": marked "
                            << (h.agg.type == AggregationHeader::RESULT ? "result" : "contribution")
                            << " job " << h.agg.jobId << " tree " << h.agg.treeId << " seq "
                            << h.agg.seq << " sender " << h.agg.sender << " ce " << (h.ecn == 3)
                            << " ecn-or " << h.agg.GetEcnOr());
    }
    if (h.agg.type == AggregationHeader::RESULT)
    {
        m_stats.resultsRx++;
        AggregationContext::Outcome o = t.ctx->OnResult(h.agg.seq, ecn, vp);
        if (o.action == AggregationContext::Action::STALE)
        {
            m_stats.stale++;
        }
        else if (o.action == AggregationContext::Action::MULTICAST_DOWN)
        {
            Emit(t, o.action, *o.slot, 0, h.dscp);
        }
        return now;
    }
    m_stats.contributionsRx++;
    Time start;
    Time done = m_timing->Schedule(now, h.agg.elements, start);
    if (h.agg.sender >= t.cfg.spec.fanIn)
    {
        m_stats.unknown++;
        return now;
    }
    uint64_t summedBefore = t.ctx->GetContributions();
    uint64_t overflowsBefore = t.ctx->GetOverflows();
    AggregationContext::Outcome o = t.ctx->OnContribution(h.agg.sender,
                                                          h.agg.seq,
                                                          ecn,
                                                          h.agg.elements,
                                                          h.agg.fanIn,
                                                          vp,
                                                          h.agg.scaleExponent);
    m_stats.overflows += t.ctx->GetOverflows() - overflowsBefore;
    if (t.ctx->GetContributions() > summedBefore)
    {
        m_stats.elementsSummed += h.agg.elements;
    }
    switch (o.action)
    {
    case AggregationContext::Action::STALE:
        m_stats.stale++;
        return start;
    case AggregationContext::Action::NONE:
        return start;
    case AggregationContext::Action::UNICAST_DOWN:
    case AggregationContext::Action::RESEND_UP:
        m_stats.duplicates++;
        Emit(t, o.action, *o.slot, h.agg.sender, h.dscp);
        return start;
    case AggregationContext::Action::SEND_UP:
    case AggregationContext::Action::MULTICAST_DOWN: {
        m_completeTrace(h.agg.jobId, h.agg.treeId, h.agg.seq);
        if (done <= now)
        {
            Emit(t, o.action, *o.slot, 0, h.dscp);
        }
        else
        {
            // The sum is ready when the datapath is done: emit then (the slot keeps it).
            uint32_t key = it->first;
            uint32_t seq = h.agg.seq;
            uint8_t dscp = h.dscp;
            AggregationContext::Action a = o.action;
            Simulator::Schedule(done - now, [this, key, seq, dscp, a]() {
                auto jt = m_trees.find(key);
                if (jt == m_trees.end())
                {
                    return;
                }
                const AggregationContext::Slot* s = jt->second.ctx->Find(seq);
                if (s)
                {
                    Emit(jt->second, a, *s, 0, dscp);
                }
            });
        }
        return start;
    }
    }
    return start;
}

void
AggregationEngine::Emit(Tree& t,
                        AggregationContext::Action a,
                        const AggregationContext::Slot& s,
                        uint16_t child,
                        uint8_t dscp)
{
    const AggTreeConfig& c = t.cfg;
    switch (a)
    {
    case AggregationContext::Action::SEND_UP:
    case AggregationContext::Action::RESEND_UP: {
        bool re = a == AggregationContext::Action::RESEND_UP;
        (re ? m_stats.resends : m_stats.partialsTx)++;
        EmitPacket(Make(t,
                        c.parent,
                        AggregationHeader::CONTRIBUTION,
                        s,
                        s.ecn,
                        c.indexAtParent,
                        uint16_t(s.fanInSum),
                        dscp,
                        re),
                   c.parentOnLinkSide);
        break;
    }
    case AggregationContext::Action::MULTICAST_DOWN:
        for (uint16_t i = 0; i < c.children.size(); ++i)
        {
            m_stats.resultsTx++;
            EmitPacket(Make(t,
                            c.children[i],
                            AggregationHeader::RESULT,
                            s,
                            s.resultEcn,
                            0,
                            c.spec.jobWorkers,
                            dscp,
                            false),
                       c.childrenOnLinkSide[i]);
        }
        break;
    case AggregationContext::Action::UNICAST_DOWN:
        m_stats.resends++;
        m_stats.resultsTx++;
        EmitPacket(Make(t,
                        c.children[child],
                        AggregationHeader::RESULT,
                        s,
                        s.resultEcn,
                        0,
                        c.spec.jobWorkers,
                        dscp,
                        true),
                   c.childrenOnLinkSide[child]);
        break;
    default:
        break;
    }
}

} // namespace ns3
