/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pipeline-parallel-job.h"

#include "rdma-message-dispatcher.h"

#include "ns3/enum.h"
#include "ns3/fabric-net-device.h"
#include "ns3/log.h"
#include "ns3/mlnet-enum-accessor.h"
#include "ns3/rdma-flow-scheduler.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PipelineParallelJob");
NS_OBJECT_ENSURE_REGISTERED(PipelineParallelJob);

namespace
{
constexpr uint32_t kMaxStages = 4096;
constexpr uint32_t kMaxMicroBatches = 65536;
} // namespace

TypeId
PipelineParallelJob::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PipelineParallelJob")
            .SetParent<TrainingJob>()
            .SetGroupName("Mlnet")
            .AddConstructor<PipelineParallelJob>()
            .AddAttribute("Schedule",
                          "Pipeline schedule: GPipe or 1F1B",
                          EnumValue(GPIPE),
                          MakeEnumMemberAccessor(&PipelineParallelJob::m_scheduleType),
                          MakeEnumChecker(GPIPE, "GPipe", ONE_F_ONE_B, "1F1B"))
            .AddAttribute("MicroBatches",
                          "Micro-batches per iteration (1..65536)",
                          UintegerValue(4),
                          MakeUintegerAccessor(&PipelineParallelJob::m_microBatches),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ForwardTime",
                          "Forward time of one micro-batch on one stage (>= 0)",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&PipelineParallelJob::m_forward),
                          MakeTimeChecker())
            .AddAttribute("BackwardTime",
                          "Backward time of one micro-batch on one stage (>= 0)",
                          TimeValue(MicroSeconds(200)),
                          MakeTimeAccessor(&PipelineParallelJob::m_backward),
                          MakeTimeChecker())
            .AddAttribute("ActivationBytes",
                          "Bytes of the activations of one micro-batch sent to the next stage "
                          "(the gradients sent back have the same size; >= 1)",
                          UintegerValue(1000000),
                          MakeUintegerAccessor(&PipelineParallelJob::m_activationBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("DeclaredStageTime",
                          "Stage time the job declares for its EchelonFlows to a flow "
                          "scheduler (0 = the receiving stage's ForwardTime or BackwardTime); "
                          "a deliberately wrong value exercises the scheduler's self-correction",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&PipelineParallelJob::m_declaredStage),
                          MakeTimeChecker(Time(0)));
    return tid;
}

PipelineParallelJob::PipelineParallelJob() = default;
PipelineParallelJob::~PipelineParallelJob() = default;

void
PipelineParallelJob::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_stages.clear();
    m_fwdQp.clear();
    m_bwdQp.clear();
    TrainingJob::DoDispose();
}

void
PipelineParallelJob::SetStages(const std::vector<Ptr<MessageTransport>>& stages)
{
    NS_LOG_FUNCTION(this);
    if (m_prepared)
    {
        throw std::invalid_argument("PipelineParallelJob::SetStages: the job already runs");
    }
    if (stages.empty() || stages.size() > kMaxStages)
    {
        throw std::invalid_argument("PipelineParallelJob::SetStages: stages must be in [1, " +
                                    std::to_string(kMaxStages) + "], got " +
                                    std::to_string(stages.size()));
    }
    std::set<MessageTransport*> seen;
    for (std::size_t s = 0; s < stages.size(); ++s)
    {
        if (!stages[s])
        {
            throw std::invalid_argument("PipelineParallelJob::SetStages: stage " +
                                        std::to_string(s) + " is null");
        }
        if (!seen.insert(PeekPointer(stages[s])).second)
        {
            throw std::invalid_argument("PipelineParallelJob::SetStages: stage " +
                                        std::to_string(s) +
                                        " repeats a NIC (stages must be "
                                        "distinct hosts)");
        }
    }
    m_stages = stages;
}

uint32_t
PipelineParallelJob::GetNStages() const
{
    return m_stages.size();
}

void
PipelineParallelJob::Validate() const
{
    NS_LOG_FUNCTION(this);
    if (m_stages.empty())
    {
        throw std::invalid_argument("PipelineParallelJob: no stages (call SetStages)");
    }
    if (m_microBatches < 1 || m_microBatches > kMaxMicroBatches)
    {
        throw std::invalid_argument("PipelineParallelJob: MicroBatches must be in [1, " +
                                    std::to_string(kMaxMicroBatches) + "], got " +
                                    std::to_string(m_microBatches));
    }
    if (m_forward.IsStrictlyNegative())
    {
        throw std::invalid_argument("PipelineParallelJob: ForwardTime must be >= 0, got " +
                                    std::to_string(m_forward.GetSeconds()) + " s");
    }
    if (m_backward.IsStrictlyNegative())
    {
        throw std::invalid_argument("PipelineParallelJob: BackwardTime must be >= 0, got " +
                                    std::to_string(m_backward.GetSeconds()) + " s");
    }
    if (m_activationBytes < 1)
    {
        throw std::invalid_argument("PipelineParallelJob: ActivationBytes must be >= 1, got 0");
    }
}

