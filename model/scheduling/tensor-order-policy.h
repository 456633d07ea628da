/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_TENSOR_ORDER_POLICY_H
#define MLNET_TENSOR_ORDER_POLICY_H

#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief One gradient tensor of a data-parallel iteration, as a tensor-order policy sees it.
 *
 * Times are relative: producedAt from the start of the backward pass (when its gradient is
 * ready), consumedAt from the start of the next forward pass (when the layer that needs the
 * updated parameters starts).
 */
struct GradientTensor
{
    uint32_t id{0};                //!< tensor id (unique in one call)
    uint32_t layerIndex{0};        //!< position of the consuming layer from the input side
    uint64_t parameters{0};        //!< size in parameters (> 0)
    double producedAt{0};          //!< gradient ready time in the backward pass (s, >= 0)
    double consumedAt{0};          //!< start of its consumer in the next forward pass (s, >= 0)
    double consumerComputeTime{0}; //!< forward compute time of the consuming layer (s, >= 0)
};

/**
 * \ingroup mlnet
 * \brief One entry of a transfer plan: a slice of a tensor and its priority.
 */
struct TransferSlice
{
    uint32_t tensorId{0};     //!< the tensor
    uint64_t offset{0};       //!< first parameter of the slice
    uint64_t size{0};         //!< parameters in the slice
    uint32_t priority{0};     //!< priority value, 0 = most urgent
    uint8_t priorityClass{0}; //!< priority value mapped to a NIC/switch class, 0 = most urgent
    double readyTime{0};      //!< earliest send time (= the tensor's producedAt)

    /// \param o other \return true if all fields but readyTime are equal
    bool operator==(const TransferSlice& o) const;
};

/**
 * \ingroup mlnet
 * \brief When a plan's slice is sent and finishes on one link (see TensorOrderPolicy::Serve).
 */
struct SliceTiming
{
    std::size_t planIndex{0}; //!< index of the slice in the plan
    double start{0};          //!< transmission start (s)
    double end{0};            //!< transmission end (s)
};

/**
 * \ingroup mlnet
 * \brief Interface of tensor-order (gradient communication scheduling) policies: FIFO, TicTac,
 * P3, ByteScheduler.
 *
 * Like ns-3's TcpCongestionOps, a policy is an Object selected by TypeId and configured by
 * Attributes; it holds no simulator state. Plan() takes the model's gradient tensors and returns
 * the transfer plan: slices in the order a priority queue would serve them if all were queued,
 * each with a priority value (0 = most urgent) and a priority class. The transport sends a slice
 * no earlier than its readyTime and, among the ready slices, the one that comes first in the plan
 * (strict priority). Serve() replays exactly this on one link of a given bandwidth.
 *
 * Priority classes: value v of the plan's values 0..V-1 maps to class floor(v x C / V) with C =
 * PriorityClasses, so the order of classes follows the order of values.
 */
class TensorOrderPolicy : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    TensorOrderPolicy();
    ~TensorOrderPolicy() override;

    /// \return the policy name ("FIFO", "TicTac-TIC", ...)
    virtual std::string GetName() const = 0;

    /**
     * \brief Compute the transfer plan.
     * \param tensors the gradient tensors (validated: unique ids, parameters > 0, times >= 0)
     * \return the ordered slices; std::invalid_argument on bad input
     */
    std::vector<TransferSlice> Plan(const std::vector<GradientTensor>& tensors) const;

    /// \return bytes the policy allows in flight (0 = unlimited); ByteScheduler's credit
    virtual uint64_t GetCreditBytes() const;

    /**
     * \return messages the policy lets a sender keep outstanding on one channel (one sender
     * to one receiver), the rest waiting in plan order at the sender (0 = no limit). TicTac
     * enforces its order this way (one transfer at a time per channel, in the plan's order)
     * instead of through a byte window.
     */
    virtual uint32_t GetOutstandingPerChannel() const;

    /// \return bytes per parameter (gradient element size)
    uint32_t GetBytesPerParameter() const;
    /// \param b bytes per parameter, in [1, 8]
    void SetBytesPerParameter(uint32_t b);
    /// \return number of priority classes
    uint32_t GetPriorityClasses() const;
    /// \param c number of priority classes, in [1, 64]
    void SetPriorityClasses(uint32_t c);

    /**
     * \brief Serve a plan on one link: non-preemptive strict priority by plan position among
     * the slices that are ready (readyTime <= now). One link sends one slice at a time, so the
     * credit (GetCreditBytes()) does not constrain it; the credit matters to transports that
     * keep several messages in flight (several parameter servers, ring all-reduce).
     * \param plan a plan from Plan()
     * \param bytesPerSecond link rate (> 0)
     * \return per-slice timings, in transmission order
     */
    std::vector<SliceTiming> Serve(const std::vector<TransferSlice>& plan,
                                   double bytesPerSecond) const;

    /**
     * \brief Build the tensors of a layer-wise model: one tensor per layer with parameters.
     *
     * Backward runs from the last layer to the first, starting at 0: layer i's gradient is
     * produced at the sum of backward times of layers i..L-1. Forward starts at 0: layer i is
     * consumed at the sum of forward times of layers 0..i-1. Tensor ids count the parameterised
     * layers from the input side; layerIndex is the layer's position in the model.
     * \param layerParameters parameters per layer (0 for layers without weights)
     * \param forwardTimes forward time per layer (s)
     * \param backwardTimes backward time per layer (s)
     * \return the tensors, input side first
     */
    static std::vector<GradientTensor> MakeTensors(const std::vector<uint64_t>& layerParameters,
                                                   const std::vector<double>& forwardTimes,
                                                   const std::vector<double>& backwardTimes);

  protected:
    /**
     * \brief The policy: order and prioritise validated tensors.
     * \param tensors validated tensors
     * \return the plan (priorityClass is filled in by Plan())
     */
    virtual std::vector<TransferSlice> DoPlan(const std::vector<GradientTensor>& tensors) const = 0;

    /**
     * \brief Cut a tensor into slices of at most sliceSize parameters.
     * \param t the tensor
     * \param sliceSize maximum slice size (0 = one slice)
     * \param priority priority value of every slice
     * \return the slices, by increasing offset
     */
    static std::vector<TransferSlice> Slice(const GradientTensor& t,
                                            uint64_t sliceSize,
                                            uint32_t priority);

    /**
     * \param tensors tensors
     * \return for each tensor, the dense rank of its layerIndex (0 = closest to the input)
     */
    static std::vector<uint32_t> LayerRanks(const std::vector<GradientTensor>& tensors);

  private:
    uint32_t m_bytesPerParameter; //!< gradient element size (bytes)
    uint32_t m_priorityClasses;   //!< number of priority classes
};

} // namespace ns3

#endif
