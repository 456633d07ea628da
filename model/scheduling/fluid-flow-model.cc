/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fluid-flow-model.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluidFlowModel");

FluidFlowModel::FluidFlowModel(Ptr<FlowSchedulingPolicy> policy)
    : m_policy(policy)
{
    NS_LOG_FUNCTION(this << policy);
    if (!policy)
    {
        throw std::invalid_argument("FluidFlowModel: policy is null");
    }
}

void
FluidFlowModel::SetPort(uint32_t port, double up, double down)
{
    NS_LOG_FUNCTION(this << port << up << down);
    m_state.SetPort(port, up, down);
}

void
FluidFlowModel::DeclareGroup(const FlowGroupSpec& g)
{
    NS_LOG_FUNCTION(this);
    m_state.DeclareGroup(g);
    m_groups.push_back(g);
}

void
FluidFlowModel::AddFlow(const FlowDeclaration& d, double release)
{
    NS_LOG_FUNCTION(this << release);
    if (!(release >= 0) || !std::isfinite(release))
    {
        throw std::invalid_argument("FluidFlowModel: flow " + std::to_string(d.id) +
                                    " release = " + std::to_string(release) +
                                    " s is out of range (must be >= 0 s)");
    }
    m_flows.emplace_back(d, release);
}

std::vector<double>
FluidFlowModel::Allocate(const FlowSchedulingState& state,
                         const std::vector<FlowDecision>& decisions)
{
    NS_LOG_FUNCTION_NOARGS();
    const auto& flows = state.GetFlows();
    const std::size_t n = flows.size();
    std::vector<double> rate(n, 0.0);
    std::map<uint32_t, double> up;
    std::map<uint32_t, double> down;
    for (const auto& f : flows)
    {
        up.emplace(f.decl.src, state.Up(f.decl.src));
        down.emplace(f.decl.dst, state.Down(f.decl.dst));
    }
    std::map<uint32_t, std::vector<std::size_t>> byLevel;
    for (std::size_t i = 0; i < n; ++i)
    {
        byLevel[decisions[i].level].push_back(i);
    }
    const double eps = 1e-12;
    for (auto& [level, members] : byLevel)
    {
        // progressive filling over the flows that are not paused
        std::vector<std::size_t> active;
        for (std::size_t i : members)
        {
            if (decisions[i].rateCap > 0)
            {
                active.push_back(i);
            }
        }
        while (!active.empty())
        {
            std::map<uint32_t, uint32_t> nUp;
            std::map<uint32_t, uint32_t> nDown;
            for (std::size_t i : active)
            {
                nUp[flows[i].decl.src]++;
                nDown[flows[i].decl.dst]++;
            }
            double inc = std::numeric_limits<double>::infinity();
            for (const auto& [p, c] : nUp)
            {
                inc = std::min(inc, up[p] / c);
            }
            for (const auto& [p, c] : nDown)
            {
                inc = std::min(inc, down[p] / c);
            }
            for (std::size_t i : active)
            {
                inc = std::min(inc, decisions[i].rateCap - rate[i]); // infinite if uncapped
            }
            inc = std::max(inc, 0.0);
            for (std::size_t i : active)
            {
                rate[i] += inc;
                up[flows[i].decl.src] -= inc;
                down[flows[i].decl.dst] -= inc;
            }
            std::vector<std::size_t> still;
            for (std::size_t i : active)
            {
                const double cap = decisions[i].rateCap;
                bool capped = std::isfinite(cap) && rate[i] >= cap * (1 - 1e-12);
                bool full = up[flows[i].decl.src] <= eps * state.Up(flows[i].decl.src) ||
                            down[flows[i].decl.dst] <= eps * state.Down(flows[i].decl.dst);
                if (!capped && !full)
                {
                    still.push_back(i);
                }
            }
            if (still.size() == active.size())
            {
                break; // no progress possible (should not happen)
            }
            active.swap(still);
        }
        for (auto& [p, v] : up)
        {
            v = std::max(v, 0.0);
        }
        for (auto& [p, v] : down)
        {
            v = std::max(v, 0.0);
        }
    }
    return rate;
}

std::vector<FluidFlowResult>
FluidFlowModel::Run()
{
    NS_LOG_FUNCTION(this);
    std::vector<std::size_t> pending(m_flows.size());
    for (std::size_t i = 0; i < pending.size(); ++i)
    {
        pending[i] = i;
    }
    std::stable_sort(pending.begin(), pending.end(), [this](std::size_t a, std::size_t b) {
        return m_flows[a].second < m_flows[b].second;
    });
    std::vector<FluidFlowResult> results(m_flows.size());
    std::unordered_map<uint64_t, std::size_t> pos; // live flow id -> index into m_flows
    std::unordered_map<uint64_t, double> rem;
    std::size_t next = 0;
    double t = 0;
    const double inf = std::numeric_limits<double>::infinity();
    while (next < pending.size() || !pos.empty())
    {
        if (pos.empty())
        {
            t = std::max(t, m_flows[pending[next]].second);
        }
        while (next < pending.size() && m_flows[pending[next]].second <= t)
        {
            const auto& [d, release] = m_flows[pending[next]];
            m_state.AddFlow(d, release);
            pos[d.id] = pending[next];
            rem[d.id] = double(d.bytes);
            results[pending[next]].id = d.id;
            results[pending[next]].release = release;
            ++next;
        }
        const auto& flows = m_state.GetFlows();
        std::vector<FlowDecision> dec = m_policy->Decide(m_state, t);
        std::vector<double> rate = Allocate(m_state, dec);
        double dt = next < pending.size() ? m_flows[pending[next]].second - t : inf;
        for (std::size_t i = 0; i < flows.size(); ++i)
        {
            auto& r = results[pos[flows[i].decl.id]];
            r.idealFinish = dec[i].idealFinish;
            r.level = dec[i].level;
            if (rate[i] > 0)
            {
                dt = std::min(dt, rem[flows[i].decl.id] / rate[i]);
            }
        }
        if (!(dt < inf))
        {
            throw std::logic_error(
                "FluidFlowModel: no flow can progress at t = " + std::to_string(t) + " s");
        }
        t += dt;
        std::vector<uint64_t> done;
        for (std::size_t i = 0; i < flows.size(); ++i)
        {
            const uint64_t id = flows[i].decl.id;
            double& left = rem[id];
            left -= rate[i] * dt;
            if (left <= 1e-9 * double(flows[i].decl.bytes) ||
                (rate[i] > 0 && left / rate[i] < 1e-15))
            {
                done.push_back(id);
            }
            else
            {
                m_state.SetRemaining(id, static_cast<uint64_t>(std::ceil(left)));
            }
        }
        for (uint64_t id : done)
        {
            results[pos[id]].finish = t;
            pos.erase(id);
            rem.erase(id);
            m_state.CompleteFlow(id);
        }
    }
    return results;
}

} // namespace ns3
