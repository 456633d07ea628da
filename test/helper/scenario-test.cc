/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Scenario files: the documented one-line errors for bad input, and small scenario runs
// (conservation of bytes, consistent summaries, goodput of a single flow, the writers).

#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace ns3;

namespace
{
size_t
CountLines(const std::string& s)
{
    size_t n = 0;
    for (char c : s)
    {
        n += c == '\n' ? 1 : 0;
    }
    return n;
}

/// A dumbbell scenario with the given traffic entries.
std::string
Dumbbell(uint32_t left,
         uint32_t right,
         const std::string& fabric,
         const std::string& traffic,
         const std::string& duration)
{
    return R"({"topology": {"type": "dumbbell", "left": )" + std::to_string(left) +
           R"(, "right": )" + std::to_string(right) + R"(}, "fabric": )" + fabric +
           R"(, "traffic": )" + traffic + R"(, "duration": ")" + duration + R"("})";
}
} // namespace

TEST_CASE("helper: bad scenarios give the documented one-line errors", "[helper]")
{
    const std::string ok = R"("duration": "1ms")";
    CHECK(mlnettest::ScenarioParseError("{" + ok + R"(, "topolgy": {}})") ==
          "scenario: topolgy: unknown key (accepted: name, topology, fabric, duration, drain, "
          "seed, backend, ringGranularity, output, dataClass, aggregation, cc, fluidCc, "
          "fluidSharing, "
          "host, scheduler, traffic)");
    CHECK(mlnettest::ScenarioParseError("{" + ok + R"(, "topology": {"k": 5}})") ==
          "scenario: topology.k = 5: must be an even integer in [2, 48]");
    CHECK(mlnettest::ScenarioParseError("{" + ok + R"(, "topology": {"k": 66}})") ==
          "scenario: topology.k = 66: must be an even integer in [2, 48]");
    CHECK(mlnettest::ScenarioParseError("{" + ok + R"(, "topology": {"k": "4"}})") ==
          "scenario: topology.k = \"4\": must be an even integer in [2, 48]");
    CHECK(mlnettest::ScenarioParseError("{" + ok + R"(, "topology": {"type": "torus"}})") ==
          "scenario: topology.type = \"torus\": must be one of fat-tree, leaf-spine, dumbbell");
    CHECK(mlnettest::ScenarioParseError("{" + ok +
                                        R"(, "topology": {"type": "dumbbell", "k": 4}})") ==
          "scenario: topology.k: unknown key (accepted: type, left, right, hostLinkRate, "
          "fabricLinkRate, linkDelay)");
    CHECK(mlnettest::ScenarioParseError("{" + ok + R"(, "seed": -1})") ==
          "scenario: seed = -1: must be an integer in [1, 4294967295]");
    CHECK(mlnettest::ScenarioParseError("{" + ok + R"(, "fabric": {"pmax": 1.5}})") ==
          "scenario: fabric.pmax = 1.5: must be a number in [0, 1]");
    CHECK(mlnettest::ScenarioParseError("{" + ok + R"(, "fabric": {"pfc": "yes"}})") ==
          "scenario: fabric.pfc = \"yes\": must be true or false");
    CHECK(mlnettest::ScenarioParseError("{" + ok + R"(, "fabric": {"kmin": "2MB"}})") ==
          "scenario: fabric.kmin = \"2MB\": must satisfy kmin <= kmax (kmin 2000000 B, kmax "
          "1600000 B)");
    CHECK(mlnettest::ScenarioParseError("{" + ok + R"(, "fabric": {"bufferSize": "1KB"}})") ==
          "scenario: fabric.bufferSize = \"1KB\": must be a byte count in [65536, 17179869184] "
          "(an integer, or a string like \"4MB\"; units B, KB, MB, GB, TB, KiB, MiB, GiB, "
          "TiB)");
    CHECK(mlnettest::ScenarioParseError(R"({"duration": "5 sec"})") ==
          "scenario: duration = \"5 sec\": must be a time like \"5ms\" (a number, then s, ms, "
          "us, ns, ps, min or h) in [1ns, 1000s]");
    CHECK(mlnettest::ScenarioParseError(R"({"seed": 2})") ==
          "scenario: duration: missing; must be a time like \"5ms\" (a number, then s, ms, "
          "us, ns, ps, min or h) in [1ns, 1000s]");
    CHECK(mlnettest::ScenarioParseError(R"([1, 2])") ==
          "scenario: (top level) = [1,2]: must be a JSON object {...}");
}

