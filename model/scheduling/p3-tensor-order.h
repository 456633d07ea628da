/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_P3_TENSOR_ORDER_H
#define MLNET_P3_TENSOR_ORDER_H

#include "tensor-order-policy.h"

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief P3, Priority-based Parameter Propagation (Jayarajan, Wei, Gibson, Fedorova,
 * Pekhimenko, SysML 2019).
 *
 * Every tensor is cut into slices of SliceSize parameters (the last slice holds the rest), and
 * each slice gets its layer's priority: the dense rank of the layer index from the input side
 * (the layer the next forward pass needs first is the most urgent). The plan lists the slices
 * by priority, then tensor id, then offset; the transport preempts at slice boundaries. The
 * default slice size, 50,000 parameters, is the value P3 uses for its MXNet KVStore
 * implementation (as we read the paper; tune it per network: small slices preempt sooner, large
 * slices cost less per-message overhead).
 *
 * The two mechanisms are separate switches, so their shares of the gain can be measured apart:
 * SliceSize = 0 sends whole tensors (priority alone); Priority = false keeps the framework's
 * order (backward production order, as FifoTensorOrder) with one priority value for every
 * slice (slicing alone). Both off is FIFO.
 */
class P3TensorOrder : public TensorOrderPolicy
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    P3TensorOrder();
    std::string GetName() const override;

    /// \return the slice size (parameters)
    uint64_t GetSliceSize() const;
    /// \param params slice size in parameters (0 = whole tensors)
    void SetSliceSize(uint64_t params);
    /// \return true if slices are ordered by layer priority
    bool GetPriority() const;
    /// \param on order by layer priority (false: backward production order, one priority)
    void SetPriority(bool on);

  protected:
    std::vector<TransferSlice> DoPlan(const std::vector<GradientTensor>& tensors) const override;

  private:
    uint64_t m_sliceSize; //!< parameters per slice (0 = whole tensors)
    bool m_priority;      //!< order by layer priority
};

} // namespace ns3

#endif
