/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_MADD_COFLOW_POLICY_H
#define MLNET_MADD_COFLOW_POLICY_H

#include "flow-scheduling-policy.h"

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Coflow scheduling as in Varys (Chowdhury, Zhong, Stoica, SIGCOMM 2014): every group is
 * a coflow; coflows are served smallest effective bottleneck first (SEBF: Gamma = max over ports
 * of the coflow's remaining bytes on the port / port capacity), and inside a coflow MADD gives
 * each flow rate = remaining bytes / Gamma so that all its flows finish together; the next
 * coflow gets MADD rates from the capacity left, unused capacity is backfilled in SEBF order and
 * coflows left without capacity are paused (FlowSchedulingPolicy::SequentialRates). Enforced by
 * rates only (level 0 for every flow), as Varys rate-limits its senders.
 *
 * The ideal finish time reported is now + Gamma (the coflow alone). Needs the global view of
 * every coflow, so it has no decentralised mode.
 */
class MaddCoflowPolicy : public FlowSchedulingPolicy
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    std::string GetName() const override;
    bool SupportsDecentralised() const override;

    /**
     * \param state the state \param group a group with live flows
     * \return the coflow's bottleneck time Gamma (s) with the full port capacities
     */
    static double Bottleneck(const FlowSchedulingState& state, uint64_t group);

  protected:
    std::vector<FlowDecision> DoDecide(const FlowSchedulingState& state, double now) const override;
};

} // namespace ns3

#endif /* MLNET_MADD_COFLOW_POLICY_H */
