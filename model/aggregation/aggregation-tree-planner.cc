/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-tree-planner.h"

#include "aggregation-fabric-graph.h"
#include "switch-aggregator.h"

#include "ns3/log.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AggregationTreePlanner");

namespace
{
const uint32_t kInf = AggregationFabricGraph::NONE;
using FabricGraph = AggregationFabricGraph;
using LinkEnd = AggregationFabricGraph::LinkEnd;

/// Install routes to one aggregation address.
void
RouteTo(const FabricGraph& g,
        Ipv4Address addr,
        const std::vector<uint32_t>& sources,
        const std::vector<std::pair<uint32_t, uint32_t>>& direct)
{
    std::vector<uint32_t> d = g.Distances(sources);
    std::set<uint32_t> fixed;
    for (const auto& sp : direct)
    {
        g.switches[sp.first]->GetObject<FabricSwitch>()->SetRoute(addr, {sp.second});
        fixed.insert(sp.first);
    }
    for (uint32_t s = 0; s < g.switches.size(); ++s)
    {
        if (fixed.count(s) || d[s] == kInf || d[s] == 0)
        {
            continue;
        }
        std::vector<uint32_t> next;
        for (const LinkEnd& e : g.ports[s])
        {
            if (e.peer != kInf && d[e.peer] + 1 == d[s])
            {
                next.push_back(e.port);
            }
        }
        if (!next.empty())
        {
            g.switches[s]->GetObject<FabricSwitch>()->SetRoute(addr, next);
        }
    }
}

/// An aggregation point in a tree under construction.
struct Point
{
    Ptr<AggregationEngine> engine;
    Ptr<Node> node; //!< the device's node or the switch
    bool bump{false};
    bool root{false};
    uint32_t rootPort{0};               //!< root bump: its port on the root switch
    int parent{-1};                     //!< index in the point list (-1: root)
    std::vector<int> childPoints;       //!< child points
    std::vector<uint32_t> childWorkers; //!< child workers (rank)
    std::vector<int> order;             //!< children in order: >= 0 point, < 0 worker -(rank+1)
    uint32_t workers{0};                //!< workers below
    std::set<uint32_t> entryPorts;      //!< root: ports of the root switch its workers enter by
    bool removed{false};
};
} // namespace

void
AggregationTreePlanner::SetRoots(const NodeContainer& roots)
{
    NS_LOG_FUNCTION(this);
    m_roots = roots;
}

void
AggregationTreePlanner::SetNodeNames(std::map<uint32_t, std::string> names)
{
    NS_LOG_FUNCTION(this);
    m_names = std::move(names);
}

std::string
AggregationTreePlanner::NameOf(Ptr<Node> node, const std::string& kind) const
{
    auto it = m_names.find(node->GetId());
    return it != m_names.end() ? it->second : kind + " " + std::to_string(node->GetId());
}

std::string
AggregationTreePlanner::WorkerName(const NodeContainer& workers, uint32_t w) const
{
    return "worker " + std::to_string(w) + " (" + NameOf(workers.Get(w), "node") + ")";
}

void
AggregationTreePlanner::PopulateRoutes()
{
    FabricGraph g;
    for (uint32_t s = 0; s < g.switches.size(); ++s)
    {
        if (Ptr<SwitchAggregator> sa = g.switches[s]->GetObject<SwitchAggregator>())
        {
            RouteTo(g, sa->GetEngine()->GetAddress(), {s}, {});
        }
        for (const LinkEnd& e : g.ports[s])
        {
            if (!e.nearBump)
            {
                continue;
            }
            Ipv4Address a = e.nearBump->GetEngine()->GetAddress();
            std::vector<uint32_t> sources{s};
            std::vector<std::pair<uint32_t, uint32_t>> direct{{s, e.port}};
            if (e.peer != kInf)
            {
                sources.push_back(e.peer);
                direct.emplace_back(e.peer, e.peerPort);
            }
            RouteTo(g, a, sources, direct);
        }
    }
}

