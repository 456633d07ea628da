/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// One run of the panama-shared-cluster example: one scheme over a seed's jobs and background
// traffic, at packet or flow level, and what it measured.
#ifndef MLNET_PANAMA_SHARED_CLUSTER_RUN_H
#define MLNET_PANAMA_SHARED_CLUSTER_RUN_H

#include "panama-shared-cluster-plan.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace panamacluster
{

struct RunResult
{
    std::vector<double> jobMeanIter;         //!< per job: mean steady-state iteration time (s)
    std::vector<std::vector<double>> iters;  //!< per job: steady-state iteration times (s)
    std::vector<std::vector<double>> busy;   //!< per job: the same from the actual start (s)
    std::vector<std::vector<double>> starts; //!< per job: measured iterations' start times (s)
    double gradLoad{0}; //!< gradient bits moved per second / (hosts x link rate), measured
    double end{0};      //!< simulated time when the run stopped (s)
    std::vector<double> shortFct; //!< s (empty with --short-records=false)
    uint64_t shortCount{0};       //!< 7 KB flows posted after the warm-up and completed
    double shortMean{0};          //!< their mean FCT (s)
    double shortP99{0};           //!< their p99 FCT (s; within half a log bin when summarised)
    std::vector<double> longFct;  //!< s
    std::vector<uint64_t> longBytes;
    uint64_t pauses{0};
    uint64_t drops{0};
    double wall{0};
    double cpu{0}; //!< CPU time of the run (s): the cost on a shared machine
    uint64_t results{0};
    uint64_t marked{0};
    uint64_t timeouts{0};
    std::vector<std::pair<uint64_t, std::string>> maxQueues; //!< largest egress queues
    /// per switch port: switch,tier,port,dir,far,tx_bytes,util,max_queue_bytes,pauses,ecn_marks
    std::vector<std::string> ports;
};

RunResult RunOne(const Options& o, const std::string& scheme, const std::vector<JobPlan>& plan);

} // namespace panamacluster
} // namespace ns3

#endif // MLNET_PANAMA_SHARED_CLUSTER_RUN_H
