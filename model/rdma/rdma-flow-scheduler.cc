/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-flow-scheduler.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-net-device.h"
#include "ns3/log.h"
#include "ns3/mlnet-enum-accessor.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFlowScheduler");
NS_OBJECT_ENSURE_REGISTERED(RdmaFlowScheduler);

namespace
{

/// Scope key of the centralised evaluation.
constexpr uint32_t kAll = std::numeric_limits<uint32_t>::max();

/// The binding of a NIC to its scheduler (aggregated to the NIC's node).
class RdmaFlowSchedulerBinding : public Object
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::RdmaFlowSchedulerBinding").SetParent<Object>().SetGroupName("Mlnet");
        return tid;
    }

    Ptr<RdmaFlowScheduler> scheduler;
    uint32_t port{0};

  protected:
    void DoDispose() override
    {
        scheduler = nullptr;
        Object::DoDispose();
    }
};

} // namespace

TypeId
RdmaFlowScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaFlowScheduler")
            .SetParent<Object>()
            .SetGroupName("Mlnet")
            .AddConstructor<RdmaFlowScheduler>()
            .AddAttribute(
                "Mode",
                "Centralised (one controller with ControlDelay) or Decentralised "
                "(each sender decides for its own flows, at once)",
                EnumValue(CENTRALISED),
                MakeEnumMemberAccessor(&RdmaFlowScheduler::m_mode),
                MakeEnumChecker(CENTRALISED, "Centralised", DECENTRALISED, "Decentralised"))
            .AddAttribute("ControlDelay",
                          "Centralised mode: time from an event (message posted or completed) "
                          "to the decisions taking effect (s, >= 0)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaFlowScheduler::m_controlDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TopClass",
                          "Priority class of level 0; level l uses class TopClass - l (0..7; the "
                          "default 6 leaves class 7 to ACKs and CNPs)",
                          UintegerValue(6),
                          MakeUintegerAccessor(&RdmaFlowScheduler::m_topClass),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("CapTolerance",
                          "Opt-in approximation: a message already sending keeps its rate cap "
                          "when the new one differs from it by at most this fraction of it "
                          "(0 = every change is applied, exact; pausing, resuming and removing "
                          "a cap are always applied). MADD re-caps every running flow at each "
                          "arrival by fractions of 1e-9 to 1e-3; at flow level each re-cap is a "
                          "rate recomputation",
                          DoubleValue(0),
                          MakeDoubleAccessor(&RdmaFlowScheduler::m_capTolerance),
                          MakeDoubleChecker<double>(0, 0.1))
            .AddAttribute(
                "Policy",
                "The flow-scheduling policy",
                PointerValue(),
                MakePointerAccessor(&RdmaFlowScheduler::SetPolicy, &RdmaFlowScheduler::GetPolicy),
                MakePointerChecker<FlowSchedulingPolicy>())
            .AddTraceSource("Decision",
                            "A decision took effect: (flow id, level, class, wire rate cap bit/s "
                            "(0 = none), time it was computed)",
                            MakeTraceSourceAccessor(&RdmaFlowScheduler::m_decisionTrace),
                            "ns3::RdmaFlowScheduler::DecisionTracedCallback")
            .AddTraceSource("FlowDone",
                            "A flow finished (emitted when its whole group has finished, with its "
                            "Echelon ideal finish time)",
                            MakeTraceSourceAccessor(&RdmaFlowScheduler::m_flowTrace),
                            "ns3::RdmaFlowScheduler::FlowTracedCallback");
    return tid;
}

RdmaFlowScheduler::RdmaFlowScheduler()
    : m_reference(CreateObject<EchelonFlowPolicy>())
{
    NS_LOG_FUNCTION(this);
}

RdmaFlowScheduler::~RdmaFlowScheduler() = default;

void
RdmaFlowScheduler::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_policy = nullptr;
    m_reference = nullptr;
    m_nics.clear();
    m_msgs.clear();
    m_peers.clear();
    Object::DoDispose();
}

void
RdmaFlowScheduler::SetPolicy(Ptr<FlowSchedulingPolicy> policy)
{
    NS_LOG_FUNCTION(this << policy);
    m_policy = policy;
}

