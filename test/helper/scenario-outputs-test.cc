/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The schema of every file the scenario runner writes (issue 31): each CSV's header has as many
// fields as each of its rows; each column read back by its name equals the record field it
// names; summary.json's keys equal the RunSummary fields they name; and every column and key is
// documented in doc/scenario.rst, "Outputs".

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

using namespace ns3;

namespace
{

/// A field's expected value: a number (compared to 12 significant digits) or a string.
typedef std::variant<double, std::string> Value;

/// The fields of one CSV line (RFC 4180 quoting).
std::vector<std::string>
SplitCsv(const std::string& line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i)
    {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
        {
            fields.back() += '"';
            ++i;
        }
        else if (c == '"')
        {
            quoted = !quoted;
        }
        else if (c == ',' && !quoted)
        {
            fields.emplace_back();
        }
        else
        {
            fields.back() += c;
        }
    }
    return fields;
}

/// A CSV file: header and rows.
struct Csv
{
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};

Csv
ReadCsv(const std::string& path)
{
    std::ifstream in(path);
    REQUIRE(in);
    Csv csv;
    std::string line;
    REQUIRE(std::getline(in, line));
    csv.header = SplitCsv(line);
    while (std::getline(in, line))
    {
        csv.rows.push_back(SplitCsv(line));
    }
    return csv;
}

/// Expected value of each column (by name) for row i of a file.
typedef std::map<std::string, std::function<Value(size_t)>> Expected;

/// Header and rows agree in count; the columns are exactly the expected ones; every field
/// read back by its column name equals the expected value.
void
CheckCsv(const std::string& file, const Csv& csv, size_t records, const Expected& expected)
{
    INFO(file);
    REQUIRE(csv.rows.size() == records);
    std::set<std::string> names(csv.header.begin(), csv.header.end());
    REQUIRE(names.size() == csv.header.size()); // no column twice
    std::set<std::string> want;
    for (const auto& kv : expected)
    {
        want.insert(kv.first);
    }
    REQUIRE(names == want);
    for (size_t i = 0; i < csv.rows.size(); ++i)
    {
        INFO("row " << i);
        REQUIRE(csv.rows[i].size() == csv.header.size());
        for (size_t c = 0; c < csv.header.size(); ++c)
        {
            INFO("column " << csv.header[c] << " = " << csv.rows[i][c]);
            const Value v = expected.at(csv.header[c])(i);
            if (const double* x = std::get_if<double>(&v))
            {
                const double got = std::stod(csv.rows[i][c]);
                REQUIRE(std::abs(got - *x) <= 1e-11 * std::max(1.0, std::abs(*x)));
            }
            else
            {
                REQUIRE(csv.rows[i][c] == std::get<std::string>(v));
            }
        }
    }
}

/// The names in double back-quotes of each output file's entry in doc/scenario.rst's
/// "Outputs" section ("``a, b``" gives a and b, also across a line break), by file name.
std::map<std::string, std::set<std::string>>
DocumentedOutputs()
{
    const std::string path = std::string(MLNET_SOURCE_ROOT) + "/doc/scenario.rst";
    std::ifstream in(path);
    REQUIRE(in);
    std::map<std::string, std::string> text; // file -> its entry's text, lines joined
    std::string line;
    bool outputs = false;
    std::string file;
    std::string previous;
    const std::regex entry("^``([A-Za-z0-9_.-]+\\.(csv|json))``\\s*$");
    while (std::getline(in, line))
    {
        if (line.rfind("===", 0) == 0 && !previous.empty() && previous[0] != ' ')
        {
            outputs = previous == "Outputs"; // a section title underlined with '='
            file.clear();
        }
        previous = line;
        std::smatch m;
        if (!outputs)
        {
            continue;
        }
        if (std::regex_match(line, m, entry))
        {
            file = m[1];
        }
        else if (!file.empty())
        {
            text[file] += " " + line;
        }
    }
    std::map<std::string, std::set<std::string>> doc;
    const std::regex quoted("``([^`]+)``");
    for (const auto& [f, t] : text)
    {
        for (auto it = std::sregex_iterator(t.begin(), t.end(), quoted);
             it != std::sregex_iterator();
             ++it)
        {
            std::stringstream names((*it)[1].str());
            for (std::string n; std::getline(names, n, ',');)
            {
                n.erase(0, n.find_first_not_of(' '));
                n.erase(n.find_last_not_of(' ') + 1);
                doc[f].insert(n);
            }
        }
    }
    return doc;
}

/// Every name is documented for the file.
void
CheckDocumented(const std::map<std::string, std::set<std::string>>& doc,
                const std::string& file,
                const std::vector<std::string>& names)
{
    INFO("doc/scenario.rst, Outputs, " << file);
    REQUIRE(doc.count(file) == 1);
    for (const std::string& n : names)
    {
        INFO("column or key " << n);
        REQUIRE(doc.at(file).count(n) == 1);
    }
}

