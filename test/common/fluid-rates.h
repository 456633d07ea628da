/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_TEST_FLUID_RATES_H
#define MLNET_TEST_FLUID_RATES_H

// The fluid network tests' run: start flows at t = 0 and read their rates later.

#include "ns3/fluid-network.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace mlnettest
{

/// \return a flow of `bytes` over `path` (class 3, weight 1, no cap)
inline ns3::FluidNetwork::FlowSpec
FluidFlow(std::vector<uint32_t> path, uint64_t bytes)
{
    ns3::FluidNetwork::FlowSpec s;
    s.path = std::move(path);
    s.bytes = bytes;
    return s;
}

/**
 * Start the flows at t = 0, run to `at` and return their rates there (bytes/s); `check` (if
 * set) runs then too. Ends with Simulator::Destroy().
 */
inline std::vector<double>
FluidRatesAt(ns3::Ptr<ns3::FluidNetwork> net,
             const std::vector<ns3::FluidNetwork::FlowSpec>& specs,
             ns3::Time at,
             const std::function<void()>& check = std::function<void()>())
{
    std::vector<uint64_t> ids;
    ns3::Simulator::ScheduleNow([&]() {
        for (const ns3::FluidNetwork::FlowSpec& s : specs)
        {
            ids.push_back(net->StartFlow(s));
        }
    });
    std::vector<double> rates;
    ns3::Simulator::Schedule(at, [&]() {
        for (uint64_t id : ids)
        {
            rates.push_back(net->GetRate(id));
        }
        if (check)
        {
            check();
        }
    });
    ns3::Simulator::Stop(at);
    ns3::Simulator::Run();
    ns3::Simulator::Destroy();
    return rates;
}

} // namespace mlnettest

#endif /* MLNET_TEST_FLUID_RATES_H */
