/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_TEST_FLOW_TEST_BUILDERS_H
#define MLNET_TEST_FLOW_TEST_BUILDERS_H

// Small builders shared by the flow-scheduling tests: ports, groups, flows, error messages.

#include "ns3/flow-scheduling-state.h"
#include "ns3/fluid-flow-model.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace mlnettest
{

constexpr double GB = 1e9; //!< 1 GB/s
constexpr double MB = 1e6; //!< 1 MB

/// \return a state with ports 0..n-1 at 1 GB/s up and down
inline ns3::FlowSchedulingState
Ports(uint32_t n)
{
    ns3::FlowSchedulingState s;
    for (uint32_t p = 0; p < n; ++p)
    {
        s.SetPort(p, GB, GB);
    }
    return s;
}

/// \return a flow declaration
inline ns3::FlowDeclaration
Flow(uint64_t id, uint64_t group, uint32_t src, uint32_t dst, double bytes, uint32_t index = 0)
{
    ns3::FlowDeclaration d;
    d.id = id;
    d.group = group;
    d.src = src;
    d.dst = dst;
    d.bytes = static_cast<uint64_t>(bytes);
    d.index = index;
    return d;
}

/// \return a group spec
inline ns3::FlowGroupSpec
Group(uint64_t id, ns3::FlowArrangement a = ns3::FlowArrangement::Coflow, double stage = 0)
{
    ns3::FlowGroupSpec g;
    g.id = id;
    g.arrangement = a;
    g.stageTime = stage;
    return g;
}

/// \return max over the first ideal.size() results of finish - ideal (the maximum tardiness)
inline double
MaxTardiness(const std::vector<ns3::FluidFlowResult>& r, const std::vector<double>& ideal)
{
    double worst = -1;
    for (std::size_t i = 0; i < ideal.size(); ++i)
    {
        worst = std::max(worst, r[i].finish - ideal[i]);
    }
    return worst;
}

/// \return the message of the std::invalid_argument thrown by f ("" if none)
template <typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

} // namespace mlnettest

#endif /* MLNET_TEST_FLOW_TEST_BUILDERS_H */
