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
 * (headers included, Ethernet framing excluded) except deliveredBytes, times are in nanoseconds
 * of simulated time. Every field comes from a counter of the sender, the network or the
 * receiver (doc/scenario.rst lists what each means for each traffic type).
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
    uint64_t txBytes{0};     //!< IPv4 bytes of the data packets the source put on the wire
    uint64_t txPackets{0};   //!< data packets the source put on the wire (resends included)
    uint64_t rxBytes{0};     //!< IPv4 bytes of the data packets that arrived at the destination
    uint64_t rxPackets{0};   //!< data packets that arrived at the destination (all of them)
    uint64_t ceMarked{0};    //!< arrived packets carrying ECN CE
    uint64_t reordered{0};   //!< arrived packets whose sequence number was below the highest seen
    int64_t firstRxNs{-1};   //!< first arrival (-1 = nothing received)
    int64_t lastRxNs{-1};    //!< last arrival (-1 = nothing received)
    /// bytes delivered to the receiving application in order (constant-rate flows: the IPv4
    /// bytes received; RDMA: message payload accepted in order)
    uint64_t deliveredBytes{0};
    uint64_t retransmitted{0}; //!< data packets sent again (RDMA go-back-N; 0 for UDP flows)
    int64_t completedNs{-1};   //!< time the flow completed (-1 = not completed)
    /// measured by the flow backend: the per-packet columns (tx/rx packets and bytes, CE marks,
    /// reordering, first/last arrival, retransmissions) have no meaning and are written empty
    bool flowLevel{false};

    /// \return true if the flow completed (completedNs set)
    bool Completed() const;
    /// \return flow completion time in ns (completion - start), or -1 if not completed
    int64_t FctNs() const;
    /**
     * Goodput: delivered bytes x 8 / (last arrival - start). It includes the path latency in
     * the denominator, so a flow limited only by its own rate scores slightly under that rate.
     * \return bit/s (0 if nothing arrived)
     */
    double GoodputBps() const;
};

} // namespace ns3

#endif /* MLNET_FLOW_STATS_RECORD_H */
