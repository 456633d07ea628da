/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MLNET_PERIODIC_JOB_H
#define MLNET_PERIODIC_JOB_H

#include "training-job.h"

#include "ns3/message-transport.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-queue-pair.h"

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The simplest training job: compute for ComputeTime, then send MessageBytes to a peer
 * on one message connection, repeat.
 *
 * The connection is an RDMA queue pair at packet level (SetQueuePair) or a FluidConnection of
 * the flow backend (SetConnection with FluidTransport::Open()). Each iteration starts with
 * StartIteration(MessageBytes) on it (for iteration-aware congestion control; ignored at flow
 * level), computes, posts the message, and ends when the message is acknowledged. Alone on an
 * idle path the iteration time is ComputeTime + MessageBytes / goodput + a round trip.
 *
 * Compute jitter: iteration i computes for ComputeTime x max(0, 1 + X_i), X_i drawn from the
 * ComputeJitter random variable (default: none, no jitter and no random stream). NormalJitter(cv)
 * makes the usual choice, a normal X with mean 0 and standard deviation cv (bounded to |X| <= 1
 * so the compute time stays >= 0 and its mean stays ComputeTime). Draws come from an ns-3 stream,
 * so RngRun changes them and the same run repeats bit for bit; AssignStreams fixes the stream.
 * The first iteration starts StartTime after Start() (the start offset between jobs).
 * The job sends in its PriorityClass (TrainingJob): the queue pair's class is set to it.
 */
class PeriodicJob : public TrainingJob
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    PeriodicJob();
    ~PeriodicJob() override;

    /// \param qp the queue pair the job sends on (SetConnection of a queue pair)
    void SetQueuePair(Ptr<RdmaQueuePair> qp);
    /// \return the queue pair (null if the connection is not one)
    Ptr<RdmaQueuePair> GetQueuePair() const;
    /**
     * \param c the connection the job sends on, of either backend (required before Start())
     * \throws std::invalid_argument if c is null
     */
    void SetConnection(Ptr<MessageConnection> c);
    /// \return the connection
    Ptr<MessageConnection> GetConnection() const;

    /**
     * A relative jitter X ~ Normal(0, cv^2) bounded to |X| <= 1, for the ComputeJitter attribute.
     * \param cv coefficient of variation of the compute time, in [0, 1] (0 = the constant 0)
     * \return the random variable
     * \throws std::invalid_argument if cv is outside [0, 1] or not finite
     */
    static Ptr<RandomVariableStream> NormalJitter(double cv);

    /**
     * Stream index the scenario runner and the Python bindings give the compute jitter of the
     * j-th periodic job they create: JITTER_STREAM_BASE + j (the fabric's switches start at 1000).
     */
    static constexpr int64_t JITTER_STREAM_BASE = 5000;

    /**
     * Compute time of one iteration: ComputeTime x max(0, 1 + X), X drawn from ComputeJitter.
     * \return the drawn compute time (>= 0)
     */
    Time DrawComputeTime();

    /**
     * Fix the random stream of ComputeJitter.
     * \param stream first stream index
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;
    void DoStartIteration() override;

  private:
    void Communicate();
    void OnSent(uint64_t id, uint64_t bytes);

    Ptr<MessageConnection> m_conn;      //!< the queue pair or fluid connection it sends on
    Time m_compute;                     //!< mean compute phase
    Ptr<RandomVariableStream> m_jitter; //!< relative deviation X of each compute phase
    Time m_iterCompute;                 //!< this iteration's compute phase
    uint64_t m_bytes{0};
    Time m_posted;
};

} // namespace ns3

#endif /* MLNET_PERIODIC_JOB_H */
