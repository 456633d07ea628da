/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-stats-record.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowStatsRecord");

bool
FlowStatsRecord::Completed() const
{
    return completedNs >= 0;
}

int64_t
FlowStatsRecord::FctNs() const
{
    return Completed() ? completedNs - startNs : -1;
}

double
FlowStatsRecord::GoodputBps() const
{
    if (deliveredBytes == 0 || lastRxNs <= startNs)
    {
        return 0.0;
    }
    return static_cast<double>(deliveredBytes) * 8.0 * 1e9 /
           static_cast<double>(lastRxNs - startNs);
}

} // namespace ns3
