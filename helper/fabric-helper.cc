/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-helper.h"

#include "ns3/fabric-channel.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node-list.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <limits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricHelper");

FabricHelper::FabricHelper()
{
    m_deviceFactory.SetTypeId("ns3::FabricNetDevice");
    m_channelFactory.SetTypeId("ns3::FabricChannel");
    m_switchFactory.SetTypeId("ns3::FabricSwitch");
}

void
FabricHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
FabricHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
FabricHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

Ptr<FabricSwitch>
FabricHelper::InstallSwitch(Ptr<Node> node) const
{
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
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        InstallSwitch(*it);
    }
}

NetDeviceContainer
FabricHelper::Install(Ptr<Node> a, Ptr<Node> b) const
{
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
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        if (Ptr<FabricNetDevice> d = DynamicCast<FabricNetDevice>(node->GetDevice(i)))
        {
            return d;
        }
    }
    return nullptr;
}

bool
FabricHelper::IsInline(Ptr<Node> node)
{
    if (node->GetObject<FabricSwitch>())
    {
        return false;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        Ptr<FabricNetDevice> d = DynamicCast<FabricNetDevice>(node->GetDevice(i));
        if (d)
        {
            if (d->GetIpv4Address() != Ipv4Address())
            {
                return false;
            }
            ++n;
        }
    }
    return n == 2;
}

Ptr<FabricNetDevice>
FabricHelper::GetFarPeer(Ptr<FabricNetDevice> dev)
{
    Ptr<FabricNetDevice> peer = dev->GetPeer();
    // Bounded walk: a chain of in-line devices cannot be longer than the node count.
    for (uint32_t hops = 0; peer && hops <= NodeList::GetNNodes(); ++hops)
    {
        Ptr<Node> n = peer->GetNode();
        if (!IsInline(n))
        {
            return peer;
        }
        Ptr<FabricNetDevice> other;
        for (uint32_t i = 0; i < n->GetNDevices() && !other; ++i)
        {
            Ptr<FabricNetDevice> d = DynamicCast<FabricNetDevice>(n->GetDevice(i));
            if (d && d != peer)
            {
                other = d;
            }
        }
        peer = other ? other->GetPeer() : nullptr;
    }
    return nullptr;
}

void
FabricHelper::AssignHostAddresses(const NodeContainer& hosts, Ipv4Address base)
{
    uint32_t a = base.Get();
    for (auto it = hosts.Begin(); it != hosts.End(); ++it)
    {
        Ptr<FabricNetDevice> d = GetHostDevice(*it);
        if (!d)
        {
            throw std::invalid_argument("AssignHostAddresses: node "
                                        + std::to_string((*it)->GetId())
                                        + " has no FabricNetDevice");
        }
        d->SetIpv4Address(Ipv4Address(++a));
    }
}

void
FabricHelper::AttachInternetStack(const NodeContainer& hosts, Ipv4Mask mask)
{
    for (auto it = hosts.Begin(); it != hosts.End(); ++it)
    {
        Ptr<Ipv4> ipv4 = (*it)->GetObject<Ipv4>();
        Ptr<FabricNetDevice> dev = GetHostDevice(*it);
        if (!ipv4 || !dev || dev->GetIpv4Address() == Ipv4Address())
        {
            throw std::invalid_argument("AttachInternetStack: node "
                                        + std::to_string((*it)->GetId())
                                        + " needs an internet stack and an addressed fabric port");
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
    typedef boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS> Graph;
    const uint32_t n = NodeList::GetNNodes();
    Graph g(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<Node> node = NodeList::GetNode(i);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<FabricNetDevice> dev = DynamicCast<FabricNetDevice>(node->GetDevice(d));
            Ptr<FabricNetDevice> peer = dev && !IsInline(node) ? GetFarPeer(dev) : nullptr;
            if (peer && i < peer->GetNode()->GetId())
            {
                boost::add_edge(i, peer->GetNode()->GetId(), g);
            }
        }
    }
    const uint32_t kInf = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> dist(n);
    for (uint32_t h = 0; h < n; ++h)
    {
        Ptr<Node> host = NodeList::GetNode(h);
        if (host->GetObject<FabricSwitch>())
        {
            continue;
        }
        Ptr<FabricNetDevice> hd = GetHostDevice(host);
        if (!hd || hd->GetIpv4Address() == Ipv4Address())
        {
            continue;
        }
        std::fill(dist.begin(), dist.end(), kInf);
        dist[h] = 0;
        boost::breadth_first_search(g, boost::vertex(h, g),
                                    boost::visitor(boost::make_bfs_visitor(boost::record_distances(
                                        dist.data(), boost::on_tree_edge()))));
        for (uint32_t s = 0; s < n; ++s)
        {
            Ptr<FabricSwitch> sw = NodeList::GetNode(s)->GetObject<FabricSwitch>();
            if (!sw || dist[s] == kInf || dist[s] == 0)
            {
                continue;
            }
            std::vector<uint32_t> ports;
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                Ptr<FabricNetDevice> peer = GetFarPeer(sw->GetPort(p));
                if (peer && dist[peer->GetNode()->GetId()] + 1 == dist[s])
                {
                    // Only transit through switches (a host never forwards), or deliver.
                    uint32_t v = peer->GetNode()->GetId();
                    if (v == h || NodeList::GetNode(v)->GetObject<FabricSwitch>())
                    {
                        ports.push_back(p);
                    }
                }
            }
            if (!ports.empty())
            {
                sw->SetRoute(hd->GetIpv4Address(), ports);
            }
        }
    }
}

int64_t
FabricHelper::AssignStreams(const NodeContainer& switches, int64_t stream)
{
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
FabricHelper::EnablePcapInternal(std::string prefix, Ptr<NetDevice> nd, bool promiscuous,
                                 bool explicitFilename)
{
    Ptr<FabricNetDevice> device = DynamicCast<FabricNetDevice>(nd);
    if (!device)
    {
        NS_LOG_INFO("FabricHelper::EnablePcapInternal: not a FabricNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    std::string filename
        = explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> file
        = pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_EN10MB);
    pcapHelper.HookDefaultSink<FabricNetDevice>(device, promiscuous ? "PromiscSniffer" : "Sniffer",
                                                file);
}

} // namespace ns3
