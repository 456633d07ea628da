/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLOW_SCHEDULER_HELPER_H
#define MLNET_FLOW_SCHEDULER_HELPER_H

#include "ns3/object-factory.h"
#include "ns3/rdma-flow-scheduler.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Installs a RdmaFlowScheduler with a flow-scheduling policy on a set of NICs (or of
 * the flow backend's FluidTransports).
 *
 * \code
 * FlowSchedulerHelper fs;
 * fs.SetPolicy("echelon");                                   // or a TypeId name
 * fs.SetSchedulerAttribute("ControlDelay", TimeValue(MicroSeconds(20)));
 * Ptr<RdmaFlowScheduler> s = fs.Install(nics);               // jobs on these NICs use it
 * \endcode
 */
class FlowSchedulerHelper
{
  public:
    FlowSchedulerHelper();

    /**
     * \param name a short name of CreateFlowSchedulingPolicy ("fair", "fifo", "madd",
     * "echelon", "cadentflow-priority", "cadentflow-deadline") or a FlowSchedulingPolicy TypeId
     * name ("ns3::EchelonFlowPolicy")
     * \throws std::invalid_argument for an unknown name
     */
    void SetPolicy(const std::string& name);
    /// Set an attribute of the policy. \param name attribute \param value value
    void SetPolicyAttribute(const std::string& name, const AttributeValue& value);
    /// Set an attribute of the scheduler. \param name attribute \param value value
    void SetSchedulerAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \param nics the NICs (port i = nics[i])
     * \return the scheduler
     */
    Ptr<RdmaFlowScheduler> Install(const std::vector<Ptr<RdmaNic>>& nics) const;
    /**
     * \param transports the hosts' transports (port i = transports[i]): RDMA NICs, or the
     * FluidTransports of FlowBackendHelper (the policy's levels and caps then become the fluid
     * flows' classes and rate caps)
     * \return the scheduler
     */
    Ptr<RdmaFlowScheduler> Install(const std::vector<Ptr<MessageTransport>>& transports) const;

  private:
    std::string m_policyName;
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_policyAttributes;
    ObjectFactory m_scheduler;
};

} // namespace ns3

#endif /* MLNET_FLOW_SCHEDULER_HELPER_H */
