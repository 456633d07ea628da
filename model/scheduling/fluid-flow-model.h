/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLUID_FLOW_MODEL_H
#define MLNET_FLUID_FLOW_MODEL_H

#include "flow-scheduling-policy.h"

#include "ns3/ptr.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The outcome of one flow in a FluidFlowModel run.
 */
struct FluidFlowResult
{
    uint64_t id{0};        //!< flow id
    double release{0};     //!< release time (s)
    double finish{0};      //!< finish time (s)
    double idealFinish{0}; //!< the policy's last ideal finish time for it (s)
    uint32_t level{0};     //!< the policy's last level for it
};

/**
 * \ingroup mlnet
 * \brief Flow-level (fluid) evaluation of a FlowSchedulingPolicy on the big-switch network:
 * what the decisions mean without packets, and the seed of mlnet's future flow-level backend.
 *
 * At every release and completion the policy decides again (a centralised scheduler with no
 * control delay); rates are then allocated by strict priority between levels (level 0 first)
 * and max-min fair sharing within a level, each flow limited by its rate cap (0 = paused) and
 * by what the higher levels left on its uplink and downlink. Between events rates are constant, so
 * finish times are exact.
 */
class FluidFlowModel
{
  public:
    /// \param policy the policy to evaluate
    explicit FluidFlowModel(Ptr<FlowSchedulingPolicy> policy);

    /// \param port port id \param up sending capacity (B/s) \param down receiving capacity (B/s)
    void SetPort(uint32_t port, double up, double down);
    /// \param g a group (declared before the run)
    void DeclareGroup(const FlowGroupSpec& g);
    /// \param d a flow \param release its release time (s, >= 0)
    void AddFlow(const FlowDeclaration& d, double release);
    /// \return one result per added flow, in the order they were added
    std::vector<FluidFlowResult> Run();

    /**
     * \brief The rates the decisions give: strict priority by level, max-min fair within a
     * level, rate caps respected.
     * \param state the state \param decisions one per flow of state.GetFlows()
     * \return payload bytes/s per flow of state.GetFlows()
     */
    static std::vector<double> Allocate(const FlowSchedulingState& state,
                                        const std::vector<FlowDecision>& decisions);

  private:
    Ptr<FlowSchedulingPolicy> m_policy;
    FlowSchedulingState m_state;
    std::vector<FlowGroupSpec> m_groups;
    std::vector<std::pair<FlowDeclaration, double>> m_flows;
};

} // namespace ns3

#endif /* MLNET_FLUID_FLOW_MODEL_H */
