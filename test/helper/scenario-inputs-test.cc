/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Scenario inputs that were accepted but wrong (issue 31): one name per job whatever its mode,
// the "host" section's keys, empty or useless lists, class 7, aggregation defaults and the
// messages of errors only the built network shows.

#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <set>

using namespace ns3;
using mlnettest::RunScenarioText;
using mlnettest::ScenarioParseError;

namespace
{
/// A 2-leaf, 2-spine, 8-host leaf-spine at 100 Gb/s with the given extra keys and traffic.
std::string
LeafSpine(const std::string& extra, const std::string& traffic)
{
    return R"({"topology": {"type": "leaf-spine", "leaves": 2, "spines": 2, "hostsPerLeaf": 4},
               "duration": "100us", "drain": "2s", )" +
           extra + (extra.empty() ? "" : ", ") + R"("traffic": )" + traffic + "}";
}

/// The message of the std::invalid_argument a run throws ("" if none).
std::string
RunError(const std::string& text)
{
    try
    {
        RunScenarioText(text);
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/// The job names of a run's iterations.
std::set<std::string>
JobNames(const ScenarioResult& r)
{
    std::set<std::string> names;
    for (const IterationRecord& it : r.iterations)
    {
        names.insert(it.job + "/" + std::to_string(it.jobId));
    }
    return names;
}
} // namespace

TEST_CASE("helper: a training job is named after its traffic entry in every mode", "[helper]")
{
    // traffic[1] is the job, after a flow entry: <type><index> and id = index, in ring and ina
    // mode alike (before issue 31: data-parallel-job1 in ring mode, data-parallel-job2 in ina
    // mode: the flow counter, which the aggregator also draws from).
    const std::string flow = R"({"type": "rdma", "src": 4, "dst": 5, "bytes": "10KB"})";
    for (const std::string mode : {"ring", "ina"})
    {
        INFO(mode);
        const std::string job =
            R"({"type": "data-parallel-job", "hosts": [0, 1, 2, 3], "mode": ")" + mode +
            R"(", "model": "cifarnet", "iterations": 1})";
        ScenarioResult r = RunScenarioText(
            LeafSpine(mode == "ina" ? R"("aggregation": {"placement": "switches"})" : "",
                      "[" + flow + ", " + job + "]"));
        REQUIRE(JobNames(r) == std::set<std::string>{"data-parallel-job1/1"});
        REQUIRE(r.flows.size() == 1);
        REQUIRE(r.flows[0].id == 0);
    }
    // Every job type, and a periodic job (named job<flow id> before).
    ScenarioResult r = RunScenarioText(LeafSpine("", R"([
        {"type": "periodic-job", "src": 6, "dst": 7, "compute": "10us", "bytes": 1000,
         "iterations": 1},
        {"type": "pipeline-job", "hosts": [0, 1], "forward": "10us", "backward": "10us",
         "activationBytes": 1000, "microBatches": 2, "iterations": 1},
        {"type": "tensor-parallel-job", "hosts": [2, 3], "layers": 1, "forward": "10us",
         "backward": "10us", "allReduceBytes": 1000, "iterations": 1}])"));
    REQUIRE(JobNames(r) ==
            std::set<std::string>{"periodic-job0/0", "pipeline-job1/1", "tensor-parallel-job2/2"});
}

