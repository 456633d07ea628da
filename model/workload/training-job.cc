/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-job.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingJob");
NS_OBJECT_ENSURE_REGISTERED(TrainingJob);

TypeId
TrainingJob::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TrainingJob")
            .SetParent<Object>()
            .SetGroupName("Mlnet")
            .AddAttribute("JobName",
                          "Name of the job in the records",
                          StringValue("job"),
                          MakeStringAccessor(&TrainingJob::m_name),
                          MakeStringChecker())
            .AddAttribute("JobId",
                          "Numeric id of the job in the records",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TrainingJob::m_jobId),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Iterations",
                          "Iterations to run (0 = until the simulation stops)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TrainingJob::m_iterations),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("StartTime",
                          "Delay from Start() to the first iteration (>= 0)",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&TrainingJob::m_startTime),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("MinIterationPeriod",
                          "Minimum time between the starts of consecutive iterations (time, "
                          ">= 0; 0 = no cap): a faster job idles until the next period",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&TrainingJob::m_minPeriod),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("RecordMessages",
                          "Keep a record of every message (FCT)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&TrainingJob::m_recordMessages),
                          MakeBooleanChecker())
            .AddAttribute("PriorityClass",
                          DataClass::Help("everything the job sends: its collectives, "
                                          "parameter-server pushes and pulls, aggregation "
                                          "packets, pipeline and tensor-parallel messages"),
                          UintegerValue(DataClass::DEFAULT),
                          MakeUintegerAccessor(&TrainingJob::m_class),
                          DataClass::Checker())
            .AddTraceSource("IterationEnd",
                            "An iteration finished",
                            MakeTraceSourceAccessor(&TrainingJob::m_iterationTrace),
                            "ns3::TrainingJob::IterationTracedCallback")
            .AddTraceSource("MessageDone",
                            "A message of the job was acknowledged",
                            MakeTraceSourceAccessor(&TrainingJob::m_messageTrace),
                            "ns3::TrainingJob::MessageTracedCallback");
    return tid;
}

TrainingJob::TrainingJob() = default;
TrainingJob::~TrainingJob() = default;

void
TrainingJob::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_finishedCb = FinishedCallback();
    m_waitEvent.Cancel();
    Object::DoDispose();
}

void
TrainingJob::Start()
{
    NS_LOG_FUNCTION(this);
    if (m_started)
    {
        throw std::logic_error("TrainingJob::Start: job " + m_name + " already started");
    }
    DoCheckConfiguration();
    m_started = true;
    Simulator::Schedule(m_startTime, &TrainingJob::BeginIteration, this);
}

void
TrainingJob::DoCheckConfiguration() const
{
    NS_LOG_FUNCTION(this);
}

void
TrainingJob::BeginIteration()
{
    NS_LOG_FUNCTION(this);
    m_iterStart = Simulator::Now();
    if (m_records.empty())
    {
        m_jobStart = m_iterStart;
    }
    else if (m_minPeriod.IsStrictlyPositive() && m_iterStart < m_busyStart + m_minPeriod)
    {
        // m_busyStart is still the previous iteration's
        NS_LOG_INFO(m_name << " iteration " << m_records.size() << " waits "
                           << (m_busyStart + m_minPeriod - m_iterStart).GetMicroSeconds()
                           << " us for MinIterationPeriod");
        m_waitEvent = Simulator::Schedule(m_busyStart + m_minPeriod - m_iterStart,
                                          &TrainingJob::BeginWork,
                                          this);
        return;
    }
    BeginWork();
}

void
TrainingJob::BeginWork()
{
    NS_LOG_FUNCTION(this);
    m_busyStart = Simulator::Now();
    NS_LOG_INFO(m_name << " iteration " << m_records.size() << " starts");
    DoStartIteration();
}

void
TrainingJob::EndIteration(Time compute)
{
    NS_LOG_FUNCTION(this << compute);
    IterationRecord r;
    r.job = m_name;
    r.jobId = m_jobId;
    r.iteration = m_records.size();
    r.start = m_iterStart;
    r.end = Simulator::Now();
    r.compute = compute;
    r.periodWait = m_busyStart - m_iterStart;
    r.exposedComm = r.end - m_busyStart - compute;
    r.gpuIdle = r.end - r.start - compute;
    m_records.push_back(r);
    m_iterationTrace(r);
    NS_LOG_INFO(m_name << " iteration " << r.iteration << " took " << r.Duration().GetMicroSeconds()
                       << " us (compute " << compute.GetMicroSeconds() << " us)");
    if (m_iterations != 0 && m_records.size() >= m_iterations)
    {
        m_finished = true;
        m_jobEnd = r.end;
        if (!m_finishedCb.IsNull())
        {
            m_finishedCb(this);
        }
        return;
    }
    Simulator::ScheduleNow(&TrainingJob::BeginIteration, this);
}

void
TrainingJob::RecordMessage(uint32_t src, uint32_t dst, uint64_t bytes, uint8_t cls, Time posted)
{
    NS_LOG_FUNCTION(this << src << dst << bytes << cls << posted);
    MessageRecord m;
    m.job = m_name;
    m.jobId = m_jobId;
    m.srcHost = src;
    m.dstHost = dst;
    m.bytes = bytes;
    m.priorityClass = cls;
    m.posted = posted;
    m.completed = Simulator::Now();
    if (m_recordMessages)
    {
        m_messages.push_back(m);
    }
    m_messageTrace(m);
}

Time
TrainingJob::GetIterationStart() const
{
    return m_busyStart;
}

bool
TrainingJob::IsFinished() const
{
    return m_finished;
}

uint64_t
TrainingJob::GetIterationsDone() const
{
    return m_records.size();
}

std::string
TrainingJob::GetJobName() const
{
    return m_name;
}

uint32_t
TrainingJob::GetJobId() const
{
    return m_jobId;
}

const std::vector<IterationRecord>&
TrainingJob::GetIterationRecords() const
{
    return m_records;
}

const std::vector<MessageRecord>&
TrainingJob::GetMessageRecords() const
{
    return m_messages;
}

JobRecord
TrainingJob::GetJobRecord() const
{
    JobRecord j;
    j.job = m_name;
    j.jobId = m_jobId;
    j.start = m_jobStart;
    j.end = m_jobEnd;
    j.iterations = m_records.size();
    j.finished = m_finished;
    return j;
}

Time
TrainingJob::GetMeanIterationTime(uint32_t skip) const
{
    if (m_records.size() <= skip)
    {
        return Time(0);
    }
    Time sum(0);
    for (std::size_t i = skip; i < m_records.size(); ++i)
    {
        sum += m_records[i].Duration();
    }
    return sum / int64_t(m_records.size() - skip);
}

std::vector<double>
TrainingJob::GetSteadyStateIterationSeconds(uint32_t warmup) const
{
    std::size_t end = m_records.size();
    if (m_finished && end > 0)
    {
        --end;
    }
    std::vector<double> v;
    for (std::size_t i = warmup; i < end; ++i)
    {
        v.push_back(m_records[i].Duration().GetSeconds());
    }
    return v;
}

SampleSummary
TrainingJob::GetSteadyStateIterationTime(uint32_t warmup) const
{
    return SampleSummary::Of(GetSteadyStateIterationSeconds(warmup));
}

void
TrainingJob::SetFinishedCallback(FinishedCallback cb)
{
    NS_LOG_FUNCTION(this);
    m_finishedCb = cb;
}

} // namespace ns3
