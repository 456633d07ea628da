/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-scheduling-state.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowSchedulingState");

namespace
{

std::string
Num(double v)
{
    std::string s = std::to_string(v);
    // trim trailing zeros of the fixed notation ("1.500000" -> "1.5")
    if (s.find('.') != std::string::npos)
    {
        s.erase(s.find_last_not_of('0') + 1);
        if (s.back() == '.')
        {
            s.pop_back();
        }
    }
    return s;
}

[[noreturn]] void
FlowError(uint64_t id, const std::string& what)
{
    throw std::invalid_argument("flow " + std::to_string(id) + ": " + what);
}

[[noreturn]] void
GroupError(uint64_t id, const std::string& what)
{
    throw std::invalid_argument("flow group " + std::to_string(id) + ": " + what);
}

} // namespace

void
FlowSchedulingState::SetPort(uint32_t port, double up, double down)
{
    NS_LOG_FUNCTION(this << port << up << down);
    if (!(up > 0) || !std::isfinite(up) || !(down > 0) || !std::isfinite(down))
    {
        throw std::invalid_argument("port " + std::to_string(port) +
                                    ": capacities up = " + Num(up) + ", down = " + Num(down) +
                                    " B/s are out of range (must be finite and > 0)");
    }
    m_ports[port] = Port{up, down};
}

bool
FlowSchedulingState::HasPort(uint32_t port) const
{
    return m_ports.count(port) != 0;
}

double
FlowSchedulingState::Up(uint32_t port) const
{
    NS_LOG_FUNCTION(this << port);
    auto it = m_ports.find(port);
    if (it == m_ports.end())
    {
        throw std::invalid_argument("port " + std::to_string(port) + " is unknown");
    }
    return it->second.up;
}

double
FlowSchedulingState::Down(uint32_t port) const
{
    NS_LOG_FUNCTION(this << port);
    auto it = m_ports.find(port);
    if (it == m_ports.end())
    {
        throw std::invalid_argument("port " + std::to_string(port) + " is unknown");
    }
    return it->second.down;
}

double
FlowSchedulingState::PathCapacity(const FlowDeclaration& f) const
{
    NS_LOG_FUNCTION(this);
    return std::min(Up(f.src), Down(f.dst));
}

void
FlowSchedulingState::DeclareGroup(const FlowGroupSpec& g)
{
    NS_LOG_FUNCTION(this);
    if (!(g.stageTime >= 0) || !std::isfinite(g.stageTime))
    {
        GroupError(g.id,
                   "stageTime = " + Num(g.stageTime) +
                       " s is out of range (must be finite and >= 0 s)");
    }
    if (!(g.weight > 0) || !std::isfinite(g.weight))
    {
        GroupError(g.id, "weight = " + Num(g.weight) + " is out of range (must be finite and > 0)");
    }
    auto it = m_groups.find(g.id);
    if (it != m_groups.end())
    {
        if (!(it->second.spec == g))
        {
            GroupError(g.id,
                       "declared again with a different spec (arrangement " +
                           FlowArrangementName(g.arrangement) + " vs " +
                           FlowArrangementName(it->second.spec.arrangement) + ")");
        }
        return;
    }
    Group rec;
    rec.spec = g;
    m_groups.emplace(g.id, std::move(rec));
}

bool
FlowSchedulingState::HasGroup(uint64_t id) const
{
    return m_groups.count(id) != 0;
}

const FlowSchedulingState::Group&
FlowSchedulingState::FindGroup(uint64_t id) const
{
    NS_LOG_FUNCTION(this << id);
    auto it = m_groups.find(id);
    if (it == m_groups.end())
    {
        GroupError(id, "is unknown (declare it before adding its flows)");
    }
    return it->second;
}

const FlowGroupSpec&
FlowSchedulingState::GetGroup(uint64_t id) const
{
    return FindGroup(id).spec;
}

const std::vector<FlowSchedulingState::Flow>&
FlowSchedulingState::GetGroupHistory(uint64_t id) const
{
    return FindGroup(id).history;
}

uint32_t
FlowSchedulingState::GetGroupLive(uint64_t id) const
{
    return FindGroup(id).live;
}

std::size_t
FlowSchedulingState::GetNGroups() const
{
    return m_groups.size();
}

