/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FIFO_TENSOR_ORDER_H
#define MLNET_FIFO_TENSOR_ORDER_H

#include "tensor-order-policy.h"

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The framework's default order: tensors are sent whole, in the order the backward pass
 * produces them (producedAt ascending, ties broken by the layer farther from the input first,
 * then by id), all with priority 0.
 */
class FifoTensorOrder : public TensorOrderPolicy
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    std::string GetName() const override;

  protected:
    std::vector<TransferSlice> DoPlan(const std::vector<GradientTensor>& tensors) const override;
};

} // namespace ns3

#endif
