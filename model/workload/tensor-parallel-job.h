/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MLNET_TENSOR_PARALLEL_JOB_H
#define MLNET_TENSOR_PARALLEL_JOB_H

#include "collective.h"
#include "training-job.h"

#include "ns3/rdma-nic.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Tensor-parallel (Megatron-style) training of a tensor-parallel group of n hosts:
 * every layer's output is all-reduced among the group before the next layer can run.
 *
 * Iteration: for each of the Layers layers, every rank computes ForwardTime, then the group
 * runs a ring all-reduce (RingAllReduce) of AllReduceBytes; the next layer starts when the
 * all-reduce is done at every rank. The backward pass does the same with BackwardTime per
 * layer. The ranks compute in lockstep (identical shards), so compute = Layers x
 * (ForwardTime + BackwardTime) and the exposed communication is the time of the 2 x Layers
 * all-reduces, which are never overlapped with compute.
 *
 * With RecordMessages, each all-reduce adds one message record per rank: source = rank,
 * destination = its ring successor, bytes = the bytes the rank sent (2(n-1)/n x
 * AllReduceBytes), posted = start of the all-reduce, completed = when the rank is done.
 *
 * Attribute ranges are checked by Validate() (called by the first iteration), which throws
 * std::invalid_argument naming the parameter and its range.
 */
class TensorParallelJob : public TrainingJob
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    TensorParallelJob();
    ~TensorParallelJob() override;

    /**
     * \param group the group's transports (RDMA NICs, or FluidTransports at flow level), rank
     *        i = group[i] (2..4096 distinct, non-null)
     * \throws std::invalid_argument on a bad group or once the first iteration has started
     */
    void SetGroup(const std::vector<Ptr<MessageTransport>>& group);

    /// As SetGroup() above, for RDMA NICs (or any transports). \param group the NICs
    template <class T>
    void SetGroup(const std::vector<Ptr<T>>& group)
    {
        SetGroup(std::vector<Ptr<MessageTransport>>(group.begin(), group.end()));
    }

    /// \return the group size n
    uint32_t GetGroupSize() const;

    /**
     * Check the configuration: group set, Layers in [1, 1000000], ForwardTime and BackwardTime
     * >= 0, AllReduceBytes >= n (one byte per ring chunk), PriorityClass (TrainingJob) in [0, 6],
     * SubChunks in [1, 1024]. \throws std::invalid_argument naming the first bad parameter and its
     * range
     */
    void Validate() const;

    /// \return compute per iteration, Layers x (ForwardTime + BackwardTime)
    Time GetComputeTime() const;
    /// \return the all-reduce used by the job (null before the first iteration)
    Ptr<RingAllReduce> GetAllReduce() const;

  protected:
    void DoDispose() override;
    void DoStartIteration() override;

  private:
    void Prepare();
    void Step();
    void ComputeDone();
    void OnRankDone(uint32_t rank, uint64_t sent, uint64_t received);
    void AllReduceDone();

    std::vector<Ptr<MessageTransport>> m_group;
    uint32_t m_layers{4};
    Time m_forward;
    Time m_backward;
    uint64_t m_bytes{1000000};
    uint32_t m_subChunks{1};

    Ptr<RingAllReduce> m_allReduce;
    uint32_t m_step{0}; //!< 0..2L-1: forward layers, then backward layers
    Time m_arPosted;
};

} // namespace ns3

#endif /* MLNET_TENSOR_PARALLEL_JOB_H */
