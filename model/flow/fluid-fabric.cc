/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fluid-fabric.h"

#include "ns3/fabric-switch.h"
#include "ns3/ipv4-address.h"
#include "ns3/log.h"
#include "ns3/node.h"

#include <sstream>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluidFabric");
NS_OBJECT_ENSURE_REGISTERED(FluidFabric);

namespace
{
std::string
AddressString(uint32_t a)
{
    std::ostringstream os;
    Ipv4Address(a).Print(os);
    return os.str();
}

/// \return the other fabric port of a node with exactly two (an in-line device), else null
Ptr<FabricNetDevice>
OtherPort(Ptr<Node> node, Ptr<FabricNetDevice> in)
{
    Ptr<FabricNetDevice> other;
    uint32_t ports = 0;
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        if (Ptr<FabricNetDevice> d = DynamicCast<FabricNetDevice>(node->GetDevice(i)))
        {
            ++ports;
            if (d != in)
            {
                other = d;
            }
        }
    }
    return ports == 2 ? other : nullptr;
}
} // namespace

TypeId
FluidFabric::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FluidFabric")
                            .SetParent<Object>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<FluidFabric>();
    return tid;
}

FluidFabric::FluidFabric() = default;
FluidFabric::~FluidFabric() = default;

void
FluidFabric::DoDispose()
{
    m_net = nullptr;
    m_aggregate = nullptr;
    m_devOfLink.clear();
    m_linkOf.clear();
    m_hops.clear();
    m_portLinks.clear();
    m_switches.clear();
    m_hostDev.clear();
    m_endpoints.clear();
    m_serviceLinks.clear();
    Object::DoDispose();
}

void
FluidFabric::Build(const NodeContainer& nodes, Ptr<FluidNetwork> net)
{
    if (m_net)
    {
        throw std::logic_error("FluidFabric::Build: already built");
    }
    m_net = net ? net : CreateObject<FluidNetwork>();
    for (uint32_t n = 0; n < nodes.GetN(); ++n)
    {
        Ptr<Node> node = nodes.Get(n);
        const bool isSwitch = node->GetObject<FabricSwitch>() != nullptr;
        for (uint32_t i = 0; i < node->GetNDevices(); ++i)
        {
            Ptr<FabricNetDevice> dev = DynamicCast<FabricNetDevice>(node->GetDevice(i));
            if (!dev || !dev->GetPeer() || m_linkOf.count(PeekPointer(dev)))
            {
                continue;
            }
            const double capacity = double(dev->GetDataRate().GetBitRate()) / 8.0;
            const uint32_t link = m_net->AddLink(capacity, dev->GetDelay());
            m_linkOf.emplace(PeekPointer(dev), link);
            m_devOfLink.push_back(dev);
            if (!isSwitch && dev->GetIpv4AddressValue() != 0)
            {
                m_hostDev.emplace(dev->GetIpv4AddressValue(), dev);
            }
        }
    }
    m_maxHops = uint32_t(m_devOfLink.size()) + 1;
    NS_LOG_INFO("fluid fabric: " << m_devOfLink.size() << " links, " << m_hostDev.size()
                                 << " hosts");
}

Ptr<FluidNetwork>
FluidFabric::GetNetwork() const
{
    return m_net;
}

Ptr<FluidAggregate>
FluidFabric::GetAggregate()
{
    if (!m_aggregate)
    {
        if (!m_net)
        {
            throw std::logic_error("FluidFabric::GetAggregate: the fabric is not built");
        }
        m_aggregate = CreateObject<FluidAggregate>();
        m_aggregate->Attach(m_net);
    }
    return m_aggregate;
}

int64_t
FluidFabric::GetLink(Ptr<const FabricNetDevice> dev) const
{
    auto it = m_linkOf.find(PeekPointer(dev));
    return it == m_linkOf.end() ? -1 : int64_t(it->second);
}

Ptr<FabricNetDevice>
FluidFabric::GetDevice(uint32_t link) const
{
    return m_devOfLink.at(link);
}

int64_t
FluidFabric::GetReverseLink(uint32_t link) const
{
    if (m_hops.size() != m_devOfLink.size())
    {
        CacheHops();
    }
    return m_hops.at(link).reverse;
}

