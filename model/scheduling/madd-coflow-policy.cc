/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "madd-coflow-policy.h"

#include "ns3/log.h"

#include <algorithm>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MaddCoflowPolicy");

NS_OBJECT_ENSURE_REGISTERED(MaddCoflowPolicy);

TypeId
MaddCoflowPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MaddCoflowPolicy")
                            .SetParent<FlowSchedulingPolicy>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<MaddCoflowPolicy>();
    return tid;
}

std::string
MaddCoflowPolicy::GetName() const
{
    return "madd";
}

bool
MaddCoflowPolicy::SupportsDecentralised() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

namespace
{

/// Bottleneck time of a set of flows (indices into state.GetFlows()) at full capacity.
double
Gamma(const FlowSchedulingState& state, const std::vector<std::size_t>& idx)
{
    const auto& flows = state.GetFlows();
    std::map<uint32_t, double> up;
    std::map<uint32_t, double> down;
    for (std::size_t i : idx)
    {
        up[flows[i].decl.src] += double(flows[i].remaining);
        down[flows[i].decl.dst] += double(flows[i].remaining);
    }
    double g = 0;
    for (const auto& [p, b] : up)
    {
        g = std::max(g, b / state.Up(p));
    }
    for (const auto& [p, b] : down)
    {
        g = std::max(g, b / state.Down(p));
    }
    return g;
}

} // namespace

double
MaddCoflowPolicy::Bottleneck(const FlowSchedulingState& state, uint64_t group)
{
    NS_LOG_FUNCTION(group);
    std::vector<std::size_t> idx;
    const auto& flows = state.GetFlows();
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        if (flows[i].decl.group == group)
        {
            idx.push_back(i);
        }
    }
    return Gamma(state, idx);
}

std::vector<FlowDecision>
MaddCoflowPolicy::DoDecide(const FlowSchedulingState& state, double now) const
{
    NS_LOG_FUNCTION(this << now);
    const auto& flows = state.GetFlows();
    std::map<uint64_t, std::vector<std::size_t>> byGroup;
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        byGroup[flows[i].decl.group].push_back(i);
    }
    // SEBF: (Gamma, group id) ascending
    std::vector<std::pair<double, uint64_t>> order;
    std::map<uint64_t, double> gammas;
    for (const auto& [g, idx] : byGroup)
    {
        double gamma = Gamma(state, idx);
        gammas[g] = gamma;
        order.emplace_back(gamma, g);
    }
    std::sort(order.begin(), order.end());
    std::vector<std::vector<std::size_t>> tiers;
    std::vector<FlowDecision> d(flows.size());
    for (uint32_t r = 0; r < order.size(); ++r)
    {
        const uint64_t g = order[r].second;
        tiers.push_back(byGroup[g]);
        for (std::size_t i : byGroup[g])
        {
            d[i].id = flows[i].decl.id;
            d[i].rank = r;
            d[i].idealFinish = now + gammas[g];
        }
    }
    std::vector<double> caps = SequentialRates(state, tiers);
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        d[i].rateCap = caps[i];
    }
    return d;
}

} // namespace ns3