std::vector<AggregationTreePlan>
AggregationTreePlanner::Plan(const NodeContainer& workers,
                             uint16_t jobId,
                             uint32_t nTrees,
                             const std::string& name) const
{
    const std::string label = name.empty() ? "job " + std::to_string(jobId) : name;
    // worker w as the messages name it: "worker 2 (host5)"
    auto workerName = [&](uint32_t w) { return WorkerName(workers, w); };
    if (workers.GetN() == 0)
    {
        throw std::invalid_argument("AggregationHelper::InstallJob: workers must be >= 1");
    }
    if (workers.GetN() > 65535)
    {
        throw std::invalid_argument("AggregationHelper::InstallJob: workers must be <= 65535");
    }
    if (nTrees < 1 || nTrees > 1024)
    {
        throw std::invalid_argument("AggregationHelper::InstallJob: trees = " +
                                    std::to_string(nTrees) + " is out of range [1, 1024]");
    }
    FabricGraph g;
    const uint32_t W = workers.GetN();
    std::vector<std::pair<uint32_t, uint32_t>> edge(W);
    for (uint32_t w = 0; w < W; ++w)
    {
        try
        {
            edge[w] = g.EdgeOf(workers.Get(w));
        }
        catch (const std::invalid_argument&)
        {
            throw std::invalid_argument("AggregationHelper: " + workerName(w) + " of " + label +
                                        " is not a host attached to a switch");
        }
    }
    // Candidate roots: SetRoots, else the switches farthest from the hosts.
    std::vector<uint32_t> cands;
    if (m_roots.GetN() > 0)
    {
        for (auto it = m_roots.Begin(); it != m_roots.End(); ++it)
        {
            auto f = g.indexOf.find((*it)->GetId());
            if (f == g.indexOf.end())
            {
                throw std::invalid_argument("AggregationHelper: root node " +
                                            std::to_string((*it)->GetId()) + " is not a switch");
            }
            cands.push_back(f->second);
        }
    }
    else
    {
        std::vector<uint32_t> d = g.Tiers();
        uint32_t top = 0;
        for (uint32_t s = 0; s < d.size(); ++s)
        {
            if (d[s] != kInf)
            {
                top = std::max(top, d[s]);
            }
        }
        for (uint32_t s = 0; s < d.size(); ++s)
        {
            if (d[s] == top)
            {
                cands.push_back(s);
            }
        }
    }
    if (cands.empty())
    {
        throw std::invalid_argument("AggregationHelper: no switch to root a tree at");
    }
    // Upward path of every worker towards a root: hops (switch, port).
    auto pathTo = [&g, &edge, W, &label, &workerName](uint32_t root) {
        std::vector<uint32_t> d = g.Distances({root});
        std::vector<std::vector<std::pair<uint32_t, uint32_t>>> paths(W);
        for (uint32_t w = 0; w < W; ++w)
        {
            uint32_t cur = edge[w].first;
            if (d[cur] == kInf)
            {
                throw std::invalid_argument("AggregationHelper: " + workerName(w) + " of " + label +
                                            " cannot reach the tree root");
            }
            while (cur != root)
            {
                for (const LinkEnd& e : g.ports[cur])
                {
                    if (e.peer != kInf && d[e.peer] + 1 == d[cur])
                    {
                        paths[w].emplace_back(cur, e.port);
                        cur = e.peer;
                        break;
                    }
                }
            }
        }
        return paths;
    };
    // Choose the roots: greedily, the candidate whose first uplinks carry fewest trees so far.
    std::vector<uint32_t> roots;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> uplinkLoad;
    std::map<uint32_t, uint32_t> rootLoad;
    std::map<uint32_t, std::vector<std::vector<std::pair<uint32_t, uint32_t>>>> pathCache;
    for (uint32_t t = 0; t < nTrees; ++t)
    {
        int best = -1;
        std::tuple<uint32_t, uint32_t> bestCost{kInf, kInf};
        for (uint32_t k = 0; k < cands.size(); ++k)
        {
            uint32_t c = cands[(k + jobId) % cands.size()];
            if (!pathCache.count(c))
            {
                pathCache[c] = pathTo(c);
            }
            uint32_t load = 0;
            for (const auto& p : pathCache[c])
            {
                if (!p.empty())
                {
                    load = std::max(load, uplinkLoad[p.front()]);
                }
            }
            std::tuple<uint32_t, uint32_t> cost{load, rootLoad[c]};
            if (cost < bestCost)
            {
                bestCost = cost;
                best = int(c);
            }
        }
        uint32_t r = uint32_t(best);
        roots.push_back(r);
        rootLoad[r]++;
        std::set<std::pair<uint32_t, uint32_t>> used;
        for (const auto& p : pathCache[r])
        {
            if (!p.empty())
            {
                used.insert(p.front());
            }
        }
        for (const auto& u : used)
        {
            uplinkLoad[u]++;
        }
    }

    // Build every tree.
    struct TreeBuild
    {
        uint32_t root{0};
        std::vector<Point> points;
        std::map<AggregationEngine*, int> index;
        std::vector<int> workerParent; //!< point of each worker
        std::vector<uint32_t> entryOf; //!< port of the root switch each worker enters by
        int rootPoint{-1};
    };

    std::vector<TreeBuild> builds(nTrees);
    for (uint32_t t = 0; t < nTrees; ++t)
    {
        TreeBuild& b = builds[t];
        b.root = roots[t];
        const auto& paths = pathCache[b.root];
        auto pointOf = [&b](Ptr<AggregationEngine> e, Ptr<Node> node, bool bump) {
            auto it = b.index.find(PeekPointer(e));
            if (it != b.index.end())
            {
                return it->second;
            }
            Point p;
            p.engine = e;
            p.node = node;
            p.bump = bump;
            b.points.push_back(p);
            b.index[PeekPointer(e)] = int(b.points.size()) - 1;
            return int(b.points.size()) - 1;
        };
        // The root point.
        Ptr<Node> rootNode = g.switches[b.root];
        std::set<uint32_t> entry; // ports of the root switch the workers enter by
        for (uint32_t w = 0; w < W; ++w)
        {
            if (!paths[w].empty())
            {
                const auto& last = paths[w].back();
                for (const LinkEnd& e : g.ports[last.first])
                {
                    if (e.port == last.second)
                    {
                        entry.insert(e.peerPort);
                    }
                }
            }
        }
        if (Ptr<SwitchAggregator> sa = rootNode->GetObject<SwitchAggregator>())
        {
            b.rootPoint = pointOf(sa->GetEngine(), rootNode, false);
        }
        else
        {
            std::vector<const LinkEnd*> pref;
            std::vector<const LinkEnd*> any;
            for (const LinkEnd& e : g.ports[b.root])
            {
                if (e.nearBump)
                {
                    any.push_back(&e);
                    if (entry.count(e.port))
                    {
                        pref.push_back(&e);
                    }
                }
            }
            const auto& pick = pref.empty() ? any : pref;
            if (pick.empty())
            {
                throw std::invalid_argument(
                    "AggregationHelper: the tree root " + NameOf(rootNode, "switch") + " of " +
                    label +
                    " has no aggregation device or aggregator (install devices on the root "
                    "switches)");
            }
            const LinkEnd* e = pick[(jobId + t) % pick.size()];
            b.rootPoint = pointOf(e->nearBump->GetEngine(), e->nearBump->GetObject<Node>(), true);
            b.points[b.rootPoint].rootPort = e->port;
        }
        b.points[b.rootPoint].root = true;
        // Chains: aggregation points on each worker's way up.
        b.workerParent.assign(W, -1);
        std::vector<uint32_t>& entryOf = b.entryOf;
        entryOf.assign(W, kInf);
        for (uint32_t w = 0; w < W; ++w)
        {
            std::vector<int> chain;
            for (const auto& hop : paths[w])
            {
                Ptr<Node> x = g.switches[hop.first];
                int pt = -1;
                if (Ptr<SwitchAggregator> sa = x->GetObject<SwitchAggregator>())
                {
                    pt = pointOf(sa->GetEngine(), x, false);
                }
                else
                {
                    const LinkEnd& e = g.ports[hop.first][hop.second];
                    if (e.nearBump)
                    {
                        pt = pointOf(e.nearBump->GetEngine(), e.nearBump->GetObject<Node>(), true);
                    }
                }
                if (pt >= 0 && pt != b.rootPoint && (chain.empty() || chain.back() != pt))
                {
                    chain.push_back(pt);
                }
            }
            chain.push_back(b.rootPoint);
            if (!paths[w].empty())
            {
                const auto& last = paths[w].back();
                entryOf[w] = g.ports[last.first][last.second].peerPort;
            }
            b.workerParent[w] = chain.front();
            for (std::size_t i = 0; i + 1 < chain.size(); ++i)
            {
                Point& p = b.points[chain[i]];
                if (p.parent >= 0 && p.parent != chain[i + 1])
                {
                    throw std::invalid_argument("AggregationHelper: the paths of " + label +
                                                " do not form a tree (a point has two parents)");
                }
                p.parent = chain[i + 1];
            }
            for (int pt : chain)
            {
                b.points[pt].workers++;
                if (entryOf[w] != kInf)
                {
                    b.points[pt].entryPorts.insert(entryOf[w]);
                }
            }
        }
        // Skip points left with a single child (they would only add a hop).
        bool changed = true;
        while (changed)
        {
            changed = false;
            for (auto& p : b.points)
            {
                p.childPoints.clear();
                p.childWorkers.clear();
                p.order.clear();
            }
            for (uint32_t w = 0; w < W; ++w)
            {
                b.points[b.workerParent[w]].childWorkers.push_back(w);
                b.points[b.workerParent[w]].order.push_back(-int(w) - 1);
            }
            for (int i = 0; i < int(b.points.size()); ++i)
            {
                if (!b.points[i].removed && b.points[i].parent >= 0)
                {
                    b.points[b.points[i].parent].childPoints.push_back(i);
                    b.points[b.points[i].parent].order.push_back(i);
                }
            }
            for (int i = 0; i < int(b.points.size()); ++i)
            {
                Point& p = b.points[i];
                if (p.removed || p.root || p.order.size() != 1)
                {
                    continue;
                }
                int only = p.order.front();
                if (only < 0)
                {
                    b.workerParent[-only - 1] = p.parent;
                }
                else
                {
                    b.points[only].parent = p.parent;
                }
                p.removed = true;
                changed = true;
                break;
            }
        }
    }
    // The plans: the points left, in order, with their children and the sides they are on.
    std::vector<AggregationTreePlan> plans(nTrees);
    for (uint32_t t = 0; t < nTrees; ++t)
    {
        const TreeBuild& b = builds[t];
        AggregationTreePlan& plan = plans[t];
        plan.rootSwitch = g.switches[b.root]->GetId();
        std::vector<int> newIndex(b.points.size(), -1);
        for (std::size_t i = 0; i < b.points.size(); ++i)
        {
            if (!b.points[i].removed)
            {
                newIndex[i] = int(plan.points.size());
                plan.points.emplace_back();
            }
        }
        for (std::size_t i = 0; i < b.points.size(); ++i)
        {
            const Point& p = b.points[i];
            if (p.removed)
            {
                continue;
            }
            AggregationTreePlan::Point& q = plan.points[newIndex[i]];
            q.engine = p.engine;
            q.node = p.node;
            q.bump = p.bump;
            q.root = p.root;
            q.parent = p.parent >= 0 ? newIndex[p.parent] : -1;
            q.workers = p.workers;
            for (int c : p.order)
            {
                bool link = false;
                if (c < 0)
                {
                    link = p.root && p.bump && b.entryOf[uint32_t(-c - 1)] == p.rootPort;
                    q.children.push_back(c);
                }
                else
                {
                    link = p.root && p.bump && b.points[c].entryPorts.count(p.rootPort);
                    q.children.push_back(newIndex[c]);
                }
                q.childOnLinkSide.push_back(link);
            }
        }
        plan.rootPoint = newIndex[b.rootPoint];
        for (int wp : b.workerParent)
        {
            plan.workerParent.push_back(newIndex[wp]);
        }
    }
    return plans;
}

} // namespace ns3
