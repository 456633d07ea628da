/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_AGGREGATION_HELPER_H
#define MLNET_AGGREGATION_HELPER_H

#include "ns3/aggregation-device.h"
#include "ns3/aggregation-tree-planner.h"
#include "ns3/fluid-aggregator.h"
#include "ns3/in-network-aggregator.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/switch-aggregator.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Installs in-network aggregation on a built fabric: bump-in-the-wire devices (PANAMA)
 * or in-switch aggregators (SwitchML, ideal), the routes to their aggregation addresses, and
 * jobs with their aggregation trees and worker transports.
 *
 * \code
 * AggregationHelper agg;
 * agg.SetTimingAttribute("Lanes", UintegerValue(16));
 * agg.InstallDevices(topo.edge);   // a device on every uplink of every leaf
 * agg.InstallDevices(topo.core);   // and on every port of every spine (tree roots)
 * Ptr<InNetworkAggregator> job = agg.InstallJob(workers, 1, 4); // 4 trees, 4 spines
 * dataParallelJob->SetAggregator(job);
 * \endcode
 *
 * Devices go on switch-to-switch ports, at the switch's end of the link; the switch keeps its
 * port numbers and routes, and routing sees through the device (FabricHelper::IsInline).
 * Each device or in-switch aggregator gets an aggregation address 172.16.0.0 + node id + 1,
 * with routes at every switch.
 *
 * Trees: tree t of a job is rooted at a top-tier switch (the switches farthest from the hosts,
 * or SetRoots), chosen so that the job's trees spread over the uplinks its workers use
 * (PANAMA's multi-tree load balancing); one tree is single-tree mode. On the way from each
 * worker up to the root, the aggregation points are the in-switch aggregator of each switch,
 * or else the device on the egress port towards the root (where the packets of one switch's
 * subtree converge); at the root switch, its aggregator or one of its devices, preferably on a
 * port where the job's traffic enters. Points left with a single child are skipped. The slot
 * pool of a tree is the largest every point's BufferBytesPerJob allows, capped at MaxSlots, or
 * the number given.
 */
class AggregationHelper
{
  public:
    AggregationHelper();

    /// Set an attribute of the AggregationDevices created from now on.
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /// Set an attribute of the AggregationEngines created from now on (BufferBytesPerJob...).
    void SetEngineAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Choose the datapath timing of the points created from now on (default: devices
     * ns3::AdderTreeTimingModel, in-switch aggregators ns3::LineRateTimingModel).
     * \param typeId an AggregationTimingModel TypeId name
     * \throws std::invalid_argument if no such TypeId exists
     */
    void SetTimingModel(const std::string& typeId);
    /// Set an attribute of the timing models (Lanes, ClockFrequency, TreeDepth, ElementType).
    void SetTimingAttribute(const std::string& name, const AttributeValue& value);
    /// \param latency pass-through latency of the devices (the delay of their link to the
    /// switch; default 250 ns)
    void SetLatency(Time latency);
    /// Set an attribute of the AggregationWorkers (ChunkElements, ElementType, ...).
    void SetWorkerAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Choose the workers' congestion control.
     * \param typeId an AggregationCongestionOps TypeId name: ns3::AggregationDcqcn (default:
     *        reacts like the fabric's RDMA flows, so they share links fairly),
     *        ns3::AggregationDctcp (PANAMA's DCTCP-style window), ns3::AggregationFixedWindow
     *        (none: SwitchML's self-clocked pool)
     * \throws std::invalid_argument if no such TypeId exists
     */
    void SetCongestionControl(const std::string& typeId);
    /// Set an attribute of the congestion-control objects.
    void SetCcAttribute(const std::string& name, const AttributeValue& value);
    /// \param rp the reaction point of ns3::AggregationDcqcn (an RdmaCongestionOps factory)
    void SetReactionPoint(const ObjectFactory& rp);
    /// \param roots switches trees may be rooted at (default: the top tier)
    void SetRoots(const NodeContainer& roots);
    /// \param slots cap of a tree's slot pool when it is derived from the buffers (512)
    void SetMaxSlots(uint32_t slots);
    /**
     * Name the nodes in the points' names and in error messages as the outputs do
     * (FabricTopology::NodeNames: "core0", "host3"); without it, "switch <node id>".
     * \param names node id -> name
     */
    void SetNodeNames(std::map<uint32_t, std::string> names);

    /**
     * Insert a device on switch-to-switch ports of each switch.
     * \param switches switch nodes
     * \param ports "all": every port towards another switch; "up": the ports towards the tier
     *        above (every switch port of the top tier), which is where trees aggregate
     * \return the devices
     * \throws std::invalid_argument for a node that is not a switch, a port that has one, or
     *         another `ports` value
     */
    std::vector<Ptr<AggregationDevice>> InstallDevices(const NodeContainer& switches,
                                                       const std::string& ports = "all");
    /**
     * Insert one device between a switch port and its link.
     * \param sw the switch node \param port the port index
     * \return the device
     */
    Ptr<AggregationDevice> InsertDevice(Ptr<Node> sw, uint32_t port);
    /**
     * Make switches aggregate (SwitchML-style in-switch aggregators).
     * \param switches switch nodes
     * \return the aggregators
     */
    std::vector<Ptr<SwitchAggregator>> InstallInSwitch(const NodeContainer& switches);

    /**
     * Build a job's trees and worker transports.
     * \param workers worker hosts (rank order), >= 1
     * \param jobId job id (unique on the points it uses)
     * \param trees number of trees, >= 1
     * \param slots slot pool per tree; 0 = the largest the buffers allow (capped at MaxSlots)
     * \param name the job's name in error messages (empty: "job <jobId>")
     * \return the job's GradientAggregator
     * \throws std::invalid_argument if the topology has no aggregation point at a root, a
     *         point's buffer or job limit does not fit the job (the message names the point and
     *         the job), or an argument is out of range
     */
    Ptr<InNetworkAggregator> InstallJob(const NodeContainer& workers,
                                        uint16_t jobId,
                                        uint32_t trees,
                                        uint32_t slots = 0,
                                        const std::string& name = "");

    /**
     * The flow backend's InstallJob: the same trees (PlanTrees), each as one fluid flow of the
     * fabric (FluidAggregator): the routes of its edges up and down, and a service link per
     * aggregation point whose datapath has a finite rate (the adder tree's element rate;
     * none for a line-rate datapath, which never delays). Creates no packet objects; the
     * workers' congestion control and the points' buffers have no effect at flow level. The
     * slot pool (as InstallJob sizes it) is a window: a tree's rate is capped at slots x chunk
     * frame / the tree's unloaded round trip (FluidAggregator::TreeSpec::windowRate).
     * \param workers worker hosts (rank order) \param jobId job id \param trees trees
     * \param fabric the fluid fabric, built over the network with the points in it
     * \param slots slot pool per tree; 0 = the largest the buffers allow (capped at MaxSlots)
     * \param name the job's name in messages
     * \return the job's GradientAggregator
     * \throws std::invalid_argument as InstallJob, or if an edge has no route in the fabric
     */
    Ptr<FluidAggregator> InstallFluidJob(const NodeContainer& workers,
                                         uint16_t jobId,
                                         uint32_t trees,
                                         Ptr<FluidFabric> fabric,
                                         uint32_t slots = 0,
                                         const std::string& name = "") const;

    /**
     * The trees InstallJob builds for a job (roots, each worker's chain of points, points
     * left with one child skipped), without creating anything.
     * \param workers worker hosts (rank order), >= 1 \param jobId job id
     * \param trees number of trees, in [1, 1024] \param name the job's name in messages
     * \return one plan per tree
     * \throws std::invalid_argument as InstallJob for the topology and the arguments
     */
    std::vector<AggregationTreePlan> PlanTrees(const NodeContainer& workers,
                                               uint16_t jobId,
                                               uint32_t trees,
                                               const std::string& name = "") const;

    /// Install the routes to every aggregation address at every switch (Install* call it).
    static void PopulateRoutes();
    /// \return the address of an aggregation point: 172.16.0.0 + node id + 1
    static Ipv4Address AddressOf(Ptr<Node> node);
    /**
     * Every aggregation device in the simulation, as ns-3 helpers return devices: one
     * NetDevice per aggregation device, its port towards the switch (Get() gives the device).
     * \return the ports
     */
    static NetDeviceContainer GetDevices();
    /**
     * \param port a port of an aggregation device (an element of GetDevices())
     * \return the aggregation device it belongs to (null if none)
     */
    static Ptr<AggregationDevice> Get(Ptr<NetDevice> port);

  private:
    Ptr<AggregationEngine> MakeEngine(bool inSwitch) const;
    /**
     * The slot pool of each tree: `slots`, or (0) the largest every point's BufferBytesPerJob
     * allows for the job's trees through it, capped at MaxSlots.
     * \throws std::invalid_argument if a point cannot hold one slot per tree (names `label`)
     */
    std::vector<uint32_t> TreeSlots(const std::vector<AggregationTreePlan>& plans,
                                    uint32_t slots,
                                    const std::string& label) const;
    /// \return the node's name for messages (SetNodeNames, else "<kind> <node id>")
    std::string NameOf(Ptr<Node> node, const std::string& kind) const;

    ObjectFactory m_deviceFactory;
    ObjectFactory m_engineFactory;
    ObjectFactory m_timingFactory;
    bool m_timingSet{false};
    ObjectFactory m_workerFactory;
    ObjectFactory m_ccFactory;
    ObjectFactory m_rpFactory;
    bool m_rpSet{false};
    Time m_latency;
    uint32_t m_maxSlots{512};
    AggregationTreePlanner m_planner; //!< the trees and routes (roots, node names)
};

} // namespace ns3

#endif /* MLNET_AGGREGATION_HELPER_H */
