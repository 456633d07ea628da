/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MLNET_TRAINING_JOB_H
#define MLNET_TRAINING_JOB_H

#include "ns3/callback.h"
#include "ns3/data-class.h"
#include "ns3/event-id.h"
#include "ns3/job-records.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/sample-summary.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Base of training jobs: the iteration loop bookkeeping and the records.
 *
 * Start() schedules the first iteration after the StartTime attribute; a subclass runs its
 * iterations (DoStartIteration) and calls EndIteration() with the compute time of the
 * iteration; the base records it, fires the traces, and starts the next iteration until
 * Iterations are done (0 = run until the simulation stops).
 *
 * MinIterationPeriod caps the iteration rate for every subclass: iteration i's work
 * (DoStartIteration) begins no earlier than MinIterationPeriod after iteration i-1's began, so
 * a job faster than the period idles until the next period and moves one iteration's traffic
 * per period (a fixed offered load). The record of such an iteration starts when the previous
 * one ended and holds the wait (IterationRecord::periodWait): Duration() is the
 * period-inclusive time, BusyTime() the time from the actual start. A period at or below the
 * natural iteration time changes nothing (no event is added).
 */
class TrainingJob : public Object
{
  public:
    /// Trace of a finished iteration.
    typedef void (*IterationTracedCallback)(const IterationRecord& r);
    /// Trace of a finished message.
    typedef void (*MessageTracedCallback)(const MessageRecord& r);
    /// Called when the job finished all its iterations.
    typedef Callback<void, Ptr<TrainingJob>> FinishedCallback;

    /// \return the TypeId
    static TypeId GetTypeId();
    TrainingJob();
    ~TrainingJob() override;

    /// Schedule the job's first iteration StartTime from now. \throws std::logic_error if started
    void Start();
    /// \return true once all requested iterations are done
    bool IsFinished() const;
    /// \return iterations done
    uint64_t GetIterationsDone() const;
    /// \return the job name
    std::string GetJobName() const;
    /// \return the job id
    uint32_t GetJobId() const;
    /// \return per-iteration records
    const std::vector<IterationRecord>& GetIterationRecords() const;
    /// \return per-message records (when RecordMessages is true)
    const std::vector<MessageRecord>& GetMessageRecords() const;
    /// \return the job summary (JCT)
    JobRecord GetJobRecord() const;
    /// \return mean iteration time over the recorded iterations, skipping the first `skip`
    Time GetMeanIterationTime(uint32_t skip = 0) const;
    /**
     * Steady-state iteration times: the recorded iterations after the first `warmup`, without
     * the last one of a finished job (which also waits for its final synchronisation).
     * \param warmup iterations to skip \return their durations in seconds (may be empty)
     */
    std::vector<double> GetSteadyStateIterationSeconds(uint32_t warmup) const;
    /// \param warmup iterations to skip \return mean, p50, p99 of the steady-state durations (s)
    SampleSummary GetSteadyStateIterationTime(uint32_t warmup) const;
    /// \param cb called when the job finishes
    void SetFinishedCallback(FinishedCallback cb);

  protected:
    void DoDispose() override;
    /// Start iteration GetIterationsDone() now.
    virtual void DoStartIteration() = 0;
    /**
     * Check the configuration when Start() is called, before anything is scheduled, so a bad
     * configuration throws from Start() (std::invalid_argument) rather than from inside
     * Simulator::Run(). The default accepts everything.
     */
    virtual void DoCheckConfiguration() const;
    /**
     * Finish the current iteration now.
     * \param compute GPU busy time in the iteration
     */
    void EndIteration(Time compute);
    /**
     * Record a message.
     * \param src source rank/host \param dst destination \param bytes size
     * \param cls priority class \param posted posting time
     */
    void RecordMessage(uint32_t src, uint32_t dst, uint64_t bytes, uint8_t cls, Time posted);
    /// \return when the current iteration's work began (after any MinIterationPeriod wait)
    Time GetIterationStart() const;

    std::string m_name;                  //!< job name
    uint32_t m_jobId{0};                 //!< job id
    uint32_t m_iterations{0};            //!< iterations to run (0 = unlimited)
    Time m_startTime;                    //!< delay from Start() to the first iteration
    Time m_minPeriod{0};                 //!< minimum time between iteration starts (0 = no cap)
    bool m_recordMessages{true};         //!< keep per-message records
    uint8_t m_class{DataClass::DEFAULT}; //!< PriorityClass: the class of everything the job sends

  private:
    /// The previous iteration ended (or the job starts): begin the next one, or wait for the
    /// MinIterationPeriod.
    void BeginIteration();
    /// Begin the current iteration's work now.
    void BeginWork();

    bool m_started{false};
    bool m_finished{false};
    Time m_iterStart; //!< the current iteration's record start (the previous one's end)
    Time m_busyStart; //!< when the current iteration's work began
    EventId m_waitEvent;
    Time m_jobStart;
    Time m_jobEnd;
    std::vector<IterationRecord> m_records;
    std::vector<MessageRecord> m_messages;
    FinishedCallback m_finishedCb;
    TracedCallback<const IterationRecord&> m_iterationTrace;
    TracedCallback<const MessageRecord&> m_messageTrace;
};

} // namespace ns3

#endif /* MLNET_TRAINING_JOB_H */
