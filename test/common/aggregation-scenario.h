/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_TEST_AGGREGATION_SCENARIO_H
#define MLNET_TEST_AGGREGATION_SCENARIO_H

// Shared small in-network aggregation set-ups for the tests.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <string>
#include <vector>

namespace mlnettest
{

/// A leaf-spine with aggregation devices on every leaf uplink and every spine port.
struct AggLeafSpine
{
    ns3::FabricTopology topo;
    ns3::AggregationHelper agg;

    /**
     * \param leaves leaves \param spines spines \param hostsPerLeaf hosts per leaf
     * \param pfc PFC on \param buffer switch buffer (bytes) \param rate every link's rate
     */
    AggLeafSpine(uint32_t leaves,
                 uint32_t spines,
                 uint32_t hostsPerLeaf,
                 bool pfc = true,
                 uint64_t buffer = 32u * 1024 * 1024,
                 const std::string& rate = "100Gbps");
    /// Install the aggregation points (after configuring `agg`): "bump" = devices on every
    /// leaf uplink and every spine port, "switch" = in-switch aggregators on every switch.
    void Install(const std::string& kind = "bump");
    /// \return hosts with the given indices
    ns3::NodeContainer Hosts(const std::vector<uint32_t>& idx) const;
    /// \return bytes dropped by all switches
    uint64_t SwitchDrops() const;
    /// \return PFC pauses sent by all switches
    uint64_t SwitchPauses() const;
};

/// Deterministic test gradients whose sums are exact in FP32 (multiples of 1/64, small).
std::vector<float> DyadicGradient(uint32_t worker, uint32_t n, uint32_t salt = 0);

/**
 * Post the same-sized gradient on every worker of a job (values mode) and record the results.
 * \param job the job \param n elements \param salt varies the values
 * \param results [out] one vector per worker, filled when the worker's post completes
 * \return the expected element-wise sum
 */
std::vector<float> PostValues(ns3::Ptr<ns3::InNetworkAggregator> job,
                              uint32_t n,
                              uint32_t salt,
                              std::vector<std::vector<float>>& results);

} // namespace mlnettest

#endif
