/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "stats-writer.h"

#include "csv-columns.h"

#include "ns3/log.h"

#include <cstdio>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>
#include <type_traits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StatsWriter");

namespace
{

/// A CSV field: quoted only if it contains a separator, a quote or a line break.
std::string
CsvField(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
    {
        return s;
    }
    std::string out = "\"";
    for (char c : s)
    {
        out += (c == '"') ? std::string("\"\"") : std::string(1, c);
    }
    return out + "\"";
}

/// A value with a decimal SI prefix and a unit, e.g. "98.4 Gb/s".
std::string
Si(double v, const std::string& unit)
{
    static const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
    int i = 0;
    while (v >= 1000.0 && i < 5)
    {
        v /= 1000.0;
        ++i;
    }
    std::ostringstream os;
    os << std::fixed << std::setprecision(v < 10 ? 2 : (v < 100 ? 1 : 0)) << v << " " << prefixes[i]
       << unit;
    return os.str();
}

/// An integer with thousands separators, e.g. "12,345,678".
std::string
Grouped(uint64_t v)
{
    std::string s = std::to_string(v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
    {
        s.insert(static_cast<size_t>(i), ",");
    }
    return s;
}

/// A duration in s, ms or us with 3 decimals, e.g. "5.000 ms".
std::string
Duration(double seconds)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3);
    if (seconds >= 1.0)
    {
        os << seconds << " s";
    }
    else if (seconds >= 1e-3)
    {
        os << seconds * 1e3 << " ms";
    }
    else
    {
        os << seconds * 1e6 << " us";
    }
    return os.str();
}

std::string
Bytes(uint64_t v)
{
    return Grouped(v) + " B" + (v >= 1000 ? " (" + Si(static_cast<double>(v), "B") + ")" : "");
}

} // namespace

namespace
{

/// A record measured by the flow backend (its per-packet columns are written empty).
template <class R>
bool
FlowLevel(const R& r)
{
    if constexpr (std::is_same_v<R, FlowStatsRecord> || std::is_same_v<R, PortStatsRecord> ||
                  std::is_same_v<R, HostStatsRecord>)
    {
        return r.flowLevel;
    }
    return false;
}

/**
 * Header then one line per record, both from the same column list. Numbers as the stream prints
 * them, reals with 12 significant digits.
 */
template <class R>
void
WriteCsv(std::ostream& os, const std::vector<CsvColumn<R>>& columns, const std::vector<R>& records)
{
    WriteCsvHeader(os, columns);
    const std::streamsize precision = os.precision(12);
    for (const R& r : records)
    {
        WriteCsvRow(os, columns, r, FlowLevel(r));
    }
    os.precision(precision);
}

/// A column of a per-packet counter: empty in a flow-level record.
#define MLNET_PACKET_COLUMN(R, name, expr)                                                         \
    CsvColumn<R>                                                                                   \
    {                                                                                              \
        name, [](std::ostream& os, const R& r) { os << (expr); }, true                             \
    }

} // namespace

void
StatsWriter::WriteFlowsCsv(std::ostream& os, const std::vector<FlowStatsRecord>& flows)
{
    using F = FlowStatsRecord;
    static const std::vector<CsvColumn<F>> columns = {
        MLNET_CSV_COLUMN(F, "id", r.id),
        MLNET_CSV_COLUMN(F, "type", CsvField(r.type)),
        MLNET_CSV_COLUMN(F, "src", r.src),
        MLNET_CSV_COLUMN(F, "dst", r.dst),
        MLNET_CSV_COLUMN(F, "srcPort", r.srcPort),
        MLNET_CSV_COLUMN(F, "priority", unsigned(r.priority)),
        MLNET_CSV_COLUMN(F, "offeredBps", r.offeredBps),
        MLNET_CSV_COLUMN(F, "targetBytes", r.targetBytes),
        MLNET_CSV_COLUMN(F, "startNs", r.startNs),
        MLNET_PACKET_COLUMN(F, "txBytes", r.txBytes),
        MLNET_PACKET_COLUMN(F, "txPackets", r.txPackets),
        MLNET_PACKET_COLUMN(F, "rxBytes", r.rxBytes),
        MLNET_PACKET_COLUMN(F, "rxPackets", r.rxPackets),
        MLNET_PACKET_COLUMN(F, "ceMarked", r.ceMarked),
        MLNET_PACKET_COLUMN(F, "reordered", r.reordered),
        MLNET_PACKET_COLUMN(F, "firstRxNs", r.firstRxNs),
        MLNET_CSV_COLUMN(F, "lastRxNs", r.lastRxNs), // flow level: the fluid delivery
        MLNET_CSV_COLUMN(F, "completed", r.Completed() ? 1 : 0),
        MLNET_CSV_COLUMN(F, "fctNs", r.FctNs()),
        MLNET_CSV_COLUMN(F, "goodputBps", r.GoodputBps()),
        MLNET_CSV_COLUMN(F, "deliveredBytes", r.deliveredBytes),
        MLNET_PACKET_COLUMN(F, "retransmitted", r.retransmitted),
        MLNET_CSV_COLUMN(F, "completedNs", r.completedNs),
    };
    WriteCsv(os, columns, flows);
}

