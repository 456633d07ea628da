/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FABRIC_TOPOLOGY_HELPER_H
#define MLNET_FABRIC_TOPOLOGY_HELPER_H

#include "fabric-helper.h"

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief What a topology builder returns: hosts (in address order) and switches by tier.
 */
struct FabricTopology
{
    NodeContainer hosts;    //!< hosts, host i has address 10.0.0.0 + i + 1
    NodeContainer switches; //!< every switch
    NodeContainer edge;     //!< edge / leaf / ToR switches
    NodeContainer agg;      //!< aggregation switches (fat-tree) — empty otherwise
    NodeContainer core;     //!< core / spine switches
    uint32_t links{0};      //!< number of links
    std::string kind;       //!< "fat-tree", "leaf-spine" or "dumbbell" (set by the builder)

    /// \return the address of host i
    Ipv4Address HostAddress(uint32_t i) const;
    /// \return the fabric port of host i
    Ptr<FabricNetDevice> HostDevice(uint32_t i) const;
    /**
     * The names every output uses for the nodes (ports.csv, Python's port_stats): host<i>;
     * edge<i>, agg<i>, core<i> in a fat-tree and a dumbbell; leaf<i>, spine<i> in a leaf-spine.
     * \return node id -> name
     */
    std::map<uint32_t, std::string> NodeNames() const;
};

/**
 * \ingroup mlnet
 * \brief Builds standard datacenter topologies on a FabricHelper (whose device, channel and
 * switch attributes apply), assigns host addresses and installs ECMP routes.
 *
 * Link rates are set per tier; the helper's "DataRate" device attribute is overridden.
 * Every builder validates its arguments and throws std::invalid_argument naming the parameter
 * and its accepted range.
 */
class FabricTopologyHelper
{
  public:
    FabricTopologyHelper();

    /// \return the fabric helper (set device, channel and switch attributes on it)
    FabricHelper& Fabric();

    void SetHostLinkRate(DataRate r);   //!< \param r rate of host-to-edge links (default 100G)
    void SetFabricLinkRate(DataRate r); //!< \param r rate of switch-to-switch links (100G)
    void SetLinkDelay(Time d);          //!< \param d propagation delay of every link (1 us)
    /**
     * First random stream given to the switches (FabricHelper::AssignStreams), so a run is
     * reproducible whatever else the program created before (default 1000).
     * \param stream first stream index
     */
    void SetStreamBase(int64_t stream);

    /**
     * Dumbbell: nLeft hosts on one switch, nRight on another, one bottleneck link between.
     * \param nLeft hosts on the left \param nRight hosts on the right (each in
     *        InputLimits::DUMBBELL_HOSTS)
     * \return the topology (left hosts first)
     */
    FabricTopology BuildDumbbell(uint32_t nLeft, uint32_t nRight);

    /**
     * Leaf-spine (two-tier Clos): every leaf connects to every spine.
     * \param nLeaf leaves \param nSpine spines
     * \param hostsPerLeaf hosts per leaf (ranges: InputLimits); oversubscription is
     *        hostsPerLeaf x host rate / (nSpine x fabric rate)
     * \return the topology
     */
    FabricTopology BuildLeafSpine(uint32_t nLeaf, uint32_t nSpine, uint32_t hostsPerLeaf);

    /**
     * k-ary fat-tree (Al-Fares et al.): k pods of k/2 edge and k/2 aggregation switches,
     * (k/2)^2 core switches, k^3/4 hosts; hostsPerEdge > k/2 oversubscribes the edge.
     * \param k even, in InputLimits::FAT_TREE_K \param hostsPerEdge 0 = k/2, at most 4k
     * \return the topology
     */
    FabricTopology BuildFatTree(uint32_t k, uint32_t hostsPerEdge = 0);

  private:
    void Connect(Ptr<Node> a, Ptr<Node> b, DataRate r, FabricTopology& t);
    void Finish(FabricTopology& t);

    FabricHelper m_fabric;
    DataRate m_hostRate;
    DataRate m_fabricRate;
    Time m_delay;
    int64_t m_streamBase{1000};
};

} // namespace ns3

#endif /* MLNET_FABRIC_TOPOLOGY_HELPER_H */
