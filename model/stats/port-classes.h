/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_PORT_CLASSES_H
#define MLNET_PORT_CLASSES_H

#include "port-class-record.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Which priority class carried what: port-classes.csv and the class check of a run.
 *
 * All data traffic shares one class unless a scenario asks otherwise (DataClass): under
 * strict-priority egress a stray class decides a comparison by itself. These functions show
 * which classes carried data out of the switch ports and flag a split nobody asked for.
 */
class PortClasses
{
  public:
    /**
     * One row per (switch port, class) that sent a packet or a PFC pause (port-classes.csv):
     * node,port,class,txPackets,txBytes,pfcPauses,maxQueueBytes (flow level: one row per
     * (port, class) that carried bytes, txPackets, pfcPauses and maxQueueBytes empty).
     * \param os output stream \param records the records
     */
    static void WriteCsv(std::ostream& os, const std::vector<PortClassRecord>& records);
    /**
     * \param records the port-class records
     * \return the data classes (0..6; 7 carries ACK/CNP) that carried packets (at flow
     *         level: bytes), ascending
     */
    static std::vector<uint32_t> DataClassesInUse(const std::vector<PortClassRecord>& records);
    /**
     * The warning of a run whose data left the switches in several classes although no traffic
     * entry chose its class or split on purpose ("" if there is nothing to warn about).
     * \param inUse DataClassesInUse() \param entries the classes the traffic entries reported
     * \return the warning text, or ""
     */
    static std::string SplitWarning(const std::vector<uint32_t>& inUse,
                                    const std::vector<TrafficClassRecord>& entries);
};

} // namespace ns3

#endif /* MLNET_PORT_CLASSES_H */
