/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLOW_STATS_RECORD_H
#define MLNET_FLOW_STATS_RECORD_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief What one flow did during a run: one row of flows.csv.
 *
 * Plain data filled by whoever installed the flow (the scenario runner asks each traffic type
 * for it at the end of the run); the stats writers only read it. Byte counts are IPv4 bytes
 * (headers included, Ethernet framing excluded), times are in nanoseconds of simulated time.
 */
struct FlowStatsRecord
{
    uint32_t id{0};          //!< flow index in the run (0, 1, ...)
    std::string type;        //!< traffic type that created the flow ("constant", ...)
    uint32_t src{0};         //!< source host index
    uint32_t dst{0};         //!< destination host index
    uint16_t srcPort{0};     //!< UDP source port (identifies the flow with src and dst)
    uint8_t priority{0};     //!< priority class 0..7
    double offeredBps{0};    //!< configured sending rate (bit/s)
    uint64_t targetBytes{0}; //!< bytes the flow sends in all (0 = until the traffic period ends)
    int64_t startNs{0};      //!< time the flow started sending
    uint64_t txBytes{0};     //!< bytes handed to the source NIC
    uint64_t txPackets{0};   //!< packets handed to the source NIC
    uint64_t rxBytes{0};     //!< bytes received by the destination
    uint64_t rxPackets{0};   //!< packets received by the destination
    uint64_t ceMarked{0};    //!< received packets carrying ECN CE
    uint64_t reordered{0};   //!< received packets that arrived out of order
    int64_t firstRxNs{-1};   //!< first arrival (-1 = nothing received)
    int64_t lastRxNs{-1};    //!< last arrival (-1 = nothing received)

    /// \return true if a byte target was set and every target byte arrived
    bool Completed() const;
    /// \return flow completion time in ns (last arrival - start), or -1 if not completed
    int64_t FctNs() const;
    /**
     * Goodput: received bytes x 8 / (last arrival - start). It includes the path latency in the
     * denominator, so a flow limited only by its own rate scores slightly under that rate.
     * \return bit/s (0 if nothing arrived)
     */
    double GoodputBps() const;
};

} // namespace ns3

#endif /* MLNET_FLOW_STATS_RECORD_H */
