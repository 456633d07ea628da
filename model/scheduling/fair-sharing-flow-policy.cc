/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fair-sharing-flow-policy.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FairSharingFlowPolicy");

NS_OBJECT_ENSURE_REGISTERED(FairSharingFlowPolicy);

TypeId
FairSharingFlowPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FairSharingFlowPolicy")
                            .SetParent<FlowSchedulingPolicy>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<FairSharingFlowPolicy>();
    return tid;
}

std::string
FairSharingFlowPolicy::GetName() const
{
    return "fair";
}

std::vector<FlowDecision>
FairSharingFlowPolicy::DoDecide(const FlowSchedulingState& state, double) const
{
    NS_LOG_FUNCTION(this);
    std::vector<FlowDecision> d;
    d.reserve(state.GetFlows().size());
    for (const auto& f : state.GetFlows())
    {
        FlowDecision x;
        x.id = f.decl.id;
        d.push_back(x);
    }
    return d;
}

} // namespace ns3
