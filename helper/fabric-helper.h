/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FABRIC_HELPER_H
#define MLNET_FABRIC_HELPER_H

#include "ns3/fabric-net-device.h"
#include "ns3/fabric-switch.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/trace-helper.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Builds the lossless fabric: switches, links (two FabricNetDevices on a FabricChannel),
 * host addresses and ECMP routes; pcap tracing through the usual PcapHelperForDevice mixin.
 *
 * \code
 * FabricHelper fabric;
 * fabric.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
 * fabric.SetChannelAttribute("Delay", StringValue("1us"));
 * fabric.SetSwitchAttribute("PfcEnabled", BooleanValue(true));
 * fabric.InstallSwitch(switches);           // before the links
 * NetDeviceContainer d = fabric.Install(host, tor);
 * FabricHelper::AssignHostAddresses(hosts);
 * FabricHelper::PopulateRoutes();
 * \endcode
 */
class FabricHelper : public PcapHelperForDevice
{
  public:
    FabricHelper();

    /// Set an attribute of the FabricNetDevices created from now on.
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /// Set an attribute of the FabricChannels created from now on.
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);
    /// Set an attribute of the FabricSwitches created from now on.
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Make a node a switch (aggregate a FabricSwitch). Must precede its links.
     * \param node the node
     * \return the switch
     */
    Ptr<FabricSwitch> InstallSwitch(Ptr<Node> node) const;
    /// Make every node of the container a switch.
    void InstallSwitch(const NodeContainer& nodes) const;

    /**
     * Connect two nodes with a link; switch ends become switch ports.
     * \param a first node \param b second node
     * \return the two devices (a's, then b's)
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b) const;

    /**
     * Give hosts consecutive addresses base+1, base+2, ... on their first FabricNetDevice.
     * \param hosts the hosts
     * \param base the network address (default 10.0.0.0)
     */
    static void AssignHostAddresses(const NodeContainer& hosts,
                                    Ipv4Address base = Ipv4Address("10.0.0.0"));

    /**
     * Compute shortest-path ECMP routes of every switch towards every host (breadth-first
     * search over the whole node list; hosts never transit) and install them. A host with one
     * switch as its only neighbour shares the search of that switch (one search per edge
     * switch, not per host); other hosts get their own.
     */
    static void PopulateRoutes();

    /**
     * Fix the random streams of the switches in a container.
     * \param switches switch nodes \param stream first stream
     * \return number of streams used
     */
    static int64_t AssignStreams(const NodeContainer& switches, int64_t stream);

    /**
     * Attach the fabric ports of hosts that have an ns-3 internet stack (InternetStackHelper)
     * to it: each host's FabricNetDevice becomes an Ipv4 interface with the host's fabric
     * address and the given mask, so ordinary ns-3 applications (TCP, UDP, DCTCP) run over the
     * fabric next to RDMA traffic. Call after AssignHostAddresses (topology helpers do it).
     * \param hosts the hosts (each must have Ipv4 aggregated)
     * \param mask network mask of the fabric (default /8, i.e. 10.0.0.0/8)
     * \throws std::invalid_argument if a host has no internet stack or no fabric address
     */
    static void AttachInternetStack(const NodeContainer& hosts,
                                    Ipv4Mask mask = Ipv4Mask("255.0.0.0"));

    /// \return the first FabricNetDevice of a node (null if none); FabricLinks::GetHostDevice
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

  private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;

    ObjectFactory m_deviceFactory;
    ObjectFactory m_channelFactory;
    ObjectFactory m_switchFactory;
};

} // namespace ns3

#endif /* MLNET_FABRIC_HELPER_H */