TEST_CASE("helper: bad traffic entries name the entry and the accepted values", "[helper]")
{
    auto traffic = [](const std::string& entry) {
        return mlnettest::ScenarioParseError(
            Dumbbell(2, 2, "{}", "[{\"type\": \"constant\", " + entry + "}]", "1ms"));
    };
    const std::string rateHint = UnitParser::RATE_SYNTAX;
    CHECK(traffic(R"("src": 0, "dst": 4, "rate": "1Gbps")") ==
          "scenario: traffic[0].dst = 4: must be an integer in [0, 3]");
    CHECK(traffic(R"("src": 1, "dst": 1, "rate": "1Gbps")") ==
          "scenario: traffic[0].dst = 1: must differ from src");
    CHECK(traffic(R"("src": 0, "dst": 1, "rate": "10Gbs")") ==
          "scenario: traffic[0].rate = \"10Gbs\": " + rateHint);
    CHECK(traffic(R"("src": 0, "dst": 1, "rate": "fast")") ==
          "scenario: traffic[0].rate = \"fast\": " + rateHint);
    CHECK(traffic(R"("src": 0, "dst": 1, "rate": "0Gbps")") ==
          "scenario: traffic[0].rate = \"0Gbps\": " + rateHint);
    CHECK(traffic(R"("src": 0, "dst": 1, "rate": 10)") ==
          "scenario: traffic[0].rate = 10: " + rateHint);
    CHECK(traffic(R"("src": 0, "dst": 1)") == "scenario: traffic[0].rate: missing; " + rateHint);
    CHECK(traffic(R"("src": 0, "dst": 1, "rate": "1Gbps", "start": "2ms")") ==
          "scenario: traffic[0].start = \"2ms\": must be a time like \"5ms\" (a number, then s, "
          "ms, us, ns, ps, min or h) in [0ns, 1ms]");
    CHECK(traffic(R"("src": 0, "dst": 1, "rate": "1Gbps", "speed": 1)") ==
          "scenario: traffic[0].speed: unknown key (accepted: type, src, dst, rate, bytes, "
          "start, payload, class, priority, ect)");
    // (the test registers one more type below, so only the built-in ones are checked)
    CHECK(mlnettest::ScenarioParseError(Dumbbell(1, 1, "{}", R"([{"type": "mystery"}])", "1ms"))
              .rfind("scenario: traffic[0].type = \"mystery\": must be one of constant, "
                     "data-parallel-job, periodic-job, permutation, pipeline-job, rdma, "
                     "rdma-permutation, tensor-parallel-job",
                     0) == 0);
    CHECK(mlnettest::ScenarioParseError(Dumbbell(1, 1, "{}", R"({"type": "constant"})", "1ms")) ==
          "scenario: traffic = {\"type\":\"constant\"}: must be a JSON array [...]");
}

TEST_CASE("helper: missing files and bad JSON syntax are reported in one line", "[helper]")
{
    REQUIRE_THROWS_WITH(Scenario::Load("/nonexistent/scenario.json"),
                        "scenario: cannot open '/nonexistent/scenario.json': No such file or "
                        "directory");
    CHECK(mlnettest::ScenarioParseError("{\"duration\": \"1ms\",\n }") ==
          "scenario: test.json: invalid JSON: parse error at line 2, column 2: syntax error "
          "while parsing object key - unexpected '}'; expected string literal");
    for (const std::string& text :
         {std::string("{\"duration\": \"1ms\",\n }"), std::string("{} trailing")})
    {
        const std::string e = mlnettest::ScenarioParseError(text);
        CHECK(e.rfind("scenario: test.json: invalid JSON: ", 0) == 0);
        CHECK(e.find('\n') == std::string::npos);
    }
}

