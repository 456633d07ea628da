/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-scheduler-helper.h"

#include "ns3/flow-policy-factory.h"
#include "ns3/log.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowSchedulerHelper");

FlowSchedulerHelper::FlowSchedulerHelper()
    : m_policyName("fair")
{
    NS_LOG_FUNCTION(this);
    m_scheduler.SetTypeId("ns3::RdmaFlowScheduler");
}

void
FlowSchedulerHelper::SetPolicy(const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    if (name.rfind("ns3::", 0) == 0)
    {
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(name, &tid) ||
            !tid.IsChildOf(FlowSchedulingPolicy::GetTypeId()))
        {
            throw std::invalid_argument("FlowSchedulerHelper: '" + name +
                                        "' is not a FlowSchedulingPolicy TypeId");
        }
    }
    else
    {
        CreateFlowSchedulingPolicy(name); // validates the short name
    }
    m_policyName = name;
}

void
FlowSchedulerHelper::SetPolicyAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_policyAttributes.emplace_back(name, value.Copy());
}

void
FlowSchedulerHelper::SetSchedulerAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_scheduler.Set(name, value);
}

Ptr<RdmaFlowScheduler>
FlowSchedulerHelper::Install(const std::vector<Ptr<RdmaNic>>& nics) const
{
    NS_LOG_FUNCTION(this);
    return Install(std::vector<Ptr<MessageTransport>>(nics.begin(), nics.end()));
}

Ptr<RdmaFlowScheduler>
FlowSchedulerHelper::Install(const std::vector<Ptr<MessageTransport>>& nics) const
{
    NS_LOG_FUNCTION(this);
    Ptr<FlowSchedulingPolicy> p;
    if (m_policyName.rfind("ns3::", 0) == 0)
    {
        ObjectFactory f(m_policyName);
        p = f.Create<FlowSchedulingPolicy>();
    }
    else
    {
        p = CreateFlowSchedulingPolicy(m_policyName);
    }
    for (const auto& [name, value] : m_policyAttributes)
    {
        p->SetAttribute(name, *value);
    }
    Ptr<RdmaFlowScheduler> s = m_scheduler.Create<RdmaFlowScheduler>();
    s->SetPolicy(p);
    s->Install(nics);
    return s;
}

} // namespace ns3
