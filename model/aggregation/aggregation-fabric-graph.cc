/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-fabric-graph.h"

#include "ns3/fabric-links.h"
#include "ns3/fabric-switch.h"
#include "ns3/node-list.h"

#include <deque>
#include <stdexcept>
#include <string>

namespace ns3
{

AggregationFabricGraph::AggregationFabricGraph()
{
    for (uint32_t i = 0; i < NodeList::GetNNodes(); ++i)
    {
        Ptr<Node> n = NodeList::GetNode(i);
        if (n->GetObject<FabricSwitch>())
        {
            indexOf[n->GetId()] = switches.size();
            switches.push_back(n);
        }
    }
    ports.resize(switches.size());
    hasHost.assign(switches.size(), false);
    for (uint32_t s = 0; s < switches.size(); ++s)
    {
        Ptr<FabricSwitch> sw = switches[s]->GetObject<FabricSwitch>();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            LinkEnd e;
            e.port = p;
            Ptr<FabricNetDevice> dev = sw->GetPort(p);
            Ptr<FabricNetDevice> adj = dev->GetPeer();
            if (adj)
            {
                Ptr<AggregationDevice> b = adj->GetNode()->GetObject<AggregationDevice>();
                if (b && b->GetSwitchPort() == adj)
                {
                    e.nearBump = b;
                }
            }
            Ptr<FabricNetDevice> far = FabricLinks::GetFarPeer(dev);
            if (far)
            {
                auto it = indexOf.find(far->GetNode()->GetId());
                if (it != indexOf.end())
                {
                    e.peer = it->second;
                    Ptr<FabricSwitch> fs = far->GetNode()->GetObject<FabricSwitch>();
                    for (uint32_t q = 0; q < fs->GetNPorts(); ++q)
                    {
                        if (fs->GetPort(q) == far)
                        {
                            e.peerPort = q;
                        }
                    }
                }
                else
                {
                    hasHost[s] = true;
                }
            }
            ports[s].push_back(e);
        }
    }
}

std::vector<uint32_t>
AggregationFabricGraph::Distances(const std::vector<uint32_t>& sources) const
{
    std::vector<uint32_t> d(switches.size(), NONE);
    std::deque<uint32_t> q;
    for (uint32_t s : sources)
    {
        d[s] = 0;
        q.push_back(s);
    }
    while (!q.empty())
    {
        uint32_t u = q.front();
        q.pop_front();
        for (const LinkEnd& e : ports[u])
        {
            if (e.peer != NONE && d[e.peer] == NONE)
            {
                d[e.peer] = d[u] + 1;
                q.push_back(e.peer);
            }
        }
    }
    return d;
}

std::vector<uint32_t>
AggregationFabricGraph::Tiers() const
{
    std::vector<uint32_t> edges;
    for (uint32_t s = 0; s < switches.size(); ++s)
    {
        if (hasHost[s])
        {
            edges.push_back(s);
        }
    }
    return Distances(edges);
}

std::pair<uint32_t, uint32_t>
AggregationFabricGraph::EdgeOf(Ptr<Node> host) const
{
    Ptr<FabricNetDevice> dev = FabricLinks::GetHostDevice(host);
    Ptr<FabricNetDevice> far = dev ? FabricLinks::GetFarPeer(dev) : nullptr;
    if (!far || !indexOf.count(far->GetNode()->GetId()))
    {
        throw std::invalid_argument("AggregationHelper: node " + std::to_string(host->GetId()) +
                                    " is not a host attached to a switch");
    }
    uint32_t s = indexOf.at(far->GetNode()->GetId());
    Ptr<FabricSwitch> sw = switches[s]->GetObject<FabricSwitch>();
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        if (sw->GetPort(p) == far)
        {
            return {s, p};
        }
    }
    return {s, 0};
}

} // namespace ns3