Ptr<FlowSchedulingPolicy>
RdmaFlowScheduler::GetPolicy() const
{
    return m_policy;
}

uint64_t
RdmaFlowScheduler::MakeGroupId(uint32_t job, uint64_t iteration, uint32_t phase)
{
    if (job >= (1u << 20) || phase >= (1u << 24))
    {
        throw std::invalid_argument("MakeGroupId: job = " + std::to_string(job) +
                                    ", phase = " + std::to_string(phase) +
                                    " are out of range (job < 2^20, phase < 2^24)");
    }
    return (uint64_t(job) << 44) | ((iteration & 0xFFFFF) << 24) | phase;
}

uint32_t
RdmaFlowScheduler::GroupJob(uint64_t group)
{
    return uint32_t(group >> 44);
}

uint32_t
RdmaFlowScheduler::GroupIteration(uint64_t group)
{
    return uint32_t((group >> 24) & 0xFFFFF);
}

uint32_t
RdmaFlowScheduler::GroupPhase(uint64_t group)
{
    return uint32_t(group & 0xFFFFFF);
}

void
RdmaFlowScheduler::Install(const std::vector<Ptr<RdmaNic>>& nics)
{
    NS_LOG_FUNCTION(this);
    Install(std::vector<Ptr<MessageTransport>>(nics.begin(), nics.end()));
}

void
RdmaFlowScheduler::Install(const std::vector<Ptr<MessageTransport>>& nics)
{
    NS_LOG_FUNCTION(this);
    if (!m_policy)
    {
        throw std::invalid_argument("RdmaFlowScheduler::Install: no policy (call SetPolicy)");
    }
    if (m_mode == DECENTRALISED && !m_policy->SupportsDecentralised())
    {
        throw std::invalid_argument("RdmaFlowScheduler: policy '" + m_policy->GetName() +
                                    "' needs the centralised mode (it decides from the "
                                    "global view of every group)");
    }
    if (m_policy->GetPriorityLevels() > uint32_t(m_topClass) + 1)
    {
        throw std::invalid_argument("RdmaFlowScheduler: the policy's PriorityLevels = " +
                                    std::to_string(m_policy->GetPriorityLevels()) +
                                    " do not fit below TopClass = " + std::to_string(m_topClass) +
                                    " (must be <= TopClass + 1)");
    }
    for (const auto& nic : nics)
    {
        if (!nic || nic->GetLineRate().GetBitRate() == 0)
        {
            throw std::invalid_argument(
                "RdmaFlowScheduler::Install: a transport is null or unbound");
        }
        if (Find(nic))
        {
            throw std::invalid_argument("RdmaFlowScheduler::Install: the transport of " +
                                        std::to_string(nic->GetAddress().Get()) +
                                        " is already bound to a scheduler");
        }
        if (!m_nics.empty() && nic->GetInstanceTypeId() != m_nics.front()->GetInstanceTypeId())
        {
            throw std::invalid_argument("RdmaFlowScheduler::Install: transports of two backends (" +
                                        m_nics.front()->GetInstanceTypeId().GetName() + ", " +
                                        nic->GetInstanceTypeId().GetName() + ")");
        }
        const uint32_t port = m_nics.size();
        const double wire = nic->GetWirePerPayload();
        const double goodput = nic->GetLineRate().GetBitRate() / 8.0 / wire;
        m_central.SetPort(port, goodput, goodput);
        m_wirePerPayload.push_back(wire);
        m_nics.push_back(nic);
        m_ports[PeekPointer(nic)] = port;
        Ptr<RdmaFlowSchedulerBinding> b = CreateObject<RdmaFlowSchedulerBinding>();
        b->scheduler = this;
        b->port = port;
        nic->AggregateObject(b);
        nic->TraceConnectWithoutContext("MessageRx",
                                        MakeCallback(&RdmaFlowScheduler::OnMessageRx, this));
    }
    NS_LOG_INFO("flow scheduler '" << m_policy->GetName() << "' on " << m_nics.size()
                                   << " NICs, mode "
                                   << (m_mode == CENTRALISED ? "central" : "local") << ", delay "
                                   << m_controlDelay.GetMicroSeconds() << " us");
}

