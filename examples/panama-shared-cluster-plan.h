/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Jobs, placement and their idle-network bounds for the panama-shared-cluster example: the same
// for every scheme of a seed.
#ifndef MLNET_PANAMA_SHARED_CLUSTER_PLAN_H
#define MLNET_PANAMA_SHARED_CLUSTER_PLAN_H

#include "panama-shared-cluster.h"

#include "ns3/mlnet-module.h"

#include <string>
#include <vector>

namespace ns3
{
namespace panamacluster
{

/// A model scaled down: parameters and per-layer compute times times `scale`.
DnnModel Scaled(const std::string& name, const GpuProfile& gpu, uint32_t batch, double scale);

struct JobPlan
{
    std::string model;
    std::vector<uint32_t> hosts;
    double load{0};     //!< this job's share of the aggregation load
    double gradBits{0}; //!< gradient bits per worker per iteration (scaled)
    double computeS{0}; //!< compute time per iteration (scaled), s
    double periodS{0};  //!< fixed-load mode: iteration period, s (0 = free-running)
    SyncBound bound;    //!< idle-network bound of ring vs in-network aggregation
};

/**
 * Fixed-load mode: every host is a worker (hosts / workers jobs, models drawn as in PlanJobs)
 * and every job's iteration period is gradient bits / (load x link rate), so each worker offers
 * exactly `load` of its link in gradient bytes, whatever the scheme. The period is never below
 * the job's compute time (such a job offers less, for every scheme alike).
 */
std::vector<JobPlan> PlanFixed(const Options& o, double load, uint32_t hosts, double rateBps);

/// Jobs and placement for a load: deterministic for a seed (RngRun).
std::vector<JobPlan> PlanJobs(const Options& o, double load, uint32_t hosts, double rateBps);

/// --plan-only: prints a load's and seed's jobs (model, hosts, offered load, idle-network
/// iterations, bound, ring hops between pods) and the slowest idle ring iteration.
void PrintPlan(const Options& o,
               double load,
               uint32_t seed,
               const std::vector<JobPlan>& plan,
               uint32_t hosts,
               double achieved);

} // namespace panamacluster
} // namespace ns3

#endif // MLNET_PANAMA_SHARED_CLUSTER_PLAN_H
