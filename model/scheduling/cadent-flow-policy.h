/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_CADENT_FLOW_POLICY_H
#define MLNET_CADENT_FLOW_POLICY_H

#include "flow-scheduling-policy.h"

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief CadentFlow (Abdu Jyothi, Hashemi, Campbell, Godfrey, HotCloud 2020): an application
 * network interface CF = {(f_i, T_i)..., objective} where T_i are per-flow metrics (priority,
 * deadline, weight) and the objective says how to use them. Two objectives:
 *  - Priority: minimise completion time subject to the priorities. Flows are ranked by
 *    priority / weight, where the application sets the priority from its DAG (the order in
 *    which the next forward pass consumes the parameters; see ComputeDag::ConsumptionOrder),
 *    and get strict-priority levels: LevelOf(priority / weight, the group's declared
 *    priorities), stable while flows come and go (dense ranks if the group declares none).
 *  - Deadline: minimise max_i (end_i - deadline_i). Flows are served earliest deadline first
 *    (EDD, optimal for the maximum lateness on one bottleneck: Jackson's rule), through rates
 *    (FlowSchedulingPolicy::SequentialRates); the application sets deadlines from per-op
 *    compute times (ComputeDag::IdealSchedule). Flows without a deadline come last.
 * Each sender can apply either objective to its own flows, so the decentralised mode is
 * allowed.
 */
class CadentFlowPolicy : public FlowSchedulingPolicy
{
  public:
    /// The application objective.
    enum Objective
    {
        PRIORITY, //!< minimise completion time subject to priorities
        DEADLINE, //!< minimise the maximum lateness against deadlines
    };

    /// \return the TypeId
    static TypeId GetTypeId();
    CadentFlowPolicy();
    std::string GetName() const override;
    /// \return the objective
    Objective GetObjective() const;
    /// \param o the objective
    void SetObjective(Objective o);

  protected:
    std::vector<FlowDecision> DoDecide(const FlowSchedulingState& state, double now) const override;

  private:
    Objective m_objective; //!< objective
};

} // namespace ns3

#endif /* MLNET_CADENT_FLOW_POLICY_H */
