/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_RDMA_HELPER_H
#define MLNET_RDMA_HELPER_H

#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-nic.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Installs RDMA NICs on hosts (bound to their FabricNetDevice) and chooses their
 * congestion control.
 *
 * \code
 * RdmaHelper rdma;
 * rdma.SetCongestionControl("ns3::Dcqcn");
 * rdma.SetCcAttribute("RateAI", DataRateValue(DataRate("40Mbps")));
 * rdma.Install(topology.hosts);
 * Ptr<RdmaQueuePair> qp = RdmaHelper::GetNic(a)->Connect(RdmaHelper::GetNic(b));
 * qp->PostSend(1000000);
 * \endcode
 */
class RdmaHelper
{
  public:
    RdmaHelper();

    /// Set an attribute of the RdmaNics installed from now on.
    void SetNicAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Choose the congestion-control algorithm (a RdmaCongestionOps TypeId name, e.g.
     * "ns3::Dcqcn", "ns3::DcqcnVendor", "ns3::RdmaFixedRate").
     * \param typeId the algorithm's TypeId name
     * \throws std::invalid_argument if no such TypeId exists
     */
    void SetCongestionControl(const std::string& typeId);
    /// Set an attribute of the congestion-control objects (one per queue pair).
    void SetCcAttribute(const std::string& name, const AttributeValue& value);
    /// \return the congestion-control factory (e.g. to derive a per-job profile from it)
    const ObjectFactory& GetCongestionControl() const;

    /**
     * Install a NIC on every host (each must have a FabricNetDevice with an address). The
     * congestion control's attributes are read now: one instance, which every queue pair of
     * these NICs copies (RdmaNic::SetCongestionControl).
     * \param hosts the hosts
     * \return the NICs, in host order
     */
    std::vector<Ptr<RdmaNic>> Install(const NodeContainer& hosts) const;

    /// \return the NIC aggregated to a node (null if none)
    static Ptr<RdmaNic> GetNic(Ptr<Node> node);

  private:
    ObjectFactory m_nicFactory;
    ObjectFactory m_ccFactory;
};

} // namespace ns3

#endif /* MLNET_RDMA_HELPER_H */
