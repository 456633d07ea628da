/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Inputs that used to crash the scenario parser or gave unclear messages: every one is now a
// one-line std::invalid_argument naming the key and what is accepted.

#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"
#include "ns3/node-list.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

using namespace ns3;
using mlnettest::ScenarioParseError;

namespace
{
/// A two-host dumbbell scenario with extra topology keys and traffic entries.
std::string
Scenario2(const std::string& topologyExtra, const std::string& traffic = "[]")
{
    return R"({"topology": {"type": "dumbbell")" + topologyExtra + R"(}, "traffic": )" + traffic +
           R"(, "duration": "10us"})";
}
} // namespace

TEST_CASE("helper: rates with binary prefixes parse in every rate key", "[helper]")
{
    // These passed validation and then aborted inside ns-3's DataRate (exit 134).
    for (const char* r : {"10Gibps", "10GiBps", "10MiBps", "10Kibps", "10kib/s", "10kiB/s"})
    {
        INFO(r);
        const std::string rate = std::string("\"") + r + "\"";
        ScenarioConfig cfg = Scenario::ParseString(
            Scenario2(R"(, "hostLinkRate": )" + rate + R"(, "fabricLinkRate": )" + rate));
        CHECK(cfg.topology.hostLinkRate.GetBitRate() == UnitParser::RateBps(r));
        CHECK(cfg.topology.fabricLinkRate.GetBitRate() == UnitParser::RateBps(r));
        cfg = Scenario::ParseString(
            Scenario2("", R"([{"type": "constant", "src": 0, "dst": 1, "rate": )" + rate + "}]"));
        CHECK(cfg.traffic.size() == 1);
    }
    CHECK(ScenarioParseError(Scenario2(R"(, "hostLinkRate": "10Gibs")")) ==
          std::string("scenario: topology.hostLinkRate = \"10Gibs\": ") + UnitParser::RATE_SYNTAX);
}

TEST_CASE("helper: 100,000 nested levels are refused without a crash", "[helper]")
{
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    const std::string e = ScenarioParseError(deep);
    CHECK(e.find("deeper than 64 levels") != std::string::npos);
    CHECK(e.size() < 200);
    const std::string deepObject =
        R"({"name": )" + std::string(70, '[') + std::string(70, ']') + "}";
    CHECK(ScenarioParseError(deepObject).find("name[0][0]") != std::string::npos);
    // A deep document built in C++ (no text) is refused too.
    nlohmann::json j = nlohmann::json::array();
    for (int i = 0; i < 100000; ++i)
    {
        j = nlohmann::json::array({std::move(j)});
    }
    CHECK_THROWS_WITH(Scenario::Parse(j), Catch::Contains("deeper than 64 levels"));
    // 64 levels are fine as far as nesting goes (then the value is wrong, with a short message).
    const std::string ok =
        R"({"duration": "1us", "name": )" + std::string(63, '[') + std::string(63, ']') + "}";
    CHECK(ScenarioParseError(ok).find("scenario: name = [[[[[[[") == 0);
}

TEST_CASE("helper: numbers, duplicate keys, byte counts and directories", "[helper]")
{
    CHECK(ScenarioParseError(R"({"seed": 1e400, "duration": "1us"})") ==
          "scenario: test.json: invalid JSON: number overflow parsing '1e400' (numbers must "
          "fit a 64-bit integer or a double)");
    CHECK(ScenarioParseError(R"({"seed": 1, "seed": 2, "duration": "1us"})") ==
          "scenario: test.json: seed: duplicate key (each key may appear once)");
    CHECK(ScenarioParseError(
              Scenario2("", R"([{"type": "constant", "src": 0, "dst": 1, "rate": "1Gbps"},
                      {"type": "constant", "src": 0, "dst": 1, "dst": 0, "rate": "1Gbps"}])")) ==
          "scenario: test.json: traffic[1].dst: duplicate key (each key may appear once)");
    // An over-long byte count said only "stod".
    const std::string e = ScenarioParseError(
        Scenario2("",
                  R"([{"type": "constant", "src": 0, "dst": 1, "rate": "1Gbps", "bytes": ")" +
                      std::string(400, '9') + R"( B"}])"));
    CHECK(e.find("scenario: traffic[0].bytes = \"9999") == 0);
    CHECK(e.find("must be a byte count in [0, 1125899906842624]") != std::string::npos);
    // A directory was "invalid JSON".
    const std::string dir = std::filesystem::temp_directory_path().string();
    CHECK_THROWS_WITH(Scenario::Load(dir),
                      "scenario: cannot read '" + dir + "': it is a directory, not a JSON file");
    CHECK_THROWS_WITH(Scenario::Load("/nonexistent/x.json"),
                      "scenario: cannot open '/nonexistent/x.json': No such file or directory");
}