PipelineSchedule
PipelineParallelJob::GetSchedule() const
{
    Validate();
    const uint32_t S = m_stages.size();
    return m_scheduleType == GPIPE ? PipelineSchedule::Gpipe(S, m_microBatches)
                                   : PipelineSchedule::OneFOneB(S, m_microBatches);
}

Time
PipelineParallelJob::GetComputeTime() const
{
    return (m_forward + m_backward) * int64_t(m_microBatches);
}

uint64_t
PipelineParallelJob::GetActivationBytes() const
{
    return m_activationBytes;
}

const std::vector<std::vector<PipelineOpTiming>>&
PipelineParallelJob::GetLastOpTimings() const
{
    return m_lastTimings;
}

void
PipelineParallelJob::Prepare()
{
    NS_LOG_FUNCTION(this);
    PipelineSchedule sched = GetSchedule(); // validates
    m_ops = sched.GetAllOps();
    m_ideal.assign(m_stages.size(), std::vector<std::pair<double, double>>(m_microBatches));
    const auto ideal = sched.Execute(m_forward.GetSeconds(), m_backward.GetSeconds());
    for (uint32_t s = 0; s < ideal.size(); ++s)
    {
        for (const auto& t : ideal[s])
        {
            (t.op.type == PipelineOp::FORWARD ? m_ideal[s][t.op.microBatch].first
                                              : m_ideal[s][t.op.microBatch].second) = t.start;
        }
    }
    const uint32_t S = m_stages.size();
    const uint32_t links = S - 1;
    m_fwdQp.assign(links, nullptr);
    m_bwdQp.assign(links, nullptr);
    m_fwdRx.assign(links, {});
    m_bwdRx.assign(links, {});
    m_fwdAck.assign(links, {});
    m_bwdAck.assign(links, {});
    for (uint32_t l = 0; l < links; ++l)
    {
        Ptr<MessageTransport> up = m_stages[l];
        Ptr<MessageTransport> down = m_stages[l + 1];
        m_fwdQp[l] = up->Open(down, m_class);
        RdmaMessageDispatcher::Get(down)->Register(
            up->GetAddress(),
            m_fwdQp[l]->GetQpn(),
            RdmaMessageDispatcher::ReceiveCallback(
                [this, l](Ipv4Address, uint32_t, uint64_t) { OnReceived(l, true); }));
        m_bwdQp[l] = down->Open(up, m_class);
        RdmaMessageDispatcher::Get(up)->Register(
            down->GetAddress(),
            m_bwdQp[l]->GetQpn(),
            RdmaMessageDispatcher::ReceiveCallback(
                [this, l](Ipv4Address, uint32_t, uint64_t) { OnReceived(l, false); }));
    }
    m_prepared = true;
}

void
PipelineParallelJob::DoStartIteration()
{
    NS_LOG_FUNCTION(this);
    if (!m_prepared)
    {
        Prepare();
    }
    const uint32_t S = m_stages.size();
    m_actReady.assign(S, std::vector<bool>(m_microBatches, false));
    m_gradReady.assign(S, std::vector<bool>(m_microBatches, false));
    m_next.assign(S, 0);
    m_busy.assign(S, false);
    m_busyTime.assign(S, Time(0));
    m_timings.assign(S, {});
    m_fwdSent.assign(S, 0);
    m_bwdSent.assign(S, 0);
    m_stagesDone = 0;
    for (uint32_t s = 0; s < S; ++s)
    {
        TryRun(s);
    }
}

void
PipelineParallelJob::TryRun(uint32_t s)
{
    NS_LOG_FUNCTION(this << s);
    if (m_busy[s] || m_next[s] >= m_ops[s].size())
    {
        return;
    }
    const PipelineOp& op = m_ops[s][m_next[s]];
    const uint32_t S = m_stages.size();
    bool ready;
    if (op.type == PipelineOp::FORWARD)
    {
        ready = s == 0 || m_actReady[s][op.microBatch];
    }
    else
    {
        ready = s == S - 1 || m_gradReady[s][op.microBatch];
    }
    if (!ready)
    {
        return;
    }
    m_busy[s] = true;
    Time t = op.type == PipelineOp::FORWARD ? m_forward : m_backward;
    PipelineOpTiming timing;
    timing.op = op;
    timing.start = (Simulator::Now() - GetIterationStart()).GetSeconds();
    m_timings[s].push_back(timing);
    NS_LOG_LOGIC(GetJobName() << " stage " << s << " starts " << op.ToString());
    Simulator::Schedule(t, &PipelineParallelJob::OpDone, this, s);
}

