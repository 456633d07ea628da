/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_RDMA_FIXED_RATE_H
#define MLNET_RDMA_FIXED_RATE_H

#include "rdma-congestion-ops.h"

#include "ns3/data-rate.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief No congestion control: the queue pair sends at a constant rate.
 *
 * The rate is the "Rate" attribute, or the line rate when Rate is 0 (the default); a Rate above
 * the line rate is clamped to it. CNPs are counted (trace source "Cnp") and otherwise ignored.
 * Useful as a baseline, with PFC keeping the fabric lossless.
 */
class RdmaFixedRate : public RdmaCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaFixedRate();
    ~RdmaFixedRate() override;

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() const override;
    void Init(RdmaCcState& state, Time now) override;
    void OnCnp(RdmaCcState& state, Time now) override;

    /// \param rate the constant rate (0: line rate)
    void SetRate(DataRate rate);
    /// \return the configured rate (0: line rate)
    DataRate GetRate() const;

  private:
    DataRate m_rate;                 //!< configured rate (0: line rate)
    TracedCallback<Time> m_cnpTrace; //!< "Cnp"
};

} // namespace ns3

#endif /* MLNET_RDMA_FIXED_RATE_H */