TEST_CASE("helper: a scenario file is read and its values reach the configuration", "[helper]")
{
    const std::string path =
        (std::filesystem::temp_directory_path() / "mlnet-scenario-test.json").string();
    {
        std::ofstream f(path);
        f << R"({"name": "ls", "topology": {"type": "leaf-spine", "leaves": 3, "spines": 2,
                 "hostsPerLeaf": 5, "hostLinkRate": "25Gbps", "linkDelay": "2us"},
                 "fabric": {"bufferSize": "8MiB", "pfc": false, "kmin": 1000, "kmax": "20KB",
                            "scheduler": "dwrr"},
                 "traffic": [{"type": "permutation", "rate": "1Gbps", "bytes": "1MB"}],
                 "duration": "100us", "seed": 7, "output": {"dir": "x", "ports": false}})";
    }
    ScenarioConfig c = Scenario::Load(path);
    std::remove(path.c_str());
    CHECK(c.name == "ls");
    CHECK(c.topology.NumHosts() == 15);
    CHECK(c.topology.hostLinkRate == DataRate("25Gbps"));
    CHECK(c.topology.fabricLinkRate == DataRate("100Gbps"));
    CHECK(c.topology.linkDelay == MicroSeconds(2));
    CHECK(c.duration == MicroSeconds(100));
    CHECK(c.seed == 7);
    CHECK(c.output.dir == "x");
    CHECK_FALSE(c.output.ports);
    CHECK(c.traffic.size() == 1);
    REQUIRE(c.fabric.switchAttributes.size() == 4);
    CHECK(c.fabric.switchAttributes[0].first == "BufferSize");
    CHECK(DynamicCast<UintegerValue>(c.fabric.switchAttributes[0].second)->Get() == 8u << 20);
    REQUIRE(c.fabric.deviceAttributes.size() == 1);
    CHECK(c.fabric.deviceAttributes[0].first == "Scheduler");
}

TEST_CASE("helper: the default scenario runs, conserves bytes and sums up consistently", "[helper]")
{
    ScenarioConfig cfg = Scenario::Default();
    CHECK(cfg.topology.type == "fat-tree");
    CHECK(cfg.topology.NumHosts() == 16);
    cfg.duration = MicroSeconds(200); // the full default runs for 2 ms; keep the test short
    ScenarioResult r = ScenarioRunner(cfg).Run();
    const RunSummary& s = r.summary;

    REQUIRE(r.flows.size() == 16);
    CHECK(s.flows == 16);
    CHECK(s.hosts == 16);
    CHECK(s.switches == 20);
    CHECK(s.bytesSent > 0);
    CHECK(s.bytesSent == s.bytesReceived + s.bytesDropped);
    CHECK(s.BytesInFlight() == 0);
    CHECK(s.bytesDropped == 0); // PFC on: lossless
    CHECK(s.simulatedSeconds >= s.trafficSeconds);
    CHECK(s.trafficSeconds == Approx(200e-6));
    CHECK(s.events > 0);
    CHECK(s.wallSeconds > 0);
    CHECK(s.packetHops == s.packetsSent + s.packetsForwarded); // hosts send only the flows
    CHECK(s.packetsForwarded >= 3 * s.packetsReceived);        // at least 3 switches on every path
    CHECK(s.goodputMinBps <= s.goodputMeanBps);
    CHECK(s.goodputMeanBps <= s.goodputMaxBps);
    CHECK(s.goodputMaxBps <= 80e9 * 1.01);

    // A permutation: every host sends exactly once and receives exactly once.
    std::vector<int> sends(16, 0);
    std::vector<int> receives(16, 0);
    uint64_t sent = 0;
    uint64_t received = 0;
    for (const FlowStatsRecord& f : r.flows)
    {
        CHECK(f.src != f.dst);
        sends[f.src]++;
        receives[f.dst]++;
        sent += f.txBytes;
        received += f.rxBytes;
    }
    CHECK(sends == std::vector<int>(16, 1));
    CHECK(receives == std::vector<int>(16, 1));
    CHECK(sent == s.bytesSent);
    CHECK(received == s.bytesReceived);

    uint64_t forwarded = 0;
    for (const PortStatsRecord& p : r.ports)
    {
        forwarded += p.txPackets;
    }
    CHECK(forwarded == s.packetsForwarded);
    CHECK(r.ports.size() == 20 * 4); // every k=4 switch has 4 ports
}