Ptr<RdmaFlowScheduler>
RdmaFlowScheduler::Find(Ptr<MessageTransport> nic)
{
    if (!nic)
    {
        return nullptr;
    }
    Ptr<RdmaFlowSchedulerBinding> b = nic->GetObject<RdmaFlowSchedulerBinding>();
    return b ? b->scheduler : nullptr;
}

uint32_t
RdmaFlowScheduler::GetPort(Ptr<MessageTransport> nic) const
{
    auto it = m_ports.find(PeekPointer(nic));
    if (it == m_ports.end())
    {
        throw std::invalid_argument(
            "RdmaFlowScheduler: the transport is not installed on this scheduler");
    }
    return it->second;
}

std::pair<double, double>
RdmaFlowScheduler::GetPortCapacity(uint32_t port) const
{
    return {m_central.Up(port), m_central.Down(port)};
}

void
RdmaFlowScheduler::DeclareGroup(const FlowGroupSpec& g)
{
    NS_LOG_FUNCTION(this);
    auto it = m_groups.find(g.id);
    if (it != m_groups.end())
    {
        if (!(it->second.spec == g))
        {
            throw std::invalid_argument("flow group " + std::to_string(g.id) +
                                        ": declared again with a different spec");
        }
        return;
    }
    FlowGroupSpec inState = g;
    inState.expectedFlows = 0; // the scheduler forgets groups itself, after the records
    m_central.DeclareGroup(inState);
    GroupBook book;
    book.spec = g;
    m_groups.emplace(g.id, std::move(book));
}

bool
RdmaFlowScheduler::HasGroup(uint64_t id) const
{
    return m_groups.count(id) != 0;
}

FlowSchedulingState&
RdmaFlowScheduler::StateOf(uint32_t scope)
{
    if (scope == kAll)
    {
        return m_central;
    }
    auto it = m_local.find(scope);
    if (it == m_local.end())
    {
        FlowSchedulingState s;
        for (uint32_t p = 0; p < m_nics.size(); ++p)
        {
            s.SetPort(p, m_central.Up(p), m_central.Down(p));
        }
        it = m_local.emplace(scope, std::move(s)).first;
    }
    return it->second;
}

uint64_t
RdmaFlowScheduler::Post(Ptr<MessageTransport> src,
                        Ptr<MessageTransport> dst,
                        FlowDeclaration decl,
                        MessageCallback onReceived,
                        MessageCallback onCompleted)
{
    NS_LOG_FUNCTION(this << src << dst);
    if (Find(src) != this || Find(dst) != this)
    {
        throw std::invalid_argument("RdmaFlowScheduler::Post: both transports must be "
                                    "installed on this scheduler");
    }
    decl.id = m_nextId++;
    decl.src = GetPort(src);
    decl.dst = GetPort(dst);
    const double now = Simulator::Now().GetSeconds();
    m_central.AddFlow(decl, now); // validates the declaration
    const uint32_t scope = m_mode == CENTRALISED ? kAll : decl.src;
    if (scope != kAll)
    {
        FlowSchedulingState& local = StateOf(scope);
        if (!local.HasGroup(decl.group))
        {
            FlowGroupSpec g = m_groups.at(decl.group).spec;
            g.expectedFlows = 0;
            local.DeclareGroup(g);
        }
        local.AddFlow(decl, now);
    }
    Message& m = m_msgs[decl.id];
    m.decl = decl;
    m.src = src;
    m.dst = dst;
    m.onReceived = onReceived;
    m.onCompleted = onCompleted;
    m.scope = scope;
    m.record.decl = decl;
    m.record.release = Simulator::Now();
    m_groups.at(decl.group).added++;
    m_posted++;
    NS_LOG_DEBUG("post flow " << decl.id << " group " << decl.group << " " << decl.src << "->"
                              << decl.dst << " " << decl.bytes << " B");
    Trigger(scope);
    return decl.id;
}

void
RdmaFlowScheduler::Trigger(uint32_t scope)
{
    NS_LOG_FUNCTION(this << scope);
    bool& pending = m_pending[scope];
    if (!pending)
    {
        pending = true;
        Simulator::ScheduleNow(&RdmaFlowScheduler::Evaluate, this, scope);
    }
}

