/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_STATS_WRITER_H
#define MLNET_STATS_WRITER_H

#include "flow-stats-record.h"
#include "host-stats-record.h"
#include "job-records.h"
#include "port-stats-record.h"
#include "run-summary.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Writes run records as CSV, JSON or a human-readable table to a std::ostream.
 *
 * Writers never open files: the caller (the scenario runner, a script) chooses the stream.
 * CSV files have one header line; column names are the record field names, times in ns,
 * rates in bit/s. The JSON summary holds every RunSummary field plus derived figures
 * (packetHops, packetHopsPerWallSecond, eventsPerWallSecond, bytesInFlight).
 *
 * \code
 * std::ofstream f(dir + "/flows.csv");
 * StatsWriter::WriteFlowsCsv(f, flows);
 * StatsWriter::WriteSummaryTable(std::cout, summary);
 * \endcode
 */
class StatsWriter
{
  public:
    /**
     * One row per flow (flows.csv).
     * \param os output stream \param flows the records
     */
    static void WriteFlowsCsv(std::ostream& os, const std::vector<FlowStatsRecord>& flows);
    /**
     * One row per switch port (ports.csv).
     * \param os output stream \param ports the records
     */
    static void WritePortsCsv(std::ostream& os, const std::vector<PortStatsRecord>& ports);
    /**
     * One row per training-job iteration (iterations.csv).
     * \param os output stream \param iterations the records
     */
    static void WriteIterationsCsv(std::ostream& os,
                                   const std::vector<IterationRecord>& iterations);
    /**
     * One row per host with a host interconnect (hosts.csv).
     * \param os output stream \param hosts the records
     */
    static void WriteHostsCsv(std::ostream& os, const std::vector<HostStatsRecord>& hosts);
    /**
     * The summary as a JSON object (summary.json).
     * \param os output stream \param s the summary
     * \param scenarioJson the scenario as JSON text, stored under "scenario" (empty: omitted)
     */
    static void WriteSummaryJson(std::ostream& os,
                                 const RunSummary& s,
                                 const std::string& scenarioJson = "");
    /**
     * The summary as an aligned two-column table for a terminal.
     * \param os output stream \param s the summary
     */
    static void WriteSummaryTable(std::ostream& os, const RunSummary& s);
};

} // namespace ns3

#endif /* MLNET_STATS_WRITER_H */
