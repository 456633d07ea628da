/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLOW_BACKEND_HELPER_H
#define MLNET_FLOW_BACKEND_HELPER_H

#include "fabric-topology-helper.h"
#include "host-interconnect-helper.h"

#include "ns3/fluid-dcqcn.h"
#include "ns3/fluid-fabric.h"
#include "ns3/fluid-host.h"
#include "ns3/fluid-transport.h"
#include "ns3/object-factory.h"

#include <cstdint>
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

    /// The random stream of InstallDcqcn()'s CNP draws by default: after the fabric's
    /// switches' streams (from 1000), before the periodic jobs' (PeriodicJob, 5000).
    static constexpr int64_t FLUID_DCQCN_STREAM = 4000;

    /**
     * \param cc a factory of an RdmaCongestionOps
     * \return whether it is a DCQCN variant (a DcqcnBase: ns3::Dcqcn, ns3::DcqcnVendor, ...),
     *         the reaction points DCQCN at flow level models
     */
    static bool IsDcqcn(const ObjectFactory& cc);

    /**
     * DCQCN at flow level (doc/flow-backend.rst, *DCQCN at flow level*): a FluidDcqcn on the
     * fabric's network whose reaction point is the packet NICs' congestion control, with its
     * attributes, so both fidelities run one state machine with one parameter set. The
     * scenario runner's "fluidCc" section and the C++ examples' --fluid-cc share it. Call
     * after Install() and before the first message.
     * \param fabric Install()'s fabric
     * \param cc the reaction point: a factory of an RdmaCongestionOps (the packet level's,
     *        e.g. RdmaHelper::GetCongestionControl() or a scenario's
     *        CongestionControlConfig::Factory())
     * \param model the FluidDcqcn's attributes (Step, CnpInterval, OtherLoad, ...; default:
     *        the attributes' defaults)
     * \param stream the random stream of its CNP draws: fixed, so a run does not depend on
     *        what the process created before (a second run in one process draws the same)
     * \return the model, or null if cc is not a DCQCN variant (ns3::RdmaFixedRate: line rate
     *         under PFC has no rate to model; the max-min rates stay alone)
     * \throws std::invalid_argument if fabric is null or model does not make a FluidDcqcn
     * \throws std::logic_error if the network already has a FluidDcqcn
     */
    static Ptr<FluidDcqcn> InstallDcqcn(
        Ptr<FluidFabric> fabric,
        const ObjectFactory& cc,
        const ObjectFactory& model = ObjectFactory("ns3::FluidDcqcn"),
        int64_t stream = FLUID_DCQCN_STREAM);

  private:
    ObjectFactory m_transport;
};

} // namespace ns3

#endif /* MLNET_FLOW_BACKEND_HELPER_H */
