/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "stats-writer.h"

#include "ns3/log.h"

#include <cstdio>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

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

void
StatsWriter::WriteFlowsCsv(std::ostream& os, const std::vector<FlowStatsRecord>& flows)
{
    os << "id,type,src,dst,srcPort,priority,offeredBps,targetBytes,startNs,txBytes,txPackets,"
          "rxBytes,rxPackets,ceMarked,reordered,firstRxNs,lastRxNs,completed,fctNs,goodputBps,"
          "deliveredBytes,retransmitted,completedNs\n";
    for (const FlowStatsRecord& f : flows)
    {
        if (f.flowLevel)
        {
            // The flow backend: per-packet columns are empty (doc/flow-backend.rst).
            os << f.id << ',' << CsvField(f.type) << ',' << f.src << ',' << f.dst << ','
               << f.srcPort << ',' << unsigned(f.priority) << ',' << std::setprecision(12)
               << f.offeredBps << ',' << f.targetBytes << ',' << f.startNs << ",,,,,,,,,"
               << (f.Completed() ? 1 : 0) << ',' << f.FctNs() << ',' << f.GoodputBps() << ','
               << f.deliveredBytes << ",," << f.completedNs << '\n';
            continue;
        }
        os << f.id << ',' << CsvField(f.type) << ',' << f.src << ',' << f.dst << ',' << f.srcPort
           << ',' << unsigned(f.priority) << ',' << std::setprecision(12) << f.offeredBps << ','
           << f.targetBytes << ',' << f.startNs << ',' << f.txBytes << ',' << f.txPackets << ','
           << f.rxBytes << ',' << f.rxPackets << ',' << f.ceMarked << ',' << f.reordered << ','
           << f.firstRxNs << ',' << f.lastRxNs << ',' << (f.Completed() ? 1 : 0) << ',' << f.FctNs()
           << ',' << f.GoodputBps() << ',' << f.deliveredBytes << ',' << f.retransmitted << ','
           << f.completedNs << '\n';
    }
}

void
StatsWriter::WriteIterationsCsv(std::ostream& os, const std::vector<IterationRecord>& iterations)
{
    os << "job,jobId,iteration,startNs,endNs,durationNs,computeNs,exposedCommNs,gpuIdleNs,"
          "periodWaitNs,busyNs\n";
    for (const IterationRecord& r : iterations)
    {
        os << CsvField(r.job) << ',' << r.jobId << ',' << r.iteration << ','
           << r.start.GetNanoSeconds() << ',' << r.end.GetNanoSeconds() << ','
           << r.Duration().GetNanoSeconds() << ',' << r.compute.GetNanoSeconds() << ','
           << r.exposedComm.GetNanoSeconds() << ',' << r.gpuIdle.GetNanoSeconds() << ','
           << r.periodWait.GetNanoSeconds() << ',' << r.BusyTime().GetNanoSeconds() << '\n';
    }
}

void
StatsWriter::WritePortsCsv(std::ostream& os, const std::vector<PortStatsRecord>& ports)
{
    os << "node,port,peer,rateBps,txPackets,txBytes,drops,dropBytes,ecnMarks,pfcPauses,"
          "pfcResumes,maxQueueBytes\n";
    for (const PortStatsRecord& p : ports)
    {
        if (p.flowLevel)
        {
            // The flow backend: only the bytes carried have a meaning (doc/flow-backend.rst).
            os << CsvField(p.node) << ',' << p.port << ',' << CsvField(p.peer) << ','
               << std::setprecision(12) << p.rateBps << ",," << p.txBytes << ",,,,,,\n";
            continue;
        }
        os << CsvField(p.node) << ',' << p.port << ',' << CsvField(p.peer) << ','
           << std::setprecision(12) << p.rateBps << ',' << p.txPackets << ',' << p.txBytes << ','
           << p.drops << ',' << p.dropBytes << ',' << p.ecnMarks << ',' << p.pfcPauses << ','
           << p.pfcResumes << ',' << p.maxQueueBytes << '\n';
    }
}

