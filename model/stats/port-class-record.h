/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_PORT_CLASS_RECORD_H
#define MLNET_PORT_CLASS_RECORD_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief What one priority class carried out of one switch port: one row of port-classes.csv
 * (only (port, class) pairs that sent a packet or a PFC pause).
 *
 * Node and port are named as in ports.csv; the per-class counts add up to the port's totals
 * there (txPackets, txBytes, pfcPauses).
 */
struct PortClassRecord
{
    std::string node;          //!< switch name ("edge0", "agg3", ...), as in ports.csv
    uint32_t port{0};          //!< port index on the switch, as in ports.csv
    uint32_t cls{0};           //!< priority class 0..7 (column "class"; 7 = ACK/CNP)
    uint64_t txPackets{0};     //!< packets of this class forwarded out of the port
    uint64_t txBytes{0};       //!< bytes of this class forwarded out of the port
    uint64_t pfcPauses{0};     //!< PFC pause frames for this class sent out of the port
    uint64_t maxQueueBytes{0}; //!< largest queue of this class waiting at the port (bytes)
    /// a flow-level run: txBytes from the fluid link's class counter; txPackets, pfcPauses
    /// and maxQueueBytes have no meaning there and are written empty
    bool flowLevel{false};
};

/**
 * \ingroup mlnet
 * \brief The class a traffic entry sends its data in (summary.json "classes").
 */
struct TrafficClassRecord
{
    std::string entry;  //!< "traffic[i]" (or a section's key)
    std::string type;   //!< its type ("rdma", "data-parallel-job", ...)
    uint32_t cls{0};    //!< its class (the most urgent one if it uses several)
    bool chosen{false}; //!< the scenario set the class of this entry ("class"/"priority")
    bool split{false};  //!< the entry spreads its data over several classes on purpose
};

} // namespace ns3

#endif /* MLNET_PORT_CLASS_RECORD_H */
