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
 * A subclass ranks the flows (0 = first; equal ranks share) and may cap their rates; the base
 * maps ranks onto the PriorityLevels levels proportionally: with R distinct ranks, rank r gets
 * level floor(r x L / R), so the order of levels follows the order of ranks and the most urgent
 * flows get the highest level.
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
     * \brief The policy: fill id, rank, rateCap and idealFinish of each decision (level is
     * filled in by Decide() from the ranks).
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
     * \brief MADD (Varys, Chowdhury et al., SIGCOMM 2014) over ordered tiers: each tier in turn
     * gets, from the capacity the earlier tiers left, rates proportional to its flows' remaining
     * bytes so that they all finish together at the tier's bottleneck time
     * Gamma = max over ports of (tier bytes on the port / capacity left). A tier that meets a
     * port with no capacity left gets no allocation. A rate that reaches the flow's path
     * capacity is no constraint and is reported as 0 (no cap).
     * \param state the state
     * \param tiers indices into state.GetFlows(), most urgent tier first
     * \return rate cap per flow of state.GetFlows() (payload bytes/s, 0 = no cap)
     */
    static std::vector<double> MaddRates(const FlowSchedulingState& state,
                                         const std::vector<std::vector<std::size_t>>& tiers);

  private:
    uint32_t m_levels; //!< priority levels
};

} // namespace ns3

#endif /* MLNET_FLOW_SCHEDULING_POLICY_H */
