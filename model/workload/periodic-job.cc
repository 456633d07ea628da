/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "periodic-job.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PeriodicJob");
NS_OBJECT_ENSURE_REGISTERED(PeriodicJob);

TypeId
PeriodicJob::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::PeriodicJob")
              .SetParent<TrainingJob>()
              .SetGroupName("Mlnet")
              .AddConstructor<PeriodicJob>()
              .AddAttribute("ComputeTime", "Compute phase of each iteration (>= 0)",
                            TimeValue(MilliSeconds(1)), MakeTimeAccessor(&PeriodicJob::m_compute),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("MessageBytes", "Bytes sent to the peer in each iteration (>= 1)",
                            UintegerValue(1000000), MakeUintegerAccessor(&PeriodicJob::m_bytes),
                            MakeUintegerChecker<uint64_t>(1));
    return tid;
}

PeriodicJob::PeriodicJob() = default;
PeriodicJob::~PeriodicJob() = default;

void
PeriodicJob::DoDispose()
{
    m_qp = nullptr;
    TrainingJob::DoDispose();
}

void
PeriodicJob::SetQueuePair(Ptr<RdmaQueuePair> qp)
{
    if (!qp)
    {
        throw std::invalid_argument("PeriodicJob::SetQueuePair: qp must not be null");
    }
    m_qp = qp;
}

Ptr<RdmaQueuePair>
PeriodicJob::GetQueuePair() const
{
    return m_qp;
}

void
PeriodicJob::DoStartIteration()
{
    if (!m_qp)
    {
        throw std::invalid_argument("PeriodicJob: no queue pair (call SetQueuePair)");
    }
    m_qp->StartIteration(m_bytes);
    Simulator::Schedule(m_compute, &PeriodicJob::Communicate, this);
}

void
PeriodicJob::Communicate()
{
    m_posted = Simulator::Now();
    m_qp->PostSend(m_bytes, MakeCallback(&PeriodicJob::OnSent, this));
}

void
PeriodicJob::OnSent(uint64_t id, uint64_t bytes)
{
    RecordMessage(0, 1, bytes, m_qp->GetPriorityClass(), m_posted);
    EndIteration(m_compute);
}

} // namespace ns3
