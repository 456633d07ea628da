/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tensor-parallel-job.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <set>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TensorParallelJob");
NS_OBJECT_ENSURE_REGISTERED(TensorParallelJob);

namespace
{
constexpr uint32_t kMaxGroup = 4096;
constexpr uint32_t kMaxLayers = 1000000;
} // namespace

TypeId
TensorParallelJob::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TensorParallelJob")
            .SetParent<TrainingJob>()
            .SetGroupName("Mlnet")
            .AddConstructor<TensorParallelJob>()
            .AddAttribute("Layers",
                          "Layers of the model (1..1000000)",
                          UintegerValue(4),
                          MakeUintegerAccessor(&TensorParallelJob::m_layers),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ForwardTime",
                          "Forward time of one layer on one rank (>= 0)",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&TensorParallelJob::m_forward),
                          MakeTimeChecker())
            .AddAttribute("BackwardTime",
                          "Backward time of one layer on one rank (>= 0)",
                          TimeValue(MicroSeconds(200)),
                          MakeTimeAccessor(&TensorParallelJob::m_backward),
                          MakeTimeChecker())
            .AddAttribute("AllReduceBytes",
                          "Bytes all-reduced among the group after each layer's forward and "
                          "backward (>= group size)",
                          UintegerValue(1000000),
                          MakeUintegerAccessor(&TensorParallelJob::m_bytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("SubChunks",
                          "Pipeline pieces per ring all-reduce chunk (1..1024)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TensorParallelJob::m_subChunks),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

TensorParallelJob::TensorParallelJob() = default;
TensorParallelJob::~TensorParallelJob() = default;

void
TensorParallelJob::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_group.clear();
    if (m_allReduce)
    {
        m_allReduce->Dispose();
        m_allReduce = nullptr;
    }
    TrainingJob::DoDispose();
}

void
TensorParallelJob::SetGroup(const std::vector<Ptr<MessageTransport>>& group)
{
    NS_LOG_FUNCTION(this);
    if (m_allReduce)
    {
        throw std::invalid_argument("TensorParallelJob::SetGroup: the job already runs");
    }
    if (group.size() < 2 || group.size() > kMaxGroup)
    {
        throw std::invalid_argument("TensorParallelJob::SetGroup: group size must be in [2, " +
                                    std::to_string(kMaxGroup) + "], got " +
                                    std::to_string(group.size()));
    }
    std::set<MessageTransport*> seen;
    for (std::size_t i = 0; i < group.size(); ++i)
    {
        if (!group[i])
        {
            throw std::invalid_argument("TensorParallelJob::SetGroup: rank " + std::to_string(i) +
                                        " is null");
        }
        if (!seen.insert(PeekPointer(group[i])).second)
        {
            throw std::invalid_argument("TensorParallelJob::SetGroup: rank " + std::to_string(i) +
                                        " repeats a NIC (ranks must be distinct hosts)");
        }
    }
    m_group = group;
}

uint32_t
TensorParallelJob::GetGroupSize() const
{
    return m_group.size();
}

void
TensorParallelJob::Validate() const
{
    NS_LOG_FUNCTION(this);
    if (m_group.empty())
    {
        throw std::invalid_argument("TensorParallelJob: no group (call SetGroup)");
    }
    if (m_layers < 1 || m_layers > kMaxLayers)
    {
        throw std::invalid_argument("TensorParallelJob: Layers must be in [1, " +
                                    std::to_string(kMaxLayers) + "], got " +
                                    std::to_string(m_layers));
    }
    if (m_forward.IsStrictlyNegative())
    {
        throw std::invalid_argument("TensorParallelJob: ForwardTime must be >= 0, got " +
                                    std::to_string(m_forward.GetSeconds()) + " s");
    }
    if (m_backward.IsStrictlyNegative())
    {
        throw std::invalid_argument("TensorParallelJob: BackwardTime must be >= 0, got " +
                                    std::to_string(m_backward.GetSeconds()) + " s");
    }
    if (m_bytes < m_group.size())
    {
        throw std::invalid_argument("TensorParallelJob: AllReduceBytes must be >= the group size " +
                                    std::to_string(m_group.size()) + ", got " +
                                    std::to_string(m_bytes));
    }
    if (m_subChunks < 1 || m_subChunks > 1024)
    {
        throw std::invalid_argument("TensorParallelJob: SubChunks must be in [1, 1024], got " +
                                    std::to_string(m_subChunks));
    }
}

Time
TensorParallelJob::GetComputeTime() const
{
    return (m_forward + m_backward) * int64_t(m_layers);
}

Ptr<RingAllReduce>
TensorParallelJob::GetAllReduce() const
{
    return m_allReduce;
}

void
TensorParallelJob::Prepare()
{
    NS_LOG_FUNCTION(this);
    Validate();
    m_allReduce = CreateObject<RingAllReduce>();
    m_allReduce->SetAttribute("PriorityClass", UintegerValue(m_class));
    m_allReduce->SetAttribute("SubChunks", UintegerValue(m_subChunks));
    m_allReduce->SetGroup(m_group);
    if (m_bytes < m_allReduce->GetMinBytes())
    {
        throw std::invalid_argument("TensorParallelJob: AllReduceBytes must be >= " +
                                    std::to_string(m_allReduce->GetMinBytes()) + ", got " +
                                    std::to_string(m_bytes));
    }
}

void
TensorParallelJob::DoStartIteration()
{
    NS_LOG_FUNCTION(this);
    if (!m_allReduce)
    {
        Prepare();
    }
    m_step = 0;
    Step();
}

void
TensorParallelJob::Step()
{
    NS_LOG_FUNCTION(this);
    if (m_step == 2 * m_layers)
    {
        EndIteration(GetComputeTime());
        return;
    }
    Time t = m_step < m_layers ? m_forward : m_backward;
    Simulator::Schedule(t, &TensorParallelJob::ComputeDone, this);
}

void
TensorParallelJob::ComputeDone()
{
    NS_LOG_FUNCTION(this);
    NS_LOG_LOGIC(GetJobName() << " step " << m_step << " computed, all-reduce starts");
    m_arPosted = Simulator::Now();
    m_allReduce->Start(m_bytes,
                       MakeCallback(&TensorParallelJob::OnRankDone, this),
                       MakeCallback(&TensorParallelJob::AllReduceDone, this));
}

void
TensorParallelJob::OnRankDone(uint32_t rank, uint64_t sent, uint64_t received)
{
    NS_LOG_FUNCTION(this << rank << sent << received);
    const uint32_t n = m_group.size();
    RecordMessage(rank, (rank + 1) % n, sent, m_class, m_arPosted);
}

void
TensorParallelJob::AllReduceDone()
{
    NS_LOG_FUNCTION(this);
    ++m_step;
    Step();
}

} // namespace ns3
