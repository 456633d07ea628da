/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_AGGREGATION_FABRIC_GRAPH_H
#define MLNET_AGGREGATION_FABRIC_GRAPH_H

#include "aggregation-device.h"

#include "ns3/node.h"

#include <cstdint>
#include <limits>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The switch graph of the simulation as in-network aggregation sees it: switches and
 * their switch-to-switch links, seen through in-line devices, with the AggregationDevice at
 * each port's end of its link. A snapshot of NodeList when constructed.
 */
struct AggregationFabricGraph
{
    /// No switch (the far end of a port towards a host; an unreachable distance).
    static constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max();

    /// One end of a switch-to-switch link as seen from a switch port.
    struct LinkEnd
    {
        uint32_t port{0};                //!< port of the switch
        uint32_t peer{NONE};             //!< switch index at the far end (NONE: a host)
        uint32_t peerPort{0};            //!< port of the far switch on this link
        Ptr<AggregationDevice> nearBump; //!< device at this switch's end of the link
    };

    std::vector<Ptr<Node>> switches;         //!< the switches, by index
    std::map<uint32_t, uint32_t> indexOf;    //!< node id -> switch index
    std::vector<std::vector<LinkEnd>> ports; //!< per switch, per port
    std::vector<bool> hasHost;               //!< per switch: a host hangs from it

    /// Build the graph of every FabricSwitch in NodeList.
    AggregationFabricGraph();

    /// Multi-source BFS over switches. \return hop distance of every switch (NONE: unreachable)
    std::vector<uint32_t> Distances(const std::vector<uint32_t>& sources) const;
    /// \return the tier of every switch: its hop distance from the nearest switch with hosts
    std::vector<uint32_t> Tiers() const;
    /**
     * \param host a host
     * \return the switch index a host hangs from, and its port there
     * \throws std::invalid_argument if it is not a host attached to a switch
     */
    std::pair<uint32_t, uint32_t> EdgeOf(Ptr<Node> host) const;
};

} // namespace ns3

#endif /* MLNET_AGGREGATION_FABRIC_GRAPH_H */
