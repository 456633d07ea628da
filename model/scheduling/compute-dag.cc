/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "compute-dag.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ComputeDag");

double
DagSchedule::FlexibilityRatio() const
{
    NS_LOG_FUNCTION(this);
    return minCct > 0 ? maxTolerableCct / minCct : 1.0;
}

uint32_t
ComputeDag::AddTensor(const std::string& name, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << name << bytes);
    if (bytes == 0)
    {
        throw std::invalid_argument("DAG tensor '" + name +
                                    "': bytes = 0 is out of range (must be >= 1)");
    }
    m_tensors.push_back(DagTensor{name, bytes});
    return static_cast<uint32_t>(m_tensors.size() - 1);
}

uint32_t
ComputeDag::AddOp(const std::string& name,
                  double seconds,
                  std::vector<uint32_t> deps,
                  std::vector<uint32_t> reads)
{
    NS_LOG_FUNCTION(this << name << seconds);
    if (!(seconds >= 0) || !std::isfinite(seconds))
    {
        throw std::invalid_argument("DAG op '" + name + "': seconds = " + std::to_string(seconds) +
                                    " is out of range (must be finite and >= 0 s)");
    }
    m_ops.push_back(DagOp{name, seconds, std::move(deps), std::move(reads)});
    return static_cast<uint32_t>(m_ops.size() - 1);
}

const std::vector<DagOp>&
ComputeDag::GetOps() const
{
    return m_ops;
}

const std::vector<DagTensor>&
ComputeDag::GetTensors() const
{
    return m_tensors;
}

void
ComputeDag::Validate() const
{
    NS_LOG_FUNCTION(this);
    const uint32_t n = m_ops.size();
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t d : m_ops[i].deps)
        {
            if (d >= n)
            {
                throw std::invalid_argument("DAG op '" + m_ops[i].name + "': dependency " +
                                            std::to_string(d) + " is not an op (ids are 0.." +
                                            std::to_string(n - 1) + ")");
            }
            if (d == i)
            {
                throw std::invalid_argument("DAG op '" + m_ops[i].name +
                                            "' depends on itself (a cycle)");
            }
        }
        for (uint32_t t : m_ops[i].reads)
        {
            if (t >= m_tensors.size())
            {
                throw std::invalid_argument("DAG op '" + m_ops[i].name + "': tensor " +
                                            std::to_string(t) + " is unknown (" +
                                            std::to_string(m_tensors.size()) + " tensors)");
            }
        }
    }
    // Cycle search: iterative DFS, colour 0 = new, 1 = on the stack, 2 = done.
    std::vector<uint8_t> colour(n, 0);
    std::vector<uint32_t> parent(n, n);
    for (uint32_t s = 0; s < n; ++s)
    {
        if (colour[s] != 0)
        {
            continue;
        }
        std::vector<std::pair<uint32_t, std::size_t>> stack{{s, 0}};
        colour[s] = 1;
        while (!stack.empty())
        {
            auto& [v, next] = stack.back();
            if (next < m_ops[v].deps.size())
            {
                uint32_t w = m_ops[v].deps[next++];
                if (colour[w] == 1)
                {
                    // the cycle is w -> ... -> v -> w along the stack
                    std::string path = m_ops[w].name;
                    bool on = false;
                    for (const auto& e : stack)
                    {
                        on = on || e.first == w;
                        if (on && e.first != w)
                        {
                            path += " <- " + m_ops[e.first].name;
                        }
                    }
                    throw std::invalid_argument("DAG has a cycle: " + path + " <- " +
                                                m_ops[w].name + " (each op waits for the next)");
                }
                if (colour[w] == 0)
                {
                    colour[w] = 1;
                    stack.emplace_back(w, 0);
                }
            }
            else
            {
                colour[v] = 2;
                stack.pop_back();
            }
        }
    }
}

std::vector<uint32_t>
ComputeDag::ExecutionOrder() const
{
    NS_LOG_FUNCTION(this);
    Validate();
    const uint32_t n = m_ops.size();
    std::vector<uint32_t> indeg(n, 0);
    std::vector<std::vector<uint32_t>> out(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t d : m_ops[i].deps)
        {
            out[d].push_back(i);
            indeg[i]++;
        }
    }
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (indeg[i] == 0)
        {
            ready.push(i);
        }
    }
    std::vector<uint32_t> order;
    order.reserve(n);
    while (!ready.empty())
    {
        uint32_t v = ready.top();
        ready.pop();
        order.push_back(v);
        for (uint32_t w : out[v])
        {
            if (--indeg[w] == 0)
            {
                ready.push(w);
            }
        }
    }
    return order;
}