TEST_CASE("helper: the host section takes every interconnect attribute and lists them", "[helper]")
{
    const std::string traffic = R"([{"type": "rdma", "src": 0, "dst": 4, "bytes": "100KB"}])";
    // The documented attributes are keys (before: unknown keys).
    ScenarioResult r = RunScenarioText(LeafSpine(
        R"("host": {"hosts": [4], "pageWalkAccesses": 2.5, "hostCcGain": 0.5,
                    "hostCcMarking": true, "memoryIdleLatency": "90ns"})",
        traffic));
    REQUIRE(r.hosts.size() == 1);
    // Their ranges are the attributes' checkers'.
    REQUIRE(ScenarioParseError(LeafSpine(R"("host": {"pageWalkAccesses": 9})", traffic)) ==
            "scenario: host.pageWalkAccesses = 9: must be a number in [0, 8]");
    REQUIRE(ScenarioParseError(LeafSpine(R"("host": {"hostCcGain": 0})", traffic))
                .find("scenario: host.hostCcGain = 0: must be a number in [1e-06, 1]") == 0);
    // An unknown key lists every key (before: only the ones present, plus three).
    const std::string unknown =
        ScenarioParseError(LeafSpine(R"("host": {"pcieLane": 8})", traffic));
    INFO(unknown);
    REQUIRE(unknown.rfind("scenario: host.pcieLane: unknown key (accepted: hosts, enabled, ", 0) ==
            0);
    for (const char* key : {"pcieLanes",
                            "pageWalkAccesses",
                            "hostCcGain",
                            "memoryBandwidth",
                            "overrides",
                            "demandChanges"})
    {
        REQUIRE(unknown.find(key) != std::string::npos);
    }
    const std::string inOverride = ScenarioParseError(
        LeafSpine(R"("host": {"overrides": [{"hosts": [4], "pcieLane": 8}]})", traffic));
    REQUIRE(inOverride.find("scenario: host.overrides[0].pcieLane: unknown key (accepted: hosts, "
                            "enabled, pcieGeneration, pcieLanes") == 0);
    // An override or demand change for a host without an interconnect would be ignored.
    REQUIRE(ScenarioParseError(LeafSpine(
                R"("host": {"hosts": [0, 1], "overrides": [{"hosts": [3], "memoryAppDemand": 1}]})",
                traffic)) ==
            "scenario: host.overrides[0].hosts = [3]: host 3 is not in the section's \"hosts\" "
            "(it has no host interconnect, so an override would not apply): add it there");
    REQUIRE(
        ScenarioParseError(
            LeafSpine(R"("host": {"hosts": [0], "demandChanges": [{"at": "1us", "hosts": [2],
                                      "memoryAppDemand": 1}]})",
                      traffic))
            .find("scenario: host.demandChanges[0].hosts = [2]: host 2 is not in the section's") ==
        0);
    // doc/host.rst's example (its override now names a host of "hosts").
    REQUIRE(ScenarioParseError(LeafSpine(R"("host": {"hosts": [0, 1], "pcieGeneration": 3,
        "pcieLanes": 16, "maxPayloadSize": 256, "rxBuffer": "1MiB", "iommu": true,
        "iotlbEntries": 64, "pageSize": "4KiB", "rxBufferPerQp": "64KiB", "writeCredits": 128,
        "ioLatency": "250ns", "memoryBandwidth": "600Gbps", "memoryAppDemand": 0.5,
        "pfc": false, "transmitPath": true, "hostCcMarking": false, "hostCcThrottling": false,
        "hostCcThreshold": 0.7, "hostCcTarget": 0.8, "enabled": true,
        "demandChanges": [{"at": "2us", "memoryAppDemand": 0.9}],
        "overrides": [{"hosts": [1], "memoryAppDemand": 1.0}]})",
                                         traffic)) == "");
}

TEST_CASE("helper: empty lists, class 7 and schedulers no job uses are refused", "[helper]")
{
    const std::string ps = R"([{"type": "data-parallel-job", "hosts": [0, 1], "servers": [4],
                                "mode": "ps", "model": "cifarnet", "iterations": 1}])";
    const std::string ring = R"([{"type": "data-parallel-job", "hosts": [0, 1], "mode": "ring",
                                  "model": "cifarnet", "iterations": 1}])";
    auto sched = [](const std::string& keys) {
        return R"("scheduler": {"policy": "fair")" + keys + "}";
    };
    REQUIRE(ScenarioParseError(LeafSpine(sched(""), ps)) == "");
    REQUIRE(ScenarioParseError(LeafSpine(sched(R"(, "hosts": [0])"), ps)) == "");
    REQUIRE(ScenarioParseError(LeafSpine(sched(R"(, "topClass": 7)"), ps)) ==
            "scenario: scheduler.topClass = 7: must be an integer in [0, 6] (class 7 carries "
            "ACKs and CNPs)");
    REQUIRE(ScenarioParseError(LeafSpine(sched(R"(, "topClass": 6)"), ps)) == "");
    REQUIRE(ScenarioParseError(LeafSpine(sched(R"(, "hosts": [])"), ps)) ==
            "scenario: scheduler.hosts = []: must list at least one host index in [0, 7] "
            "(absent: every host)");
    REQUIRE(ScenarioParseError(LeafSpine(sched(R"(, "hosts": [6, 7])"), ps)) ==
            "scenario: scheduler.hosts = [6,7]: must include a host of a data-parallel-job "
            "with \"mode\": \"ps\" or a pipeline-job (no job posts through the scheduler on "
            "these hosts)");
    REQUIRE(ScenarioParseError(LeafSpine(sched(""), ring)) ==
            "scenario: scheduler: no traffic entry posts through a scheduler (only a "
            "data-parallel-job with \"mode\": \"ps\" or a pipeline-job does)");

    const std::string ina = R"([{"type": "data-parallel-job", "hosts": [0, 1, 4, 5],
                                 "mode": "ina", "model": "cifarnet", "iterations": 1}])";
    REQUIRE(ScenarioParseError(LeafSpine(R"("aggregation": {"tiers": []})", ina)) ==
            "scenario: aggregation.tiers = []: must list at least one tier among \"edge\", "
            "\"core\" (absent: every tier)");
    REQUIRE(ScenarioParseError(LeafSpine(R"("aggregation": {"tiers": ["core"]})", ina)) == "");
}

