/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fifo-flow-policy.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FifoFlowPolicy");

NS_OBJECT_ENSURE_REGISTERED(FifoFlowPolicy);

TypeId
FifoFlowPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FifoFlowPolicy")
                            .SetParent<FlowSchedulingPolicy>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<FifoFlowPolicy>();
    return tid;
}

std::string
FifoFlowPolicy::GetName() const
{
    return "fifo";
}

std::vector<FlowDecision>
FifoFlowPolicy::DoDecide(const FlowSchedulingState& state, double) const
{
    NS_LOG_FUNCTION(this);
    const auto& flows = state.GetFlows();
    std::vector<double> keys;
    keys.reserve(flows.size());
    for (const auto& f : flows)
    {
        keys.push_back(f.release);
    }
    const std::vector<uint32_t> ranks = DenseRanks(keys);
    const std::vector<double> caps = SequentialRates(state, TiersOf(ranks));
    std::vector<FlowDecision> d(flows.size());
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        d[i].id = flows[i].decl.id;
        d[i].rank = ranks[i];
        d[i].rateCap = caps[i];
    }
    return d;
}

} // namespace ns3
