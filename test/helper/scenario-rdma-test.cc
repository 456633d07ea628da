/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The scenario runner's RDMA traffic types: queue-pair flows and periodic training jobs.

#include "common/test-utilities.h"
#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace ns3;

namespace
{
std::string
Dumbbell(const std::string& traffic, const std::string& duration)
{
    return R"({"topology": {"type": "dumbbell", "left": 2, "right": 2}, "traffic": )" + traffic
           + R"(, "duration": ")" + duration + R"(", "drain": "50ms"})";
}

} // namespace

TEST_CASE("helper: an rdma flow in a scenario completes at the transport's goodput", "[helper]")
{
    ScenarioResult r = mlnettest::RunScenarioText(
        Dumbbell(R"([{"type": "rdma", "src": 0, "dst": 2, "bytes": 10000000}])", "1ms"));
    REQUIRE(r.flows.size() == 1);
    const FlowStatsRecord& f = r.flows[0];
    REQUIRE(f.type == "rdma");
    REQUIRE(f.txBytes == 10000000);
    REQUIRE(f.rxBytes == 10000000);
    REQUIRE(f.Completed());
    double goodput = f.GoodputBps();
    INFO("goodput " << goodput / 1e9 << " Gb/s");
    REQUIRE(goodput > 0.95 * 100e9 * 1000 / 1082);
    REQUIRE(goodput < 100e9 * 1000 / 1082);
}

TEST_CASE("helper: periodic jobs in a scenario produce iteration records", "[helper]")
{
    ScenarioResult r = mlnettest::RunScenarioText(Dumbbell(
        R"([{"type": "periodic-job", "src": 0, "dst": 2, "compute": "200us",
              "bytes": 1000000, "iterations": 5},
            {"type": "periodic-job", "src": 1, "dst": 3, "compute": "200us",
              "bytes": 1000000, "iterations": 5, "aggressiveness": 2, "cc": "dcqcn-vendor"}])",
        "1ms"));
    REQUIRE(r.flows.size() == 2);
    REQUIRE(r.iterations.size() == 10);
    for (const IterationRecord& it : r.iterations)
    {
        // Each iteration: 200 us compute + at least 1 MB at the goodput bound (86.6 us).
        REQUIRE(it.Duration() >= MicroSeconds(286));
        REQUIRE(it.compute == MicroSeconds(200));
        REQUIRE(it.Duration() == it.compute + it.exposedComm);
    }
    for (const FlowStatsRecord& f : r.flows)
    {
        REQUIRE(f.rxBytes == 5000000);
    }
    std::ostringstream os;
    StatsWriter::WriteIterationsCsv(os, r.iterations);
    const std::string csv = os.str();
    REQUIRE(std::count(csv.begin(), csv.end(), '\n') == 11);
}

TEST_CASE("helper: bad rdma entries give one-line errors", "[helper]")
{
    CHECK(
        mlnettest::ScenarioParseError(Dumbbell(R"([{"type": "rdma", "src": 0, "dst": 2}])", "1ms"))
            .rfind("scenario: traffic[0].bytes: missing; must be a byte count in [1, "
                   "1125899906842624]",
                   0)
        == 0);
    CHECK(
        mlnettest::ScenarioParseError(
            Dumbbell(R"([{"type": "rdma", "src": 0, "dst": 2, "bytes": 1, "cc": "cubic"}])", "1ms"))
            .rfind("scenario: traffic[0].cc = \"cubic\": must be one of", 0)
        == 0);
    CHECK(
        mlnettest::ScenarioParseError(
            Dumbbell(R"([{"type": "rdma", "src": 0, "dst": 2, "bytes": 1, "aggressiveness": 20}])",
                     "1ms"))
            .rfind("scenario: traffic[0].aggressiveness = 20", 0)
        == 0);
    CHECK(mlnettest::ScenarioParseError(
              Dumbbell(R"([{"type": "periodic-job", "src": 0, "dst": 2, "compute": "1ms",
                                  "bytes": 1}])",
                       "1ms"))
              .rfind("scenario: traffic[0].iterations: missing", 0)
          == 0);
}
