/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The scenario runner's training-job types: data-parallel, pipeline and tensor-parallel jobs.

#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{
std::string
LeafSpine(const std::string& traffic)
{
    return R"({"topology": {"type": "leaf-spine", "leaves": 2, "spines": 2, "hostsPerLeaf": 4},
               "traffic": )" +
           traffic + R"(, "duration": "100us", "drain": "2s"})";
}

} // namespace

TEST_CASE("helper: pipeline and tensor-parallel jobs run from a scenario", "[helper]")
{
    ScenarioResult r = mlnettest::RunScenarioText(LeafSpine(R"([
        {"type": "pipeline-job", "hosts": [0, 1, 4, 5], "schedule": "gpipe", "microBatches": 4,
         "forward": "50us", "backward": "100us", "activationBytes": 1000, "iterations": 2},
        {"type": "tensor-parallel-job", "hosts": [2, 3, 6, 7], "layers": 2, "forward": "20us",
         "backward": "40us", "allReduceBytes": "100KB", "iterations": 2}])"));
    REQUIRE(r.iterations.size() == 4);
    for (const IterationRecord& it : r.iterations)
    {
        REQUIRE(it.Duration() == it.compute + it.exposedComm);
        if (it.job.rfind("pipeline-job", 0) == 0)
        {
            // GPipe, S = 4, M = 4: (M + S - 1) (tf + tb) = 7 x 150 us when compute-bound.
            REQUIRE(it.Duration() >= MicroSeconds(1050));
            REQUIRE(it.Duration() < MicroSeconds(1050) * 1.05);
        }
        else
        {
            // 2 layers x (20 + 40) us of compute plus 4 all-reduces of 100 KB.
            REQUIRE(it.compute == MicroSeconds(120));
            REQUIRE(it.exposedComm > Time(0));
        }
    }
}

TEST_CASE("helper: a parameter-server data-parallel job runs from a scenario", "[helper]")
{
    ScenarioResult r = mlnettest::RunScenarioText(LeafSpine(R"([
        {"type": "data-parallel-job", "hosts": [0, 1], "mode": "ps", "servers": [7],
         "model": "googlenet", "gpu": "a100", "batch": 8, "policy": "p3", "iterations": 1}])"));
    REQUIRE(r.iterations.size() == 1);
    for (const IterationRecord& it : r.iterations)
    {
        REQUIRE(it.Duration() >= it.compute);
        REQUIRE(it.compute > Time(0));
    }
}

TEST_CASE("helper: bad job entries give one-line errors", "[helper]")
{
    CHECK(mlnettest::ScenarioParseError(
              LeafSpine(R"([{"type": "pipeline-job", "hosts": [0, 0], "forward": "1us",
                                   "backward": "1us", "activationBytes": 1, "iterations": 1}])"))
              .rfind("scenario: traffic[0].hosts", 0) == 0);
    CHECK(mlnettest::ScenarioParseError(LeafSpine(R"([{"type": "data-parallel-job", "hosts": [0, 1],
                                   "model": "vgg99", "iterations": 1}])"))
              .rfind("scenario: traffic[0].model = \"vgg99\": must be one of", 0) == 0);
    CHECK(mlnettest::ScenarioParseError(LeafSpine(R"([{"type": "data-parallel-job", "hosts": [0, 1],
                                   "policy": "lifo", "iterations": 1}])"))
              .rfind("scenario: traffic[0].policy = \"lifo\"", 0) == 0);
    CHECK(mlnettest::ScenarioParseError(
              LeafSpine(R"([{"type": "tensor-parallel-job", "hosts": [0], "layers": 1,
                                   "forward": "1us", "backward": "1us", "allReduceBytes": 1,
                                   "iterations": 1}])"))
              .rfind("scenario: traffic[0].hosts", 0) == 0);
}

TEST_CASE("helper: data-parallel job keys for servers of GPUs, fusion and calibrated GPUs",
          "[helper]")
{
    // 2 servers of 8 GPUs, calibrated V100 mixed precision, GoogLeNet (26.5 MB of gradients)
    // fused into 64 MiB buffers (the default): every iteration at least its compute
    ScenarioResult r = mlnettest::RunScenarioText(LeafSpine(R"([
        {"type": "data-parallel-job", "hosts": [0, 4], "model": "googlenet", "gpu": "v100-amp",
         "batch": 8, "gpusPerServer": 8, "intraServerRate": "150GB/s",
         "intraServerLatency": "5us", "iterations": 3}])"));
    REQUIRE(r.iterations.size() == 3);
    for (const IterationRecord& it : r.iterations)
    {
        REQUIRE(it.Duration() == it.compute + it.exposedComm);
        REQUIRE(it.compute > Time(0));
    }
    // one server of 8 GPUs is a valid ring job (NVLink only); fusion can be switched off
    ScenarioResult one = mlnettest::RunScenarioText(LeafSpine(R"([
        {"type": "data-parallel-job", "hosts": [0], "model": "googlenet", "batch": 8,
         "gpusPerServer": 8, "fusionBytes": 0, "iterations": 2}])"));
    REQUIRE(one.iterations.size() == 2);
    CHECK(mlnettest::ScenarioParseError(LeafSpine(R"([{"type": "data-parallel-job", "hosts": [0, 1],
                                   "mode": "ps", "servers": [7], "gpusPerServer": 8,
                                   "iterations": 1}])"))
              .rfind("scenario: traffic[0].gpusPerServer", 0) == 0);
    CHECK(mlnettest::ScenarioParseError(LeafSpine(R"([{"type": "data-parallel-job", "hosts": [0, 1],
                                   "gpusPerServer": 65, "iterations": 1}])"))
              .rfind("scenario: traffic[0].gpusPerServer", 0) == 0);
    CHECK(mlnettest::ScenarioParseError(LeafSpine(R"([{"type": "data-parallel-job", "hosts": [0, 1],
                                   "gpu": "k80", "iterations": 1}])"))
              .rfind("scenario: traffic[0].gpu = \"k80\": must be one of", 0) == 0);
}
