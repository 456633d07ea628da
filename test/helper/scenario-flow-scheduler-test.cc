/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The scenario's "scheduler" section: jobs post through the flow scheduler it installs.

#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{

std::string
WithScheduler(const std::string& scheduler, const std::string& traffic)
{
    return R"({"topology": {"type": "leaf-spine", "leaves": 1, "spines": 1, "hostsPerLeaf": 8},
               "scheduler": )" +
           scheduler + R"(, "traffic": )" + traffic + R"(, "duration": "100us", "drain": "2s"})";
}

const char* kPipeline = R"([{"type": "pipeline-job", "hosts": [0, 1, 2, 3], "schedule": "gpipe",
    "microBatches": 4, "forward": "50us", "backward": "100us", "activationBytes": "100KB",
    "iterations": 1}])";

} // namespace

TEST_CASE("helper: scenario jobs run through the scheduler section", "[helper]")
{
    for (std::string policy :
         {"fair", "madd", "echelon", "cadentflow-priority", "cadentflow-deadline"})
    {
        INFO(policy);
        ScenarioResult r = mlnettest::RunScenarioText(
            WithScheduler(R"({"policy": ")" + policy + R"("})",
                          R"([{"type": "data-parallel-job", "hosts": [0, 1, 2, 3], "mode": "ps",
                 "servers": [4, 5], "model": "cifarnet", "batch": 8, "iterations": 2}])"));
        REQUIRE(r.iterations.size() == 2);
        for (const IterationRecord& it : r.iterations)
        {
            CHECK(it.Duration() >= it.compute);
        }
    }
}

TEST_CASE("helper: the scheduler section's capTolerance keeps MADD's iteration within it",
          "[helper]")
{
    // MADD re-caps every running flow at each arrival; a tolerance of 1e-3 leaves out the
    // re-caps that move a cap by less than 1e-3 of it, so each flow's rate, and the iteration,
    // stays within 1e-3 of the exact run's
    const std::string ps = R"([{"type": "data-parallel-job", "hosts": [0, 1, 2, 3], "mode": "ps",
        "servers": [4, 5], "model": "cifarnet", "batch": 8, "iterations": 2}])";
    ScenarioResult exact = mlnettest::RunScenarioText(WithScheduler(R"({"policy": "madd"})", ps));
    ScenarioResult tol = mlnettest::RunScenarioText(
        WithScheduler(R"({"policy": "madd", "capTolerance": 1e-3})", ps));
    REQUIRE(exact.iterations.size() == 2);
    REQUIRE(tol.iterations.size() == 2);
    for (size_t i = 0; i < 2; ++i)
    {
        const double e = exact.iterations[i].Duration().GetSeconds();
        CHECK(tol.iterations[i].Duration().GetSeconds() == Approx(e).epsilon(1e-3));
    }
}

TEST_CASE("helper: the scheduler's control delay lengthens a pipeline iteration", "[helper]")
{
    ScenarioResult fast =
        mlnettest::RunScenarioText(WithScheduler(R"({"policy": "echelon"})", kPipeline));
    ScenarioResult slow = mlnettest::RunScenarioText(
        WithScheduler(R"({"policy": "echelon", "controlDelay": "100us"})", kPipeline));
    REQUIRE(fast.iterations.size() == 1);
    REQUIRE(slow.iterations.size() == 1);
    // GPipe with 4 stages: at least 3 forward and 3 backward messages in a row on the
    // critical path, each starting 100 us later
    CHECK(slow.iterations[0].Duration() - fast.iterations[0].Duration() >= MicroSeconds(600));
}

TEST_CASE("helper: bad scheduler sections are rejected with one line", "[helper]")
{
    using mlnettest::ScenarioParseError;
    CHECK(
        ScenarioParseError(WithScheduler(R"({"policy": "sjf"})", "[]")).find("scheduler.policy") !=
        std::string::npos);
    std::string e =
        ScenarioParseError(WithScheduler(R"({"policy": "madd", "mode": "decentralised"})", "[]"));
    CHECK(e.find("needs the centralised mode") != std::string::npos);
    CHECK(ScenarioParseError(WithScheduler(R"({"policy": "fair", "controlDelay": "-1us"})", "[]"))
              .find("scheduler.controlDelay") != std::string::npos);
    CHECK(ScenarioParseError(WithScheduler(R"({"policy": "fair", "hosts": [9]})", "[]"))
              .find("scheduler.hosts") != std::string::npos);
    CHECK(ScenarioParseError(
              WithScheduler(R"({"policy": "fair", "topClass": 2, "priorityLevels": 7})", "[]"))
              .find("must be <= topClass + 1 = 3") != std::string::npos);
    CHECK(ScenarioParseError(WithScheduler(R"({"policy": "madd", "capTolerance": 0.2})", "[]"))
              .find("scheduler.capTolerance") != std::string::npos);
    CHECK(ScenarioParseError(WithScheduler(R"({"policy": "fair", "delay": "1us"})", "[]"))
              .find("scheduler.delay: unknown key") != std::string::npos);
}
