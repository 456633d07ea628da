/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-topology-helper.h"

#include "input-limits.h"

#include "ns3/log.h"

#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricTopologyHelper");

namespace
{
void
CheckRange(const char* name, uint64_t v, uint64_t lo, uint64_t hi)
{
    if (v < lo || v > hi)
    {
        throw std::invalid_argument(std::string(name) + " = " + std::to_string(v) +
                                    " is out of range [" + std::to_string(lo) + ", " +
                                    std::to_string(hi) + "]");
    }
}

void
CheckRange(const char* name, uint64_t v, const UintLimit& l)
{
    CheckRange(name, v, l.lo, l.hi);
}

void
CheckHosts(const char* name, uint64_t hosts)
{
    if (hosts > InputLimits::MAX_HOSTS)
    {
        throw std::invalid_argument(std::string(name) + ": the topology would have " +
                                    std::to_string(hosts) + " hosts, more than the " +
                                    std::to_string(InputLimits::MAX_HOSTS) + " accepted");
    }
}

void
CheckRoutes(uint64_t switches, uint64_t hosts)
{
    if (switches * hosts > InputLimits::MAX_ROUTES)
    {
        throw std::invalid_argument(
            "the topology would have " + std::to_string(switches) + " switches x " +
            std::to_string(hosts) + " hosts = " + std::to_string(switches * hosts) +
            " routes, more than the " + std::to_string(InputLimits::MAX_ROUTES) +
            " accepted (a k = 48 fat-tree has 79,626,240)");
    }
}
} // namespace

Ipv4Address
FabricTopology::HostAddress(uint32_t i) const
{
    NS_LOG_FUNCTION(this << i);
    return HostDevice(i)->GetIpv4Address();
}

Ptr<FabricNetDevice>
FabricTopology::HostDevice(uint32_t i) const
{
    NS_LOG_FUNCTION(this << i);
    return FabricHelper::GetHostDevice(hosts.Get(i));
}

std::map<uint32_t, std::string>
FabricTopology::NodeNames() const
{
    NS_LOG_FUNCTION(this);
    std::map<uint32_t, std::string> names;
    auto name = [&names](const NodeContainer& c, const std::string& prefix) {
        for (uint32_t i = 0; i < c.GetN(); ++i)
        {
            names[c.Get(i)->GetId()] = prefix + std::to_string(i);
        }
    };
    const bool leafSpine = kind == "leaf-spine";
    name(hosts, "host");
    name(edge, leafSpine ? "leaf" : "edge");
    name(agg, "agg");
    name(core, leafSpine ? "spine" : "core");
    return names;
}

FabricTopologyHelper::FabricTopologyHelper()
    : m_hostRate("100Gbps"),
      m_fabricRate("100Gbps"),
      m_delay(MicroSeconds(1))
{
    NS_LOG_FUNCTION(this);
}

FabricHelper&
FabricTopologyHelper::Fabric()
{
    NS_LOG_FUNCTION(this);
    return m_fabric;
}

void
FabricTopologyHelper::SetHostLinkRate(DataRate r)
{
    NS_LOG_FUNCTION(this << r);
    m_hostRate = r;
}

void
FabricTopologyHelper::SetFabricLinkRate(DataRate r)
{
    NS_LOG_FUNCTION(this << r);
    m_fabricRate = r;
}

void
FabricTopologyHelper::SetLinkDelay(Time d)
{
    NS_LOG_FUNCTION(this << d);
    m_delay = d;
}

void
FabricTopologyHelper::Connect(Ptr<Node> a, Ptr<Node> b, DataRate r, FabricTopology& t)
{
    NS_LOG_FUNCTION(this << a << b << r);
    m_fabric.SetDeviceAttribute("DataRate", DataRateValue(r));
    m_fabric.SetChannelAttribute("Delay", TimeValue(m_delay));
    m_fabric.Install(a, b);
    t.links++;
}

void
FabricTopologyHelper::Finish(FabricTopology& t)
{
    NS_LOG_FUNCTION(this);
    t.switches.Add(t.edge);
    t.switches.Add(t.agg);
    t.switches.Add(t.core);
    FabricHelper::AssignHostAddresses(t.hosts);
    FabricHelper::PopulateRoutes();
    FabricHelper::AssignStreams(t.switches, m_streamBase);
}

void
FabricTopologyHelper::SetStreamBase(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_streamBase = stream;
}

