/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FIFO_FLOW_POLICY_H
#define MLNET_FIFO_FLOW_POLICY_H

#include "flow-scheduling-policy.h"

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief First in, first out across the network: flows are ranked by release time (flows
 * released at the same instant share a rank and MADD rates) and served in that order through
 * rates (FlowSchedulingPolicy::SequentialRates). The strawman of Echelon's "would
 * FIFO work?" discussion: it keeps a pipeline's micro-batches in order but knows nothing of
 * when each flow is needed.
 */
class FifoFlowPolicy : public FlowSchedulingPolicy
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    std::string GetName() const override;

  protected:
    std::vector<FlowDecision> DoDecide(const FlowSchedulingState& state, double now) const override;
};

} // namespace ns3

#endif /* MLNET_FIFO_FLOW_POLICY_H */
