/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scheduled-flow-stats.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScheduledFlowStats");

void
ScheduledFlowStats::Connect(Ptr<RdmaFlowScheduler> s)
{
    NS_LOG_FUNCTION(this << s);
    s->TraceConnectWithoutContext("FlowDone", MakeCallback(&ScheduledFlowStats::Add, this));
}

void
ScheduledFlowStats::Add(const ScheduledFlowRecord& r)
{
    NS_LOG_FUNCTION(this);
    m_records.push_back(r);
}

const std::vector<ScheduledFlowRecord>&
ScheduledFlowStats::GetRecords() const
{
    return m_records;
}

std::map<uint32_t, double>
ScheduledFlowStats::MaxTardiness(uint32_t job) const
{
    NS_LOG_FUNCTION(this << job);
    std::map<uint32_t, double> worst;
    for (const auto& r : m_records)
    {
        if (RdmaFlowScheduler::GroupJob(r.decl.group) != job)
        {
            continue;
        }
        const uint32_t it = RdmaFlowScheduler::GroupIteration(r.decl.group);
        const double t = r.Tardiness().GetSeconds();
        auto [pos, fresh] = worst.emplace(it, t);
        if (!fresh)
        {
            pos->second = std::max(pos->second, t);
        }
    }
    return worst;
}

} // namespace ns3
