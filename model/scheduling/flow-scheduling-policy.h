/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLOW_SCHEDULING_POLICY_H
#define MLNET_FLOW_SCHEDULING_POLICY_H

#include "flow-scheduling-state.h"

#include "ns3/object.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Interface of flow-scheduling policies: fair sharing, FIFO, MADD coflow scheduling
 * (Varys), Echelon and CadentFlow.
 *
 * Like ns-3's TcpCongestionOps, a policy is an Object chosen by TypeId and configured by
 * Attributes, and it holds no simulator state: Decide() turns a FlowSchedulingState (ports,
 * groups, live flows) and the current time into one FlowDecision per live flow. The same object
 * drives the packet-level RdmaFlowScheduler (priority classes and queue-pair rate caps) and the
 * flow-level FluidFlowModel.
 *
 * A subclass ranks the flows (0 = first; equal ranks share) and enforces the order with levels,
 * with rate caps, or both. Ordering policies that re-rank flows as others come and go (FIFO,
 * MADD, Echelon, CadentFlow's deadline objective) enforce their order with rates
 * (SequentialRates: each tier in order gets MADD rates from the capacity the earlier tiers left,
 * the rest is backfilled in the same order, flows left without capacity are paused), as Varys
 * does: a priority class that changed with every arrival would cost each running message a
 * class change (RdmaQueuePair::SetPriorityClass waits for its packets in flight). Policies with
 * static per-flow priorities (CadentFlow's priority objective) use levels (LevelOf).
 */
class FlowSchedulingPolicy : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    FlowSchedulingPolicy();
    ~FlowSchedulingPolicy() override;

    /// \return the policy name ("fair", "fifo", "madd", "echelon", "cadentflow-priority", ...)
    virtual std::string GetName() const = 0;
    /**
     * \return true if every sender may run the policy on its own flows only (decentralised
     * mode); false if it needs the global view (e.g. a coflow's bottleneck over all senders)
     */
    virtual bool SupportsDecentralised() const;

    /**
     * \brief Decide for every live flow.
     * \param state the state (validated when it was built)
     * \param now current time (s, >= 0)
     * \return one decision per flow of state.GetFlows(), in the same order
     */
    std::vector<FlowDecision> Decide(const FlowSchedulingState& state, double now) const;

    /// \return number of priority levels decisions use
    uint32_t GetPriorityLevels() const;
    /// \param levels number of priority levels, in [1, 8]
    void SetPriorityLevels(uint32_t levels);

  protected:
    /**
     * \brief The policy: fill id, rank, level, rateCap and idealFinish of each decision.
     * \param state the state \param now current time
     * \return one decision per flow of state.GetFlows(), in the same order
     */
    virtual std::vector<FlowDecision> DoDecide(const FlowSchedulingState& state,
                                               double now) const = 0;

    /**
     * \brief Dense ranks of sort keys: equal keys share a rank, smaller keys come first.
     * \param keys one key per flow
     * \return ranks from 0
     */
    static std::vector<uint32_t> DenseRanks(const std::vector<double>& keys);
    /**
     * \param ranks one rank per flow (dense, from 0)
     * \return the flow indices of each rank, rank 0 first: the tiers for SequentialRates
     */
    static std::vector<std::vector<std::size_t>> TiersOf(const std::vector<uint32_t>& ranks);

    /**
     * \brief Rates for an order of tiers, as Varys (Chowdhury et al., SIGCOMM 2014) allocates
     * its coflows: each tier in turn gets MADD rates from the capacity the earlier tiers left,
     * proportional to its flows' remaining bytes so that they all finish together at the tier's
     * bottleneck time Gamma = max over ports of (tier bytes on the port / capacity left); a tier
     * that meets a port with no capacity left gets nothing. Then the capacity still unused is
     * backfilled flow by flow in tier order (work conservation). A flow without capacity gets
     * 0 (paused); a rate that reaches the flow's path capacity is no constraint (infinity).
     * \param state the state
     * \param tiers indices into state.GetFlows(), most urgent tier first (every flow once)
     * \return rate cap per flow of state.GetFlows() (payload bytes/s)
     */
    static std::vector<double> SequentialRates(const FlowSchedulingState& state,
                                               const std::vector<std::vector<std::size_t>>& tiers);
    /**
     * \brief Stable level of a priority value: floor(value x L / range) for a known range
     * (0..range-1), the most urgent values on level 0.
     * \param value priority value \param range number of values (>= 1)
     * \return the level, < PriorityLevels
     */
    uint32_t LevelOf(uint32_t value, uint32_t range) const;

  private:
    uint32_t m_levels; //!< priority levels
};

} // namespace ns3

#endif /* MLNET_FLOW_SCHEDULING_POLICY_H */