void
PipelineParallelJob::OpDone(uint32_t s)
{
    NS_LOG_FUNCTION(this << s);
    const PipelineOp op = m_ops[s][m_next[s]];
    const uint32_t S = m_stages.size();
    m_busy[s] = false;
    m_busyTime[s] += op.type == PipelineOp::FORWARD ? m_forward : m_backward;
    m_timings[s].back().end = (Simulator::Now() - GetIterationStart()).GetSeconds();
    ++m_next[s];
    NS_LOG_LOGIC(GetJobName() << " stage " << s << " finished " << op.ToString());
    if (op.type == PipelineOp::FORWARD && s + 1 < S)
    {
        Post(s, true, op.microBatch);
    }
    else if (op.type == PipelineOp::BACKWARD && s > 0)
    {
        Post(s - 1, false, op.microBatch);
    }
    if (m_next[s] == m_ops[s].size())
    {
        ++m_stagesDone;
        if (m_stagesDone == S)
        {
            Time compute(0);
            for (const Time& b : m_busyTime)
            {
                compute = std::max(compute, b);
            }
            m_lastTimings = m_timings;
            EndIteration(compute);
        }
        return;
    }
    TryRun(s);
}

void
PipelineParallelJob::Post(uint32_t link, bool forward, uint32_t microBatch)
{
    NS_LOG_FUNCTION(this << link << forward << microBatch);
    if (PostScheduled(link, forward, microBatch))
    {
        return;
    }
    Pending p{microBatch, Simulator::Now()};
    Ptr<MessageConnection> qp = forward ? m_fwdQp[link] : m_bwdQp[link];
    (forward ? m_fwdRx : m_bwdRx)[link].push_back(p);
    (forward ? m_fwdAck : m_bwdAck)[link].push_back(p);
    qp->PostSend(m_activationBytes,
                 MessageConnection::CompletionCallback(
                     [this, link, forward](uint64_t, uint64_t) { OnAcked(link, forward); }));
}

void
PipelineParallelJob::OnReceived(uint32_t link, bool forward)
{
    NS_LOG_FUNCTION(this << link << forward);
    auto& q = (forward ? m_fwdRx : m_bwdRx)[link];
    NS_ASSERT_MSG(!q.empty(), "PipelineParallelJob: unexpected message on link " << link);
    const uint32_t mb = q.front().microBatch;
    q.pop_front();
    Deliver(link, forward, mb);
}

void
PipelineParallelJob::Deliver(uint32_t link, bool forward, uint32_t mb)
{
    NS_LOG_FUNCTION(this << link << forward << mb);
    if (forward)
    {
        m_actReady[link + 1][mb] = true;
        TryRun(link + 1);
    }
    else
    {
        m_gradReady[link][mb] = true;
        TryRun(link);
    }
}

bool
PipelineParallelJob::PostScheduled(uint32_t link, bool forward, uint32_t microBatch)
{
    NS_LOG_FUNCTION(this << link << forward << microBatch);
    // A flow scheduler applies its decisions to the connections (either backend).
    Ptr<MessageTransport> src = m_stages[forward ? link : link + 1];
    Ptr<MessageTransport> dst = m_stages[forward ? link + 1 : link];
    Ptr<RdmaFlowScheduler> fs = src && dst ? RdmaFlowScheduler::Find(src) : nullptr;
    if (!fs)
    {
        return false;
    }
    FlowGroupSpec g;
    g.id =
        RdmaFlowScheduler::MakeGroupId(m_jobId, GetIterationsDone(), 2 * link + (forward ? 0 : 1));
    g.job = m_jobId;
    g.arrangement = FlowArrangement::Pipeline;
    g.stageTime = m_declaredStage.IsStrictlyPositive()
                      ? m_declaredStage.GetSeconds()
                      : (forward ? m_forward : m_backward).GetSeconds(); // receiver's op time
    g.expectedFlows = m_microBatches;
    g.priorities = m_microBatches;
    fs->DeclareGroup(g);
    uint32_t& sent = (forward ? m_fwdSent : m_bwdSent)[link];
    FlowDeclaration d;
    d.job = m_jobId;
    d.group = g.id;
    d.index = sent++;
    d.bytes = m_activationBytes;
    d.priority = d.index;
    const auto& ideal = m_ideal[forward ? link + 1 : link][microBatch];
    d.deadline = GetIterationStart().GetSeconds() + (forward ? ideal.first : ideal.second);
    const uint32_t srcStage = forward ? link : link + 1;
    const uint32_t dstStage = forward ? link + 1 : link;
    const Time posted = Simulator::Now();
    fs->Post(src,
             dst,
             d,
             RdmaFlowScheduler::MessageCallback(
                 [this, link, forward, microBatch]() { Deliver(link, forward, microBatch); }),
             RdmaFlowScheduler::MessageCallback([this, srcStage, dstStage, posted]() {
                 RecordMessage(srcStage, dstStage, m_activationBytes, m_class, posted);
             }));
    return true;
}

void
PipelineParallelJob::OnAcked(uint32_t link, bool forward)
{
    NS_LOG_FUNCTION(this << link << forward);
    auto& q = (forward ? m_fwdAck : m_bwdAck)[link];
    NS_ASSERT(!q.empty());
    const Pending p = q.front();
    q.pop_front();
    const uint32_t src = forward ? link : link + 1;
    const uint32_t dst = forward ? link + 1 : link;
    RecordMessage(src, dst, m_activationBytes, m_class, p.posted);
}

} // namespace ns3
