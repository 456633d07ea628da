/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// "backend": "flow" in a scenario: the same file runs at flow level, with the same outputs
// (per-packet columns empty), and a bulk collective's iteration time agrees with packet level.

#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace ns3;

namespace
{
std::string
ScenarioText(const std::string& backend, const std::string& traffic)
{
    return R"({"topology": {"type": "fat-tree", "k": 4}, "duration": "1us", "drain": "1s",
               "backend": ")" +
           backend + R"(", "traffic": )" + traffic + "}";
}

double
MeanIteration(const ScenarioResult& r)
{
    double sum = 0;
    for (const IterationRecord& it : r.iterations)
    {
        sum += it.Duration().GetSeconds();
    }
    return r.iterations.empty() ? 0 : sum / r.iterations.size();
}

/// \return the rows of a CSV text (no quoted commas), each by its header's column names
std::vector<std::map<std::string, std::string>>
CsvRows(const std::string& text)
{
    auto split = [](const std::string& line) {
        std::vector<std::string> fields(1);
        for (char c : line)
        {
            if (c == ',')
            {
                fields.emplace_back();
            }
            else
            {
                fields.back() += c;
            }
        }
        return fields;
    };
    std::istringstream lines(text);
    std::string line;
    std::getline(lines, line);
    const std::vector<std::string> header = split(line);
    std::vector<std::map<std::string, std::string>> rows;
    while (std::getline(lines, line))
    {
        const std::vector<std::string> fields = split(line);
        REQUIRE(fields.size() == header.size());
        std::map<std::string, std::string> row;
        for (size_t i = 0; i < header.size(); ++i)
        {
            row[header[i]] = fields[i];
        }
        rows.push_back(row);
    }
    return rows;
}
} // namespace

TEST_CASE("flow: a ring data-parallel job runs at flow level and agrees with packet level",
          "[flow]")
{
    // 8 workers across the pods of a k=4 fat-tree, GoogLeNet gradients (26.5 MB): a bulk
    // collective, where the fluid model is meant to be close.
    const std::string traffic =
        R"([{"type": "data-parallel-job", "hosts": [0, 2, 5, 7, 8, 10, 13, 15],
        "model": "googlenet", "gpu": "a100", "batch": 8, "iterations": 3}])";
    ScenarioResult flow = mlnettest::RunScenarioText(ScenarioText("flow", traffic));
    ScenarioResult packet = mlnettest::RunScenarioText(ScenarioText("packet", traffic));
    REQUIRE(flow.iterations.size() == 3);
    REQUIRE(packet.iterations.size() == 3);
    CHECK(flow.summary.backend == "flow");
    CHECK(packet.summary.backend == "packet");
    CHECK(flow.summary.drained);
    CHECK(flow.summary.packetHops == 0);
    const double f = MeanIteration(flow);
    const double p = MeanIteration(packet);
    INFO("mean iteration: flow " << f * 1e3 << " ms, packet " << p * 1e3 << " ms");
    CHECK(std::abs(f - p) / p < 0.10);
    for (const IterationRecord& it : flow.iterations)
    {
        CHECK(it.Duration() == it.compute + it.exposedComm);
    }
}

