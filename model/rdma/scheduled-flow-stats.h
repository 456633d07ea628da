/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_SCHEDULED_FLOW_STATS_H
#define MLNET_SCHEDULED_FLOW_STATS_H

#include "ns3/rdma-flow-scheduler.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Collects the flows a RdmaFlowScheduler finished (its FlowDone trace) and derives
 * Echelon's metric per job and iteration: the maximum tardiness, max over the job's flows of
 * (received - Echelon ideal finish time). Groups are attributed to jobs and iterations through
 * RdmaFlowScheduler::MakeGroupId, as the training jobs number them.
 */
class ScheduledFlowStats
{
  public:
    /// \param s a scheduler whose finished flows to collect
    void Connect(Ptr<RdmaFlowScheduler> s);
    /// \param r a finished flow
    void Add(const ScheduledFlowRecord& r);
    /// \return every finished flow, in order of finishing
    const std::vector<ScheduledFlowRecord>& GetRecords() const;
    /**
     * \param job a job id
     * \return its maximum tardiness (s) per iteration, by iteration
     */
    std::map<uint32_t, double> MaxTardiness(uint32_t job) const;

  private:
    std::vector<ScheduledFlowRecord> m_records;
};

} // namespace ns3

#endif /* MLNET_SCHEDULED_FLOW_STATS_H */
