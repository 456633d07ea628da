/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "echelon-flow-policy.h"

#include "ns3/boolean.h"
#include "ns3/log.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EchelonFlowPolicy");

NS_OBJECT_ENSURE_REGISTERED(EchelonFlowPolicy);

TypeId
EchelonFlowPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EchelonFlowPolicy")
            .SetParent<FlowSchedulingPolicy>()
            .SetGroupName("Mlnet")
            .AddConstructor<EchelonFlowPolicy>()
            .AddAttribute("CorrectEstimates",
                          "Re-estimate a pipeline EchelonFlow's stage time from the observed "
                          "releases of its flows (self-correction of a wrong declared estimate)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&EchelonFlowPolicy::m_correct),
                          MakeBooleanChecker());
    return tid;
}

EchelonFlowPolicy::EchelonFlowPolicy()
    : m_correct(true)
{
    NS_LOG_FUNCTION(this);
}

std::string
EchelonFlowPolicy::GetName() const
{
    return "echelon";
}

bool
EchelonFlowPolicy::SupportsDecentralised() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

double
EchelonFlowPolicy::Arrangement(const FlowGroupSpec& g, const FlowDeclaration& f, double stageTime)
{
    NS_LOG_FUNCTION(stageTime);
    switch (g.arrangement)
    {
    case FlowArrangement::Coflow:
        return 0.0;
    case FlowArrangement::Pipeline:
        return f.index * stageTime;
    case FlowArrangement::Offsets:
        return f.offset;
    }
    return 0.0;
}

EchelonFlowPolicy::Reference
EchelonFlowPolicy::ComputeReference(const FlowSchedulingState& state, uint64_t group) const
{
    NS_LOG_FUNCTION(this << group);
    const FlowGroupSpec& g = state.GetGroup(group);
    const auto& h = state.GetGroupHistory(group);
    Reference ref;
    ref.stageTime = g.stageTime;
    if (h.empty())
    {
        return ref;
    }
    ref.start = std::numeric_limits<double>::infinity();
    const FlowSchedulingState::Flow* first = nullptr;
    const FlowSchedulingState::Flow* last = nullptr;
    for (const auto& f : h)
    {
        ref.start = std::min(ref.start, f.release);
        if (!first || f.decl.index < first->decl.index)
        {
            first = &f;
        }
        if (!last || f.decl.index > last->decl.index)
        {
            last = &f;
        }
    }
    if (m_correct && g.arrangement == FlowArrangement::Pipeline &&
        last->decl.index > first->decl.index && last->release > first->release)
    {
        ref.stageTime = (last->release - first->release) / (last->decl.index - first->decl.index);
    }
    // Sort by A; accumulate bytes per port over blocks of equal A.
    std::vector<std::pair<double, const FlowSchedulingState::Flow*>> byA;
    byA.reserve(h.size());
    for (const auto& f : h)
    {
        byA.emplace_back(Arrangement(g, f.decl, ref.stageTime), &f);
    }
    std::stable_sort(byA.begin(), byA.end(), [](const auto& a, const auto& b) {
        return a.first < b.first;
    });
    std::map<uint32_t, double> up;
    std::map<uint32_t, double> down;
    ref.dref = -std::numeric_limits<double>::infinity();
    for (std::size_t b = 0; b < byA.size();)
    {
        std::size_t e = b;
        while (e < byA.size() && byA[e].first == byA[b].first)
        {
            up[byA[e].second->decl.src] += double(byA[e].second->decl.bytes);
            down[byA[e].second->decl.dst] += double(byA[e].second->decl.bytes);
            ++e;
        }
        for (std::size_t k = b; k < e; ++k)
        {
            const FlowDeclaration& d = byA[k].second->decl;
            double t = std::max(up[d.src] / state.Up(d.src), down[d.dst] / state.Down(d.dst));
            ref.dref = std::max(ref.dref, ref.start + t - byA[k].first);
        }
        b = e;
    }
    return ref;
}

double
EchelonFlowPolicy::IdealFinish(const FlowSchedulingState& state,
                               const FlowSchedulingState::Flow& f,
                               const Reference& ref)
{
    NS_LOG_FUNCTION_NOARGS();
    const FlowGroupSpec& g = state.GetGroup(f.decl.group);
    double alone = f.release + double(f.decl.bytes) / state.PathCapacity(f.decl);
    return std::max(ref.dref + Arrangement(g, f.decl, ref.stageTime), alone);
}

std::vector<FlowDecision>
EchelonFlowPolicy::DoDecide(const FlowSchedulingState& state, double) const
{
    NS_LOG_FUNCTION(this);
    const auto& flows = state.GetFlows();
    std::unordered_set<uint64_t> groups;
    std::vector<double> ideal(flows.size());
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        const uint64_t g = flows[i].decl.group;
        groups.insert(g);
        const std::size_t n = state.GetGroupHistory(g).size();
        auto it = m_cache.find(g);
        if (it == m_cache.end() || it->second.first != n)
        {
            it = m_cache.insert_or_assign(g, std::make_pair(n, ComputeReference(state, g))).first;
        }
        ideal[i] = IdealFinish(state, flows[i], it->second.second);
    }
    if (m_cache.size() > 2 * groups.size() + 16)
    {
        for (auto it = m_cache.begin(); it != m_cache.end();)
        {
            it = groups.count(it->first) ? std::next(it) : m_cache.erase(it);
        }
    }
    // tiers: (D, group) ascending
    std::map<std::pair<double, uint64_t>, std::vector<std::size_t>> tierMap;
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        tierMap[{ideal[i], flows[i].decl.group}].push_back(i);
    }
    std::vector<std::vector<std::size_t>> tiers;
    tiers.reserve(tierMap.size());
    std::vector<FlowDecision> d(flows.size());
    for (auto& [key, idx] : tierMap)
    {
        for (std::size_t i : idx)
        {
            d[i].id = flows[i].decl.id;
            d[i].rank = static_cast<uint32_t>(tiers.size()); // one rank per tier, EDD order
            d[i].idealFinish = ideal[i];
        }
        tiers.push_back(std::move(idx));
    }
    std::vector<double> caps = SequentialRates(state, tiers);
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        d[i].rateCap = caps[i];
    }
    return d;
}

} // namespace ns3
