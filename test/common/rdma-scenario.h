/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_TEST_RDMA_SCENARIO_H
#define MLNET_TEST_RDMA_SCENARIO_H

// Shared small RDMA topologies for the tests: N senders on one switch, receivers on another.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <vector>

namespace mlnettest
{

/// A dumbbell with RDMA NICs on every host.
struct RdmaDumbbell
{
    ns3::FabricTopology topo;
    std::vector<ns3::Ptr<ns3::RdmaNic>> nics;

    /**
     * Build nLeft senders and nRight receivers.
     * \param nLeft hosts on the left switch
     * \param nRight hosts on the right switch
     * \param pfc PFC on
     * \param buffer switch buffer (bytes)
     * \param cc congestion-control TypeId name
     */
    RdmaDumbbell(uint32_t nLeft,
                 uint32_t nRight,
                 bool pfc = true,
                 uint64_t buffer = 32u * 1024 * 1024,
                 const std::string& cc = "ns3::Dcqcn");

    /// \return a new QP from host a to host b
    ns3::Ptr<ns3::RdmaQueuePair> Connect(uint32_t a,
                                         uint32_t b,
                                         const ns3::ObjectFactory* cc = nullptr);
    /// \return bytes dropped by all switches
    uint64_t DroppedBytes() const;
    /// \return PFC pauses sent by all switches
    uint64_t Pauses() const;
};

/// \return a FluidTransport on each of the first n hosts of t, over one FluidFabric of t
std::vector<ns3::Ptr<ns3::MessageTransport>> FluidHosts(const ns3::FabricTopology& t, uint32_t n);

/// Payload goodput upper bound of a link of `rate` bit/s for RDMA packets of `mtu` payload.
double MaxGoodput(double rate, uint32_t mtu);

} // namespace mlnettest

#endif
