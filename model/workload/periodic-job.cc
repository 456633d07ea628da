/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "periodic-job.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PeriodicJob");
NS_OBJECT_ENSURE_REGISTERED(PeriodicJob);

TypeId
PeriodicJob::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PeriodicJob")
            .SetParent<TrainingJob>()
            .SetGroupName("Mlnet")
            .AddConstructor<PeriodicJob>()
            .AddAttribute("ComputeTime",
                          "Compute phase of each iteration (>= 0)",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&PeriodicJob::m_compute),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("ComputeJitter",
                          "Relative deviation X of each iteration's compute phase, which lasts "
                          "ComputeTime x max(0, 1 + X); none (the default) = no jitter. "
                          "PeriodicJob::NormalJitter(cv) gives X ~ Normal(0, cv^2), |X| <= 1",
                          PointerValue(),
                          MakePointerAccessor(&PeriodicJob::m_jitter),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("MessageBytes",
                          "Bytes sent to the peer in each iteration (>= 1)",
                          UintegerValue(1000000),
                          MakeUintegerAccessor(&PeriodicJob::m_bytes),
                          MakeUintegerChecker<uint64_t>(1));
    return tid;
}

PeriodicJob::PeriodicJob() = default;
PeriodicJob::~PeriodicJob() = default;

void
PeriodicJob::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_conn = nullptr;
    m_jitter = nullptr;
    TrainingJob::DoDispose();
}

Ptr<RandomVariableStream>
PeriodicJob::NormalJitter(double cv)
{
    NS_LOG_FUNCTION(cv);
    if (!std::isfinite(cv) || cv < 0.0 || cv > 1.0)
    {
        throw std::invalid_argument("PeriodicJob::NormalJitter: cv (coefficient of variation of "
                                    "the compute time) = " +
                                    std::to_string(cv) + " is out of range [0, 1]");
    }
    if (cv == 0.0)
    {
        Ptr<ConstantRandomVariable> zero = CreateObject<ConstantRandomVariable>();
        zero->SetAttribute("Constant", DoubleValue(0.0));
        return zero;
    }
    Ptr<NormalRandomVariable> x = CreateObject<NormalRandomVariable>();
    x->SetAttribute("Mean", DoubleValue(0.0));
    x->SetAttribute("Variance", DoubleValue(cv * cv));
    // symmetric bound: no negative compute time, and the mean stays 0
    x->SetAttribute("Bound", DoubleValue(1.0));
    return x;
}

int64_t
PeriodicJob::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    if (m_jitter)
    {
        m_jitter->SetStream(stream);
    }
    return 1;
}

Time
PeriodicJob::DrawComputeTime()
{
    NS_LOG_FUNCTION(this);
    if (!m_jitter)
    {
        return m_compute;
    }
    double factor = std::max(0.0, 1.0 + m_jitter->GetValue());
    return TimeStep(std::llround(double(m_compute.GetTimeStep()) * factor));
}

void
PeriodicJob::SetQueuePair(Ptr<RdmaQueuePair> qp)
{
    SetConnection(qp);
}

Ptr<RdmaQueuePair>
PeriodicJob::GetQueuePair() const
{
    return DynamicCast<RdmaQueuePair>(m_conn);
}

void
PeriodicJob::SetConnection(Ptr<MessageConnection> c)
{
    NS_LOG_FUNCTION(this << c);
    if (!c)
    {
        throw std::invalid_argument("PeriodicJob::SetConnection: the connection must not be null");
    }
    m_conn = c;
}

Ptr<MessageConnection>
PeriodicJob::GetConnection() const
{
    return m_conn;
}

void
PeriodicJob::DoStartIteration()
{
    NS_LOG_FUNCTION(this);
    if (!m_conn)
    {
        throw std::invalid_argument(
            "PeriodicJob: no connection (call SetQueuePair or SetConnection)");
    }
    if (m_conn->GetPriorityClass() != m_class)
    {
        m_conn->SetPriorityClass(m_class); // the job's class (PriorityClass) for all it sends
    }
    m_conn->StartIteration(m_bytes);
    m_iterCompute = DrawComputeTime();
    Simulator::Schedule(m_iterCompute, &PeriodicJob::Communicate, this);
}

void
PeriodicJob::Communicate()
{
    NS_LOG_FUNCTION(this);
    m_posted = Simulator::Now();
    m_conn->PostSend(m_bytes, MakeCallback(&PeriodicJob::OnSent, this));
}

void
PeriodicJob::OnSent(uint64_t id, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << id << bytes);
    RecordMessage(0, 1, bytes, m_conn->GetPriorityClass(), m_posted);
    EndIteration(m_iterCompute);
}

} // namespace ns3
