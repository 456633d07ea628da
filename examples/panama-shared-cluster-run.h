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

/// A switch port's counters after the warm-up (a row of ports.csv).
struct PortRow
{
    uint32_t sw{0};        //!< switch index (edge, then aggregation, then core switches)
    std::string tier;      //!< the switch's tier: edge, agg or core
    uint32_t port{0};      //!< port index on the switch
    bool up{false};        //!< a pod's uplink: edge -> aggregation or aggregation -> core
    std::string far;       //!< the node at the other end: its tier and node id ("host5")
    uint64_t txBytes{0};   //!< bytes sent after the warm-up
    double util{0};        //!< txBytes over the line rate's bytes after the warm-up
    uint64_t maxQueue{0};  //!< largest egress queue (bytes)
    uint64_t pfcPauses{0}; //!< PFC pause frames sent
    uint64_t ecnMarks{0};  //!< packets CE-marked
};

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
    std::vector<PortRow> ports;                              //!< per switch port
};

RunResult RunOne(const Options& o, const std::string& scheme, const std::vector<JobPlan>& plan);

} // namespace panamacluster
} // namespace ns3

#endif // MLNET_PANAMA_SHARED_CLUSTER_RUN_H