void
RdmaFlowScheduler::Evaluate(uint32_t scope)
{
    NS_LOG_FUNCTION(this << scope);
    m_pending[scope] = false;
    FlowSchedulingState& state = StateOf(scope);
    if (state.GetFlows().empty())
    {
        return;
    }
    // bytes left: what the queue pair has not sent yet of the message (one look-up per flow:
    // the decisions come back in the order of state.GetFlows())
    const auto& flows = state.GetFlows();
    std::vector<Message*> msgs;
    msgs.reserve(flows.size());
    for (const auto& f : flows)
    {
        Message& m = m_msgs.at(f.decl.id);
        msgs.push_back(&m);
        if (m.qp)
        {
            const uint64_t sent = m.qp->GetBytesSent() - m.sentBase;
            state.SetRemaining(f.decl.id, f.decl.bytes - std::min(sent, f.decl.bytes));
        }
    }
    const Time now = Simulator::Now();
    std::vector<FlowDecision> d = m_policy->Decide(state, now.GetSeconds());
    m_evaluations++;
    if (m_mode == CENTRALISED && m_controlDelay.IsStrictlyPositive())
    {
        Simulator::Schedule(m_controlDelay, &RdmaFlowScheduler::Apply, this, std::move(d), now);
        return;
    }
    for (std::size_t i = 0; i < d.size(); ++i)
    {
        NS_ASSERT(msgs[i]->decl.id == d[i].id);
        ApplyOne(*msgs[i], d[i], now);
    }
}

void
RdmaFlowScheduler::Apply(std::vector<FlowDecision> decisions, Time computed)
{
    NS_LOG_FUNCTION(this << computed);
    for (const auto& d : decisions)
    {
        auto it = m_msgs.find(d.id);
        if (it != m_msgs.end())
        {
            ApplyOne(it->second, d, computed);
        }
    }
}

uint8_t
RdmaFlowScheduler::ClassOf(uint32_t level) const
{
    return uint8_t(m_topClass - std::min<uint32_t>(level, m_topClass));
}

void
RdmaFlowScheduler::ApplyOne(Message& m, const FlowDecision& d, Time computed)
{
    NS_LOG_FUNCTION(this << computed);
    const uint8_t cls = ClassOf(d.level);
    m.record.level = d.level;
    m.record.priorityClass = cls;
    m_applied++;
    m_decisionTrace(m.decl.id, d.level, cls, d.rateCap, computed);
    // queue-pair cap: a wire rate; 0 = none; a paused flow gets the slowest pace there is
    double cap = 0;
    if (std::isfinite(d.rateCap))
    {
        cap = std::max(d.rateCap * 8 * m_wirePerPayload[m.decl.src], 1.0);
    }
    if (!m.qp)
    {
        if (d.rateCap > 0)
        {
            Start(m, cls, cap); // a paused message waits for a decision that lets it go
        }
        return;
    }
    if (cls != m.cls)
    {
        m.qp->SetPriorityClass(cls);
        m.cls = cls;
        m_classChanges++;
    }
    if (cap != m.capBps)
    {
        // CapTolerance: a small change of a running cap stands (0 = none and the paused pace
        // differ from any cap by far more)
        if (cap > 0 && m.capBps > 0 && std::fabs(cap - m.capBps) <= m_capTolerance * m.capBps)
        {
            m_capSkipped++;
            return;
        }
        m.qp->SetMaxRate(DataRate(uint64_t(cap)));
        m.capBps = cap;
        m_capChanges++;
    }
}

void
RdmaFlowScheduler::Start(Message& m, uint8_t cls, double capBps)
{
    NS_LOG_FUNCTION(this << cls << capBps);
    Peer& peer = m_peers[{PeekPointer(m.src), PeekPointer(m.dst)}];
    Ptr<MessageConnection> qp;
    if (!peer.idle.empty())
    {
        qp = peer.idle.back();
        peer.idle.pop_back();
        qp->SetPriorityClass(cls); // idle: takes effect at once
    }
    else
    {
        qp = m.src->Open(m.dst, cls);
        m_qps++;
    }
    qp->SetMaxRate(DataRate(uint64_t(capBps)));
    m.qp = qp;
    m.cls = cls;
    m.capBps = capBps;
    m.sentBase = qp->GetBytesSent();
    m.record.start = Simulator::Now();
    m_onQp[{m.src->GetAddress().Get(), qp->GetQpn()}] = m.decl.id;
    const uint64_t id = m.decl.id;
    NS_LOG_DEBUG("start flow " << id << " qp " << qp->GetQpn() << " class " << unsigned(cls)
                               << " cap " << capBps);
    qp->PostSend(
        m.decl.bytes,
        MessageConnection::CompletionCallback([this, id](uint64_t, uint64_t) { OnCompleted(id); }));
}