TEST_CASE("helper: one 10 Gb/s flow over a dumbbell achieves 10 Gb/s goodput", "[helper]")
{
    ScenarioConfig cfg = Scenario::ParseString(
        Dumbbell(1,
                 1,
                 "{}",
                 R"([{"type": "constant", "src": 0, "dst": 1, "rate": "10Gbps"}])",
                 "1ms"));
    ScenarioResult r = ScenarioRunner(cfg).Run();
    REQUIRE(r.flows.size() == 1);
    const FlowStatsRecord& f = r.flows[0];
    CHECK(f.GoodputBps() == Approx(10e9).epsilon(0.02));
    CHECK(f.rxBytes == f.txBytes);
    CHECK(f.reordered == 0);
    CHECK(r.summary.goodputMinBps == r.summary.goodputMaxBps);
}

TEST_CASE("helper: without PFC a small buffer drops, and the summary still balances", "[helper]")
{
    ScenarioConfig cfg = Scenario::ParseString(
        Dumbbell(4,
                 1,
                 R"({"pfc": false, "bufferSize": "256KiB"})",
                 R"([{"type": "constant", "src": 0, "dst": 4, "rate": "50Gbps"},
                     {"type": "constant", "src": 1, "dst": 4, "rate": "50Gbps"},
                     {"type": "constant", "src": 2, "dst": 4, "rate": "50Gbps"},
                     {"type": "constant", "src": 3, "dst": 4, "rate": "50Gbps"}])",
                 "200us"));
    ScenarioResult r = ScenarioRunner(cfg).Run();
    const RunSummary& s = r.summary;
    CHECK(s.bytesDropped > 0);
    CHECK(s.pfcPauses == 0);
    CHECK(s.bytesSent == s.bytesReceived + s.bytesDropped);
}

TEST_CASE("helper: the seed picks the permutation, and the same seed repeats the run", "[helper]")
{
    auto run = [](uint32_t seed) {
        ScenarioConfig cfg = Scenario::ParseString(
            R"({"topology": {"type": "leaf-spine", "leaves": 4, "spines": 2, "hostsPerLeaf": 4},
                "traffic": [{"type": "permutation", "rate": "10Gbps"}], "duration": "20us",
                "seed": )" +
            std::to_string(seed) + "}");
        std::vector<std::pair<uint32_t, uint64_t>> v;
        for (const FlowStatsRecord& f : ScenarioRunner(cfg).Run().flows)
        {
            v.emplace_back(f.dst, f.rxBytes);
        }
        return v;
    };
    const auto a = run(1);
    CHECK(a == run(1));
    CHECK(a != run(2));
}