void
StatsWriter::WriteIterationsCsv(std::ostream& os, const std::vector<IterationRecord>& iterations)
{
    using I = IterationRecord;
    static const std::vector<CsvColumn<I>> columns = {
        MLNET_CSV_COLUMN(I, "job", CsvField(r.job)),
        MLNET_CSV_COLUMN(I, "jobId", r.jobId),
        MLNET_CSV_COLUMN(I, "iteration", r.iteration),
        MLNET_CSV_COLUMN(I, "startNs", r.start.GetNanoSeconds()),
        MLNET_CSV_COLUMN(I, "endNs", r.end.GetNanoSeconds()),
        MLNET_CSV_COLUMN(I, "durationNs", r.Duration().GetNanoSeconds()),
        MLNET_CSV_COLUMN(I, "computeNs", r.compute.GetNanoSeconds()),
        MLNET_CSV_COLUMN(I, "exposedCommNs", r.exposedComm.GetNanoSeconds()),
        MLNET_CSV_COLUMN(I, "gpuIdleNs", r.gpuIdle.GetNanoSeconds()),
        MLNET_CSV_COLUMN(I, "periodWaitNs", r.periodWait.GetNanoSeconds()),
        MLNET_CSV_COLUMN(I, "busyNs", r.BusyTime().GetNanoSeconds()),
    };
    WriteCsv(os, columns, iterations);
}

void
StatsWriter::WritePortsCsv(std::ostream& os, const std::vector<PortStatsRecord>& ports)
{
    using P = PortStatsRecord;
    static const std::vector<CsvColumn<P>> columns = {
        MLNET_CSV_COLUMN(P, "node", CsvField(r.node)),
        MLNET_CSV_COLUMN(P, "port", r.port),
        MLNET_CSV_COLUMN(P, "peer", CsvField(r.peer)),
        MLNET_CSV_COLUMN(P, "rateBps", r.rateBps),
        MLNET_PACKET_COLUMN(P, "txPackets", r.txPackets),
        MLNET_CSV_COLUMN(P, "txBytes", r.txBytes),
        MLNET_PACKET_COLUMN(P, "drops", r.drops),
        MLNET_PACKET_COLUMN(P, "dropBytes", r.dropBytes),
        MLNET_PACKET_COLUMN(P, "ecnMarks", r.ecnMarks),
        MLNET_PACKET_COLUMN(P, "pfcPauses", r.pfcPauses),
        MLNET_PACKET_COLUMN(P, "pfcResumes", r.pfcResumes),
        MLNET_PACKET_COLUMN(P, "maxQueueBytes", r.maxQueueBytes),
    };
    WriteCsv(os, columns, ports);
}