TEST_CASE("flow: flow-level outputs keep the schemas, per-packet columns empty", "[flow]")
{
    // max-min rates ("fluidCc": "none"; by default DCQCN at flow level shares the link
    // unevenly), so the two flows' times are the analytical ones below
    std::string text =
        ScenarioText("flow", R"([{"type": "rdma", "src": 0, "dst": 15, "bytes": "1MB"},
                    {"type": "rdma", "src": 1, "dst": 15, "bytes": "1MB"}])");
    text.insert(1, R"("fluidCc": "none", )");
    ScenarioResult r = mlnettest::RunScenarioText(text);
    REQUIRE(r.flows.size() == 2);
    for (const FlowStatsRecord& f : r.flows)
    {
        CHECK(f.flowLevel);
        CHECK(f.Completed());
        CHECK(f.deliveredBytes == 1000000);
    }
    // Two 1 MB flows into one 100 Gb/s host link: each at half the line rate, both done at
    // 2 x 1.082 MB / 12.5 GB/s = 173.1 us plus the latencies (6 hops of 1 us and store-and-
    // forward, 6 us back) = about 186 us.
    for (const FlowStatsRecord& f : r.flows)
    {
        CHECK(f.FctNs() > 173000);
        CHECK(f.FctNs() < 190000);
    }
    // flows.csv by column name: the per-packet columns empty; the delivery time and the goodput
    // derived from it as at packet level.
    std::ostringstream flows;
    StatsWriter::WriteFlowsCsv(flows, r.flows);
    const std::vector<std::map<std::string, std::string>> rows = CsvRows(flows.str());
    REQUIRE(rows.size() == 2);
    for (size_t i = 0; i < rows.size(); ++i)
    {
        const auto& row = rows[i];
        for (const char* empty : {"txBytes",
                                  "txPackets",
                                  "rxBytes",
                                  "rxPackets",
                                  "ceMarked",
                                  "reordered",
                                  "firstRxNs",
                                  "retransmitted"})
        {
            INFO("flows.csv column " << empty);
            CHECK(row.at(empty).empty());
        }
        const FlowStatsRecord& f = r.flows[i];
        // Delivered 1 MB at the destination before the sender's completion (one ack later).
        CHECK(std::stoll(row.at("lastRxNs")) == f.lastRxNs);
        CHECK(f.lastRxNs > f.startNs);
        CHECK(f.lastRxNs < f.completedNs);
        const double goodput = std::stod(row.at("goodputBps"));
        CHECK(goodput == Approx(1e6 * 8e9 / double(f.lastRxNs - f.startNs)).epsilon(1e-9));
        // Half of 100 Gb/s on the wire, of which 1000/1082 is payload (46.2 Gb/s), less the
        // latency in the denominator.
        CHECK(goodput > 44e9);
        CHECK(goodput < 100e9 / 2 * 1000 / 1082);
    }
    // ports.csv: the host links' switch ports carried the bytes; the drop/ECN/PFC columns are empty
    uint64_t toHost15 = 0;
    for (const PortStatsRecord& p : r.ports)
    {
        CHECK(p.flowLevel);
        if (p.peer == "host15")
        {
            toHost15 += p.txBytes;
        }
    }
    CHECK(toHost15 == 2 * 1044000); // IPv4 bytes of 2 x 1000 packets of 1000 B
    std::ostringstream ports;
    StatsWriter::WritePortsCsv(ports, r.ports);
    for (const auto& row : CsvRows(ports.str()))
    {
        for (const char* empty : {"txPackets",
                                  "drops",
                                  "dropBytes",
                                  "ecnMarks",
                                  "pfcPauses",
                                  "pfcResumes",
                                  "maxQueueBytes"})
        {
            INFO("ports.csv column " << empty);
            CHECK(row.at(empty).empty());
        }
        CHECK(!row.at("txBytes").empty());
    }
    // summary.json: the backend, the packet counters null (not 0), the flows' sums kept.
    std::ostringstream summary;
    StatsWriter::WriteSummaryJson(summary, r.summary, "{}");
    const nlohmann::json j = nlohmann::json::parse(summary.str());
    CHECK(j.at("backend") == "flow");
    for (const char* null : {"packetsForwarded",
                             "packetHops",
                             "packetHopsPerWallSecond",
                             "bytesSent",
                             "bytesReceived",
                             "bytesDropped",
                             "bytesInFlight",
                             "packetsSent",
                             "packetsReceived",
                             "packetsDropped",
                             "retransmitted",
                             "pfcPauses",
                             "pfcResumes",
                             "ecnMarks",
                             "ceReceived",
                             "reordered",
                             "maxQueueBytes"})
    {
        INFO("summary.json key " << null);
        CHECK(j.at(null).is_null());
    }
    CHECK(j.at("bytesDelivered") == 2000000);
    CHECK(j.at("goodputMinBps").get<double>() > 44e9);
}

TEST_CASE("flow: a packet-level summary.json records its backend too", "[flow]")
{
    ScenarioResult r = mlnettest::RunScenarioText(
        ScenarioText("packet", R"([{"type": "rdma", "src": 0, "dst": 1, "bytes": "10KB"}])"));
    std::ostringstream summary;
    StatsWriter::WriteSummaryJson(summary, r.summary, "{}");
    const nlohmann::json j = nlohmann::json::parse(summary.str());
    CHECK(j.at("backend") == "packet");
    CHECK(j.at("packetHops").get<uint64_t>() > 0);
    CHECK(j.at("pfcPauses") == 0);
}

TEST_CASE("flow: the backend key is validated in the scenario parser", "[flow]")
{
    CHECK(
        mlnettest::ScenarioParseError(ScenarioText("fluid", "[]")).rfind("scenario: backend", 0) ==
        0);
    CHECK(mlnettest::ScenarioParseError(ScenarioText("flow", "[]")) == "");
}
