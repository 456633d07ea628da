/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_PORT_STATS_RECORD_H
#define MLNET_PORT_STATS_RECORD_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Counters of one switch port at the end of a run: one row of ports.csv.
 *
 * Copied from FabricSwitch::GetPortStats plus the names of the two ends of the link. Drops are
 * counted at the ingress port (where the MMU refused the packet), marks and pauses at the port
 * that sent them.
 */
struct PortStatsRecord
{
    std::string node;          //!< switch name ("edge0", "agg3", "core1", ...)
    uint32_t port{0};          //!< port index on the switch
    std::string peer;          //!< name of the node at the other end ("host5", "agg0", ...)
    double rateBps{0};         //!< line rate (bit/s)
    uint64_t txPackets{0};     //!< packets forwarded out of the port
    uint64_t txBytes{0};       //!< bytes forwarded out of the port
    uint64_t drops{0};         //!< packets dropped on admission from this port
    uint64_t dropBytes{0};     //!< bytes dropped on admission from this port
    uint64_t ecnMarks{0};      //!< packets CE-marked at this egress port
    uint64_t pfcPauses{0};     //!< PFC pause frames sent out of this port
    uint64_t pfcResumes{0};    //!< PFC resume frames sent out of this port
    uint64_t maxQueueBytes{0}; //!< largest egress queue seen (all classes)
    /// measured by the flow backend: packets, drops, ECN, PFC and queues have no meaning and
    /// are written empty; txBytes is the fluid link's bytes (IPv4 bytes of full packets)
    bool flowLevel{false};
};

} // namespace ns3

#endif /* MLNET_PORT_STATS_RECORD_H */