void
StatsWriter::WriteHostsCsv(std::ostream& os, const std::vector<HostStatsRecord>& hosts)
{
    using H = HostStatsRecord;
    static const std::vector<CsvColumn<H>> columns = {
        MLNET_CSV_COLUMN(H, "host", r.host),
        MLNET_CSV_COLUMN(H, "name", CsvField(r.name)),
        MLNET_PACKET_COLUMN(H, "rxPackets", r.stats.rxPackets),
        MLNET_PACKET_COLUMN(H, "rxBytes", r.stats.rxBytes),
        MLNET_PACKET_COLUMN(H, "deliveredPackets", r.stats.deliveredPackets),
        MLNET_PACKET_COLUMN(H, "deliveredBytes", r.stats.deliveredBytes),
        MLNET_PACKET_COLUMN(H, "dropPackets", r.stats.dropPackets),
        MLNET_PACKET_COLUMN(H, "dropBytes", r.stats.dropBytes),
        MLNET_PACKET_COLUMN(H, "bufferedBytes", r.bufferedBytes),
        MLNET_CSV_COLUMN(H, "dmaPayloadBytes", r.stats.dmaPayloadBytes),
        MLNET_CSV_COLUMN(H, "txPayloadBytes", r.stats.txPayloadBytes),
        MLNET_PACKET_COLUMN(H, "ceMarked", r.stats.ceMarked),
        MLNET_PACKET_COLUMN(H, "pausesSent", r.stats.pausesSent),
        MLNET_PACKET_COLUMN(H, "resumesSent", r.stats.resumesSent),
        MLNET_PACKET_COLUMN(H, "iotlbHits", r.stats.iotlbHits),
        MLNET_PACKET_COLUMN(H, "iotlbMisses", r.stats.iotlbMisses),
        MLNET_PACKET_COLUMN(H, "iotlbHitRate", r.IotlbHitRate()),
        MLNET_PACKET_COLUMN(H, "maxBufferBytes", r.stats.maxBufferBytes),
        MLNET_PACKET_COLUMN(H, "meanQueueDelayNs", r.MeanQueueDelayNs()),
        MLNET_PACKET_COLUMN(H, "maxQueueDelayNs", r.stats.maxQueueDelay.GetNanoSeconds()),
        MLNET_PACKET_COLUMN(H, "dmaBusyFraction", r.DmaBusyFraction()),
        MLNET_CSV_COLUMN(H, "memoryAppDemand", r.memoryAppDemand),
        MLNET_CSV_COLUMN(H, "appLoadBps", r.appLoadBps),
        MLNET_CSV_COLUMN(H, "writeRateBps", r.writeRateBps),
        MLNET_CSV_COLUMN(H, "memoryUtilization", r.memoryUtilization),
        MLNET_CSV_COLUMN(H, "throttleLevel", r.stats.throttleLevel),
        MLNET_CSV_COLUMN(H, "maxThrottleLevel", r.stats.maxThrottleLevel),
    };
    WriteCsv(os, columns, hosts);
}

#undef MLNET_PACKET_COLUMN

void
StatsWriter::WriteSummaryJson(std::ostream& os,
                              const RunSummary& s,
                              const std::string& scenarioJson)
{
    nlohmann::ordered_json j;
    j["scenario"] = s.scenario;
    j["topology"] = s.topology;
    j["hosts"] = s.hosts;
    j["switches"] = s.switches;
    j["links"] = s.links;
    j["seed"] = s.seed;
    j["backend"] = s.backend;
    j["simulatedSeconds"] = s.simulatedSeconds;
    j["trafficSeconds"] = s.trafficSeconds;
    j["wallSeconds"] = s.wallSeconds;
    j["events"] = s.events;
    j["eventsPerWallSecond"] = s.EventsPerWallSecond();
    // Counters of packets (and the sums of flows.csv's per-packet columns) are null in a
    // flow-level run: there are no packets to count (doc/flow-backend.rst).
    const bool flowLevel = s.backend == "flow";
    auto perPacket = [&j, flowLevel](const char* key, auto value) {
        j[key] = flowLevel ? nlohmann::ordered_json() : nlohmann::ordered_json(value);
    };
    perPacket("packetsForwarded", s.packetsForwarded);
    perPacket("packetHops", s.packetHops);
    perPacket("packetHopsPerWallSecond", s.PacketHopsPerWallSecond());
    j["flows"] = s.flows;
    j["flowsCompleted"] = s.flowsCompleted;
    perPacket("bytesSent", s.bytesSent);
    perPacket("bytesReceived", s.bytesReceived);
    j["bytesDelivered"] = s.bytesDelivered;
    perPacket("bytesDropped", s.bytesDropped);
    perPacket("bytesInFlight", s.BytesInFlight());
    perPacket("packetsSent", s.packetsSent);
    perPacket("packetsReceived", s.packetsReceived);
    perPacket("packetsDropped", s.packetsDropped);
    perPacket("retransmitted", s.retransmitted);
    perPacket("pfcPauses", s.pfcPauses);
    perPacket("pfcResumes", s.pfcResumes);
    perPacket("ecnMarks", s.ecnMarks);
    perPacket("ceReceived", s.ceReceived);
    perPacket("reordered", s.reordered);
    perPacket("maxQueueBytes", s.maxQueueBytes);
    j["goodputMinBps"] = s.goodputMinBps;
    j["goodputMeanBps"] = s.goodputMeanBps;
    j["goodputMaxBps"] = s.goodputMaxBps;
    j["drained"] = s.drained;
    j["warnings"] = s.warnings;
    nlohmann::ordered_json cc = nlohmann::ordered_json::array();
    for (const CongestionControlRecord& r : s.congestionControl)
    {
        nlohmann::ordered_json e;
        e["entry"] = r.entry;
        e["type"] = r.type;
        e["typeId"] = r.typeId;
        e["aggressiveness"] = r.aggressiveness;
        nlohmann::ordered_json attributes = nlohmann::ordered_json::object();
        for (const auto& [name, value] : r.attributes)
        {
            attributes[name] = value;
        }
        e["attributes"] = attributes;
        cc.push_back(e);
    }
    j["congestionControl"] = cc;
    nlohmann::ordered_json classes;
    classes["inUse"] = s.dataClasses;
    classes["entries"] = nlohmann::ordered_json::array();
    for (const TrafficClassRecord& r : s.trafficClasses)
    {
        classes["entries"].push_back({{"entry", r.entry},
                                      {"type", r.type},
                                      {"class", r.cls},
                                      {"chosen", r.chosen},
                                      {"split", r.split}});
    }
    j["classes"] = classes;
    if (!scenarioJson.empty())
    {
        j["config"] = nlohmann::ordered_json::parse(scenarioJson);
    }
    os << j.dump(2) << '\n';
}