void
FluidFabric::CacheHops() const
{
    m_hops.assign(m_devOfLink.size(), Hop());
    m_portLinks.clear();
    m_switches.clear();
    std::unordered_map<const FabricSwitch*, std::pair<uint32_t, uint32_t>> ports;
    for (std::size_t l = 0; l < m_devOfLink.size(); ++l)
    {
        Hop& h = m_hops[l];
        Ptr<FabricNetDevice> in = m_devOfLink[l]->GetPeer();
        h.addr = in->GetIpv4AddressValue();
        h.node = in->GetNode()->GetId();
        h.reverse = GetLink(in);
        Ptr<FabricSwitch> sw = in->GetNode()->GetObject<FabricSwitch>();
        if (!sw)
        {
            continue;
        }
        auto known = ports.find(PeekPointer(sw));
        if (known == ports.end())
        {
            const uint32_t first = uint32_t(m_portLinks.size());
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                m_portLinks.push_back(GetLink(sw->GetPort(p)));
            }
            known = ports.emplace(PeekPointer(sw), std::make_pair(first, sw->GetNPorts())).first;
            m_switches.push_back(sw);
        }
        h.sw = PeekPointer(sw);
        h.firstPort = known->second.first;
        h.nPorts = known->second.second;
    }
}

Ptr<FabricNetDevice>
FluidFabric::GetHostDevice(uint32_t addr) const
{
    auto it = m_hostDev.find(addr);
    return it == m_hostDev.end() ? nullptr : it->second;
}

std::vector<uint32_t>
FluidFabric::Route(const FlowKey& key) const
{
    Ptr<FabricNetDevice> dev = GetHostDevice(key.src);
    if (!dev)
    {
        throw std::invalid_argument("FluidFabric::Route: source " + AddressString(key.src) +
                                    " is not a host of the fabric");
    }
    return Walk(key, dev);
}

int64_t
FluidFabric::AddEndpoint(uint32_t address, Ptr<Node> node, double service)
{
    auto known = m_serviceLinks.find(address);
    if (known != m_serviceLinks.end())
    {
        return known->second;
    }
    m_endpoints[address] = node->GetId();
    const int64_t link = service > 0 ? int64_t(m_net->AddLink(service, Time(0))) : -1;
    m_serviceLinks[address] = link;
    return link;
}

std::vector<uint32_t>
FluidFabric::RouteFrom(const FlowKey& key, Ptr<Node> node, Ptr<FabricNetDevice> out) const
{
    if (!out)
    {
        Ptr<FabricSwitch> sw = node->GetObject<FabricSwitch>();
        const int port = sw ? sw->SelectEgress(key) : -1;
        if (port < 0)
        {
            throw std::invalid_argument(
                "FluidFabric::RouteFrom: node " + std::to_string(node->GetId()) +
                " is not a switch with a route to " + AddressString(key.dst));
        }
        out = sw->GetPort(uint32_t(port));
    }
    return Walk(key, out);
}

std::vector<uint32_t>
FluidFabric::Walk(const FlowKey& key, Ptr<FabricNetDevice> dev) const
{
    const auto endpoint = m_endpoints.find(key.dst);
    if (!GetHostDevice(key.dst) && endpoint == m_endpoints.end())
    {
        throw std::invalid_argument("FluidFabric::Route: destination " + AddressString(key.dst) +
                                    " is not a host of the fabric");
    }
    if (m_hops.size() != m_devOfLink.size())
    {
        CacheHops();
    }
    const bool toEndpoint = endpoint != m_endpoints.end();
    std::vector<uint32_t> path;
    int64_t link = GetLink(dev);
    for (uint32_t hop = 0; hop < m_maxHops && link >= 0; ++hop)
    {
        path.push_back(uint32_t(link));
        const Hop& h = m_hops[link];
        if (h.addr == key.dst || (toEndpoint && h.node == endpoint->second))
        {
            return path;
        }
        if (h.sw)
        {
            const int out = h.sw->SelectEgress(key);
            if (out < 0)
            {
                throw std::invalid_argument("FluidFabric::Route: switch node " +
                                            std::to_string(h.node) + " has no route to " +
                                            AddressString(key.dst));
            }
            link = uint32_t(out) < h.nPorts ? m_portLinks[h.firstPort + uint32_t(out)]
                                            : GetLink(h.sw->GetPort(uint32_t(out)));
            continue;
        }
        Ptr<FabricNetDevice> in = m_devOfLink[link]->GetPeer();
        Ptr<FabricNetDevice> other = OtherPort(in->GetNode(), in);
        if (!other)
        {
            break; // a host that is not the destination, or a node we cannot cross
        }
        link = GetLink(other);
    }
    throw std::invalid_argument("FluidFabric::Route: no path from " + AddressString(key.src) +
                                " to " + AddressString(key.dst));
}

} // namespace ns3
