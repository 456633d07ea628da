/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_TEST_FLUID_AGGREGATION_FIXTURE_H
#define MLNET_TEST_FLUID_AGGREGATION_FIXTURE_H

// The numbers and helpers shared by the tests of in-network aggregation at flow level
// (test/flow/fluid-aggregation*-test.cc): 100 Gb/s links of 1 us, FP32 chunks of 256 elements.

#include "ns3/fabric-topology-helper.h"
#include "ns3/node-container.h"

#include <cstdint>
#include <vector>

namespace mlnettest
{

constexpr double kB = 100e9 / 8;  //!< bytes/s of every link
constexpr double kD = 1e-6;       //!< every link's delay (s)
constexpr double kFrame = 1110.0; //!< a full chunk: 256 FP32 + 48 B headers + 38 B framing

/// \return wire bytes of a post of `elements` FP32 elements in 256-element chunks
inline double
WireOf(uint64_t elements)
{
    const uint64_t chunks = (elements + 255) / 256;
    return double(chunks - 1) * kFrame + double(elements - (chunks - 1) * 256) * 4 + 86;
}

/// \return the topology's hosts of the given indices, in that order
inline ns3::NodeContainer
HostsOf(const ns3::FabricTopology& topo, const std::vector<uint32_t>& idx)
{
    ns3::NodeContainer c;
    for (uint32_t i : idx)
    {
        c.Add(topo.hosts.Get(i));
    }
    return c;
}

} // namespace mlnettest

#endif /* MLNET_TEST_FLUID_AGGREGATION_FIXTURE_H */
