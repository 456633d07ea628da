/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_EXAMPLES_RDMA_TIMEOUT_LINE_H
#define MLNET_EXAMPLES_RDMA_TIMEOUT_LINE_H

// Shared by the examples that run RDMA jobs: the run's retransmission timeouts, reported as
// mlnet-run reports them (its summary.json warning, RdmaTimeoutReport).

#include "ns3/node-container.h"
#include "ns3/rdma-timeout-report.h"
#include "ns3/rng-seed-manager.h"

#include <iostream>
#include <string>

namespace mlnetexamples
{

/**
 * After Simulator::Run() and before Simulator::Destroy(): one line on stderr with the run's
 * RDMA retransmission timeouts (every node's NIC; nothing if none, or at flow level).
 * \param program the example's name \param run which run (e.g. "resnet50 fair"; the RngRun is
 * added)
 */
inline void
PrintRdmaTimeouts(const std::string& program, const std::string& run)
{
    const std::string w = ns3::RdmaTimeoutReport::Count(ns3::NodeContainer::GetGlobal()).Warning();
    if (!w.empty())
    {
        std::cerr << program << ": warning: " << run << " (RngRun " << ns3::RngSeedManager::GetRun()
                  << "): " << w << std::endl;
    }
}

} // namespace mlnetexamples

#endif /* MLNET_EXAMPLES_RDMA_TIMEOUT_LINE_H */
