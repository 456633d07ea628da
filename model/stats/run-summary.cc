/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "run-summary.h"

#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RunSummary");

double
RunSummary::PacketHopsPerWallSecond() const
{
    return wallSeconds > 0 ? static_cast<double>(packetHops) / wallSeconds : 0.0;
}

double
RunSummary::EventsPerWallSecond() const
{
    return wallSeconds > 0 ? static_cast<double>(events) / wallSeconds : 0.0;
}

int64_t
RunSummary::BytesInFlight() const
{
    return static_cast<int64_t>(bytesSent) - static_cast<int64_t>(bytesReceived) -
           static_cast<int64_t>(bytesDropped);
}

void
RunSummary::Aggregate(const std::vector<FlowStatsRecord>& flowRecords,
                      const std::vector<PortStatsRecord>& ports)
{
    packetsForwarded = bytesDropped = packetsDropped = pfcPauses = pfcResumes = ecnMarks = 0;
    maxQueueBytes = 0;
    for (const PortStatsRecord& p : ports)
    {
        packetsForwarded += p.txPackets;
        bytesDropped += p.dropBytes;
        packetsDropped += p.drops;
        pfcPauses += p.pfcPauses;
        pfcResumes += p.pfcResumes;
        ecnMarks += p.ecnMarks;
        maxQueueBytes = std::max(maxQueueBytes, p.maxQueueBytes);
    }

    flows = static_cast<uint32_t>(flowRecords.size());
    flowsCompleted = 0;
    bytesSent = bytesReceived = bytesDelivered = packetsSent = packetsReceived = 0;
    retransmitted = ceReceived = reordered = 0;
    double gMin = std::numeric_limits<double>::infinity();
    double gMax = 0.0;
    double gSum = 0.0;
    for (const FlowStatsRecord& f : flowRecords)
    {
        flowsCompleted += f.Completed() ? 1 : 0;
        bytesSent += f.txBytes;
        bytesReceived += f.rxBytes;
        bytesDelivered += f.deliveredBytes;
        retransmitted += f.retransmitted;
        packetsSent += f.txPackets;
        packetsReceived += f.rxPackets;
        ceReceived += f.ceMarked;
        reordered += f.reordered;
        const double g = f.GoodputBps();
        gMin = std::min(gMin, g);
        gMax = std::max(gMax, g);
        gSum += g;
    }
    goodputMinBps = flowRecords.empty() ? 0.0 : gMin;
    goodputMaxBps = gMax;
    goodputMeanBps = flowRecords.empty() ? 0.0 : gSum / static_cast<double>(flowRecords.size());
}

} // namespace ns3
