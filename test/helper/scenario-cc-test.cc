/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Congestion-control settings of JSON scenarios: the "cc" objects (per entry and scenario
// default), global attribute defaults, their precedence and the effective values reported.

#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <map>
#include <sstream>

using namespace ns3;

namespace
{
/// 4 RDMA writes of 4 MB into one host; `top` is inserted at the top level, `entry` into
/// every traffic entry.
std::string
Incast(const std::string& top, const std::string& entry)
{
    std::string traffic;
    for (int i = 0; i < 4; ++i)
    {
        traffic += std::string(i ? ", " : "") + R"({"type": "rdma", "src": )" + std::to_string(i) +
                   R"(, "dst": 4, "bytes": "4MB")" + entry + "}";
    }
    return R"({"topology": {"type": "dumbbell", "left": 4, "right": 1},
               "fabric": {"kmin": "20KB", "kmax": "200KB"}, )" +
           top + R"("traffic": [)" + traffic + R"(], "duration": "100us", "drain": "50ms"})";
}

/// What a run's results look like: every flow's completion time and the switches' marks.
std::vector<int64_t>
Signature(const ScenarioResult& r)
{
    std::vector<int64_t> v;
    for (const FlowStatsRecord& f : r.flows)
    {
        v.push_back(f.completedNs);
    }
    v.push_back(int64_t(r.summary.ecnMarks));
    return v;
}

/// Effective attribute values the summary reports for an entry.
std::map<std::string, std::string>
Effective(const ScenarioResult& r, const std::string& entry)
{
    for (const CongestionControlRecord& c : r.summary.congestionControl)
    {
        if (c.entry == entry)
        {
            return {c.attributes.begin(), c.attributes.end()};
        }
    }
    return {};
}

/// Sets an attribute default for the scope of a test, restoring the built-in one after.
struct DefaultGuard
{
    std::string name;

    DefaultGuard(const std::string& n, const AttributeValue& v)
        : name(n)
    {
        Config::SetDefault(name, v);
    }

    ~DefaultGuard()
    {
        Config::SetDefault(name, DataRateValue(DataRate(DcqcnBase::DEFAULT_RATE_AI)));
    }
};
} // namespace

TEST_CASE("helper: DCQCN settings of a scenario reach the queue pairs and change results",
          "[helper]")
{
    const ScenarioResult base = mlnettest::RunScenarioText(Incast("", ""));
    REQUIRE(base.summary.flowsCompleted == 4);
    CHECK(base.summary.ecnMarks > 0);
    CHECK(Effective(base, "traffic[0]")["RateAI"] == "40000000bps");

    // The scenario default ("cc" at the top level) and the same value in every entry.
    const ScenarioResult top =
        mlnettest::RunScenarioText(Incast(R"("cc": {"rateAi": "5Gbps"},)", ""));
    const ScenarioResult entry = mlnettest::RunScenarioText(
        Incast("", R"(, "cc": {"variant": "dcqcn", "rateAi": "5Gbps"})"));
    REQUIRE(top.summary.flowsCompleted == 4);
    CHECK(Effective(top, "traffic[3]")["RateAI"] == "5000000000bps");
    CHECK(Effective(entry, "traffic[3]")["RateAI"] == "5000000000bps");
    CHECK(Signature(top) != Signature(base));
    CHECK(Signature(entry) == Signature(top));

    // A global attribute default (as --ns3::DcqcnBase::RateAI=5Gbps on mlnet-run's command line)
    // applies where the scenario is silent: the same results as the scenario setting.
    {
        DefaultGuard guard("ns3::DcqcnBase::RateAI", DataRateValue(DataRate("5Gbps")));
        const ScenarioResult global = mlnettest::RunScenarioText(Incast("", ""));
        CHECK(Effective(global, "traffic[0]")["RateAI"] == "5000000000bps");
        CHECK(Signature(global) == Signature(top));
        // ... but a value in the scenario wins over the global default.
        const ScenarioResult both =
            mlnettest::RunScenarioText(Incast(R"("cc": {"rateAi": "40Mbps"},)", ""));
        CHECK(Signature(both) == Signature(base));
    }
    const ScenarioResult after = mlnettest::RunScenarioText(Incast("", ""));
    CHECK(Signature(after) == Signature(base)); // the guard restored the default

    // Every other parameter is reported with its effective value.
    const auto eff = Effective(top, "traffic[0]");
    for (const char* name : {"G",
                             "InitialAlpha",
                             "AlphaTimer",
                             "RateIncreaseTimer",
                             "FastRecoveryStages",
                             "RateHAI",
                             "MinRate",
                             "ByteCounter",
                             "ClampTargetRate",
                             "IterGainSlope",
                             "IterGainIntercept"})
    {
        CHECK(eff.count(name) == 1);
    }
    CHECK(eff.at("ByteCounter") == "10000000");
    std::ostringstream js;
    StatsWriter::WriteSummaryJson(js, top.summary, "");
    nlohmann::json j = nlohmann::json::parse(js.str());
    CHECK(j["congestionControl"].size() == 4);
    CHECK(j["congestionControl"][0]["typeId"] == "ns3::Dcqcn");
    CHECK(j["congestionControl"][0]["attributes"]["RateAI"] == "5000000000bps");
}

