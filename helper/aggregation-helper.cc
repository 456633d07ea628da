/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-helper.h"

#include "fabric-helper.h"

#include "ns3/aggregation-congestion-ops.h"
#include "ns3/aggregation-endpoint.h"
#include "ns3/aggregation-fabric-graph.h"
#include "ns3/enum.h"
#include "ns3/fabric-channel.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/pointer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AggregationHelper");

AggregationHelper::AggregationHelper()
    : m_latency(NanoSeconds(250))
{
    m_deviceFactory.SetTypeId("ns3::AggregationDevice");
    m_engineFactory.SetTypeId("ns3::AggregationEngine");
    m_timingFactory.SetTypeId("ns3::AdderTreeTimingModel");
    m_workerFactory.SetTypeId("ns3::AggregationWorker");
    m_ccFactory.SetTypeId("ns3::AggregationDcqcn");
    m_rpFactory.SetTypeId("ns3::Dcqcn");
}

void
AggregationHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
AggregationHelper::SetEngineAttribute(const std::string& name, const AttributeValue& value)
{
    m_engineFactory.Set(name, value);
}

void
AggregationHelper::SetTimingModel(const std::string& typeId)
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeId, &tid) ||
        !tid.IsChildOf(AggregationTimingModel::GetTypeId()))
    {
        throw std::invalid_argument("AggregationHelper: unknown timing model \"" + typeId +
                                    "\" (ns3::AdderTreeTimingModel, ns3::LineRateTimingModel)");
    }
    m_timingFactory = ObjectFactory();
    m_timingFactory.SetTypeId(tid);
    m_timingSet = true;
}

void
AggregationHelper::SetTimingAttribute(const std::string& name, const AttributeValue& value)
{
    m_timingFactory.Set(name, value);
}

void
AggregationHelper::SetLatency(Time latency)
{
    if (latency < Time(0))
    {
        throw std::invalid_argument("AggregationHelper: device latency must be >= 0");
    }
    m_latency = latency;
}

void
AggregationHelper::SetWorkerAttribute(const std::string& name, const AttributeValue& value)
{
    m_workerFactory.Set(name, value);
}

void
AggregationHelper::SetCongestionControl(const std::string& typeId)
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeId, &tid) ||
        !tid.IsChildOf(AggregationCongestionOps::GetTypeId()))
    {
        throw std::invalid_argument(
            "AggregationHelper: unknown congestion control \"" + typeId +
            "\" (ns3::AggregationDctcp, ns3::AggregationDcqcn, ns3::AggregationFixedWindow)");
    }
    m_ccFactory = ObjectFactory();
    m_ccFactory.SetTypeId(tid);
}

void
AggregationHelper::SetCcAttribute(const std::string& name, const AttributeValue& value)
{
    m_ccFactory.Set(name, value);
}

void
AggregationHelper::SetReactionPoint(const ObjectFactory& rp)
{
    m_rpFactory = rp;
    m_rpSet = true;
}

void
AggregationHelper::SetRoots(const NodeContainer& roots)
{
    m_planner.SetRoots(roots);
}

void
AggregationHelper::SetMaxSlots(uint32_t slots)
{
    if (slots == 0)
    {
        throw std::invalid_argument("AggregationHelper: MaxSlots must be >= 1");
    }
    m_maxSlots = slots;
}

void
AggregationHelper::SetNodeNames(std::map<uint32_t, std::string> names)
{
    m_planner.SetNodeNames(std::move(names));
}

std::string
AggregationHelper::NameOf(Ptr<Node> node, const std::string& kind) const
{
    return m_planner.NameOf(node, kind);
}

void
AggregationHelper::PopulateRoutes()
{
    AggregationTreePlanner::PopulateRoutes();
}

std::vector<AggregationTreePlan>
AggregationHelper::PlanTrees(const NodeContainer& workers,
                             uint16_t jobId,
                             uint32_t trees,
                             const std::string& name) const
{
    return m_planner.Plan(workers, jobId, trees, name);
}

