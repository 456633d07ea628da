/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-backend-helper.h"

#include "ns3/boolean.h"
#include "ns3/dcqcn-base.h"
#include "ns3/fluid-dcqcn.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/uinteger.h"

#include <set>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowBackendHelper");

FlowBackendHelper::FlowBackendHelper()
{
    m_transport.SetTypeId(FluidTransport::GetTypeId());
}

void
FlowBackendHelper::SetTransportAttribute(const std::string& name, const AttributeValue& value)
{
    m_transport.Set(name, value);
}

Ptr<FluidFabric>
FlowBackendHelper::Install(const FabricTopology& topo)
{
    NodeContainer all;
    all.Add(topo.hosts);
    all.Add(topo.switches);
    // Nodes spliced into the topology's links (in-line aggregation devices), after the others.
    std::set<uint32_t> known;
    for (uint32_t n = 0; n < all.GetN(); ++n)
    {
        known.insert(all.Get(n)->GetId());
    }
    for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
    {
        if (!known.count(n))
        {
            all.Add(NodeList::GetNode(n));
        }
    }
    // The frame the transports send is the one the latency serializes at every hop.
    Ptr<FluidTransport> probe = m_transport.Create<FluidTransport>();
    UintegerValue mtu;
    UintegerValue header;
    UintegerValue overhead;
    probe->GetAttribute("Mtu", mtu);
    probe->GetAttribute("HeaderBytes", header);
    probe->GetAttribute("FrameOverhead", overhead);
    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    net->SetAttribute("FrameBytes", UintegerValue(mtu.Get() + header.Get() + overhead.Get()));
    Ptr<FluidFabric> fabric = CreateObject<FluidFabric>();
    fabric->Build(all, net);
    for (uint32_t h = 0; h < topo.hosts.GetN(); ++h)
    {
        Ptr<Node> node = topo.hosts.Get(h);
        if (GetTransport(node))
        {
            throw std::invalid_argument("FlowBackendHelper::Install: host " + std::to_string(h) +
                                        " already has a FluidTransport");
        }
        Ptr<FluidTransport> t = m_transport.Create<FluidTransport>();
        t->Bind(fabric, topo.HostAddress(h));
        node->AggregateObject(t);
    }
    return fabric;
}

std::vector<Ptr<FluidHost>>
FlowBackendHelper::InstallHost(const NodeContainer& hosts, const HostInterconnectHelper& host)
{
    std::vector<Ptr<FluidHost>> out;
    for (auto it = hosts.Begin(); it != hosts.End(); ++it)
    {
        Ptr<FluidTransport> t = GetTransport(*it);
        if (!t)
        {
            throw std::invalid_argument("FlowBackendHelper::InstallHost: node " +
                                        std::to_string((*it)->GetId()) +
                                        " has no FluidTransport (call Install first)");
        }
        if (HostInterconnectHelper::Get(*it))
        {
            throw std::invalid_argument("FlowBackendHelper::InstallHost: node " +
                                        std::to_string((*it)->GetId()) +
                                        " already has a host interconnect");
        }
        Ptr<HostInterconnect> hi = host.Create();
        BooleanValue enabled;
        hi->GetAttribute("Enabled", enabled);
        if (enabled.Get())
        {
            Ptr<FluidHost> fh = CreateObject<FluidHost>();
            fh->Install(hi, t);
            (*it)->AggregateObject(fh);
            out.push_back(fh);
        }
        (*it)->AggregateObject(hi);
    }
    return out;
}

Ptr<FluidTransport>
FlowBackendHelper::GetTransport(Ptr<Node> host)
{
    return host ? host->GetObject<FluidTransport>() : nullptr;
}

std::vector<Ptr<MessageTransport>>
FlowBackendHelper::Transports(const FabricTopology& topo, const std::vector<uint32_t>& hosts)
{
    std::vector<Ptr<MessageTransport>> v;
    for (uint32_t h : hosts)
    {
        Ptr<FluidTransport> t = h < topo.hosts.GetN() ? GetTransport(topo.hosts.Get(h)) : nullptr;
        if (!t)
        {
            throw std::invalid_argument("FlowBackendHelper::Transports: host " + std::to_string(h) +
                                        " has no FluidTransport (call Install first)");
        }
        v.push_back(t);
    }
    return v;
}

bool
FlowBackendHelper::IsDcqcn(const ObjectFactory& cc)
{
    return bool(DynamicCast<DcqcnBase>(cc.Create<RdmaCongestionOps>()));
}

Ptr<FluidDcqcn>
FlowBackendHelper::InstallDcqcn(Ptr<FluidFabric> fabric,
                                const ObjectFactory& cc,
                                const ObjectFactory& model,
                                int64_t stream)
{
    if (!fabric)
    {
        throw std::invalid_argument("FlowBackendHelper::InstallDcqcn: the fabric is null");
    }
    // A variant without a DCQCN state machine (ns3::RdmaFixedRate: line rate under PFC) has
    // no rate to model.
    if (!IsDcqcn(cc))
    {
        NS_LOG_INFO("InstallDcqcn: the congestion control " << cc.GetTypeId().GetName()
                                                            << " is not DCQCN: nothing to model");
        return nullptr;
    }
    Ptr<FluidDcqcn> dcqcn = model.Create<FluidDcqcn>();
    if (!dcqcn)
    {
        throw std::invalid_argument("FlowBackendHelper::InstallDcqcn: the model's type " +
                                    model.GetTypeId().GetName() + " is not ns3::FluidDcqcn");
    }
    dcqcn->SetCongestionControl(cc);
    dcqcn->AssignStreams(stream);
    dcqcn->Install(fabric);
    return dcqcn;
}

} // namespace ns3
