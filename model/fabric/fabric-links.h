/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FABRIC_LINKS_H
#define MLNET_FABRIC_LINKS_H

#include "fabric-net-device.h"

#include "ns3/node.h"

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Queries of how a built fabric is wired: a host's port, in-line devices (bumps in the
 * wire), and the far end of a link seen through them. Routing (FabricHelper) and the
 * aggregation trees (AggregationTreePlanner) both see the fabric this way.
 */
class FabricLinks
{
  public:
    /// \return the first FabricNetDevice of a node (null if none)
    static Ptr<FabricNetDevice> GetHostDevice(Ptr<Node> node);

    /**
     * \return true if a node is an in-line device spliced into a link (a bump in the wire, e.g.
     * an aggregation device): not a switch, exactly two FabricNetDevices, no host address.
     * Routing sees through such nodes.
     */
    static bool IsInline(Ptr<Node> node);

    /**
     * The device at the far end of a link, seen through in-line devices.
     * \param dev a device
     * \return the first device beyond dev's link that is not on an in-line node (null if none)
     */
    static Ptr<FabricNetDevice> GetFarPeer(Ptr<FabricNetDevice> dev);
};

} // namespace ns3

#endif /* MLNET_FABRIC_LINKS_H */