Ipv4Address
AggregationHelper::AddressOf(Ptr<Node> node)
{
    return Ipv4Address(Ipv4Address("172.16.0.0").Get() + node->GetId() + 1);
}

Ptr<AggregationEngine>
AggregationHelper::MakeEngine(bool inSwitch) const
{
    Ptr<AggregationEngine> e = m_engineFactory.Create<AggregationEngine>();
    Ptr<AggregationTimingModel> t;
    if (inSwitch && !m_timingSet)
    {
        t = CreateObject<LineRateTimingModel>();
    }
    else
    {
        t = m_timingFactory.Create<AggregationTimingModel>();
    }
    e->SetAttribute("TimingModel", PointerValue(t));
    return e;
}

Ptr<AggregationDevice>
AggregationHelper::InsertDevice(Ptr<Node> sw, uint32_t port)
{
    Ptr<FabricSwitch> fs = sw->GetObject<FabricSwitch>();
    if (!fs)
    {
        throw std::invalid_argument("AggregationHelper: node " + std::to_string(sw->GetId()) +
                                    " is not a switch");
    }
    if (port >= fs->GetNPorts())
    {
        throw std::invalid_argument("AggregationHelper: port " + std::to_string(port) +
                                    " out of range [0, " + std::to_string(fs->GetNPorts()) +
                                    ") on switch " + std::to_string(sw->GetId()));
    }
    Ptr<FabricNetDevice> dx = fs->GetPort(port);
    Ptr<FabricNetDevice> dy = dx->GetPeer();
    Ptr<FabricChannel> ch = DynamicCast<FabricChannel>(dx->GetChannel());
    if (!dy || !ch)
    {
        throw std::invalid_argument("AggregationHelper: switch " + std::to_string(sw->GetId()) +
                                    " port " + std::to_string(port) + " is not connected");
    }
    Ptr<AggregationDevice> near = dy->GetNode()->GetObject<AggregationDevice>();
    if (near && near->GetSwitchPort() == dy)
    {
        throw std::invalid_argument("AggregationHelper: switch " + std::to_string(sw->GetId()) +
                                    " port " + std::to_string(port) + " has a device already");
    }
    Ptr<Node> node = CreateObject<Node>();
    ObjectFactory devFactory;
    devFactory.SetTypeId("ns3::FabricNetDevice");
    Ptr<FabricNetDevice> b1 = devFactory.Create<FabricNetDevice>();
    Ptr<FabricNetDevice> b2 = devFactory.Create<FabricNetDevice>();
    for (const char* a : {"Mtu", "FrameOverhead"})
    {
        UintegerValue v;
        dx->GetAttribute(a, v);
        b1->SetAttribute(a, v);
        b2->SetAttribute(a, v);
    }
    b1->SetAttribute("DataRate", DataRateValue(dx->GetDataRate()));
    b2->SetAttribute("DataRate", DataRateValue(dy->GetDataRate()));
    b1->SetAttribute("HostQueueLimit", UintegerValue(0));
    b2->SetAttribute("HostQueueLimit", UintegerValue(0));
    node->AddDevice(b1);
    node->AddDevice(b2);
    // Splice: switch port -- short link (the device latency) -- b1 | b2 -- original link -- far.
    ch->Detach(dx);
    b2->Attach(ch);
    Ptr<FabricChannel> inner = CreateObject<FabricChannel>();
    inner->SetAttribute("Delay", TimeValue(m_latency));
    dx->Attach(inner);
    b1->Attach(inner);
    Ptr<AggregationDevice> dev = m_deviceFactory.Create<AggregationDevice>();
    dev->SetAttribute("Engine", PointerValue(MakeEngine(false)));
    node->AggregateObject(dev);
    dev->SetPorts(b1, b2);
    dev->GetEngine()->SetAddress(AddressOf(node));
    dev->GetEngine()->SetName("aggregation device on " + NameOf(sw, "switch") + " port " +
                              std::to_string(port));
    dev->Validate();
    return dev;
}

