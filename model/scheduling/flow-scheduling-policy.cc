/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-scheduling-policy.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
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
    const std::size_t n = flows.size();
    std::vector<double> rate(n, 0.0);
    // The ports of the flows, numbered densely (sorted ids; one look-up per flow end), so that
    // the per-flow work is array indexing. Every sum and comparison below is done in the same
    // order as over maps keyed by port id, so the rates are the same to the bit.
    std::vector<uint32_t> ids;
    ids.reserve(2 * n);
    for (const auto& f : flows)
    {
        ids.push_back(f.decl.src);
        ids.push_back(f.decl.dst);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    auto dense = [&ids](uint32_t port) {
        return uint32_t(std::lower_bound(ids.begin(), ids.end(), port) - ids.begin());
    };
    std::vector<uint32_t> src(n);
    std::vector<uint32_t> dst(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        src[i] = dense(flows[i].decl.src);
        dst[i] = dense(flows[i].decl.dst);
    }
    const std::size_t np = ids.size();
    std::vector<double> capUp(np);
    std::vector<double> capDown(np);
    for (std::size_t p = 0; p < np; ++p)
    {
        capUp[p] = state.Up(ids[p]);
        capDown[p] = state.Down(ids[p]);
    }
    std::vector<double> availUp(capUp);
    std::vector<double> availDown(capDown);
    // MADD, tier by tier (loads per port of the tier; the ports it touches, reset after it)
    std::vector<double> loadUp(np, 0.0);
    std::vector<double> loadDown(np, 0.0);
    std::vector<char> inUp(np, 0);
    std::vector<char> inDown(np, 0);
    std::vector<uint32_t> touchedUp;
    std::vector<uint32_t> touchedDown;
    for (const auto& tier : tiers)
    {
        touchedUp.clear();
        touchedDown.clear();
        for (std::size_t i : tier)
        {
            const double b = double(flows[i].remaining);
            loadUp[src[i]] += b;
            loadDown[dst[i]] += b;
            if (!inUp[src[i]])
            {
                inUp[src[i]] = 1;
                touchedUp.push_back(src[i]);
            }
            if (!inDown[dst[i]])
            {
                inDown[dst[i]] = 1;
                touchedDown.push_back(dst[i]);
            }
        }
        double gamma = 0;
        bool blocked = false;
        for (uint32_t p : touchedUp)
        {
            const double load = loadUp[p];
            const double a = availUp[p];
            blocked = blocked || (load > 0 && a <= 0);
            gamma = a > 0 ? std::max(gamma, load / a) : gamma;
            loadUp[p] = 0;
            inUp[p] = 0;
        }
        for (uint32_t p : touchedDown)
        {
            const double load = loadDown[p];
            const double a = availDown[p];
            blocked = blocked || (load > 0 && a <= 0);
            gamma = a > 0 ? std::max(gamma, load / a) : gamma;
            loadDown[p] = 0;
            inDown[p] = 0;
        }
        if (blocked || !(gamma > 0))
        {
            continue;
        }
        for (std::size_t i : tier)
        {
            const double r = double(flows[i].remaining) / gamma;
            rate[i] = r;
            availUp[src[i]] = std::max(0.0, availUp[src[i]] - r);
            availDown[dst[i]] = std::max(0.0, availDown[dst[i]] - r);
        }
    }
    // backfill what is left, in the same order
    for (const auto& tier : tiers)
    {
        for (std::size_t i : tier)
        {
            const double extra = std::min(availUp[src[i]], availDown[dst[i]]);
            if (extra > 0)
            {
                rate[i] += extra;
                availUp[src[i]] -= extra;
                availDown[dst[i]] -= extra;
            }
        }
    }
    for (std::size_t i = 0; i < n; ++i)
    {
        if (rate[i] >= std::min(capUp[src[i]], capDown[dst[i]]) * (1 - 1e-12))
        {
            rate[i] = std::numeric_limits<double>::infinity();
        }
    }
    return rate;
}

} // namespace ns3
