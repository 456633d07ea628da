/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLOW_SCHEDULING_EXAMPLES_H
#define MLNET_FLOW_SCHEDULING_EXAMPLES_H

// Shared by examples/cadentflow-ps.cc and examples/echelon-pipeline.cc.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <sstream>
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

/**
 * Hosts on one switch (the big-switch network of the coflow papers) with RDMA NICs.
 * \param hosts number of hosts \param gbps link rate (Gbit/s) \param cc congestion control TypeId
 * \return the NICs, host order (4096-byte MTU, one ACK per 16 packets)
 */
inline std::vector<ns3::Ptr<ns3::RdmaNic>>
BuildSwitchCluster(uint32_t hosts, double gbps, const std::string& cc)
{
    using namespace ns3;
    FabricTopologyHelper th;
    std::ostringstream r;
    r << gbps << "Gbps";
    th.SetHostLinkRate(DataRate(r.str()));
    th.SetFabricLinkRate(DataRate(r.str()));
    FabricTopology topo = th.BuildLeafSpine(1, 1, hosts);
    RdmaHelper rdma;
    rdma.SetCongestionControl(cc);
    rdma.SetNicAttribute("Mtu", UintegerValue(4096));
    rdma.SetNicAttribute("AckInterval", UintegerValue(16));
    return rdma.Install(topo.hosts);
}

} // namespace mlnetexamples

#endif /* MLNET_FLOW_SCHEDULING_EXAMPLES_H */
