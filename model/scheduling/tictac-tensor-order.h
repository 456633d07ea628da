/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_TICTAC_TENSOR_ORDER_H
#define MLNET_TICTAC_TENSOR_ORDER_H

#include "tensor-order-policy.h"

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief TicTac (Hashemi, Abdu Jyothi, Campbell, MLSys 2019): order parameter transfers so that
 * the next forward pass can start computing as early as possible. Tensors are sent whole.
 *
 * - TIC (timing-independent): priorities from the DAG alone. In a layer-wise model a parameter
 *   is needed when its layer runs, so the priority is the dense rank of the layer index from
 *   the input side (consumption order); tensors of one layer share a priority (ties by id).
 * - TAC (timing-aware): uses the estimated transfer time M(r) = bytes / Bandwidth of each
 *   transfer r and the compute time P(r) of the operation it unblocks. Greedy, as in the
 *   paper: repeatedly pick, among outstanding transfers, the one with the smallest M+(r) — the
 *   communication time of all outstanding transfers needed before r's consumer can run, i.e.
 *   those consumed no later than r (consumedAt). Ties (transfers feeding the same operation)
 *   are broken by the paper's comparator, Johnson's rule for a two-stage (network, then
 *   compute) flow shop: A before B if min(M_A, P_B) < min(M_B, P_A); then by layer index and
 *   id. The priority value is the position in the resulting order. Unlike TIC, TAC follows the
 *   measured consumption times (consumedAt) rather than the layer numbering.
 *
 * Enforcement, as in the paper: TicTac does not throttle by bytes; it activates the transfers
 * in its order, so a sender keeps at most OutstandingTransfers (default 1) messages in flight
 * per channel and picks the next one in plan order among those ready
 * (GetOutstandingPerChannel(); no credit, GetCreditBytes() = 0).
 */
class TicTacTensorOrder : public TensorOrderPolicy
{
  public:
    /// Variant of the algorithm
    enum Mode
    {
        TIC, //!< timing-independent (DAG order)
        TAC, //!< timing-aware
    };

    /// \return the TypeId
    static TypeId GetTypeId();
    TicTacTensorOrder();
    std::string GetName() const override;

    /// \return the mode
    Mode GetMode() const;
    /// \param mode the mode
    void SetMode(Mode mode);
    /// \return the bandwidth TAC assumes (bytes/s)
    double GetBandwidth() const;
    /// \param bytesPerSecond the bandwidth TAC assumes (> 0 bytes/s)
    void SetBandwidth(double bytesPerSecond);
    uint32_t GetOutstandingPerChannel() const override;

  protected:
    std::vector<TransferSlice> DoPlan(const std::vector<GradientTensor>& tensors) const override;

  private:
    Mode m_mode;            //!< TIC or TAC
    double m_bandwidth;     //!< bytes/s assumed by TAC
    uint32_t m_outstanding; //!< transfers in flight per channel
};

} // namespace ns3

#endif