std::vector<Ptr<AggregationDevice>>
AggregationHelper::InstallDevices(const NodeContainer& switches, const std::string& ports)
{
    if (ports != "all" && ports != "up")
    {
        throw std::invalid_argument("AggregationHelper::InstallDevices: ports = \"" + ports +
                                    "\" must be \"all\" or \"up\"");
    }
    // Tiers: hop distance from the nearest switch with hosts.
    AggregationFabricGraph g;
    std::vector<uint32_t> tier = g.Tiers();
    std::vector<Ptr<AggregationDevice>> out;
    for (auto it = switches.Begin(); it != switches.End(); ++it)
    {
        auto f = g.indexOf.find((*it)->GetId());
        if (f == g.indexOf.end())
        {
            throw std::invalid_argument("AggregationHelper: node " +
                                        std::to_string((*it)->GetId()) + " is not a switch");
        }
        const uint32_t s = f->second;
        bool hasUp = false;
        for (const AggregationFabricGraph::LinkEnd& e : g.ports[s])
        {
            hasUp = hasUp || (e.peer != AggregationFabricGraph::NONE && tier[e.peer] > tier[s]);
        }
        for (const AggregationFabricGraph::LinkEnd& e : g.ports[s])
        {
            bool want = e.peer != AggregationFabricGraph::NONE &&
                        (ports == "all" || !hasUp || tier[e.peer] > tier[s]);
            if (want)
            {
                out.push_back(InsertDevice(*it, e.port));
            }
        }
    }
    PopulateRoutes();
    return out;
}

std::vector<Ptr<SwitchAggregator>>
AggregationHelper::InstallInSwitch(const NodeContainer& switches)
{
    std::vector<Ptr<SwitchAggregator>> out;
    for (auto it = switches.Begin(); it != switches.End(); ++it)
    {
        Ptr<FabricSwitch> fs = (*it)->GetObject<FabricSwitch>();
        if (!fs)
        {
            throw std::invalid_argument("AggregationHelper: node " +
                                        std::to_string((*it)->GetId()) + " is not a switch");
        }
        if ((*it)->GetObject<SwitchAggregator>())
        {
            throw std::invalid_argument("AggregationHelper: switch " +
                                        std::to_string((*it)->GetId()) +
                                        " has an aggregator already");
        }
        Ptr<SwitchAggregator> sa = CreateObject<SwitchAggregator>();
        sa->SetAttribute("Engine", PointerValue(MakeEngine(true)));
        (*it)->AggregateObject(sa);
        sa->Attach(fs, AddressOf(*it));
        sa->GetEngine()->SetName("aggregator of " + NameOf(*it, "switch"));
        out.push_back(sa);
    }
    PopulateRoutes();
    return out;
}

NetDeviceContainer
AggregationHelper::GetDevices()
{
    NetDeviceContainer out;
    for (uint32_t i = 0; i < NodeList::GetNNodes(); ++i)
    {
        if (Ptr<AggregationDevice> d = NodeList::GetNode(i)->GetObject<AggregationDevice>())
        {
            out.Add(d->GetSwitchPort());
        }
    }
    return out;
}

Ptr<AggregationDevice>
AggregationHelper::Get(Ptr<NetDevice> port)
{
    Ptr<AggregationDevice> d = port ? port->GetNode()->GetObject<AggregationDevice>() : nullptr;
    return d && (d->GetSwitchPort() == port || d->GetLinkPort() == port) ? d : nullptr;
}