void
FlowSchedulingState::ForgetGroup(uint64_t id)
{
    NS_LOG_FUNCTION(this << id);
    if (FindGroup(id).live != 0)
    {
        GroupError(id,
                   "has " + std::to_string(FindGroup(id).live) +
                       " live flows (only a group without live flows can be forgotten)");
    }
    m_groups.erase(id);
}

void
FlowSchedulingState::AddFlow(const FlowDeclaration& d, double now)
{
    NS_LOG_FUNCTION(this << now);
    if (!(now >= 0) || !std::isfinite(now))
    {
        FlowError(d.id, "release time = " + Num(now) + " s is out of range (must be >= 0 s)");
    }
    if (m_index.count(d.id) != 0)
    {
        FlowError(d.id, "id is already live (flow ids must be unique)");
    }
    auto git = m_groups.find(d.group);
    if (git == m_groups.end())
    {
        FlowError(d.id,
                  "group " + std::to_string(d.group) +
                      " is unknown (declare it with DeclareGroup first)");
    }
    if (!HasPort(d.src) || !HasPort(d.dst))
    {
        FlowError(d.id,
                  "port " + std::to_string(HasPort(d.src) ? d.dst : d.src) +
                      " is unknown (set its capacities first)");
    }
    if (d.src == d.dst)
    {
        FlowError(d.id, "src = dst = " + std::to_string(d.src) + " (a flow needs two ports)");
    }
    if (d.bytes == 0)
    {
        FlowError(d.id, "bytes = 0 is out of range (must be >= 1)");
    }
    if (!(d.offset >= 0) || !std::isfinite(d.offset))
    {
        FlowError(d.id, "offset = " + Num(d.offset) + " s is out of range (must be >= 0 s)");
    }
    if (!(d.deadline >= 0))
    {
        FlowError(d.id,
                  "deadline = " + Num(d.deadline) +
                      " s is out of range (must be >= 0 s, or infinity for none)");
    }
    if (!(d.weight > 0) || !std::isfinite(d.weight))
    {
        FlowError(d.id, "weight = " + Num(d.weight) + " is out of range (must be finite and > 0)");
    }
    Flow f;
    f.decl = d;
    f.release = now;
    f.remaining = d.bytes;
    m_index[d.id] = m_flows.size();
    m_flows.push_back(f);
    git->second.history.push_back(f);
    git->second.live++;
}

void
FlowSchedulingState::SetRemaining(uint64_t id, uint64_t remaining)
{
    NS_LOG_FUNCTION(this << id << remaining);
    auto it = m_index.find(id);
    if (it == m_index.end())
    {
        FlowError(id, "is not live");
    }
    Flow& f = m_flows[it->second];
    if (remaining > f.decl.bytes)
    {
        FlowError(id,
                  "remaining = " + std::to_string(remaining) +
                      " is out of range (must be <= " + std::to_string(f.decl.bytes) + ")");
    }
    f.remaining = remaining;
}

void
FlowSchedulingState::CompleteFlow(uint64_t id)
{
    NS_LOG_FUNCTION(this << id);
    auto it = m_index.find(id);
    if (it == m_index.end())
    {
        FlowError(id, "is not live");
    }
    const std::size_t pos = it->second;
    const uint64_t group = m_flows[pos].decl.group;
    m_index.erase(it);
    if (pos + 1 != m_flows.size())
    {
        m_flows[pos] = m_flows.back();
        m_index[m_flows[pos].decl.id] = pos;
    }
    m_flows.pop_back();
    auto git = m_groups.find(group);
    if (git != m_groups.end())
    {
        Group& g = git->second;
        g.live--;
        g.done++;
        if (g.spec.expectedFlows != 0 && g.done >= g.spec.expectedFlows && g.live == 0)
        {
            m_groups.erase(git);
        }
    }
}

bool
FlowSchedulingState::HasFlow(uint64_t id) const
{
    return m_index.count(id) != 0;
}

const FlowSchedulingState::Flow&
FlowSchedulingState::GetFlow(uint64_t id) const
{
    auto it = m_index.find(id);
    if (it == m_index.end())
    {
        FlowError(id, "is not live");
    }
    return m_flows[it->second];
}

const std::vector<FlowSchedulingState::Flow>&
FlowSchedulingState::GetFlows() const
{
    return m_flows;
}

} // namespace ns3