TEST_CASE("helper: precedence of entry, scenario default, aggressiveness and variant", "[helper]")
{
    const std::string text = R"({"topology": {"type": "dumbbell", "left": 2, "right": 2},
        "cc": {"variant": "dcqcn", "rateAi": "5Gbps", "g": 0.01},
        "traffic": [
          {"type": "rdma", "src": 0, "dst": 2, "bytes": 1000},
          {"type": "rdma", "src": 0, "dst": 2, "bytes": 1000, "cc": {"rateAi": "1Gbps"}},
          {"type": "rdma", "src": 0, "dst": 2, "bytes": 1000, "aggressiveness": 2},
          {"type": "rdma", "src": 0, "dst": 2, "bytes": 1000, "cc": "dcqcn-vendor"},
          {"type": "periodic-job", "src": 1, "dst": 3, "compute": "10us", "bytes": 1000,
           "iterations": 2, "cc": {"byteCounter": "1MB", "iterGainSlope": 1},
           "iterGainSlope": 2},
          {"type": "tensor-parallel-job", "hosts": [0, 3], "layers": 1, "forward": "1us",
           "backward": "1us", "allReduceBytes": 2000, "iterations": 1}],
        "duration": "10us"})";
    const ScenarioResult r = mlnettest::RunScenarioText(text);
    REQUIRE(r.summary.congestionControl.size() == 6);
    CHECK(Effective(r, "traffic[0]")["RateAI"] == "5000000000bps"); // scenario default
    CHECK(Effective(r, "traffic[0]")["G"] == "0.01");
    CHECK(Effective(r, "traffic[1]")["RateAI"] == "1000000000bps");  // entry wins
    CHECK(Effective(r, "traffic[1]")["G"] == "0.01");                // the rest inherited
    CHECK(Effective(r, "traffic[2]")["RateAI"] == "10000000000bps"); // a = 2 scales the base
    CHECK(Effective(r, "traffic[2]")["G"] == "0.005");
    // Another variant starts from the attribute defaults, not from the scenario's dcqcn.
    CHECK(r.summary.congestionControl[3].typeId == "ns3::DcqcnVendor");
    CHECK(Effective(r, "traffic[3]")["RateAI"] == "40000000bps");
    CHECK(Effective(r, "traffic[4]")["ByteCounter"] == "1000000");
    CHECK(Effective(r, "traffic[4]")["IterGainSlope"] == "2"); // the entry key wins
    CHECK(Effective(r, "traffic[4]")["RateAI"] == "5000000000bps");
    CHECK(r.summary.congestionControl[5].type == "tensor-parallel-job");
    CHECK(Effective(r, "traffic[5]")["RateAI"] == "5000000000bps"); // jobs use the default too
}

