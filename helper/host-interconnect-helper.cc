/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "host-interconnect-helper.h"

#include "ns3/log.h"
#include "ns3/rdma-helper.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostInterconnectHelper");

HostInterconnectHelper::HostInterconnectHelper()
{
    NS_LOG_FUNCTION(this);
    m_factory.SetTypeId("ns3::HostInterconnect");
}

void
HostInterconnectHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    struct TypeId::AttributeInformation info;
    if (!HostInterconnect::GetTypeId().LookupAttributeByName(name, &info))
    {
        throw std::invalid_argument("HostInterconnectHelper: no attribute \"" + name + "\"");
    }
    Ptr<AttributeValue> v = info.checker->CreateValidValue(value);
    if (!v)
    {
        throw std::invalid_argument("HostInterconnectHelper: invalid value for " + name + " (" +
                                    info.help + ")");
    }
    m_factory.Set(name, *v);
}

std::vector<Ptr<HostInterconnect>>
HostInterconnectHelper::Install(const NodeContainer& hosts) const
{
    NS_LOG_FUNCTION(this);
    std::vector<Ptr<HostInterconnect>> out;
    for (auto it = hosts.Begin(); it != hosts.End(); ++it)
    {
        Ptr<HostInterconnect> h = (*it)->GetObject<HostInterconnect>();
        if (!h)
        {
            Ptr<RdmaNic> nic = RdmaHelper::GetNic(*it);
            if (!nic)
            {
                nic = RdmaHelper().Install(NodeContainer(*it)).front();
            }
            h = Create();
            h->Attach(nic);
            (*it)->AggregateObject(h);
        }
        out.push_back(h);
    }
    return out;
}

Ptr<HostInterconnect>
HostInterconnectHelper::Create() const
{
    return m_factory.Create<HostInterconnect>();
}

Ptr<HostInterconnect>
HostInterconnectHelper::Get(Ptr<Node> node)
{
    return node->GetObject<HostInterconnect>();
}

} // namespace ns3
