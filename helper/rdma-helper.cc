/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-helper.h"

#include "fabric-helper.h"

#include "ns3/log.h"
#include "ns3/node.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaHelper");

RdmaHelper::RdmaHelper()
{
    NS_LOG_FUNCTION(this);
    m_nicFactory.SetTypeId("ns3::RdmaNic");
    m_ccFactory.SetTypeId("ns3::Dcqcn");
}

void
RdmaHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_nicFactory.Set(name, value);
}

void
RdmaHelper::SetCongestionControl(const std::string& typeId)
{
    NS_LOG_FUNCTION(this << typeId);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeId, &tid) ||
        !tid.IsChildOf(TypeId::LookupByName("ns3::RdmaCongestionOps")))
    {
        throw std::invalid_argument("congestion control '" + typeId +
                                    "' is not a RdmaCongestionOps type (e.g. ns3::Dcqcn, "
                                    "ns3::DcqcnVendor, ns3::RdmaFixedRate)");
    }
    m_ccFactory = ObjectFactory();
    m_ccFactory.SetTypeId(tid);
}

void
RdmaHelper::SetCcAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_ccFactory.Set(name, value);
}

const ObjectFactory&
RdmaHelper::GetCongestionControl() const
{
    return m_ccFactory;
}

std::vector<Ptr<RdmaNic>>
RdmaHelper::Install(const NodeContainer& hosts) const
{
    NS_LOG_FUNCTION(this);
    std::vector<Ptr<RdmaNic>> nics;
    // One instance of the congestion control for all the NICs to copy per queue pair: ns-3's
    // attribute construction per queue pair cost more than the rest of a connection.
    Ptr<const RdmaCongestionOps> prototype = m_ccFactory.Create<RdmaCongestionOps>();
    for (auto it = hosts.Begin(); it != hosts.End(); ++it)
    {
        Ptr<FabricNetDevice> dev = FabricHelper::GetHostDevice(*it);
        if (!dev || dev->GetIpv4Address() == Ipv4Address())
        {
            throw std::invalid_argument("RdmaHelper::Install: node " +
                                        std::to_string((*it)->GetId()) +
                                        " has no addressed FabricNetDevice");
        }
        Ptr<RdmaNic> nic = (*it)->GetObject<RdmaNic>();
        if (!nic)
        {
            nic = m_nicFactory.Create<RdmaNic>();
            (*it)->AggregateObject(nic);
            nic->SetDevice(dev);
        }
        nic->SetCongestionControl(m_ccFactory, prototype);
        nics.push_back(nic);
    }
    return nics;
}

Ptr<RdmaNic>
RdmaHelper::GetNic(Ptr<Node> node)
{
    return node->GetObject<RdmaNic>();
}

} // namespace ns3
