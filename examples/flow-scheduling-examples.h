/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLOW_SCHEDULING_EXAMPLES_H
#define MLNET_FLOW_SCHEDULING_EXAMPLES_H

// Shared by examples/cadentflow-ps.cc and examples/echelon-pipeline.cc.

#include "fluid-cc-option.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace mlnetexamples
{

/// \param s "a,b,c" \return {"a", "b", "c"} (empty items dropped)
inline std::vector<std::string>
SplitList(const std::string& s)
{
    std::vector<std::string> v;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        if (!item.empty())
        {
            v.push_back(item);
        }
    }
    return v;
}

/// \param hosts number of hosts \param gbps link rate (Gbit/s) \return them on one switch
inline ns3::FabricTopology
BuildSwitch(uint32_t hosts, double gbps)
{
    using namespace ns3;
    FabricTopologyHelper th;
    std::ostringstream r;
    r << gbps << "Gbps";
    th.SetHostLinkRate(DataRate(r.str()));
    th.SetFabricLinkRate(DataRate(r.str()));
    return th.BuildLeafSpine(1, 1, hosts);
}

/**
 * Hosts on one switch (the big-switch network of the coflow papers) with RDMA NICs.
 * \param hosts number of hosts \param gbps link rate (Gbit/s) \param cc congestion control TypeId
 * \return the NICs, host order (4096-byte MTU, one ACK per 16 packets)
 */
inline std::vector<ns3::Ptr<ns3::RdmaNic>>
BuildSwitchCluster(uint32_t hosts, double gbps, const std::string& cc)
{
    using namespace ns3;
    FabricTopology topo = BuildSwitch(hosts, gbps);
    RdmaHelper rdma;
    rdma.SetCongestionControl(cc);
    rdma.SetNicAttribute("Mtu", UintegerValue(4096));
    rdma.SetNicAttribute("AckInterval", UintegerValue(16));
    return rdma.Install(topo.hosts);
}

/**
 * The same cluster at either fidelity: RDMA NICs (packet) or FluidTransports (flow, with the
 * NICs' 4096-byte MTU and one ACK per 16 packets, and DCQCN at flow level with the NICs'
 * congestion control as reaction point where fluidCc is dcqcn).
 * \param hosts number of hosts \param gbps link rate (Gbit/s) \param cc congestion control
 * \param backend "packet" or "flow"
 * \param fluidCc at flow level: "dcqcn" or "none" (FluidCc()'s value)
 * \return the transports, host order
 * \throws std::invalid_argument for another backend
 */
inline std::vector<ns3::Ptr<ns3::MessageTransport>>
BuildSwitchClusterTransports(uint32_t hosts,
                             double gbps,
                             const std::string& cc,
                             const std::string& backend,
                             const std::string& fluidCc)
{
    using namespace ns3;
    if (backend == "packet")
    {
        std::vector<Ptr<RdmaNic>> nics = BuildSwitchCluster(hosts, gbps, cc);
        return {nics.begin(), nics.end()};
    }
    if (backend != "flow")
    {
        throw std::invalid_argument("--backend = " + backend + ": must be packet or flow");
    }
    FabricTopology topo = BuildSwitch(hosts, gbps);
    FlowBackendHelper flow;
    flow.SetTransportAttribute("Mtu", UintegerValue(4096));
    flow.SetTransportAttribute("AckInterval", UintegerValue(16));
    InstallFluidCc(flow.Install(topo), fluidCc, cc);
    std::vector<uint32_t> all(hosts);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        all[h] = h;
    }
    return FlowBackendHelper::Transports(topo, all);
}

} // namespace mlnetexamples

#endif /* MLNET_FLOW_SCHEDULING_EXAMPLES_H */