std::vector<uint32_t>
ComputeDag::ConsumptionOrder() const
{
    NS_LOG_FUNCTION(this);
    const uint32_t nt = m_tensors.size();
    const uint32_t none = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> rank(nt, none);
    uint32_t next = 0;
    for (uint32_t op : ExecutionOrder())
    {
        for (uint32_t t : m_ops[op].reads)
        {
            if (rank[t] == none)
            {
                rank[t] = next++;
            }
        }
    }
    for (uint32_t t = 0; t < nt; ++t)
    {
        if (rank[t] == none)
        {
            rank[t] = next++;
        }
    }
    return rank;
}

DagSchedule
ComputeDag::IdealSchedule(double bytesPerSecond) const
{
    NS_LOG_FUNCTION(this << bytesPerSecond);
    if (!(bytesPerSecond > 0) || !std::isfinite(bytesPerSecond))
    {
        throw std::invalid_argument(
            "IdealSchedule: bytesPerSecond = " + std::to_string(bytesPerSecond) +
            " is out of range (must be finite and > 0)");
    }
    return IdealSchedule(std::vector<std::vector<LinkUse>>(m_tensors.size(), {{0, 1.0}}),
                         {bytesPerSecond});
}

DagSchedule
ComputeDag::IdealSchedule(const std::vector<std::vector<LinkUse>>& links,
                          const std::vector<double>& linkBytesPerSecond) const
{
    NS_LOG_FUNCTION(this);
    const uint32_t nt = m_tensors.size();
    if (links.size() != nt)
    {
        throw std::invalid_argument("IdealSchedule: " + std::to_string(links.size()) +
                                    " link lists for " + std::to_string(nt) +
                                    " tensors (must be one per tensor)");
    }
    for (double r : linkBytesPerSecond)
    {
        if (!(r > 0) || !std::isfinite(r))
        {
            throw std::invalid_argument("IdealSchedule: a link rate = " + std::to_string(r) +
                                        " B/s is out of range (must be finite and > 0)");
        }
    }
    DagSchedule s;
    s.order = ExecutionOrder();
    const std::vector<uint32_t> rank = ConsumptionOrder();
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<bool> read(nt, false);
    for (const auto& op : m_ops)
    {
        for (uint32_t t : op.reads)
        {
            read[t] = true;
        }
    }
    std::vector<uint32_t> byRank(nt);
    for (uint32_t t = 0; t < nt; ++t)
    {
        byRank[rank[t]] = t;
    }
    s.arrival.assign(nt, inf);
    std::vector<double> busy(linkBytesPerSecond.size(), 0.0); // seconds of transfer per link
    for (uint32_t t : byRank)
    {
        if (!read[t])
        {
            continue;
        }
        if (links[t].empty())
        {
            throw std::invalid_argument("IdealSchedule: tensor '" + m_tensors[t].name +
                                        "' is read but crosses no link");
        }
        double at = 0;
        for (const auto& [link, mult] : links[t])
        {
            if (link >= busy.size() || !(mult > 0))
            {
                throw std::invalid_argument("IdealSchedule: tensor '" + m_tensors[t].name +
                                            "': link " + std::to_string(link) +
                                            " is unknown or its multiplier is not > 0");
            }
            busy[link] += double(m_tensors[t].bytes) * mult / linkBytesPerSecond[link];
            at = std::max(at, busy[link]);
        }
        s.arrival[t] = at;
    }
    for (double b : busy)
    {
        s.minCct = std::max(s.minCct, b);
    }
    const uint32_t n = m_ops.size();
    s.opStart.assign(n, 0);
    s.opEnd.assign(n, 0);
    double t = 0;
    for (uint32_t op : s.order)
    {
        double start = t;
        for (uint32_t d : m_ops[op].deps)
        {
            start = std::max(start, s.opEnd[d]);
        }
        for (uint32_t x : m_ops[op].reads)
        {
            start = std::max(start, s.arrival[x]);
        }
        s.opStart[op] = start;
        s.opEnd[op] = start + m_ops[op].seconds;
        t = s.opEnd[op];
    }
    s.makespan = t;
    // as late as possible with the serial order: LS(op) = makespan - compute of op and after
    s.deadline.assign(nt, inf);
    double latest = s.makespan;
    for (auto it = s.order.rbegin(); it != s.order.rend(); ++it)
    {
        latest -= m_ops[*it].seconds;
        for (uint32_t x : m_ops[*it].reads)
        {
            s.deadline[x] = std::min(s.deadline[x], latest);
        }
    }
    for (uint32_t x = 0; x < nt; ++x)
    {
        if (read[x])
        {
            s.maxTolerableCct = std::max(s.maxTolerableCct, s.deadline[x]);
        }
    }
    return s;
}

} // namespace ns3
