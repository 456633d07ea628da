/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The "host" scenario section: validation with one-line errors, installation on the hosts.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{
std::string
ScenarioText(const std::string& host)
{
    return R"({"topology": {"type": "leaf-spine", "leaves": 2, "spines": 1, "hostsPerLeaf": 2},
               "duration": "1ms", "host": )" +
           host + R"(, "traffic": []})";
}

std::string
ParseError(const std::string& host)
{
    try
    {
        Scenario::ParseString(ScenarioText(host));
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}
} // namespace

TEST_CASE("host: scenario section is validated with one-line errors", "[host]")
{
    REQUIRE(ParseError(R"({"pageSize": 6000})").find("host.pageSize") != std::string::npos);
    REQUIRE(ParseError(R"({"pcieLanes": 3})").find("host.pcieLanes") != std::string::npos);
    REQUIRE(ParseError(R"({"pcieLanes": 0})").find("host.pcieLanes") != std::string::npos);
    REQUIRE(ParseError(R"({"memoryAppDemand": -0.5})").find("host.memoryAppDemand") !=
            std::string::npos);
    REQUIRE(ParseError(R"({"hosts": [9]})").find("host.hosts") != std::string::npos);
    REQUIRE(ParseError(R"({"overrides": [{"memoryAppDemand": 0.5}]})").find("hosts") !=
            std::string::npos);
    REQUIRE(ParseError(R"({"bogus": 1})").find("bogus") != std::string::npos);
    REQUIRE(ParseError(R"({"pageSize": "2MiB", "memoryAppDemand": 0.5,
                          "overrides": [{"hosts": [3], "memoryAppDemand": 1.0}],
                          "demandChanges": [{"at": "0.5ms", "memoryAppDemand": 0.2}]})")
                .empty());
}

TEST_CASE("host: scenario section installs the host path with per-host overrides", "[host]")
{
    ScenarioRunner runner(Scenario::ParseString(ScenarioText(
        R"({"hosts": [0, 3], "memoryAppDemand": 0.5,
            "overrides": [{"hosts": [3], "memoryAppDemand": 1.0, "pageSize": "2MiB"}]})")));
    // Build and run (no traffic): the hosts get their paths; the run ends with Destroy().
    ScenarioResult r = runner.Run();
    REQUIRE(r.summary.drained);
}