TEST_CASE("helper: bad congestion-control settings give one-line errors", "[helper]")
{
    auto error = [](const std::string& cc) {
        return mlnettest::ScenarioParseError(
            R"({"topology": {"type": "dumbbell"}, "traffic": [{"type": "rdma", "src": 0,
                "dst": 1, "bytes": 1, "cc": )" +
            cc + R"(}], "duration": "1ms"})");
    };
    CHECK(error(R"({"rateAi": "fast"})")
              .rfind("scenario: traffic[0].cc.rateAi = \"fast\": must "
                     "be a rate",
                     0) == 0);
    CHECK(error(R"({"g": 2})").rfind("scenario: traffic[0].cc.g = 2: ", 0) == 0);
    CHECK(error(R"({"g": 2})").find("(0, 1]") != std::string::npos);
    CHECK(error(R"({"variant": "fixed", "rateAi": "1Gbps"})")
              .rfind("scenario: traffic[0].cc.rateAi: unknown key (accepted: variant, rate)", 0) ==
          0);
    CHECK(error(R"({"variant": "cubic"})")
              .rfind("scenario: traffic[0].cc.variant = \"cubic\": "
                     "must be one of dcqcn, dcqcn-vendor, fixed",
                     0) == 0);
    CHECK(error("3").rfind("scenario: traffic[0].cc = 3: must be a variant name", 0) == 0);
    CHECK(error(R"({"byteCounter": "10MB", "rateIncreaseTimer": "20us"})").empty());
    CHECK(mlnettest::ScenarioParseError(R"({"cc": {"rateAi": "0Gbps"}, "duration": "1ms"})")
              .rfind("scenario: cc.rateAi = \"0Gbps\": must be a rate in [1bps, 1Pbps]", 0) == 0);
    // The scenario default has the entries' string form too, and names it in its errors.
    CHECK(mlnettest::ScenarioParseError(R"({"cc": "cubic", "duration": "1ms"})")
              .rfind("scenario: cc.variant = \"cubic\": must be one of dcqcn, dcqcn-vendor, "
                     "fixed",
                     0) == 0);
    CHECK(mlnettest::ScenarioParseError(R"({"cc": 3, "duration": "1ms"})")
              .rfind("scenario: cc = 3: must be a string (the variant) or a JSON object", 0) == 0);
    // An unknown top-level key lists every accepted one, the parts' sections included.
    const std::string unknown = mlnettest::ScenarioParseError(R"({"duration": "1ms", "zzz": 1})");
    INFO(unknown);
    CHECK(unknown.rfind("scenario: zzz: unknown key (accepted: ", 0) == 0);
    for (const char* key : {"cc", "host", "scheduler", "aggregation", "topology", "duration"})
    {
        CHECK(unknown.find(" " + std::string(key) + ",") != std::string::npos);
    }
    CHECK(unknown.find(" traffic)") != std::string::npos);
}

TEST_CASE("helper: a top-level \"cc\" string sets the scenario's default variant", "[helper]")
{
    const ScenarioResult r = mlnettest::RunScenarioText(
        R"({"topology": {"type": "dumbbell", "left": 1, "right": 1}, "cc": "dcqcn-vendor",
            "traffic": [{"type": "rdma", "src": 0, "dst": 1, "bytes": 1000},
                        {"type": "rdma", "src": 0, "dst": 1, "bytes": 1000, "cc": "dcqcn"}],
            "duration": "10us"})");
    REQUIRE(r.summary.congestionControl.size() == 2);
    CHECK(r.summary.congestionControl[0].typeId == "ns3::DcqcnVendor"); // the default
    CHECK(r.summary.congestionControl[1].typeId == "ns3::Dcqcn");       // the entry wins
}
