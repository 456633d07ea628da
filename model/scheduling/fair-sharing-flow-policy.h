/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FAIR_SHARING_FLOW_POLICY_H
#define MLNET_FAIR_SHARING_FLOW_POLICY_H

#include "flow-scheduling-policy.h"

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief No scheduling: every flow gets level 0 and no rate cap, so flows share the network as
 * the transport shares it (DCQCN and round robin at packet level, max-min fairness in the
 * flow-level model). The baseline the papers call "fair sharing" / "max-min fairness".
 */
class FairSharingFlowPolicy : public FlowSchedulingPolicy
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    std::string GetName() const override;

  protected:
    std::vector<FlowDecision> DoDecide(const FlowSchedulingState& state, double now) const override;
};

} // namespace ns3

#endif /* MLNET_FAIR_SHARING_FLOW_POLICY_H */
