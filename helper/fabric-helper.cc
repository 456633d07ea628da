/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-helper.h"

#include "event-scheduler-helper.h"

#include "ns3/fabric-channel.h"
#include "ns3/fabric-links.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node-list.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <limits>
#include <map>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricHelper");

FabricHelper::FabricHelper()
{
    NS_LOG_FUNCTION(this);
    m_deviceFactory.SetTypeId("ns3::FabricNetDevice");
    m_channelFactory.SetTypeId("ns3::FabricChannel");
    m_switchFactory.SetTypeId("ns3::FabricSwitch");
}

void
FabricHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_deviceFactory.Set(name, value);
}

void
FabricHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_channelFactory.Set(name, value);
}

void
FabricHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_switchFactory.Set(name, value);
}

Ptr<FabricSwitch>
FabricHelper::InstallSwitch(Ptr<Node> node) const
{
    NS_LOG_FUNCTION(this << node);
    Ptr<FabricSwitch> sw = node->GetObject<FabricSwitch>();
    if (!sw)
    {
        sw = m_switchFactory.Create<FabricSwitch>();
        node->AggregateObject(sw);
    }
    return sw;
}

void
FabricHelper::InstallSwitch(const NodeContainer& nodes) const
{
    NS_LOG_FUNCTION(this);
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        InstallSwitch(*it);
    }
}

NetDeviceContainer
FabricHelper::Install(Ptr<Node> a, Ptr<Node> b) const
{
    NS_LOG_FUNCTION(this << a << b);
    EventSchedulerHelper::CheckSupportedSimulator(); // not under MPI: see there
    Ptr<FabricChannel> ch = m_channelFactory.Create<FabricChannel>();
    NetDeviceContainer devs;
    for (Ptr<Node> n : {a, b})
    {
        Ptr<FabricNetDevice> d = m_deviceFactory.Create<FabricNetDevice>();
        n->AddDevice(d);
        d->Attach(ch);
        if (Ptr<FabricSwitch> sw = n->GetObject<FabricSwitch>())
        {
            sw->AddPort(d);
        }
        devs.Add(d);
    }
    return devs;
}

Ptr<FabricNetDevice>
FabricHelper::GetHostDevice(Ptr<Node> node)
{
    return FabricLinks::GetHostDevice(node);
}

bool
FabricHelper::IsInline(Ptr<Node> node)
{
    return FabricLinks::IsInline(node);
}

Ptr<FabricNetDevice>
FabricHelper::GetFarPeer(Ptr<FabricNetDevice> dev)
{
    return FabricLinks::GetFarPeer(dev);
}

void
FabricHelper::AssignHostAddresses(const NodeContainer& hosts, Ipv4Address base)
{
    NS_LOG_FUNCTION(base);
    uint32_t a = base.Get();
    for (auto it = hosts.Begin(); it != hosts.End(); ++it)
    {
        Ptr<FabricNetDevice> d = GetHostDevice(*it);
        if (!d)
        {
            throw std::invalid_argument("AssignHostAddresses: node " +
                                        std::to_string((*it)->GetId()) + " has no FabricNetDevice");
        }
        d->SetIpv4Address(Ipv4Address(++a));
    }
}

void
FabricHelper::AttachInternetStack(const NodeContainer& hosts, Ipv4Mask mask)
{
    NS_LOG_FUNCTION_NOARGS();
    for (auto it = hosts.Begin(); it != hosts.End(); ++it)
    {
        Ptr<Ipv4> ipv4 = (*it)->GetObject<Ipv4>();
        Ptr<FabricNetDevice> dev = GetHostDevice(*it);
        if (!ipv4 || !dev || dev->GetIpv4Address() == Ipv4Address())
        {
            throw std::invalid_argument("AttachInternetStack: node " +
                                        std::to_string((*it)->GetId()) +
                                        " needs an internet stack and an addressed fabric port");
        }
        int32_t ifIndex = ipv4->GetInterfaceForDevice(dev);
        if (ifIndex < 0)
        {
            ifIndex = int32_t(ipv4->AddInterface(dev));
        }
        ipv4->AddAddress(ifIndex, Ipv4InterfaceAddress(dev->GetIpv4Address(), mask));
        ipv4->SetMetric(ifIndex, 1);
        ipv4->SetUp(ifIndex);
    }
}

