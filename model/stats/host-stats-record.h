/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_HOST_STATS_RECORD_H
#define MLNET_HOST_STATS_RECORD_H

#include "ns3/host-path-stats.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Counters of one host's interconnect at the end of a run: one row of hosts.csv.
 *
 * Copied from HostInterconnect::GetStats plus the figures derived from them and the path's
 * state when the run ended. Bytes are conserved: stats.rxBytes = stats.deliveredBytes +
 * stats.dropBytes + bufferedBytes.
 */
struct HostStatsRecord
{
    uint32_t host{0};            //!< host index in the topology
    std::string name;            //!< host name ("host3")
    HostPathStats stats;         //!< the counters
    uint64_t bufferedBytes{0};   //!< bytes still in the NIC buffer at the end
    double simulatedSeconds{0};  //!< simulated time of the run (denominator of dmaBusy)
    double memoryAppDemand{0};   //!< memory application's demand fraction at the end
    double appLoadBps{0};        //!< memory bandwidth it was allowed at the end (bit/s)
    double writeRateBps{0};      //!< DMA write rate of the operating point at the end (bit/s)
    double memoryUtilization{0}; //!< memory-bus utilisation of that operating point
    /// measured by the flow backend (FluidHost): the per-packet columns (packets, drops, NIC
    /// buffer, marks, pauses, IOTLB lookups, queueing delays, DMA busy share) are written empty
    bool flowLevel{false};

    /// \return IOTLB hits / lookups (0 without lookups)
    double IotlbHitRate() const
    {
        const uint64_t n = stats.iotlbHits + stats.iotlbMisses;
        return n == 0 ? 0.0 : double(stats.iotlbHits) / double(n);
    }

    /// \return mean arrival-to-memory time of the delivered packets, ns (0 without any)
    double MeanQueueDelayNs() const
    {
        return stats.deliveredPackets == 0 ? 0.0
                                           : stats.queueDelaySumNs / double(stats.deliveredPackets);
    }

    /// \return share of the run the DMA engine was writing, in [0, 1]
    double DmaBusyFraction() const
    {
        return simulatedSeconds <= 0 ? 0.0 : stats.busyTime.GetSeconds() / simulatedSeconds;
    }
};

} // namespace ns3

#endif /* MLNET_HOST_STATS_RECORD_H */
