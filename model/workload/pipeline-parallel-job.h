/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MLNET_PIPELINE_PARALLEL_JOB_H
#define MLNET_PIPELINE_PARALLEL_JOB_H

#include "pipeline-schedule.h"
#include "training-job.h"

#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"

#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Pipeline-parallel training: S stages on S hosts, M micro-batches per iteration,
 * executed along a GPipe or 1F1B PipelineSchedule, with activations and gradients as RDMA
 * messages between adjacent stages.
 *
 * Stage s runs the op list PipelineSchedule::GetOps(s) strictly in order, one op at a time:
 *  - Forward(m) takes ForwardTime; on a stage s > 0 it starts only once the activations of
 *    micro-batch m from stage s-1 have been received; when it ends, stage s (< S-1) posts
 *    ActivationBytes to stage s+1;
 *  - Backward(m) takes BackwardTime; on a stage s < S-1 it starts only once the gradients of
 *    micro-batch m from stage s+1 have been received; when it ends, stage s (> 0) posts
 *    ActivationBytes of gradients to stage s-1.
 * Each direction of each adjacent pair uses one queue pair (created at the first iteration,
 * reused afterwards); messages on a queue pair arrive in order, and arrivals are matched
 * through the receiver's RdmaMessageDispatcher. Sending does not block the stage (the NIC
 * transfers while the GPU computes).
 *
 * An iteration ends when every op of every stage is done (every message has then been
 * received; only the acknowledgements of the last messages may still be on their way, they
 * only complete the message records). The iteration's compute time is the busy time of the
 * busiest stage, M x (ForwardTime + BackwardTime) since stages are uniform, so that
 * compute + exposed communication = iteration time, the exposed part being the pipeline
 * bubble plus the communication waits seen by that stage. (The sum over stages would exceed
 * the iteration time.)
 *
 * With a RdmaFlowScheduler on a stage's NIC, its messages are posted through the scheduler,
 * declared as an EchelonFlow per link, direction and iteration (Pipeline arrangement with the
 * receiving stage's op time, index = order of sending, deadline = the consuming op's start in
 * the ideal schedule).
 *
 * Attribute ranges are checked by Validate() (called by the first iteration), which throws
 * std::invalid_argument naming the parameter and its range.
 */
class PipelineParallelJob : public TrainingJob
{
  public:
    /// Pipeline schedule.
    enum ScheduleType
    {
        GPIPE,       //!< GPipe: all forwards, then all backwards
        ONE_F_ONE_B, //!< 1F1B (PipeDream-Flush)
    };

    /// \return the TypeId
    static TypeId GetTypeId();
    PipelineParallelJob();
    ~PipelineParallelJob() override;

    /**
     * \param stages the stages' transports (RDMA NICs, or FluidTransports at flow level),
     *        stage s = stages[s] (1..4096 distinct, non-null)
     * \throws std::invalid_argument on a bad list or once the first iteration has started
     */
    void SetStages(const std::vector<Ptr<MessageTransport>>& stages);

    /// As SetStages() above, for RDMA NICs (or any transports). \param stages the NICs
    template <class T>
    void SetStages(const std::vector<Ptr<T>>& stages)
    {
        SetStages(std::vector<Ptr<MessageTransport>>(stages.begin(), stages.end()));
    }

    /// \return number of stages S
    uint32_t GetNStages() const;

    /**
     * Check the configuration: stages set, MicroBatches in [1, 65536], ForwardTime and
     * BackwardTime >= 0, ActivationBytes >= 1, PriorityClass (TrainingJob) in [0, 6].
     * \throws std::invalid_argument naming the first bad parameter and its range
     */
    void Validate() const;

    /// \return the schedule the stages execute (Validate() must pass)
    PipelineSchedule GetSchedule() const;
    /// \return busy time of one stage per iteration, M x (ForwardTime + BackwardTime)
    Time GetComputeTime() const;
    /// \return bytes of one activation (or gradient) message
    uint64_t GetActivationBytes() const;
    /**
     * \return per-stage op timings of the last finished iteration, in list order, in seconds
     * from the iteration's start (empty before the first iteration ends)
     */
    const std::vector<std::vector<PipelineOpTiming>>& GetLastOpTimings() const;

  protected:
    void DoDispose() override;
    void DoStartIteration() override;

  private:
    /// A posted message whose arrival or acknowledgement is pending.
    struct Pending
    {
        uint32_t microBatch; //!< micro-batch
        Time posted;         //!< posting time
    };

    void Prepare();
    void TryRun(uint32_t stage);
    void OpDone(uint32_t stage);
    void Post(uint32_t link, bool forward, uint32_t microBatch);
    void OnReceived(uint32_t link, bool forward);
    /// The message of micro-batch mb on a link arrived: mark its input ready, run the stage.
    void Deliver(uint32_t link, bool forward, uint32_t mb);
    void OnAcked(uint32_t link, bool forward);
    /// \return false if the sender has no flow scheduler; else post the message through it
    bool PostScheduled(uint32_t link, bool forward, uint32_t microBatch);

    std::vector<Ptr<MessageTransport>> m_stages;
    ScheduleType m_scheduleType{GPIPE};
    uint32_t m_microBatches{4};
    Time m_forward;
    Time m_backward;
    uint64_t m_activationBytes{1000000};
    Time m_declaredStage; //!< stage time declared to a flow scheduler (0 = op time)

    bool m_prepared{false};
    std::vector<std::vector<PipelineOp>> m_ops;  //!< per stage
    std::vector<Ptr<MessageConnection>> m_fwdQp; //!< link s: stage s -> s+1
    std::vector<Ptr<MessageConnection>> m_bwdQp; //!< link s: stage s+1 -> s
    std::vector<std::deque<Pending>> m_fwdRx;    //!< link s: posted, not yet received
    std::vector<std::deque<Pending>> m_bwdRx;    //!< link s: posted, not yet received
    std::vector<std::deque<Pending>> m_fwdAck;   //!< link s: posted, not yet acknowledged
    std::vector<std::deque<Pending>> m_bwdAck;   //!< link s: posted, not yet acknowledged
    std::vector<std::vector<bool>> m_actReady;   //!< [stage][mb] activations received
    std::vector<std::vector<bool>> m_gradReady;  //!< [stage][mb] gradients received
    std::vector<uint32_t> m_next;                //!< per stage: next op index
    std::vector<bool> m_busy;                    //!< per stage: an op runs
    std::vector<Time> m_busyTime;                //!< per stage: compute in this iteration
    uint32_t m_stagesDone{0};
    std::vector<std::vector<PipelineOpTiming>> m_timings;        //!< current iteration
    std::vector<std::vector<PipelineOpTiming>> m_lastTimings;    //!< last finished iteration
    std::vector<std::vector<std::pair<double, double>>> m_ideal; //!< [stage][mb] ideal F, B start
    std::vector<uint32_t> m_fwdSent; //!< link s: scheduled activations sent this iteration
    std::vector<uint32_t> m_bwdSent; //!< link s: scheduled gradients sent this iteration
};

} // namespace ns3

#endif /* MLNET_PIPELINE_PARALLEL_JOB_H */
