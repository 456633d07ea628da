/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-scheduling-policy.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowSchedulingPolicy");

NS_OBJECT_ENSURE_REGISTERED(FlowSchedulingPolicy);

TypeId
FlowSchedulingPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowSchedulingPolicy")
            .SetParent<Object>()
            .SetGroupName("Mlnet")
            .AddAttribute("PriorityLevels",
                          "Number of priority levels the decisions use (the enforcement maps "
                          "level 0 to its highest data class); 7 leaves class 7 to ACKs and CNPs",
                          UintegerValue(7),
                          MakeUintegerAccessor(&FlowSchedulingPolicy::m_levels),
                          MakeUintegerChecker<uint32_t>(1, 8));
    return tid;
}

FlowSchedulingPolicy::FlowSchedulingPolicy()
    : m_levels(7)
{
    NS_LOG_FUNCTION(this);
}

FlowSchedulingPolicy::~FlowSchedulingPolicy() = default;

bool
FlowSchedulingPolicy::SupportsDecentralised() const
{
    NS_LOG_FUNCTION(this);
    return true;
}

uint32_t
FlowSchedulingPolicy::GetPriorityLevels() const
{
    return m_levels;
}

void
FlowSchedulingPolicy::SetPriorityLevels(uint32_t levels)
{
    NS_LOG_FUNCTION(this << levels);
    if (levels < 1 || levels > 8)
    {
        throw std::invalid_argument("PriorityLevels = " + std::to_string(levels) +
                                    " is out of range (must be in [1, 8])");
    }
    m_levels = levels;
}

std::vector<FlowDecision>
FlowSchedulingPolicy::Decide(const FlowSchedulingState& state, double now) const
{
    NS_LOG_FUNCTION(this << now);
    if (!(now >= 0) || !std::isfinite(now))
    {
        throw std::invalid_argument("Decide: now = " + std::to_string(now) +
                                    " s is out of range (must be >= 0 s)");
    }
    return DoDecide(state, now);
}

uint32_t
FlowSchedulingPolicy::LevelOf(uint32_t value, uint32_t range) const
{
    NS_LOG_FUNCTION(this << value << range);
    range = std::max<uint32_t>(range, 1);
    value = std::min(value, range - 1);
    return static_cast<uint32_t>(static_cast<uint64_t>(value) * m_levels / range);
}

std::vector<uint32_t>
FlowSchedulingPolicy::DenseRanks(const std::vector<double>& keys)
{
    NS_LOG_FUNCTION_NOARGS();
    std::vector<double> sorted(keys);
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    std::vector<uint32_t> ranks;
    ranks.reserve(keys.size());
    for (double k : keys)
    {
        ranks.push_back(static_cast<uint32_t>(std::lower_bound(sorted.begin(), sorted.end(), k) -
                                              sorted.begin()));
    }
    return ranks;
}

std::vector<std::vector<std::size_t>>
FlowSchedulingPolicy::TiersOf(const std::vector<uint32_t>& ranks)
{
    NS_LOG_FUNCTION_NOARGS();
    uint32_t n = 0;
    for (uint32_t r : ranks)
    {
        n = std::max(n, r + 1);
    }
    std::vector<std::vector<std::size_t>> tiers(n);
    for (std::size_t i = 0; i < ranks.size(); ++i)
    {
        tiers[ranks[i]].push_back(i);
    }
    return tiers;
}

std::vector<double>
FlowSchedulingPolicy::SequentialRates(const FlowSchedulingState& state,
                                      const std::vector<std::vector<std::size_t>>& tiers)
{
    NS_LOG_FUNCTION_NOARGS();
    const auto& flows = state.GetFlows();
    std::vector<double> rate(flows.size(), 0.0);
    std::map<uint32_t, double> up;
    std::map<uint32_t, double> down;
    auto availUp = [&](uint32_t p) -> double& {
        auto it = up.find(p);
        if (it == up.end())
        {
            it = up.emplace(p, state.Up(p)).first;
        }
        return it->second;
    };
    auto availDown = [&](uint32_t p) -> double& {
        auto it = down.find(p);
        if (it == down.end())
        {
            it = down.emplace(p, state.Down(p)).first;
        }
        return it->second;
    };
    // MADD, tier by tier
    for (const auto& tier : tiers)
    {
        std::map<uint32_t, double> loadUp;
        std::map<uint32_t, double> loadDown;
        for (std::size_t i : tier)
        {
            loadUp[flows[i].decl.src] += double(flows[i].remaining);
            loadDown[flows[i].decl.dst] += double(flows[i].remaining);
        }
        double gamma = 0;
        bool blocked = false;
        for (const auto& [p, load] : loadUp)
        {
            const double a = availUp(p);
            blocked = blocked || (load > 0 && a <= 0);
            gamma = a > 0 ? std::max(gamma, load / a) : gamma;
        }
        for (const auto& [p, load] : loadDown)
        {
            const double a = availDown(p);
            blocked = blocked || (load > 0 && a <= 0);
            gamma = a > 0 ? std::max(gamma, load / a) : gamma;
        }
        if (blocked || !(gamma > 0))
        {
            continue;
        }
        for (std::size_t i : tier)
        {
            const auto& f = flows[i];
            const double r = double(f.remaining) / gamma;
            rate[i] = r;
            availUp(f.decl.src) = std::max(0.0, availUp(f.decl.src) - r);
            availDown(f.decl.dst) = std::max(0.0, availDown(f.decl.dst) - r);
        }
    }
    // backfill what is left, in the same order
    for (const auto& tier : tiers)
    {
        for (std::size_t i : tier)
        {
            const auto& f = flows[i];
            const double extra = std::min(availUp(f.decl.src), availDown(f.decl.dst));
            if (extra > 0)
            {
                rate[i] += extra;
                availUp(f.decl.src) -= extra;
                availDown(f.decl.dst) -= extra;
            }
        }
    }
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        if (rate[i] >= state.PathCapacity(flows[i].decl) * (1 - 1e-12))
        {
            rate[i] = std::numeric_limits<double>::infinity();
        }
    }
    return rate;
}

} // namespace ns3
