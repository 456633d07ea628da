/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_HOST_INTERCONNECT_HELPER_H
#define MLNET_HOST_INTERCONNECT_HELPER_H

#include "ns3/host-interconnect.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Installs a HostInterconnect (NIC buffer, PCIe, IOMMU, memory bus) between each host's
 * RDMA NIC and its memory.
 *
 * \code
 * HostInterconnectHelper host;
 * host.SetAttribute("MemoryAppDemand", DoubleValue(0.9));
 * host.SetAttribute("PageSize", UintegerValue(2 << 20));
 * host.Install(topo.hosts); // RDMA NICs are installed first where missing
 * \endcode
 */
class HostInterconnectHelper
{
  public:
    HostInterconnectHelper();

    /**
     * Set an attribute of the HostInterconnects installed from now on.
     * \param name attribute name \param value its value
     * \throws std::invalid_argument for an unknown attribute or a value its checker rejects
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Install on hosts (each needs an addressed FabricNetDevice; an RdmaNic is installed where
     * there is none). A host that already has a HostInterconnect keeps it.
     * \param hosts the hosts
     * \return the host paths, in the order of the hosts
     * \throws std::invalid_argument if the parameters do not make a valid path
     */
    std::vector<Ptr<HostInterconnect>> Install(const NodeContainer& hosts) const;

    /**
     * A HostInterconnect with the attributes set, attached to no NIC (the flow backend's
     * FluidHost takes its rates: FlowBackendHelper::InstallHost).
     * \return the new object
     */
    Ptr<HostInterconnect> Create() const;

    /// \param node a host \return its HostInterconnect (null if none)
    static Ptr<HostInterconnect> Get(Ptr<Node> node);

  private:
    ObjectFactory m_factory;
};

} // namespace ns3

#endif /* MLNET_HOST_INTERCONNECT_HELPER_H */
