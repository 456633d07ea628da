/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// "backend": "flow" in a scenario: the same file runs at flow level, with the same outputs
// (per-packet columns empty), and a bulk collective's iteration time agrees with packet level.

#include "common/test-utilities.h"
#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace ns3;

namespace
{
std::string
ScenarioText(const std::string& backend, const std::string& traffic)
{
    return R"({"topology": {"type": "fat-tree", "k": 4}, "duration": "1us", "drain": "1s",
               "backend": ")"
           + backend + R"(", "traffic": )" + traffic + "}";
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
} // namespace

TEST_CASE("flow: a ring data-parallel job runs at flow level and agrees with packet level",
          "[flow]")
{
    // 8 workers across the pods of a k=4 fat-tree, GoogLeNet gradients (26.5 MB): a bulk
    // collective, where the fluid model is meant to be close.
    const std::string traffic
        = R"([{"type": "data-parallel-job", "hosts": [0, 2, 5, 7, 8, 10, 13, 15],
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
    ScenarioResult r = mlnettest::RunScenarioText(
        ScenarioText("flow", R"([{"type": "rdma", "src": 0, "dst": 15, "bytes": "1MB"},
                    {"type": "rdma", "src": 1, "dst": 15, "bytes": "1MB"}])"));
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
    std::ostringstream flows;
    StatsWriter::WriteFlowsCsv(flows, r.flows);
    std::istringstream lines(flows.str());
    std::string header;
    std::string row;
    std::getline(lines, header);
    std::getline(lines, row);
    CHECK(std::count(header.begin(), header.end(), ',') == std::count(row.begin(), row.end(), ','));
    CHECK(row.find(",,,,,,,,,") != std::string::npos);
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
    CHECK(ports.str().find(",,,,,,\n") != std::string::npos);
    std::ostringstream summary;
    StatsWriter::WriteSummaryJson(summary, r.summary, "{}");
    CHECK(summary.str().find("\"backend\": \"flow\"") != std::string::npos);
}

TEST_CASE("flow: the backend key is validated in the scenario parser", "[flow]")
{
    CHECK(mlnettest::ScenarioParseError(ScenarioText("fluid", "[]")).rfind("scenario: backend", 0)
          == 0);
    CHECK(mlnettest::ScenarioParseError(
              ScenarioText("flow", R"([{"type": "permutation", "rate": "1Gbps"}])"))
              .find("is not available with \"backend\": \"flow\"")
          != std::string::npos);
    CHECK(mlnettest::ScenarioParseError(ScenarioText("flow", "[]")) == "");
}