void
FabricHelper::PopulateRoutes()
{
    NS_LOG_FUNCTION_NOARGS();
    // The graph and every switch port's far end are read from the devices once (O(links));
    // the searches below then work on plain arrays.
    typedef boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS> Graph;
    const uint32_t n = NodeList::GetNNodes();
    Graph g(n);
    std::vector<bool> isSwitch(n, false);
    std::vector<Ptr<FabricSwitch>> switches(n);
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> portPeer(n); // switch: (port, node)
    std::vector<std::vector<uint32_t>> neighbours(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        switches[i] = NodeList::GetNode(i)->GetObject<FabricSwitch>();
        isSwitch[i] = bool(switches[i]);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<Node> node = NodeList::GetNode(i);
        const bool inLine = !isSwitch[i] && IsInline(node);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<FabricNetDevice> dev = DynamicCast<FabricNetDevice>(node->GetDevice(d));
            Ptr<FabricNetDevice> peer = dev && !inLine ? GetFarPeer(dev) : nullptr;
            if (!peer)
            {
                continue;
            }
            uint32_t v = peer->GetNode()->GetId();
            neighbours[i].push_back(v);
            if (i < v)
            {
                boost::add_edge(i, v, g);
            }
        }
        if (isSwitch[i])
        {
            Ptr<FabricSwitch> sw = switches[i];
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                Ptr<FabricNetDevice> peer = GetFarPeer(sw->GetPort(p));
                if (peer)
                {
                    portPeer[i].emplace_back(p, peer->GetNode()->GetId());
                }
            }
        }
    }
    const uint32_t kInf = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> dist(n);
    auto search = [&](uint32_t from) {
        std::fill(dist.begin(), dist.end(), kInf);
        dist[from] = 0;
        boost::breadth_first_search(
            g,
            boost::vertex(from, g),
            boost::visitor(boost::make_bfs_visitor(
                boost::record_distances(dist.data(), boost::on_tree_edge()))));
    };
    // A host whose only neighbour is switch e is one hop further than e from everything: the
    // routes towards it are those towards e (computed once per such switch), plus e's own
    // ports to the host. Other hosts (several links) get their own search.
    std::map<uint32_t, std::vector<std::pair<uint32_t, std::vector<uint32_t>>>> viaSwitch;
    for (uint32_t h = 0; h < n; ++h)
    {
        if (isSwitch[h])
        {
            continue;
        }
        Ptr<FabricNetDevice> hd = GetHostDevice(NodeList::GetNode(h));
        if (!hd || hd->GetIpv4Address() == Ipv4Address())
        {
            continue;
        }
        const Ipv4Address addr = hd->GetIpv4Address();
        const std::vector<uint32_t>& nb = neighbours[h];
        const bool singleHomed =
            !nb.empty() && isSwitch[nb[0]] &&
            std::all_of(nb.begin(), nb.end(), [&](uint32_t v) { return v == nb[0]; });
        if (singleHomed)
        {
            const uint32_t e = nb[0];
            auto it = viaSwitch.find(e);
            if (it == viaSwitch.end())
            {
                // Next hops towards e from every other switch (transit through switches only).
                search(e);
                std::vector<std::pair<uint32_t, std::vector<uint32_t>>> routes;
                for (uint32_t s = 0; s < n; ++s)
                {
                    if (!isSwitch[s] || s == e || dist[s] == kInf)
                    {
                        continue;
                    }
                    std::vector<uint32_t> ports;
                    for (const auto& [p, v] : portPeer[s])
                    {
                        if (isSwitch[v] && dist[v] + 1 == dist[s])
                        {
                            ports.push_back(p);
                        }
                    }
                    if (!ports.empty())
                    {
                        routes.emplace_back(s, std::move(ports));
                    }
                }
                it = viaSwitch.emplace(e, std::move(routes)).first;
            }
            for (const auto& [s, ports] : it->second)
            {
                switches[s]->SetRoute(addr, ports);
            }
            std::vector<uint32_t> down;
            for (const auto& [p, v] : portPeer[e])
            {
                if (v == h)
                {
                    down.push_back(p);
                }
            }
            switches[e]->SetRoute(addr, down);
            continue;
        }
        search(h);
        for (uint32_t s = 0; s < n; ++s)
        {
            if (!isSwitch[s] || dist[s] == kInf || dist[s] == 0)
            {
                continue;
            }
            std::vector<uint32_t> ports;
            for (const auto& [p, v] : portPeer[s])
            {
                // Only transit through switches (a host never forwards), or deliver.
                if (dist[v] + 1 == dist[s] && (v == h || isSwitch[v]))
                {
                    ports.push_back(p);
                }
            }
            if (!ports.empty())
            {
                switches[s]->SetRoute(addr, ports);
            }
        }
    }
}

int64_t
FabricHelper::AssignStreams(const NodeContainer& switches, int64_t stream)
{
    NS_LOG_FUNCTION(stream);
    int64_t used = 0;
    for (auto it = switches.Begin(); it != switches.End(); ++it)
    {
        if (Ptr<FabricSwitch> sw = (*it)->GetObject<FabricSwitch>())
        {
            used += sw->AssignStreams(stream + used);
        }
    }
    return used;
}

void
FabricHelper::EnablePcapInternal(std::string prefix,
                                 Ptr<NetDevice> nd,
                                 bool promiscuous,
                                 bool explicitFilename)
{
    NS_LOG_FUNCTION(this << prefix << nd << promiscuous << explicitFilename);
    Ptr<FabricNetDevice> device = DynamicCast<FabricNetDevice>(nd);
    if (!device)
    {
        NS_LOG_INFO("FabricHelper::EnablePcapInternal: not a FabricNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> file =
        pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_EN10MB);
    pcapHelper.HookDefaultSink<FabricNetDevice>(device,
                                                promiscuous ? "PromiscSniffer" : "Sniffer",
                                                file);
}

} // namespace ns3
