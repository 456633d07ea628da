/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// In-network aggregation from a JSON scenario: the "aggregation" section and the "ina" mode of
// data-parallel jobs.

#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>

using namespace ns3;
using mlnettest::RunScenarioText;
using mlnettest::ScenarioParseError;

namespace
{
/// A leaf-spine scenario with an aggregation section and one ina job (placeholders filled in).
std::string
Text(const std::string& section, const std::string& job)
{
    return R"({"topology": {"type": "leaf-spine", "leaves": 2, "spines": 2, "hostsPerLeaf": 2,
                            "hostLinkRate": "10Gbps", "fabricLinkRate": "10Gbps"},
               "aggregation": )" +
           section + R"(,
               "traffic": [{"type": "data-parallel-job", "hosts": [0, 1, 2, 3], "mode": "ina",
                            "model": "cifarnet", "iterations": 2)" +
           job + "}], \"duration\": \"1ms\", \"drain\": \"200ms\"}";
}
} // namespace

TEST_CASE("aggregation: scenario keys are checked with one-line errors", "[aggregation]")
{
    REQUIRE(ScenarioParseError(Text(R"({"placement": "devices"})", "")) == "");
    REQUIRE(ScenarioParseError(Text(R"({"lanes": 0})", "")).find("aggregation.lanes = 0") !=
            std::string::npos);
    REQUIRE(ScenarioParseError(Text(R"({"clockMHz": 0.5})", "")).find("aggregation.clockMHz") !=
            std::string::npos);
    REQUIRE(ScenarioParseError(Text(R"({"tiers": ["agg"]})", "")).find("aggregation.tiers") !=
            std::string::npos);
    REQUIRE(
        ScenarioParseError(Text(R"({"placement": "racks"})", "")).find("aggregation.placement") !=
        std::string::npos);
    REQUIRE(ScenarioParseError(Text("{}", R"(, "trees": 0)")).find("traffic[0].trees = 0") !=
            std::string::npos);
    REQUIRE(ScenarioParseError(Text("{}", R"(, "aggregationCc": "cubic")"))
                .find("traffic[0].aggregationCc") != std::string::npos);
    REQUIRE(ScenarioParseError(Text("{}", R"(, "bogus": 1)")).find("bogus") != std::string::npos);
    // "ina" needs the section.
    std::string noSection = R"({"topology": {"type": "leaf-spine"}, "duration": "1ms",
        "traffic": [{"type": "data-parallel-job", "hosts": [0, 1], "mode": "ina",
                     "iterations": 1}]})";
    REQUIRE(ScenarioParseError(noSection).find("needs an \"aggregation\" section") !=
            std::string::npos);
}

TEST_CASE("aggregation: a scenario trains a job through bump-in-the-wire devices", "[aggregation]")
{
    for (std::string section : {R"({"placement": "devices", "lanes": 16, "clockMHz": 300})",
                                R"({"placement": "switches"})"})
    {
        ScenarioResult r = RunScenarioText(Text(section, R"(, "trees": 2)"));
        REQUIRE(r.iterations.size() == 2);
        for (const auto& it : r.iterations)
        {
            REQUIRE(it.Duration() >= it.compute);
        }
        // The last iteration waits for its gradients (cifarnet: 1.76 M parameters, 7 MB, 5.6 ms
        // at 10 Gb/s).
        REQUIRE(r.iterations.back().Duration() > r.iterations.back().compute);
    }
}