std::vector<uint32_t>
AggregationHelper::TreeSlots(const std::vector<AggregationTreePlan>& builds,
                             uint32_t slots,
                             const std::string& label) const
{
    // Slot pools: the largest every point of the tree allows.
    Ptr<AggregationWorker> proto = m_workerFactory.Create<AggregationWorker>();
    const uint32_t chunkBytes =
        proto->GetChunkElements() * AggElementBytes(proto->GetElementType());
    std::map<AggregationEngine*, uint32_t> treesAt;
    for (const AggregationTreePlan& b : builds)
    {
        for (const AggregationTreePlan::Point& p : b.points)
        {
            treesAt[PeekPointer(p.engine)]++;
        }
    }
    std::vector<uint32_t> treeSlots(builds.size());
    for (std::size_t t = 0; t < builds.size(); ++t)
    {
        uint32_t s = slots == 0 ? m_maxSlots : slots;
        for (const AggregationTreePlan::Point& p : builds[t].points)
        {
            uint32_t allowed = p.engine->MaxSlots(treesAt[PeekPointer(p.engine)], chunkBytes);
            if (slots == 0)
            {
                s = std::min(s, allowed);
            }
            if (s == 0)
            {
                throw std::invalid_argument(p.engine->GetName() +
                                            ": BufferBytesPerJob cannot hold one slot for each of "
                                            "the " +
                                            std::to_string(treesAt[PeekPointer(p.engine)]) +
                                            " trees of " + label + " through it (" +
                                            std::to_string(chunkBytes) + " B chunks, 2 versions)");
            }
        }
        treeSlots[t] = s;
    }
    return treeSlots;
}

Ptr<InNetworkAggregator>
AggregationHelper::InstallJob(const NodeContainer& workers,
                              uint16_t jobId,
                              uint32_t nTrees,
                              uint32_t slots,
                              const std::string& name)
{
    const std::vector<AggregationTreePlan> builds = PlanTrees(workers, jobId, nTrees, name);
    const std::string label = name.empty() ? "job " + std::to_string(jobId) : name;
    const uint32_t W = workers.GetN();
    const std::vector<uint32_t> treeSlots = TreeSlots(builds, slots, label);
    Ptr<AggregationWorker> proto = m_workerFactory.Create<AggregationWorker>();
    uint32_t chunkElements = proto->GetChunkElements();
    AggElementType type = proto->GetElementType();
    // Install the trees on their points.
    std::vector<AggregationTreeInfo> infos;
    std::vector<std::vector<AggWorkerTree>> bindings(W);
    for (uint32_t t = 0; t < nTrees; ++t)
    {
        const AggregationTreePlan& b = builds[t];
        AggregationTreeInfo info;
        info.treeId = uint16_t(t);
        info.rootSwitch = b.rootSwitch;
        info.root = b.points[b.rootPoint].engine->GetAddress();
        info.slots = treeSlots[t];
        for (int i = 0; i < int(b.points.size()); ++i)
        {
            const AggregationTreePlan::Point& p = b.points[i];
            info.points++;
            AggTreeConfig cfg;
            cfg.spec.jobId = jobId;
            cfg.spec.treeId = uint16_t(t);
            cfg.spec.fanIn = uint16_t(p.children.size());
            cfg.spec.slots = treeSlots[t];
            cfg.spec.root = p.root;
            cfg.spec.subtreeWorkers = uint16_t(p.workers);
            cfg.spec.jobWorkers = uint16_t(W);
            cfg.spec.elementType = type;
            cfg.chunkElements = chunkElements;
            if (!p.root)
            {
                const AggregationTreePlan::Point& parent = b.points[p.parent];
                cfg.parent = parent.engine->GetAddress();
                cfg.parentOnLinkSide = true; // a device below the root sends up its link
                auto pos = std::find(parent.children.begin(), parent.children.end(), i);
                cfg.indexAtParent = uint16_t(pos - parent.children.begin());
            }
            for (std::size_t k = 0; k < p.children.size(); ++k)
            {
                const int c = p.children[k];
                if (c < 0)
                {
                    cfg.children.push_back(
                        FabricHelper::GetHostDevice(workers.Get(uint32_t(-c - 1)))
                            ->GetIpv4Address());
                }
                else
                {
                    cfg.children.push_back(b.points[c].engine->GetAddress());
                }
                cfg.childrenOnLinkSide.push_back(p.childOnLinkSide[k]);
            }
            try
            {
                p.engine->AddTree(cfg);
            }
            catch (const std::invalid_argument& e)
            {
                // The engine knows the job by its number only: name it as the caller does.
                std::string what = e.what();
                const std::string number = "job " + std::to_string(jobId);
                size_t at = 0;
                while ((at = what.find(number, at)) != std::string::npos)
                {
                    const size_t end = at + number.size();
                    if (end < what.size() && std::isdigit(static_cast<unsigned char>(what[end])))
                    {
                        at = end; // "job 12", not "job 1"
                        continue;
                    }
                    what.replace(at, number.size(), label);
                    at += label.size();
                }
                throw std::invalid_argument(what);
            }
            uint32_t depth = 1;
            for (int q = p.parent; q >= 0; q = b.points[q].parent)
            {
                ++depth;
            }
            info.depth = std::max(info.depth, depth);
        }
        for (uint32_t w = 0; w < W; ++w)
        {
            AggWorkerTree wt;
            wt.treeId = uint16_t(t);
            const AggregationTreePlan::Point& parent = b.points[b.workerParent[w]];
            wt.parent = parent.engine->GetAddress();
            auto pos = std::find(parent.children.begin(), parent.children.end(), -int(w) - 1);
            wt.indexAtParent = uint16_t(pos - parent.children.begin());
            wt.slots = treeSlots[t];
            bindings[w].push_back(wt);
        }
        infos.push_back(info);
    }
    // Worker transports.
    ObjectFactory cc = m_ccFactory;
    std::vector<Ptr<AggregationWorker>> ws;
    for (uint32_t w = 0; w < W; ++w)
    {
        Ptr<Node> n = workers.Get(w);
        Ptr<AggregationEndpoint> ep = n->GetObject<AggregationEndpoint>();
        if (!ep)
        {
            ep = CreateObject<AggregationEndpoint>();
            n->AggregateObject(ep);
            ep->Install(FabricHelper::GetHostDevice(n));
        }
        if (ep->GetWorker(jobId))
        {
            throw std::invalid_argument("AggregationHelper: " + m_planner.WorkerName(workers, w) +
                                        " is a worker of " + label + " already");
        }
        Ptr<AggregationWorker> aw = m_workerFactory.Create<AggregationWorker>();
        aw->Setup(FabricHelper::GetHostDevice(n),
                  jobId,
                  bindings[w],
                  cc,
                  m_rpSet ? &m_rpFactory : nullptr);
        ep->AddWorker(aw);
        ws.push_back(aw);
    }
    Ptr<InNetworkAggregator> job = CreateObject<InNetworkAggregator>();
    job->SetJob(jobId, ws, infos);
    return job;
}

