/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cadent-flow-policy.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/mlnet-enum-accessor.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CadentFlowPolicy");

NS_OBJECT_ENSURE_REGISTERED(CadentFlowPolicy);

TypeId
CadentFlowPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CadentFlowPolicy")
            .SetParent<FlowSchedulingPolicy>()
            .SetGroupName("Mlnet")
            .AddConstructor<CadentFlowPolicy>()
            .AddAttribute("Objective",
                          "Application objective: Priority (minimise completion time subject to "
                          "the declared priorities) or Deadline (minimise the maximum lateness)",
                          EnumValue(PRIORITY),
                          MakeEnumMemberAccessor(&CadentFlowPolicy::m_objective),
                          MakeEnumChecker(PRIORITY, "Priority", DEADLINE, "Deadline"));
    return tid;
}

CadentFlowPolicy::CadentFlowPolicy()
    : m_objective(PRIORITY)
{
    NS_LOG_FUNCTION(this);
}

std::string
CadentFlowPolicy::GetName() const
{
    return m_objective == PRIORITY ? "cadentflow-priority" : "cadentflow-deadline";
}

CadentFlowPolicy::Objective
CadentFlowPolicy::GetObjective() const
{
    return m_objective;
}

void
CadentFlowPolicy::SetObjective(Objective o)
{
    NS_LOG_FUNCTION(this);
    m_objective = o;
}

std::vector<FlowDecision>
CadentFlowPolicy::DoDecide(const FlowSchedulingState& state, double) const
{
    NS_LOG_FUNCTION(this);
    const auto& flows = state.GetFlows();
    std::vector<double> keys;
    keys.reserve(flows.size());
    for (const auto& f : flows)
    {
        keys.push_back(m_objective == PRIORITY ? double(f.decl.priority) / f.decl.weight
                                               : f.decl.deadline);
    }
    const std::vector<uint32_t> ranks = DenseRanks(keys);
    std::vector<FlowDecision> d(flows.size());
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        d[i].id = flows[i].decl.id;
        d[i].rank = ranks[i];
        d[i].idealFinish = flows[i].decl.deadline;
    }
    if (m_objective == PRIORITY)
    {
        // levels: stable from the group's priority range when declared, else by rank
        const uint32_t nRanks = static_cast<uint32_t>(TiersOf(ranks).size());
        for (std::size_t i = 0; i < flows.size(); ++i)
        {
            const FlowGroupSpec& g = state.GetGroup(flows[i].decl.group);
            const uint32_t value =
                static_cast<uint32_t>(std::min<double>(keys[i], double(UINT32_MAX)));
            d[i].level =
                g.priorities > 0 ? LevelOf(value, g.priorities) : LevelOf(ranks[i], nRanks);
        }
        return d;
    }
    // deadline: earliest deadline first, enforced by rates
    const std::vector<double> caps = SequentialRates(state, TiersOf(ranks));
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        d[i].rateCap = caps[i];
    }
    return d;
}

} // namespace ns3