TEST_CASE("helper: the scenario parser takes its ranges from the shared InputLimits table",
          "[helper]")
{
    const std::string rdma = R"([{"type": "rdma", "src": 0, "dst": 1, "bytes": 1000, "priority": )";
    CHECK(ScenarioParseError(Scenario2("", rdma + "6}]")).empty());
    CHECK(ScenarioParseError(Scenario2("", rdma + "7}]")) ==
          "scenario: traffic[0].priority = 7: must be an integer in [0, 6] (class 7 is "
          "reserved for ACK/CNP)");
    const std::string job =
        R"([{"type": "periodic-job", "src": 0, "dst": 1, "compute": "1us", "bytes": 1000,
               "iterations": 1, "iterGainSlope": )";
    CHECK(ScenarioParseError(Scenario2("", job + "100}]")).empty());
    CHECK(ScenarioParseError(Scenario2("", job + "1e9}]")) ==
          "scenario: traffic[0].iterGainSlope = 1000000000.0: must be a number in [-100, "
          "100]");
    CHECK(InputLimits::RDMA_PRIORITY.hi == 6);
    CHECK(InputLimits::ITER_GAIN_SLOPE.hi == 100);
    // Ranges read from attribute checkers (the switch buffer), shared with Python.
    const UintLimit buffer = InputLimits::UintOfAttribute(FabricSwitch::GetTypeId(), "BufferSize");
    CHECK(buffer.lo == 64 * 1024);
    CHECK(buffer.hi == uint64_t(1) << 34);
    CHECK(ScenarioParseError(R"({"duration": "1us", "fabric": {"bufferSize": 1000}})") ==
          "scenario: fabric.bufferSize = 1000: must be a byte count in [65536, 17179869184] "
          "(an integer, or a string like \"4MB\"; units B, KB, MB, GB, TB, KiB, MiB, GiB, "
          "TiB)");
    // Node names are one function (ports.csv and Python).
    FabricTopologyHelper h;
    FabricTopology t = h.BuildDumbbell(1, 1);
    const auto names = t.NodeNames();
    CHECK(names.at(t.edge.Get(0)->GetId()) == "edge0");
    CHECK(names.at(t.hosts.Get(1)->GetId()) == "host1");
    Simulator::Destroy();
}

TEST_CASE("helper: topologies past the measured build limit are refused before building",
          "[helper]")
{
    // k = 48 (79.6 M routes) is the largest fat-tree; a bigger one, or as many routes in
    // another shape, is refused by the parser and by the topology helper alike.
    CHECK(ScenarioParseError(R"({"duration": "1us", "topology": {"k": 48}})").empty());
    CHECK(ScenarioParseError(R"({"duration": "1us", "topology": {"k": 50}})") ==
          "scenario: topology.k = 50: must be an even integer in [2, 48]");
    CHECK(ScenarioParseError(R"({"duration": "1us", "topology": {"type": "leaf-spine",
            "leaves": 1024, "spines": 256, "hostsPerLeaf": 64}})") ==
          "scenario: topology.hostsPerLeaf = 64: must keep switches x hosts at most 80000000 "
          "(the routes every switch holds; it has 1280 x 65536)");
    FabricTopologyHelper h;
    const uint32_t nodes = NodeList::GetNNodes();
    REQUIRE_THROWS_WITH(h.BuildFatTree(50), Catch::Contains("k = 50 is out of range [2, 48]"));
    REQUIRE_THROWS_WITH(h.BuildLeafSpine(1024, 256, 64),
                        Catch::Contains("1280 switches x 65536 hosts = 83886080 routes"));
    CHECK(NodeList::GetNNodes() == nodes);
    Simulator::Destroy();
}
