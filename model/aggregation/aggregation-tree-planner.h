/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_AGGREGATION_TREE_PLANNER_H
#define MLNET_AGGREGATION_TREE_PLANNER_H

#include "aggregation-engine.h"

#include "ns3/node-container.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief One aggregation tree of a job as AggregationTreePlanner::Plan builds it: its points,
 * who is whose child, and on which side of a device each neighbour is. The packet objects
 * (InstallJob) and the flow backend's FluidAggregator (InstallFluidJob) are made from it.
 */
struct AggregationTreePlan
{
    /// An aggregation point of the tree.
    struct Point
    {
        Ptr<AggregationEngine> engine; //!< its engine (the device's or the switch's)
        Ptr<Node> node;                //!< the device's node, or the switch
        bool bump{false};              //!< a device (else an in-switch aggregator)
        bool root{false};              //!< the tree's root
        int parent{-1};                //!< index of its parent point (-1: the root)
        /// children in order (their index at this point): >= 0 a point, < 0 worker -(rank + 1)
        std::vector<int> children;
        /// per child: it is on the device's link side (a root device's children may be)
        std::vector<bool> childOnLinkSide;
        uint32_t workers{0}; //!< workers below it
    };

    uint32_t rootSwitch{0};        //!< node id of the switch the tree is rooted at
    std::vector<Point> points;     //!< points, in the order their trees are installed
    int rootPoint{-1};             //!< index of the root point
    std::vector<int> workerParent; //!< per worker (rank): index of its first point
};

/**
 * \ingroup mlnet
 * \brief The tree-routing algorithm of in-network aggregation: a job's aggregation trees over
 * the fabric as built (switches, in-line AggregationDevices, in-switch SwitchAggregators), and
 * the routes to every aggregation address. AggregationHelper installs the packet objects and
 * the flow backend's FluidAggregator from the same plans.
 *
 * Trees: tree t of a job is rooted at a top-tier switch (the switches farthest from the hosts,
 * or SetRoots), chosen greedily so that the job's trees spread over the uplinks its workers use
 * (PANAMA's multi-tree load balancing). On the way from each worker up to the root, the
 * aggregation points are the in-switch aggregator of each switch, or else the device on the
 * egress port towards the root; at the root switch, its aggregator or one of its devices,
 * preferably on a port where the job's traffic enters. Points left with a single child are
 * skipped.
 */
class AggregationTreePlanner
{
  public:
    /// \param roots switches trees may be rooted at (default, empty: the top tier)
    void SetRoots(const NodeContainer& roots);
    /// \param names node id -> name, for messages (default: "<kind> <node id>")
    void SetNodeNames(std::map<uint32_t, std::string> names);
    /// \return the node's name for messages (SetNodeNames, else "<kind> <node id>")
    std::string NameOf(Ptr<Node> node, const std::string& kind) const;
    /// \return "worker <rank> (<host name>)", as messages name a worker
    std::string WorkerName(const NodeContainer& workers, uint32_t w) const;

    /**
     * A job's trees, without creating anything.
     * \param workers worker hosts (rank order), >= 1 \param jobId job id
     * \param trees number of trees, in [1, 1024] \param name the job's name in messages
     * \return one plan per tree
     * \throws std::invalid_argument for a worker that is not a host on a switch, a root that is
     *         not a switch or has no aggregation point, paths that do not form a tree, or an
     *         argument out of range
     */
    std::vector<AggregationTreePlan> Plan(const NodeContainer& workers,
                                          uint16_t jobId,
                                          uint32_t trees,
                                          const std::string& name = "") const;

    /// Install the routes to every aggregation address (devices and in-switch aggregators) at
    /// every switch: shortest paths over the switch graph, seen through in-line devices.
    static void PopulateRoutes();

  private:
    NodeContainer m_roots;                   //!< SetRoots
    std::map<uint32_t, std::string> m_names; //!< node id -> name (SetNodeNames)
};

} // namespace ns3

#endif /* MLNET_AGGREGATION_TREE_PLANNER_H */