FabricTopology
FabricTopologyHelper::BuildDumbbell(uint32_t nLeft, uint32_t nRight)
{
    NS_LOG_FUNCTION(this << nLeft << nRight);
    CheckRange("nLeft", nLeft, InputLimits::DUMBBELL_HOSTS);
    CheckRange("nRight", nRight, InputLimits::DUMBBELL_HOSTS);
    FabricTopology t;
    t.kind = "dumbbell";
    t.edge.Create(2);
    m_fabric.InstallSwitch(t.edge);
    t.hosts.Create(nLeft + nRight);
    for (uint32_t i = 0; i < nLeft + nRight; ++i)
    {
        Connect(t.hosts.Get(i), t.edge.Get(i < nLeft ? 0 : 1), m_hostRate, t);
    }
    Connect(t.edge.Get(0), t.edge.Get(1), m_fabricRate, t);
    Finish(t);
    return t;
}

FabricTopology
FabricTopologyHelper::BuildLeafSpine(uint32_t nLeaf, uint32_t nSpine, uint32_t hostsPerLeaf)
{
    NS_LOG_FUNCTION(this << nLeaf << nSpine << hostsPerLeaf);
    CheckRange("nLeaf", nLeaf, InputLimits::LEAVES);
    CheckRange("nSpine", nSpine, InputLimits::SPINES);
    CheckRange("hostsPerLeaf", hostsPerLeaf, InputLimits::HOSTS_PER_LEAF);
    CheckHosts("hostsPerLeaf", uint64_t(nLeaf) * hostsPerLeaf);
    CheckRoutes(uint64_t(nLeaf) + nSpine, uint64_t(nLeaf) * hostsPerLeaf);
    FabricTopology t;
    t.kind = "leaf-spine";
    t.edge.Create(nLeaf);
    t.core.Create(nSpine);
    m_fabric.InstallSwitch(t.edge);
    m_fabric.InstallSwitch(t.core);
    t.hosts.Create(nLeaf * hostsPerLeaf);
    for (uint32_t l = 0; l < nLeaf; ++l)
    {
        for (uint32_t h = 0; h < hostsPerLeaf; ++h)
        {
            Connect(t.hosts.Get(l * hostsPerLeaf + h), t.edge.Get(l), m_hostRate, t);
        }
        for (uint32_t s = 0; s < nSpine; ++s)
        {
            Connect(t.edge.Get(l), t.core.Get(s), m_fabricRate, t);
        }
    }
    Finish(t);
    return t;
}

FabricTopology
FabricTopologyHelper::BuildFatTree(uint32_t k, uint32_t hostsPerEdge)
{
    NS_LOG_FUNCTION(this << k << hostsPerEdge);
    CheckRange("k", k, InputLimits::FAT_TREE_K);
    if (k % 2 != 0)
    {
        throw std::invalid_argument("k = " + std::to_string(k) + " must be even");
    }
    const uint32_t half = k / 2;
    if (hostsPerEdge == 0)
    {
        hostsPerEdge = half;
    }
    CheckRange("hostsPerEdge", hostsPerEdge, 1, InputLimits::HOSTS_PER_EDGE_PER_K * k);
    CheckHosts("hostsPerEdge", uint64_t(k) * half * hostsPerEdge);
    CheckRoutes(uint64_t(k) * half * 2 + half * half, uint64_t(k) * half * hostsPerEdge);
    FabricTopology t;
    t.kind = "fat-tree";
    t.edge.Create(k * half);
    t.agg.Create(k * half);
    t.core.Create(half * half);
    m_fabric.InstallSwitch(t.edge);
    m_fabric.InstallSwitch(t.agg);
    m_fabric.InstallSwitch(t.core);
    t.hosts.Create(k * half * hostsPerEdge);
    for (uint32_t pod = 0; pod < k; ++pod)
    {
        for (uint32_t e = 0; e < half; ++e)
        {
            Ptr<Node> edge = t.edge.Get(pod * half + e);
            for (uint32_t h = 0; h < hostsPerEdge; ++h)
            {
                Connect(t.hosts.Get((pod * half + e) * hostsPerEdge + h), edge, m_hostRate, t);
            }
            for (uint32_t a = 0; a < half; ++a)
            {
                Connect(edge, t.agg.Get(pod * half + a), m_fabricRate, t);
            }
        }
        // Aggregation switch a of every pod connects to core switches a*half .. a*half+half-1.
        for (uint32_t a = 0; a < half; ++a)
        {
            for (uint32_t c = 0; c < half; ++c)
            {
                Connect(t.agg.Get(pod * half + a), t.core.Get(a * half + c), m_fabricRate, t);
            }
        }
    }
    Finish(t);
    return t;
}

} // namespace ns3
