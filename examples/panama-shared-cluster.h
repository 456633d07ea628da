/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The options of the panama-shared-cluster example, shared by its files (the program is
// examples/panama-shared-cluster.cc; its jobs and placement are planned in
// panama-shared-cluster-plan.cc, a run is simulated in panama-shared-cluster-run.cc and reported
// in panama-shared-cluster-output.cc).
#ifndef MLNET_PANAMA_SHARED_CLUSTER_H
#define MLNET_PANAMA_SHARED_CLUSTER_H

#include "ns3/core-module.h"

#include <string>
#include <vector>

namespace ns3
{
namespace panamacluster
{

inline const std::vector<std::string> kModels =
    {"vgg16", "alexnet", "resnet152", "inception_v3", "googlenet", "resnet50"};
inline const std::vector<std::string> kSchemes = {"ring",
                                                  "switchml",
                                                  "switchml-lb",
                                                  "panama",
                                                  "ideal"};

struct Options
{
    uint32_t k{4};
    std::string backend{"packet"}; //!< packet, or flow (doc/flow-backend.rst)
    /// flow level: the background flows per-flow (one fluid flow each) or in the aggregate
    /// background model (BackgroundTraffic::Fluid, FluidAggregate)
    std::string fluidBackground{"per-flow"};
    /// flow level: DCQCN at flow level (dcqcn, where --dcqcn is not none) or max-min rates
    /// (none); after validation what the run models
    std::string fluidCc{"dcqcn"};
    Time fluidInterval{MicroSeconds(100)}; //!< aggregate model: FluidAggregate::Interval
    std::string rate{"100Gbps"};
    std::string gpu{"v100-amp"}; //!< calibrated: V100 + AMP, the GPU of PANAMA's time (2020-21)
    uint32_t batch{32};
    uint32_t workers{4};
    double scale{1}; //!< below 1: a smoke test (per-step latencies are not scaled)
    double shortLoad{0.01};
    double longLoad{0.1};
    uint32_t trees{0};
    uint32_t switchmlSlots{256};
    /// PANAMA's slot pool per tree, its workers' window (--window-slots; 0 = the helper's 512)
    uint32_t panamaSlots{0};
    uint64_t fusionBytes{64 * 1048576};
    std::string panamaCc{"dcqcn"};
    std::string dcqcn{"paper"}; //!< DCQCN of every RDMA QP and of PANAMA's reaction point
    std::string traceRing;      //!< directory for the ring QPs' diagnostic traces ("" = none)
    bool shortRecords{true};    //!< false: the 7 KB flows summarised (FctSummary), not recorded
    std::string traceTag;       //!< run name in those traces (mode-dcqcn-load-seed)
    Time duration{MilliSeconds(20)};
    Time warmup{MilliSeconds(4)};
    bool fixed{false};                 //!< fixed-load mode: MinIterationPeriod of every job
    std::string passThrough{"bypass"}; //!< PANAMA device output: bypass or shared
    std::string ringOrder{"random"};   //!< ring order of a job's workers: random or rack
    std::string placement{"random"};   //!< a job's hosts: random, or packed (lowest free)
    std::string portsCsv;              //!< --out: per-port utilisation file ("" = none)
    uint32_t minIterations{0};         //!< stop once every job measured this many (0 = --duration)
    uint32_t warmupIterations{2};      //!< first iterations of every job not measured
    std::vector<std::string> models{kModels}; //!< models jobs are drawn from (--models)
};

/// \param o the options \return the RDMA queue pairs' congestion control TypeId (--dcqcn)
inline std::string
RdmaCc(const Options& o)
{
    return o.dcqcn == "none" ? "ns3::RdmaFixedRate"
                             : (o.dcqcn == "vendor" ? "ns3::DcqcnVendor" : "ns3::Dcqcn");
}

} // namespace panamacluster
} // namespace ns3

#endif // MLNET_PANAMA_SHARED_CLUSTER_H
