/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MLNET_PERIODIC_JOB_H
#define MLNET_PERIODIC_JOB_H

#include "ns3/rdma-queue-pair.h"
#include "training-job.h"

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The simplest training job: compute for ComputeTime, then send MessageBytes to a peer
 * on one queue pair, repeat.
 *
 * Each iteration starts with qp->StartIteration(MessageBytes) (for iteration-aware congestion
 * control), computes, posts the message, and ends when the message is acknowledged. Alone on an
 * idle path the iteration time is ComputeTime + MessageBytes / goodput + a round trip.
 */
class PeriodicJob : public TrainingJob
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    PeriodicJob();
    ~PeriodicJob() override;

    /// \param qp the queue pair the job sends on (required before Start())
    void SetQueuePair(Ptr<RdmaQueuePair> qp);
    /// \return the queue pair
    Ptr<RdmaQueuePair> GetQueuePair() const;

  protected:
    void DoDispose() override;
    void DoStartIteration() override;

  private:
    void Communicate();
    void OnSent(uint64_t id, uint64_t bytes);

    Ptr<RdmaQueuePair> m_qp;
    Time m_compute;
    uint64_t m_bytes{0};
    Time m_posted;
};

} // namespace ns3

#endif /* MLNET_PERIODIC_JOB_H */