void
RdmaFlowScheduler::OnMessageRx(Ipv4Address src, uint32_t srcQpn, uint64_t)
{
    NS_LOG_FUNCTION(this << src << srcQpn);
    auto it = m_onQp.find({src.Get(), srcQpn});
    if (it == m_onQp.end())
    {
        return; // not a scheduled message
    }
    auto mit = m_msgs.find(it->second);
    if (mit == m_msgs.end())
    {
        return;
    }
    mit->second.record.received = Simulator::Now();
    NS_LOG_DEBUG("received flow " << it->second);
    MessageCallback cb = mit->second.onReceived;
    if (!cb.IsNull())
    {
        cb();
    }
}

void
RdmaFlowScheduler::OnCompleted(uint64_t id)
{
    NS_LOG_FUNCTION(this << id);
    auto it = m_msgs.find(id);
    if (it == m_msgs.end())
    {
        return;
    }
    Message m = std::move(it->second);
    m_msgs.erase(it);
    m.record.completed = Simulator::Now();
    NS_LOG_DEBUG("completed flow " << id);
    m_central.CompleteFlow(id);
    if (m.scope != kAll)
    {
        m_local.at(m.scope).CompleteFlow(id);
    }
    m_onQp.erase({m.src->GetAddress().Get(), m.qp->GetQpn()});
    m.qp->SetMaxRate(DataRate(0));
    m_peers[{PeekPointer(m.src), PeekPointer(m.dst)}].idle.push_back(m.qp);
    const uint64_t groupId = m.decl.group;
    GroupBook& g = m_groups.at(groupId);
    g.done++;
    g.waiting.push_back(m.record);
    const bool all = g.spec.expectedFlows != 0 && g.done >= g.spec.expectedFlows;
    if (all || g.spec.expectedFlows == 0)
    {
        Finish(g, groupId, all);
    }
    Trigger(m.scope);
    if (!m.onCompleted.IsNull())
    {
        m.onCompleted();
    }
}

void
RdmaFlowScheduler::Finish(GroupBook& g, uint64_t groupId, bool all)
{
    NS_LOG_FUNCTION(this << groupId << all);
    const EchelonFlowPolicy::Reference ref = m_reference->ComputeReference(m_central, groupId);
    for (auto& r : g.waiting)
    {
        FlowSchedulingState::Flow f;
        f.decl = r.decl;
        f.release = r.release.GetSeconds();
        f.remaining = 0;
        r.idealFinish = Seconds(EchelonFlowPolicy::IdealFinish(m_central, f, ref));
        m_flowTrace(r);
    }
    g.waiting.clear();
    if (all)
    {
        m_central.ForgetGroup(groupId);
        for (auto& [port, local] : m_local)
        {
            if (local.HasGroup(groupId))
            {
                local.ForgetGroup(groupId);
            }
        }
        m_groups.erase(groupId);
    }
}

uint64_t
RdmaFlowScheduler::GetPostedFlows() const
{
    return m_posted;
}

uint64_t
RdmaFlowScheduler::GetAppliedDecisions() const
{
    return m_applied;
}

uint64_t
RdmaFlowScheduler::GetEvaluations() const
{
    return m_evaluations;
}

uint64_t
RdmaFlowScheduler::GetClassChanges() const
{
    return m_classChanges;
}

uint64_t
RdmaFlowScheduler::GetCapChanges() const
{
    return m_capChanges;
}

uint64_t
RdmaFlowScheduler::GetCapChangesSkipped() const
{
    return m_capSkipped;
}

uint32_t
RdmaFlowScheduler::GetQueuePairs() const
{
    return m_qps;
}

} // namespace ns3