void
StatsWriter::WriteHostsCsv(std::ostream& os, const std::vector<HostStatsRecord>& hosts)
{
    os << "host,name,rxPackets,rxBytes,deliveredPackets,deliveredBytes,dropPackets,dropBytes,"
          "bufferedBytes,dmaPayloadBytes,txPayloadBytes,ceMarked,pausesSent,resumesSent,"
          "iotlbHits,iotlbMisses,iotlbHitRate,maxBufferBytes,meanQueueDelayNs,maxQueueDelayNs,"
          "dmaBusyFraction,memoryAppDemand,appLoadBps,writeRateBps,memoryUtilization,"
          "throttleLevel,maxThrottleLevel\n";
    for (const HostStatsRecord& h : hosts)
    {
        const HostPathStats& s = h.stats;
        os << h.host << ',' << CsvField(h.name) << ',' << s.rxPackets << ',' << s.rxBytes << ','
           << s.deliveredPackets << ',' << s.deliveredBytes << ',' << s.dropPackets << ','
           << s.dropBytes << ',' << h.bufferedBytes << ',' << s.dmaPayloadBytes << ','
           << s.txPayloadBytes << ',' << s.ceMarked << ',' << s.pausesSent << ',' << s.resumesSent
           << ',' << s.iotlbHits << ',' << s.iotlbMisses << ',' << std::setprecision(12)
           << h.IotlbHitRate() << ',' << h.MeanQueueDelayNs() << ','
           << s.maxQueueDelay.GetNanoSeconds() << ',' << h.DmaBusyFraction() << ','
           << h.memoryAppDemand << ',' << h.appLoadBps << ',' << h.writeRateBps << ','
           << h.memoryUtilization << ',' << s.throttleLevel << ',' << s.maxThrottleLevel << '\n';
    }
}

void
StatsWriter::WriteSummaryJson(std::ostream& os, const RunSummary& s,
                              const std::string& scenarioJson)
{
    nlohmann::ordered_json j;
    j["scenario"] = s.scenario;
    j["topology"] = s.topology;
    j["hosts"] = s.hosts;
    j["switches"] = s.switches;
    j["links"] = s.links;
    j["seed"] = s.seed;
    if (s.backend != "packet")
    {
        // Only a flow-level run says so: a packet-level summary.json stays as it was (no key:
        // packet), byte for byte (test/golden).
        j["backend"] = s.backend;
    }
    j["simulatedSeconds"] = s.simulatedSeconds;
    j["trafficSeconds"] = s.trafficSeconds;
    j["wallSeconds"] = s.wallSeconds;
    j["events"] = s.events;
    j["eventsPerWallSecond"] = s.EventsPerWallSecond();
    j["packetsForwarded"] = s.packetsForwarded;
    j["packetHops"] = s.packetHops;
    j["packetHopsPerWallSecond"] = s.PacketHopsPerWallSecond();
    j["flows"] = s.flows;
    j["flowsCompleted"] = s.flowsCompleted;
    j["bytesSent"] = s.bytesSent;
    j["bytesReceived"] = s.bytesReceived;
    j["bytesDelivered"] = s.bytesDelivered;
    j["bytesDropped"] = s.bytesDropped;
    j["bytesInFlight"] = s.BytesInFlight();
    j["packetsSent"] = s.packetsSent;
    j["packetsReceived"] = s.packetsReceived;
    j["packetsDropped"] = s.packetsDropped;
    j["retransmitted"] = s.retransmitted;
    j["pfcPauses"] = s.pfcPauses;
    j["pfcResumes"] = s.pfcResumes;
    j["ecnMarks"] = s.ecnMarks;
    j["ceReceived"] = s.ceReceived;
    j["reordered"] = s.reordered;
    j["maxQueueBytes"] = s.maxQueueBytes;
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