TEST_CASE("helper: the writers produce one CSV row per record and a parseable summary", "[helper]")
{
    ScenarioConfig cfg = Scenario::ParseString(
        Dumbbell(2,
                 2,
                 "{}",
                 R"([{"type": "permutation", "rate": "5Gbps", "bytes": 20000}])",
                 "50us"));
    ScenarioResult r = ScenarioRunner(cfg).Run();
    CHECK(r.summary.flowsCompleted == 4);
    for (const FlowStatsRecord& f : r.flows)
    {
        CHECK(f.targetBytes == 20 * 1028); // 20000 B rounded up to whole 1028-byte packets
        CHECK(f.Completed());
        CHECK(f.FctNs() > 0);
    }

    std::ostringstream flows;
    StatsWriter::WriteFlowsCsv(flows, r.flows);
    CHECK(CountLines(flows.str()) == 1 + r.flows.size());
    CHECK(flows.str().rfind("id,type,src,dst,", 0) == 0);
    std::ostringstream ports;
    StatsWriter::WritePortsCsv(ports, r.ports);
    CHECK(CountLines(ports.str()) == 1 + r.ports.size());

    std::ostringstream js;
    StatsWriter::WriteSummaryJson(js, r.summary, cfg.json);
    nlohmann::json j = nlohmann::json::parse(js.str());
    CHECK(j["bytesSent"].get<uint64_t>() == r.summary.bytesSent);
    CHECK(j["flows"].get<uint32_t>() == 4);
    CHECK(j["config"]["topology"]["type"] == "dumbbell");

    std::ostringstream table;
    StatsWriter::WriteSummaryTable(table, r.summary);
    CHECK(table.str().find("packet-hops / wall s") != std::string::npos);

    const std::string dir =
        (std::filesystem::temp_directory_path() / "mlnet-scenario-test-out").string();
    std::filesystem::remove_all(dir);
    const auto files = ScenarioRunner::WriteResults(r, cfg, dir);
    CHECK(files.size() == 4); // summary.json, flows.csv, ports.csv, port-classes.csv
    for (const std::string& f : files)
    {
        CHECK(std::filesystem::file_size(f) > 0);
    }
    std::filesystem::remove_all(dir);
}

namespace
{
/// A traffic type registered by the test, as another part of mlnet would register its own.
class TestTrafficSpec : public TrafficSpec
{
  public:
    uint32_t host{0};

    void Install(TrafficContext& ctx) const override
    {
        const uint32_t id = ctx.NewFlowId();
        const uint32_t h = host;
        ctx.AddFlow([id, h]() {
            FlowStatsRecord r;
            r.id = id;
            r.type = "test-null";
            r.src = h;
            r.dst = h;
            return r;
        });
    }
};

std::shared_ptr<const TrafficSpec>
ParseTestTraffic(ScenarioObject& in, const ScenarioConfig& cfg)
{
    auto s = std::make_shared<TestTrafficSpec>();
    s->host = static_cast<uint32_t>(in.Uint("host", 0, cfg.topology.NumHosts() - 1, 0));
    return s;
}

TrafficRegistry::Registrar g_testTraffic("test-null", &ParseTestTraffic);
} // namespace

TEST_CASE("helper: new traffic types plug in through the registry", "[helper]")
{
    const auto types = TrafficRegistry::Types();
    CHECK(std::find(types.begin(), types.end(), "test-null") != types.end());
    CHECK_THROWS_AS(TrafficRegistry::Register("constant", &ParseTestTraffic), std::logic_error);
    CHECK(mlnettest::ScenarioParseError(
              Dumbbell(1, 1, "{}", R"([{"type": "test-null", "host": 2}])", "1ms")) ==
          "scenario: traffic[0].host = 2: must be an integer in [0, 1]");
    CHECK(mlnettest::ScenarioParseError(
              Dumbbell(1, 1, "{}", R"([{"type": "test-null", "x": 2}])", "1ms")) ==
          "scenario: traffic[0].x: unknown key (accepted: type, host)");
    ScenarioConfig cfg = Scenario::ParseString(
        Dumbbell(1, 1, "{}", R"([{"type": "test-null", "host": 1}])", "10us"));
    ScenarioResult r = ScenarioRunner(cfg).Run();
    REQUIRE(r.flows.size() == 1);
    CHECK(r.flows[0].type == "test-null");
    CHECK(r.flows[0].src == 1);
}