TEST_CASE("helper: in-switch aggregation keeps line rate by default", "[helper]")
{
    // 16 lanes at 1 MHz: an adder tree would take at least 0.11 s for cifarnet's 1.76 M
    // gradients; the default in-switch datapath (line rate, doc/aggregation.rst) ignores them.
    const std::string ina = R"([{"type": "data-parallel-job", "hosts": [0, 1, 4, 5],
                                 "mode": "ina", "model": "cifarnet", "iterations": 1}])";
    auto iteration = [&](const std::string& section) {
        ScenarioResult r = RunScenarioText(LeafSpine(R"("aggregation": )" + section, ina));
        REQUIRE(r.iterations.size() == 1);
        return r.iterations[0].Duration().GetSeconds();
    };
    const double fast = iteration(R"({"placement": "switches"})");
    const double slowClock = iteration(R"({"placement": "switches", "lanes": 16, "clockMHz": 1})");
    const double adder = iteration(
        R"({"placement": "switches", "timing": "adder-tree", "lanes": 16, "clockMHz": 1})");
    INFO("line rate " << fast << " s, 16 lanes x 1 MHz " << slowClock << " s, adder tree " << adder
                      << " s");
    REQUIRE(fast < 0.01);
    REQUIRE(slowClock == fast);
    REQUIRE(adder > 1.76e6 / 16e6); // 1.76 M elements at 16 per microsecond, at least
}

TEST_CASE("helper: aggregation errors of a run name the entry, the point and the job", "[helper]")
{
    const std::string ina = R"([{"type": "data-parallel-job", "hosts": [0, 1, 4, 5],
                                 "mode": "ina", "model": "cifarnet", "iterations": 1}])";
    // A point too small for the job: the message names the point as ports.csv does, the job
    // as iterations.csv does, and the entry (before: "aggregator of switch 10: ... job 1 ...",
    // without the scenario prefix).
    const std::string err = RunError(
        LeafSpine(R"("aggregation": {"placement": "switches", "bufferPerJob": 1000})", ina));
    INFO(err);
    REQUIRE(err.rfind("scenario: traffic[0]: aggregator of ", 0) == 0);
    REQUIRE(err.find(": BufferBytesPerJob cannot hold one slot for each of the 1 trees of "
                     "data-parallel-job0 through it") != std::string::npos);
    const std::string two = R"([{"type": "data-parallel-job", "hosts": [0, 4], "mode": "ina",
                                 "model": "cifarnet", "iterations": 1, "trees": 2},
                                {"type": "data-parallel-job", "hosts": [1, 5], "mode": "ina",
                                 "model": "cifarnet", "iterations": 1, "trees": 2}])";
    const std::string full = RunError(
        LeafSpine(R"("aggregation": {"placement": "switches", "tiers": ["core"], "maxJobs": 1})",
                  two));
    INFO(full);
    REQUIRE(full.rfind("scenario: traffic[1]: aggregator of spine", 0) == 0);
    REQUIRE(full.find(": cannot hold data-parallel-job1: it holds MaxJobs = 1 jobs already") !=
            std::string::npos);
    // The simulator is clean after the failed run: another runs.
    REQUIRE(RunScenarioText(LeafSpine(R"("aggregation": {"placement": "switches"})", ina))
                .iterations.size() == 1);
}