Ptr<FluidAggregator>
AggregationHelper::InstallFluidJob(const NodeContainer& workers,
                                   uint16_t jobId,
                                   uint32_t nTrees,
                                   Ptr<FluidFabric> fabric,
                                   uint32_t slots,
                                   const std::string& name) const
{
    const std::vector<AggregationTreePlan> plans = PlanTrees(workers, jobId, nTrees, name);
    const std::vector<uint32_t> treeSlots =
        TreeSlots(plans, slots, name.empty() ? "job " + std::to_string(jobId) : name);
    const uint32_t W = workers.GetN();
    Ptr<AggregationWorker> proto = m_workerFactory.Create<AggregationWorker>();
    const uint32_t E = proto->GetChunkElements();
    const uint32_t elementBytes = AggElementBytes(proto->GetElementType());
    Ptr<FabricNetDevice> hostDev = FabricHelper::GetHostDevice(workers.Get(0));
    UintegerValue framing;
    hostDev->GetAttribute("FrameOverhead", framing);
    const uint32_t overhead = AggregationStackHeader::kSize + uint32_t(framing.Get());
    const double frame = double(E) * elementBytes + overhead; // a full chunk on the wire
    Ptr<FluidNetwork> net = fabric->GetNetwork();
    std::vector<Ipv4Address> addrs;
    for (uint32_t w = 0; w < W; ++w)
    {
        addrs.push_back(FabricHelper::GetHostDevice(workers.Get(w))->GetIpv4Address());
    }
    std::vector<FluidAggregator::TreeSpec> specs;
    for (uint32_t t = 0; t < nTrees; ++t)
    {
        const AggregationTreePlan& plan = plans[t];
        FluidAggregator::TreeSpec spec;
        std::map<uint32_t, std::size_t> at; // link -> position in spec.path
        double maxHop = 0;                  // the slowest hop's frame time (the drain's)
        auto load = [&](uint32_t link, double coef, bool edge) {
            auto [it, fresh] = at.emplace(link, spec.path.size());
            if (fresh)
            {
                spec.path.push_back(link);
                spec.coef.push_back(0);
                spec.edges.push_back(0);
            }
            spec.coef[it->second] += coef;
            spec.edges[it->second] += edge ? 1 : 0;
        };
        // An edge's route (appended to `into`) and its unloaded latency (propagation and one
        // frame per hop).
        auto edge = [&](std::vector<uint32_t>& into,
                        const FlowKey& key,
                        Ptr<Node> from,
                        Ptr<FabricNetDevice> out) {
            std::vector<uint32_t> links =
                from ? fabric->RouteFrom(key, from, out) : fabric->Route(key);
            double s = 0;
            for (uint32_t l : links)
            {
                into.push_back(l);
                const double hop = frame / net->GetLinkCapacity(l);
                maxHop = std::max(maxHop, hop);
                s += net->GetLinkDelay(l).GetSeconds() + hop;
            }
            return s;
        };
        auto keyOf = [&](Ipv4Address src, Ipv4Address dst, bool worker) {
            FlowKey k;
            k.src = src.Get();
            k.dst = dst.Get();
            k.sport = AggregationStackHeader::SourcePort(src.Get(),
                                                         jobId,
                                                         uint16_t(t),
                                                         worker ? 0 : dst.Get());
            k.dport = AggregationHeader::kUdpPort;
            k.protocol = 17;
            return k;
        };
        auto addressOf = [&](int child) {
            return child < 0 ? addrs[uint32_t(-child - 1)]
                             : plan.points[child].engine->GetAddress();
        };
        // Points: endpoints of the fabric, each with its datapath's service time per chunk.
        std::vector<double> proc(plan.points.size(), 0);
        std::vector<int64_t> service(plan.points.size(), -1); // a point's service link
        for (std::size_t i = 0; i < plan.points.size(); ++i)
        {
            const AggregationTreePlan::Point& p = plan.points[i];
            Ptr<AggregationTimingModel> timing = p.engine->GetTimingModel();
            const double rate = timing->GetElementRate(); // elements/s, infinite: line rate
            const bool finite = std::isfinite(rate) && rate > 0;
            service[i] =
                fabric->AddEndpoint(p.engine->GetAddress().Get(), p.node, finite ? rate : 0);
            proc[i] = timing->GetLatency().GetSeconds();
            if (!finite)
            {
                service[i] = -1;
            }
            if (service[i] >= 0)
            {
                proc[i] += E / rate;
                maxHop = std::max(maxHop, E / rate);
            }
        }
        // Every edge, up and down; up[i]: from point i to the root's sum, down[i]: from the
        // root's result to point i (seconds).
        std::vector<double> upFrom(plan.points.size(), 0);
        std::vector<double> downTo(plan.points.size(), 0);
        auto portOf = [](const AggregationTreePlan::Point& p, bool linkSide) {
            Ptr<AggregationDevice> d = p.node->GetObject<AggregationDevice>();
            return p.bump ? (linkSide ? d->GetLinkPort() : d->GetSwitchPort())
                          : Ptr<FabricNetDevice>();
        };
        // Parents before children (by depth), so each point's way to the root is known.
        std::vector<int> order;
        std::vector<uint32_t> depth(plan.points.size(), 0);
        for (std::size_t i = 0; i < plan.points.size(); ++i)
        {
            for (int q = plan.points[i].parent; q >= 0; q = plan.points[q].parent)
            {
                ++depth[i];
            }
            order.push_back(int(i));
        }
        std::stable_sort(order.begin(), order.end(), [&depth](int a, int b) {
            return depth[a] < depth[b];
        });
        double up = 0;
        double down = 0;
        std::vector<std::vector<uint32_t>> upLinks(plan.points.size());   // point -> its parent
        std::vector<std::vector<uint32_t>> downLinks(plan.points.size()); // -> its children
        std::vector<uint32_t> workerLinks;                                // workers -> points
        for (int i : order)
        {
            const AggregationTreePlan::Point& p = plan.points[i];
            const Ipv4Address self = p.engine->GetAddress();
            if (p.parent >= 0)
            {
                const AggregationTreePlan::Point& parent = plan.points[p.parent];
                // a device below the root sends up its link (AggTreeConfig::parentOnLinkSide)
                upFrom[i] = edge(upLinks[i],
                                 keyOf(self, parent.engine->GetAddress(), false),
                                 p.node,
                                 portOf(p, true)) +
                            proc[p.parent] + upFrom[p.parent];
            }
            for (std::size_t k = 0; k < p.children.size(); ++k)
            {
                const int c = p.children[k];
                const double d = edge(downLinks[i],
                                      keyOf(self, addressOf(c), false),
                                      p.node,
                                      portOf(p, p.childOnLinkSide[k]));
                if (c >= 0)
                {
                    downTo[c] = downTo[i] + d;
                }
                else
                {
                    down = std::max(down, downTo[i] + d);
                }
            }
        }
        for (uint32_t w = 0; w < W; ++w)
        {
            const int parent = plan.workerParent[w];
            const Ipv4Address dst = plan.points[parent].engine->GetAddress();
            up = std::max(up,
                          edge(workerLinks, keyOf(addrs[w], dst, true), nullptr, nullptr) +
                              proc[parent] + upFrom[parent]);
        }
        // The tree's links in the order its bytes cross them, a chain as DCQCN at flow level
        // reads a path (FluidDcqcn: what leaves a link arrives at the next): the workers'
        // contributions, each point's datapath and its sum up to its parent (deepest points
        // first), then the results down from the root. A link on two edges carries r per edge.
        for (uint32_t l : workerLinks)
        {
            load(l, 1.0, true);
        }
        for (auto it = order.rbegin(); it != order.rend(); ++it)
        {
            if (service[*it] >= 0)
            {
                // (children) contributions of E elements per chunk of `frame` wire bytes
                load(uint32_t(service[*it]),
                     double(plan.points[*it].children.size()) * E / frame,
                     false);
            }
            for (uint32_t l : upLinks[*it])
            {
                load(l, 1.0, true);
            }
        }
        for (int i : order)
        {
            for (uint32_t l : downLinks[i])
            {
                load(l, 1.0, true);
            }
        }
        spec.latency = Seconds(std::max(0.0, up + down - maxHop));
        // The slot pool is a window, as the workers' (AggWorkerTree::slots): a chunk's slot is
        // free again when its result is back, so at most `slots` chunks per round trip.
        spec.slots = treeSlots[t];
        spec.roundTrip = Seconds(up + down);
        spec.windowRate = up + down > 0 ? double(treeSlots[t]) * frame / (up + down) : 0.0;
        spec.points = uint32_t(plan.points.size());
        specs.push_back(spec);
    }
    Ptr<FluidAggregator> job = CreateObject<FluidAggregator>();
    job->SetJob(fabric, jobId, addrs, specs, E, elementBytes, overhead);
    // The workers' DCQCN-style control: each tree under DCQCN at flow level, with the
    // reaction point the packet workers would run (their AggregationDcqcn's).
    Ptr<AggregationCongestionOps> cc = m_ccFactory.Create<AggregationCongestionOps>();
    if (Ptr<AggregationDcqcn> dcqcn = DynamicCast<AggregationDcqcn>(cc))
    {
        if (m_rpSet)
        {
            dcqcn->SetReactionPoint(m_rpFactory);
        }
        double lineRate = 0;
        for (uint32_t w = 0; w < W; ++w)
        {
            const double r =
                double(FabricHelper::GetHostDevice(workers.Get(w))->GetDataRate().GetBitRate());
            lineRate = w == 0 ? r : std::min(lineRate, r);
        }
        job->SetCongestionControl(dcqcn->GetReactionPointFactory(), lineRate);
    }
    return job;
}

} // namespace ns3