void
StatsWriter::WriteSummaryTable(std::ostream& os, const RunSummary& s)
{
    std::vector<std::pair<std::string, std::string>> rows = {
        {"scenario", s.scenario},
        {"topology", s.topology},
        {"seed (RngRun)", std::to_string(s.seed)},
        {"simulated time",
         Duration(s.simulatedSeconds) + " (traffic " + Duration(s.trafficSeconds) + ")"},
        {"wall time", Duration(s.wallSeconds)},
        {"events", Grouped(s.events) + " (" + Si(s.EventsPerWallSecond(), "") + "/s)"},
        {"packets forwarded", Grouped(s.packetsForwarded)},
        {"packet-hops", Grouped(s.packetHops)},
        {"packet-hops / wall s", Si(s.PacketHopsPerWallSecond(), "")},
        {"flows (completed)",
         std::to_string(s.flows) + " (" + std::to_string(s.flowsCompleted) + ")"},
        {"bytes sent", Bytes(s.bytesSent)},
        {"bytes received", Bytes(s.bytesReceived)},
        {"bytes delivered", Bytes(s.bytesDelivered)},
        {"bytes dropped", Bytes(s.bytesDropped) + ", " + Grouped(s.packetsDropped) + " packets"},
        {"bytes in flight", std::to_string(s.BytesInFlight()) + " B"},
        {"PFC pauses (resumes)", Grouped(s.pfcPauses) + " (" + Grouped(s.pfcResumes) + ")"},
        {"ECN marks (CE rcvd)", Grouped(s.ecnMarks) + " (" + Grouped(s.ceReceived) + ")"},
        {"max switch queue", Bytes(s.maxQueueBytes)},
        {"reordered packets", Grouped(s.reordered)},
        {"retransmitted packets", Grouped(s.retransmitted)},
        {"goodput per flow min", Si(s.goodputMinBps, "b/s")},
        {"goodput per flow mean", Si(s.goodputMeanBps, "b/s")},
        {"goodput per flow max", Si(s.goodputMaxBps, "b/s")},
    };
    std::string classes;
    for (uint32_t c : s.dataClasses)
    {
        classes += (classes.empty() ? "" : ", ") + std::to_string(c);
    }
    rows.emplace_back("data classes", classes.empty() ? "none" : classes);
    for (const std::string& w : s.warnings)
    {
        rows.emplace_back("WARNING", w);
    }
    size_t width = 0;
    for (const auto& r : rows)
    {
        width = std::max(width, r.first.size());
    }
    const std::string rule(width + 2 + 40, '-');
    os << rule << '\n';
    for (const auto& r : rows)
    {
        os << std::left << std::setw(static_cast<int>(width)) << r.first << "  " << r.second
           << '\n';
    }
    os << rule << '\n';
}

} // namespace ns3
