/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLOW_POLICY_FACTORY_H
#define MLNET_FLOW_POLICY_FACTORY_H

#include "flow-scheduling-policy.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Create a flow-scheduling policy from its short name, as scenario files, examples and
 * the Python module spell it: "fair", "fifo", "madd", "echelon", "cadentflow-priority",
 * "cadentflow-deadline".
 * \param name the short name
 * \return a new policy with its default attributes
 * \throws std::invalid_argument naming the accepted names
 */
Ptr<FlowSchedulingPolicy> CreateFlowSchedulingPolicy(const std::string& name);

/// \return the short names CreateFlowSchedulingPolicy accepts
std::vector<std::string> FlowSchedulingPolicyNames();

} // namespace ns3

#endif /* MLNET_FLOW_POLICY_FACTORY_H */
