/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_BYTESCHEDULER_TENSOR_ORDER_H
#define MLNET_BYTESCHEDULER_TENSOR_ORDER_H

#include "tensor-order-policy.h"

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief ByteScheduler (Peng, Zhu, Chen, Bao, Yi, Lan, Wu, Guo, SOSP 2019).
 *
 * Tensors larger than PartitionSize parameters are partitioned into chunks of PartitionSize
 * (the last holds the rest); smaller tensors are sent whole. Every chunk's priority value is
 * its layer index from the input side (smaller = more urgent); the plan lists chunks by
 * priority, then tensor id, then offset. Credit-based preemption: at most Credit parameters
 * (GetCreditBytes() bytes) may be in flight; the scheduler sends the most urgent ready chunks
 * until the credit is used and sends more as chunks complete. Defaults 1M / 4M parameters
 * (the paper auto-tunes both by Bayesian optimisation; these are common starting values).
 */
class ByteSchedulerTensorOrder : public TensorOrderPolicy
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    ByteSchedulerTensorOrder();
    std::string GetName() const override;
    uint64_t GetCreditBytes() const override;

    /// \return the partition size (parameters)
    uint64_t GetPartitionSize() const;
    /// \param params partition size in parameters (>= 1)
    void SetPartitionSize(uint64_t params);
    /// \return the credit (parameters in flight)
    uint64_t GetCredit() const;
    /// \param params credit in parameters (>= 1)
    void SetCredit(uint64_t params);

  protected:
    std::vector<TransferSlice> DoPlan(const std::vector<GradientTensor>& tensors) const override;

  private:
    uint64_t m_partitionSize; //!< parameters per partition
    uint64_t m_credit;        //!< parameters allowed in flight
};

} // namespace ns3

#endif
