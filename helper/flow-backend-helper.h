/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLOW_BACKEND_HELPER_H
#define MLNET_FLOW_BACKEND_HELPER_H

#include "fabric-topology-helper.h"
#include "host-interconnect-helper.h"

#include "ns3/fluid-fabric.h"
#include "ns3/fluid-host.h"
#include "ns3/fluid-transport.h"
#include "ns3/object-factory.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Puts a topology on the flow-level (fluid) backend: a FluidFabric over the topology's
 * nodes and ports, and a FluidTransport on every host (aggregated to the host's node), which
 * the workloads use where they would use the host's RdmaNic.
 *
 * \code
 * FabricTopology t = FabricTopologyHelper().BuildFatTree(4);
 * FlowBackendHelper flow;
 * flow.Install(t);
 * Ptr<RingAllReduce> ar = CreateObject<RingAllReduce>();
 * ar->SetGroup(flow.Transports(t, {0, 1, 2, 3}));
 * \endcode
 *
 * The fluid network's frame (FluidNetwork::FrameBytes) is set from the transports' Mtu,
 * HeaderBytes and FrameOverhead, so the unloaded latency serializes the frames the NIC sends.
 */
class FlowBackendHelper
{
  public:
    FlowBackendHelper();

    /// \param name a FluidTransport attribute \param value its value
    void SetTransportAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Build the fluid fabric of a topology and install a transport on each of its hosts.
     * \param topo the topology (complete: no port is added afterwards; nodes spliced into
     *        its links, such as in-line aggregation devices, are part of the fabric)
     * \return the fabric
     * \throws std::invalid_argument if a host already has a transport of this backend
     */
    Ptr<FluidFabric> Install(const FabricTopology& topo);

    /**
     * Put a host interconnect on hosts of the flow backend: per host a HostInterconnect from
     * the helper's attributes (aggregated to the node, as at packet level) and, if it is
     * Enabled, a FluidHost whose links carry the host's connections (doc/host.rst, "Flow
     * level"). Call after Install() and before the hosts' connections are opened.
     * \param hosts the hosts (each with a FluidTransport)
     * \param host the host path's attributes
     * \return the FluidHosts installed (none for a disabled path), in the order of the hosts
     * \throws std::invalid_argument if a host has no FluidTransport, already has a host path,
     *         or the parameters do not make a valid path
     */
    static std::vector<Ptr<FluidHost>> InstallHost(const NodeContainer& hosts,
                                                   const HostInterconnectHelper& host);

    /// \param host a host node \return its FluidTransport (null if none)
    static Ptr<FluidTransport> GetTransport(Ptr<Node> host);
    /**
     * \param topo the topology \param hosts host indices
     * \return the hosts' transports, in that order
     * \throws std::invalid_argument if a host has no FluidTransport
     */
    static std::vector<Ptr<MessageTransport>> Transports(const FabricTopology& topo,
                                                         const std::vector<uint32_t>& hosts);

  private:
    ObjectFactory m_transport;
};

} // namespace ns3

#endif /* MLNET_FLOW_BACKEND_HELPER_H */
