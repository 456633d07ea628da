/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-policy-factory.h"

#include "cadent-flow-policy.h"
#include "echelon-flow-policy.h"
#include "fair-sharing-flow-policy.h"
#include "fifo-flow-policy.h"
#include "madd-coflow-policy.h"

#include <stdexcept>

namespace ns3
{

std::vector<std::string>
FlowSchedulingPolicyNames()
{
    return {"fair", "fifo", "madd", "echelon", "cadentflow-priority", "cadentflow-deadline"};
}

Ptr<FlowSchedulingPolicy>
CreateFlowSchedulingPolicy(const std::string& name)
{
    if (name == "fair")
    {
        return CreateObject<FairSharingFlowPolicy>();
    }
    if (name == "fifo")
    {
        return CreateObject<FifoFlowPolicy>();
    }
    if (name == "madd")
    {
        return CreateObject<MaddCoflowPolicy>();
    }
    if (name == "echelon")
    {
        return CreateObject<EchelonFlowPolicy>();
    }
    if (name == "cadentflow-priority" || name == "cadentflow-deadline")
    {
        Ptr<CadentFlowPolicy> p = CreateObject<CadentFlowPolicy>();
        p->SetObjective(name == "cadentflow-priority" ? CadentFlowPolicy::PRIORITY
                                                      : CadentFlowPolicy::DEADLINE);
        return p;
    }
    std::string all;
    for (const auto& n : FlowSchedulingPolicyNames())
    {
        all += (all.empty() ? "" : ", ") + n;
    }
    throw std::invalid_argument("flow scheduling policy '" + name + "': must be one of " + all);
}

} // namespace ns3
