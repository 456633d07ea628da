/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_RUN_SUMMARY_H
#define MLNET_RUN_SUMMARY_H

#include "congestion-control-record.h"
#include "flow-stats-record.h"
#include "port-class-record.h"
#include "port-stats-record.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Totals of one run: what summary.json holds and the summary table shows.
 *
 * The traffic and fabric totals come from the flow and port records (Aggregate()), so they are
 * consistent with flows.csv and ports.csv by construction; the run fields (topology, times,
 * events) are filled by whoever ran the simulation.
 */
struct RunSummary
{
    // run
    std::string scenario; //!< scenario name
    std::string topology; //!< human-readable topology ("fat-tree k=4 (16 hosts, 20 switches)")
    uint32_t hosts{0};    //!< number of hosts
    uint32_t switches{0}; //!< number of switches
    uint32_t links{0};    //!< number of links
    uint32_t seed{0};     //!< RngRun
    std::string backend{"packet"}; //!< "packet" or "flow" (the scenario's backend)
    double simulatedSeconds{0};    //!< simulated time at the end of the run (traffic + drain)
    double trafficSeconds{0};      //!< configured traffic period (duration)
    double wallSeconds{0};         //!< wall-clock time of Simulator::Run
    uint64_t events{0};            //!< events executed by the simulator
    /// data frames (IPv4 packets) transmitted on links by every port, hosts' and switches':
    /// the unit of the packet-level speed target (PFC frames excluded)
    uint64_t packetHops{0};
    /// true if the run ended because every flow and job finished and the network was empty;
    /// false if the drain limit (duration + drain) stopped it
    bool drained{true};
    std::vector<std::string> warnings; //!< problems a reader of the results must know about
    /// the congestion control each traffic entry used, with every parameter's effective value
    std::vector<CongestionControlRecord> congestionControl;
    /// the data classes (0..6) that carried packets out of switch ports, ascending (from
    /// port-classes.csv: PortClasses::DataClassesInUse)
    std::vector<uint32_t> dataClasses;
    /// the class each traffic entry sends its data in, and whether the scenario chose it
    std::vector<TrafficClassRecord> trafficClasses;

    // fabric totals (from the port records)
    uint64_t packetsForwarded{0}; //!< packets switches sent out of their ports
    uint64_t bytesDropped{0};     //!< bytes dropped by switches
    uint64_t packetsDropped{0};   //!< packets dropped by switches
    uint64_t pfcPauses{0};        //!< PFC pause frames sent by switches
    uint64_t pfcResumes{0};       //!< PFC resume frames sent by switches
    uint64_t ecnMarks{0};         //!< packets CE-marked by switches
    uint64_t maxQueueBytes{0};    //!< largest egress queue of any switch port

    // traffic totals (from the flow records)
    uint32_t flows{0};           //!< number of flows
    uint32_t flowsCompleted{0};  //!< flows with a byte target that delivered all of it
    uint64_t bytesSent{0};       //!< IPv4 bytes of flows' data packets put on the wire
    uint64_t bytesReceived{0};   //!< IPv4 bytes of flows' data packets arrived at destinations
    uint64_t bytesDelivered{0};  //!< bytes delivered in order to receiving applications
    uint64_t packetsSent{0};     //!< flows' data packets put on the wire (resends included)
    uint64_t packetsReceived{0}; //!< flows' data packets arrived at destinations
    uint64_t retransmitted{0};   //!< flows' data packets sent again
    uint64_t ceReceived{0};      //!< arrived data packets carrying CE
    uint64_t reordered{0};       //!< arrived data packets that were out of order
    double goodputMinBps{0};     //!< smallest per-flow goodput
    double goodputMeanBps{0};    //!< mean per-flow goodput
    double goodputMaxBps{0};     //!< largest per-flow goodput

    /// \return packet-hops per wall-clock second (0 if the wall time is 0)
    double PacketHopsPerWallSecond() const;
    /// \return events per wall-clock second (0 if the wall time is 0)
    double EventsPerWallSecond() const;
    /**
     * Bytes sent but neither received nor dropped: flows' data bytes still in the network at
     * the end. Drops count every dropped packet, so in lossy runs where a transport's control
     * packets (RDMA ACK/NAK/CNP) or jobs' packets are dropped it is that much too low.
     * \return bytesSent - bytesReceived - bytesDropped
     */
    int64_t BytesInFlight() const;

    /**
     * Fill the fabric and traffic totals from the records (the run fields, packetHops, drained
     * and warnings are left alone).
     * \param flows flow records \param ports switch port records
     */
    void Aggregate(const std::vector<FlowStatsRecord>& flows,
                   const std::vector<PortStatsRecord>& ports);
};

} // namespace ns3

#endif /* MLNET_RUN_SUMMARY_H */
