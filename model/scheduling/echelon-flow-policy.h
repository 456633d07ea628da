/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_ECHELON_FLOW_POLICY_H
#define MLNET_ECHELON_FLOW_POLICY_H

#include "flow-scheduling-policy.h"

#include <unordered_map>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Echelon (Pan, Lei, Li, Xie, Yuan, Xia, HotNets 2022): an EchelonFlow is a group of
 * flows whose ideal finish times are staggered by an arrangement function A(i),
 * D_i = d_ref + A(i) (FlowArrangement: coflow A = 0, pipeline A(i) = i x t_mb, layer-wise
 * offsets), and the objective is to minimise the maximum tardiness max_i (finish_i - D_i).
 *
 * The paper sketches the abstraction and the system; the algorithm here makes it concrete:
 *  - Reference: d_ref is the smallest value for which the EchelonFlow alone could meet every
 *    D_i with all its known bytes available at its first release r_g:
 *    d_ref = max_i (r_g + max over i's ports p of B_p(i) / C_p - A(i)), where B_p(i) sums the
 *    bytes of the group's flows on port p with A(j) <= A(i). For a coflow this is Varys'
 *    r_g + Gamma; for a pipeline limited by compute it is the first micro-batch's own transfer.
 *    A flow is never asked to finish before it could alone: D_i >= release_i + bytes_i / C_i.
 *  - Order across EchelonFlows: earliest ideal finish time first (EDD, which minimises the
 *    maximum lateness on one bottleneck, Jackson's rule); flows with the same D_i in one group
 *    form a tier, and each tier gets its own rank (equal D_i: lower group id first).
 *  - Rates inside a tier: MADD (finish together), from the capacity earlier tiers left; the
 *    order is enforced by rates (FlowSchedulingPolicy::SequentialRates: backfill, then pause),
 *    every flow on level 0.
 *  - Self-correction (CorrectEstimates): a pipeline's stage time is re-estimated from the
 *    observed releases, t = (r_last - r_first) / (i_last - i_first), as soon as two micro-batches
 *    were released, so a wrong declared estimate is replaced by what the job actually does; the
 *    lower bound above keeps D_i consistent with the actual releases.
 * Needs the global view of every EchelonFlow (centralised mode only).
 */
class EchelonFlowPolicy : public FlowSchedulingPolicy
{
  public:
    /// The reference of an EchelonFlow.
    struct Reference
    {
        double start{0};     //!< first release r_g (s)
        double dref{0};      //!< d_ref (s)
        double stageTime{0}; //!< Pipeline: stage time in use (declared or fitted)
    };

    /// \return the TypeId
    static TypeId GetTypeId();
    EchelonFlowPolicy();
    std::string GetName() const override;
    bool SupportsDecentralised() const override;

    /**
     * \param state the state \param group a known group
     * \return its reference from every flow added to it so far
     */
    Reference ComputeReference(const FlowSchedulingState& state, uint64_t group) const;
    /**
     * \param g the group \param f a flow of it \param stageTime the stage time in use
     * \return A(i) of the flow (s)
     */
    static double Arrangement(const FlowGroupSpec& g, const FlowDeclaration& f, double stageTime);
    /**
     * \param state the state \param f a flow \param ref its group's reference
     * \return its ideal finish time D_i (s)
     */
    static double IdealFinish(const FlowSchedulingState& state,
                              const FlowSchedulingState::Flow& f,
                              const Reference& ref);

  protected:
    std::vector<FlowDecision> DoDecide(const FlowSchedulingState& state, double now) const override;

  private:
    bool m_correct; //!< re-fit pipeline stage times from releases
    /// group -> (history size it was computed from, reference)
    mutable std::unordered_map<uint64_t, std::pair<std::size_t, Reference>> m_cache;
};

} // namespace ns3

#endif /* MLNET_ECHELON_FLOW_POLICY_H */