Value
Num(double v)
{
    return v;
}

Value
Ns(Time t)
{
    return Num(t.GetNanoSeconds());
}

// The expected value of a column, from row i's record: a number, a string, a time in ns.
#define NUM(expr) [&](size_t i) { return Num(expr); }
#define STR(expr) [&](size_t i) { return Value(expr); }
#define NS(expr) [&](size_t i) { return Ns(expr); }

} // namespace

TEST_CASE("helper: every output file's header, rows, values and documentation agree", "[helper]")
{
    // Every writer has rows: a UDP flow, an RDMA flow and a periodic job (flows.csv,
    // iterations.csv), switch ports (ports.csv), a host section with a memory application and
    // the IOMMU on (hosts.csv: non-zero IOTLB, buffer and memory-bus figures).
    const std::string text = R"({
      "name": "schema, \"quoted\"",
      "topology": {"type": "dumbbell", "left": 2, "right": 2},
      "traffic": [
        {"type": "constant", "src": 0, "dst": 2, "rate": "20Gbps", "bytes": "100KB"},
        {"type": "rdma", "src": 1, "dst": 3, "bytes": "300KB"},
        {"type": "periodic-job", "src": 0, "dst": 3, "compute": "20us", "bytes": "50KB",
         "iterations": 2}],
      "host": {"hosts": [2, 3], "memoryAppDemand": 0.5, "iommu": true, "rxBuffer": "256KiB"},
      "duration": "200us", "drain": "20ms"})";
    const ScenarioConfig cfg = Scenario::ParseString(text, "schema.json");
    ScenarioRunner runner(cfg);
    const ScenarioResult r = runner.Run();
    REQUIRE(r.flows.size() == 3);
    REQUIRE(r.iterations.size() == 2);
    REQUIRE(r.hosts.size() == 2);
    REQUIRE(r.hosts[1].stats.maxBufferBytes > 0); // host 3 receives the RDMA traffic
    REQUIRE(r.hosts[1].stats.iotlbMisses > 0);

    const std::string dir = (std::filesystem::temp_directory_path() / "mlnet-schema-test").string();
    std::filesystem::remove_all(dir);
    ScenarioRunner::WriteResults(r, cfg, dir);
    const auto doc = DocumentedOutputs();

    const Csv flows = ReadCsv(dir + "/flows.csv");
    const auto& f = r.flows;
    CheckCsv("flows.csv",
             flows,
             f.size(),
             {
                 {"id", NUM(f[i].id)},
                 {"type", STR(f[i].type)},
                 {"src", NUM(f[i].src)},
                 {"dst", NUM(f[i].dst)},
                 {"srcPort", NUM(f[i].srcPort)},
                 {"priority", NUM(f[i].priority)},
                 {"offeredBps", NUM(f[i].offeredBps)},
                 {"targetBytes", NUM(f[i].targetBytes)},
                 {"startNs", NUM(f[i].startNs)},
                 {"txBytes", NUM(f[i].txBytes)},
                 {"txPackets", NUM(f[i].txPackets)},
                 {"rxBytes", NUM(f[i].rxBytes)},
                 {"rxPackets", NUM(f[i].rxPackets)},
                 {"ceMarked", NUM(f[i].ceMarked)},
                 {"reordered", NUM(f[i].reordered)},
                 {"firstRxNs", NUM(f[i].firstRxNs)},
                 {"lastRxNs", NUM(f[i].lastRxNs)},
                 {"completed", NUM(f[i].completedNs >= 0 ? 1 : 0)},
                 {"fctNs", NUM(f[i].completedNs >= 0 ? f[i].completedNs - f[i].startNs : -1)},
                 {"goodputBps",
                  NUM(f[i].lastRxNs < 0
                          ? 0.0
                          : f[i].deliveredBytes * 8e9 / double(f[i].lastRxNs - f[i].startNs))},
                 {"deliveredBytes", NUM(f[i].deliveredBytes)},
                 {"retransmitted", NUM(f[i].retransmitted)},
                 {"completedNs", NUM(f[i].completedNs)},
             });
    CheckDocumented(doc, "flows.csv", flows.header);

    const Csv ports = ReadCsv(dir + "/ports.csv");
    const auto& p = r.ports;
    REQUIRE(p.size() == 6); // two switches: two host ports and the bottleneck each
    CheckCsv("ports.csv",
             ports,
             p.size(),
             {
                 {"node", STR(p[i].node)},
                 {"port", NUM(p[i].port)},
                 {"peer", STR(p[i].peer)},
                 {"rateBps", NUM(p[i].rateBps)},
                 {"txPackets", NUM(p[i].txPackets)},
                 {"txBytes", NUM(p[i].txBytes)},
                 {"drops", NUM(p[i].drops)},
                 {"dropBytes", NUM(p[i].dropBytes)},
                 {"ecnMarks", NUM(p[i].ecnMarks)},
                 {"pfcPauses", NUM(p[i].pfcPauses)},
                 {"pfcResumes", NUM(p[i].pfcResumes)},
                 {"maxQueueBytes", NUM(p[i].maxQueueBytes)},
             });
    CheckDocumented(doc, "ports.csv", ports.header);

    const Csv portClasses = ReadCsv(dir + "/port-classes.csv");
    const auto& pc = r.portClasses;
    REQUIRE(!pc.empty());
    CheckCsv("port-classes.csv",
             portClasses,
             pc.size(),
             {
                 {"node", STR(pc[i].node)},
                 {"port", NUM(pc[i].port)},
                 {"class", NUM(pc[i].cls)},
                 {"txPackets", NUM(pc[i].txPackets)},
                 {"txBytes", NUM(pc[i].txBytes)},
                 {"pfcPauses", NUM(pc[i].pfcPauses)},
                 {"maxQueueBytes", NUM(pc[i].maxQueueBytes)},
             });
    CheckDocumented(doc, "port-classes.csv", portClasses.header);

    const Csv iterations = ReadCsv(dir + "/iterations.csv");
    const auto& it = r.iterations;
    CheckCsv("iterations.csv",
             iterations,
             it.size(),
             {
                 {"job", STR(it[i].job)},
                 {"jobId", NUM(it[i].jobId)},
                 {"iteration", NUM(it[i].iteration)},
                 {"startNs", NS(it[i].start)},
                 {"endNs", NS(it[i].end)},
                 {"durationNs", NS(it[i].end - it[i].start)},
                 {"computeNs", NS(it[i].compute)},
                 {"exposedCommNs", NS(it[i].exposedComm)},
                 {"gpuIdleNs", NS(it[i].gpuIdle)},
                 {"periodWaitNs", NS(it[i].periodWait)},
                 {"busyNs", NS(it[i].end - it[i].start - it[i].periodWait)},
             });
    CheckDocumented(doc, "iterations.csv", iterations.header);

    const Csv hosts = ReadCsv(dir + "/hosts.csv");
    const auto& h = r.hosts;
    CheckCsv(
        "hosts.csv",
        hosts,
        h.size(),
        {
            {"host", NUM(h[i].host)},
            {"name", STR(h[i].name)},
            {"rxPackets", NUM(h[i].stats.rxPackets)},
            {"rxBytes", NUM(h[i].stats.rxBytes)},
            {"deliveredPackets", NUM(h[i].stats.deliveredPackets)},
            {"deliveredBytes", NUM(h[i].stats.deliveredBytes)},
            {"dropPackets", NUM(h[i].stats.dropPackets)},
            {"dropBytes", NUM(h[i].stats.dropBytes)},
            {"bufferedBytes", NUM(h[i].bufferedBytes)},
            {"dmaPayloadBytes", NUM(h[i].stats.dmaPayloadBytes)},
            {"txPayloadBytes", NUM(h[i].stats.txPayloadBytes)},
            {"ceMarked", NUM(h[i].stats.ceMarked)},
            {"pausesSent", NUM(h[i].stats.pausesSent)},
            {"resumesSent", NUM(h[i].stats.resumesSent)},
            {"iotlbHits", NUM(h[i].stats.iotlbHits)},
            {"iotlbMisses", NUM(h[i].stats.iotlbMisses)},
            {"iotlbHitRate",
             [&](size_t i) {
                 const double n = double(h[i].stats.iotlbHits + h[i].stats.iotlbMisses);
                 return Num(n == 0 ? 0.0 : h[i].stats.iotlbHits / n);
             }},
            {"maxBufferBytes", NUM(h[i].stats.maxBufferBytes)},
            {"meanQueueDelayNs",
             NUM(h[i].stats.deliveredPackets == 0
                     ? 0.0
                     : h[i].stats.queueDelaySumNs / h[i].stats.deliveredPackets)},
            {"maxQueueDelayNs", NS(h[i].stats.maxQueueDelay)},
            {"dmaBusyFraction", NUM(h[i].stats.busyTime.GetSeconds() / r.summary.simulatedSeconds)},
            {"memoryAppDemand", NUM(h[i].memoryAppDemand)},
            {"appLoadBps", NUM(h[i].appLoadBps)},
            {"writeRateBps", NUM(h[i].writeRateBps)},
            {"memoryUtilization", NUM(h[i].memoryUtilization)},
            {"throttleLevel", NUM(h[i].stats.throttleLevel)},
            {"maxThrottleLevel", NUM(h[i].stats.maxThrottleLevel)},
        });
    CheckDocumented(doc, "hosts.csv", hosts.header);
    // The memory application's demand is the configured one (before issue 31 the column held
    // appLoadBps: every column from maxBufferBytes on was its right neighbour's value).
    const size_t demand = std::find(hosts.header.begin(), hosts.header.end(), "memoryAppDemand") -
                          hosts.header.begin();
    REQUIRE(std::stod(hosts.rows[0][demand]) == 0.5);

    // summary.json: each key equals the field it names; every key documented.
    std::ifstream in(dir + "/summary.json");
    const nlohmann::json j = nlohmann::json::parse(in);
    const RunSummary& s = r.summary;
    const std::map<std::string, nlohmann::json> want = {
        {"scenario", s.scenario},
        {"topology", s.topology},
        {"hosts", s.hosts},
        {"switches", s.switches},
        {"links", s.links},
        {"seed", s.seed},
        {"backend", s.backend},
        {"simulatedSeconds", s.simulatedSeconds},
        {"trafficSeconds", s.trafficSeconds},
        {"wallSeconds", s.wallSeconds},
        {"events", s.events},
        {"eventsPerWallSecond", s.events / s.wallSeconds},
        {"packetsForwarded", s.packetsForwarded},
        {"packetHops", s.packetHops},
        {"packetHopsPerWallSecond", s.packetHops / s.wallSeconds},
        {"flows", s.flows},
        {"flowsCompleted", s.flowsCompleted},
        {"bytesSent", s.bytesSent},
        {"bytesReceived", s.bytesReceived},
        {"bytesDelivered", s.bytesDelivered},
        {"bytesDropped", s.bytesDropped},
        {"bytesInFlight", int64_t(s.bytesSent - s.bytesReceived - s.bytesDropped)},
        {"packetsSent", s.packetsSent},
        {"packetsReceived", s.packetsReceived},
        {"packetsDropped", s.packetsDropped},
        {"retransmitted", s.retransmitted},
        {"pfcPauses", s.pfcPauses},
        {"pfcResumes", s.pfcResumes},
        {"ecnMarks", s.ecnMarks},
        {"ceReceived", s.ceReceived},
        {"reordered", s.reordered},
        {"maxQueueBytes", s.maxQueueBytes},
        {"goodputMinBps", s.goodputMinBps},
        {"goodputMeanBps", s.goodputMeanBps},
        {"goodputMaxBps", s.goodputMaxBps},
        {"drained", s.drained},
        {"warnings", s.warnings},
        {"congestionControl", nullptr}, // checked below
        {"classes", nullptr},           // checked below
        {"config", nlohmann::json::parse(cfg.json)},
    };
    std::vector<std::string> keys;
    for (const auto& [key, value] : j.items())
    {
        INFO("summary.json key " << key);
        REQUIRE(want.count(key) == 1);
        keys.push_back(key);
        const nlohmann::json& w = want.at(key);
        if (key == "congestionControl")
        {
            REQUIRE(value.size() == s.congestionControl.size());
            for (size_t i = 0; i < value.size(); ++i)
            {
                const CongestionControlRecord& c = s.congestionControl[i];
                REQUIRE(value[i]["entry"] == c.entry);
                REQUIRE(value[i]["type"] == c.type);
                REQUIRE(value[i]["typeId"] == c.typeId);
                REQUIRE(value[i]["aggressiveness"] == c.aggressiveness);
                REQUIRE(value[i]["attributes"].size() == c.attributes.size());
            }
        }
        else if (key == "classes")
        {
            REQUIRE(value["inUse"] == nlohmann::json(s.dataClasses));
            REQUIRE(value["entries"].size() == s.trafficClasses.size());
            for (size_t i = 0; i < value["entries"].size(); ++i)
            {
                const TrafficClassRecord& c = s.trafficClasses[i];
                REQUIRE(value["entries"][i]["entry"] == c.entry);
                REQUIRE(value["entries"][i]["type"] == c.type);
                REQUIRE(value["entries"][i]["class"] == c.cls);
                REQUIRE(value["entries"][i]["chosen"] == c.chosen);
                REQUIRE(value["entries"][i]["split"] == c.split);
            }
        }
        else if (w.is_number_float())
        {
            REQUIRE(std::abs(value.get<double>() - w.get<double>()) <=
                    1e-12 * std::max(1.0, std::abs(w.get<double>())));
        }
        else
        {
            REQUIRE(value == w);
        }
    }
    REQUIRE(keys.size() == want.size());
    CheckDocumented(doc, "summary.json", keys);
    std::filesystem::remove_all(dir);
}
