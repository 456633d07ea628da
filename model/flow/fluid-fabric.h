/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLUID_FABRIC_H
#define MLNET_FLUID_FABRIC_H

#include "fluid-aggregate.h"
#include "fluid-network.h"

#include "ns3/fabric-net-device.h"
#include "ns3/flow-key.h"
#include "ns3/node-container.h"
#include "ns3/object.h"

#include <unordered_map>
#include <vector>

namespace ns3
{

class FabricSwitch;

/**
 * \ingroup mlnet
 * \brief The fluid image of a packet fabric: one FluidNetwork link per FabricNetDevice that
 * has a peer (the device's direction of its cable, at the device's DataRate in bytes/s and its
 * channel's delay), and flow paths routed by the fabric's own switches.
 *
 * Built from the same ns-3 Nodes and FabricNetDevices the topology helpers make, so the
 * topology, the link rates and delays, the host addresses and the ECMP routes are the packet
 * backend's. A flow's path is found by walking from the source host's device: at each switch
 * the egress port is FabricSwitch::SelectEgress() of the flow's 5-tuple, the very function (route
 * lookup, hash, per-switch seed) that forwards the packet backend's packets, so a flow takes the
 * same path at both fidelities. A node that is neither a switch nor the destination and has
 * exactly two fabric ports (an in-line device, e.g. an aggregation bump) is crossed: its
 * other port's link follows.
 *
 * Build after the topology is complete (its switches configure themselves, drawing their ECMP
 * seeds, at the first path lookup; ports cannot be added after that).
 */
class FluidFabric : public Object
{
  public:
    static TypeId GetTypeId();
    FluidFabric();
    ~FluidFabric() override;

    /**
     * Add a link for every FabricNetDevice of the nodes that has a peer.
     * \param nodes every node of the fabric (hosts, switches, in-line devices)
     * \param net the network to add the links to (null: a new one)
     * \throws std::logic_error if called twice
     */
    void Build(const NodeContainer& nodes, Ptr<FluidNetwork> net = nullptr);
    /// \return the fluid network
    Ptr<FluidNetwork> GetNetwork() const;
    /// \return the aggregate background model beside the network (made on first use; the
    ///         connections set to FluidConnection::Aggregate drain there)
    Ptr<FluidAggregate> GetAggregate();

    /// \param dev a device \return its link id, or -1 if it has none
    int64_t GetLink(Ptr<const FabricNetDevice> dev) const;
    /// \param link a link id \return its device (the sending end)
    Ptr<FabricNetDevice> GetDevice(uint32_t link) const;
    /// \param link a link id \return the link of the other direction of its cable (the peer
    ///         device's), or -1 if that has none \throws std::out_of_range for a bad link
    int64_t GetReverseLink(uint32_t link) const;
    /// \param addr a host address (as Ipv4Address::Get()) \return its device, or null
    Ptr<FabricNetDevice> GetHostDevice(uint32_t addr) const;

    /**
     * The links a flow crosses, from its source host to its destination host.
     * \param key the flow's 5-tuple (src and dst are host addresses)
     * \return the link ids
     * \throws std::invalid_argument if an address is not a host of the fabric, a switch has no
     *         route, or the walk does not reach the destination
     */
    std::vector<uint32_t> Route(const FlowKey& key) const;

    /**
     * Make an address a destination that is not a host: a flow to it ends where it reaches
     * the node (an in-network aggregation point: an in-line device or a switch that consumes
     * the packets addressed to it). An endpoint may have a service link: a FluidNetwork link
     * of its own (no device, no delay) that the flows it processes load, e.g. an aggregation
     * datapath's element rate. Adding an address again returns its link.
     * \param address the address (as Ipv4Address::Get()) \param node the node that takes it
     * \param service the service link's capacity (in the unit its flows count, > 0), or 0 for
     *        none
     * \return the service link's id, or -1 if it has none
     */
    int64_t AddEndpoint(uint32_t address, Ptr<Node> node, double service = 0);
    /**
     * The links of a flow that leaves a node that is not a host (an aggregation point), to a
     * host or an endpoint (AddEndpoint), routed as Route() routes.
     * \param key the flow's 5-tuple \param node the node it leaves
     * \param out the port it leaves by; null: the node is a switch, which selects the port
     *        (FabricSwitch::SelectEgress)
     * \return the link ids
     * \throws std::invalid_argument as Route()
     */
    std::vector<uint32_t> RouteFrom(const FlowKey& key,
                                    Ptr<Node> node,
                                    Ptr<FabricNetDevice> out) const;

  protected:
    void DoDispose() override;

  private:
    /// The walk of Route() and RouteFrom(): from the link of `dev` to the key's destination.
    std::vector<uint32_t> Walk(const FlowKey& key, Ptr<FabricNetDevice> dev) const;
    /// Fill m_hops and m_portLinks (at the first walk, when the topology is complete).
    void CacheHops() const;

    /// What a walk needs of a link's receiving end (cached: no lookups per hop).
    struct Hop
    {
        uint32_t addr{0};          //!< the receiving device's IPv4 address (0: none)
        uint32_t node{0};          //!< the receiving node's id
        FabricSwitch* sw{nullptr}; //!< the receiving node's switch (null: not a switch)
        uint32_t firstPort{0};     //!< the switch's ports' links start here in m_portLinks
        uint32_t nPorts{0};        //!< the switch's ports cached
        int64_t reverse{-1};       //!< the link of the peer device (-1: none)
    };

    Ptr<FluidNetwork> m_net;
    Ptr<FluidAggregate> m_aggregate;                      //!< made by GetAggregate()
    std::unordered_map<uint32_t, uint32_t> m_endpoints;   //!< endpoint address -> node id
    std::unordered_map<uint32_t, int64_t> m_serviceLinks; //!< endpoint address -> link or -1
    std::vector<Ptr<FabricNetDevice>> m_devOfLink;        //!< link -> sending device
    std::unordered_map<const FabricNetDevice*, uint32_t> m_linkOf; //!< device -> link
    std::unordered_map<uint32_t, Ptr<FabricNetDevice>> m_hostDev;  //!< host address -> device
    uint32_t m_maxHops{64};
    mutable std::vector<Hop> m_hops;          //!< per link (CacheHops)
    mutable std::vector<int64_t> m_portLinks; //!< per switch port: its link or -1 (CacheHops)
    mutable std::vector<Ptr<FabricSwitch>> m_switches; //!< the switches m_hops points to
};

} // namespace ns3

#endif /* MLNET_FLUID_FABRIC_H */
