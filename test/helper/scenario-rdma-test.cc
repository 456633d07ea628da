/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The scenario runner's RDMA traffic types: queue-pair flows and periodic training jobs.

#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

using namespace ns3;

namespace
{
std::string
Dumbbell(const std::string& traffic, const std::string& duration)
{
    return R"({"topology": {"type": "dumbbell", "left": 2, "right": 2}, "traffic": )" + traffic +
           R"(, "duration": ")" + duration + R"(", "drain": "50ms"})";
}

} // namespace

TEST_CASE("helper: an rdma flow in a scenario completes at the transport's goodput", "[helper]")
{
    ScenarioResult r = mlnettest::RunScenarioText(
        Dumbbell(R"([{"type": "rdma", "src": 0, "dst": 2, "bytes": 10000000}])", "1ms"));
    REQUIRE(r.flows.size() == 1);
    const FlowStatsRecord& f = r.flows[0];
    REQUIRE(f.type == "rdma");
    // 10,000 packets of 1000 payload bytes + 44 bytes of IPv4/UDP/BTH/ICRC, nothing resent.
    REQUIRE(f.deliveredBytes == 10000000);
    REQUIRE(f.txPackets == 10000);
    REQUIRE(f.txBytes == 10000 * 1044);
    REQUIRE(f.rxPackets == 10000);
    REQUIRE(f.rxBytes == f.txBytes);
    REQUIRE(f.retransmitted == 0);
    REQUIRE(f.srcPort >= 49152);
    REQUIRE(f.firstRxNs > 0);
    REQUIRE(f.lastRxNs < f.completedNs); // the ACK of the last packet completes the message
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
        REQUIRE(f.deliveredBytes == 5000000);
        REQUIRE(f.rxPackets == 5000);
    }
    std::ostringstream os;
    StatsWriter::WriteIterationsCsv(os, r.iterations);
    const std::string csv = os.str();
    REQUIRE(std::count(csv.begin(), csv.end(), '\n') == 11);
}

TEST_CASE("helper: a periodic job's computeCv draws jittered compute times from the seed",
          "[helper]")
{
    const std::string traffic = R"([{"type": "periodic-job", "src": 0, "dst": 2, "compute": "100us",
               "bytes": 1000, "iterations": 200, "computeCv": 0.2},
              {"type": "periodic-job", "src": 1, "dst": 3, "compute": "100us",
               "bytes": 1000, "iterations": 200}])";
    auto computeTimes = [&](uint32_t seed) {
        std::string text = Dumbbell(traffic, "1ms");
        text.insert(1, R"("seed": )" + std::to_string(seed) + ", ");
        ScenarioResult r = mlnettest::RunScenarioText(text);
        std::vector<double> jittered;
        for (const IterationRecord& it : r.iterations)
        {
            if (it.job == "periodic-job1")
            {
                REQUIRE(it.compute == MicroSeconds(100)); // no key: no jitter
            }
            else
            {
                jittered.push_back(it.compute.GetSeconds() * 1e6);
            }
        }
        return jittered;
    };
    const std::vector<double> a = computeTimes(1);
    REQUIRE(a.size() == 200);
    double sum = 0;
    double sq = 0;
    for (double c : a)
    {
        REQUIRE(c >= 0);
        REQUIRE(c <= 200);
        sum += c;
        sq += c * c;
    }
    const double mean = sum / a.size();
    const double sd = std::sqrt(sq / a.size() - mean * mean);
    INFO("mean " << mean << " us, sd " << sd << " us");
    // Normal(0, 0.2^2) relative jitter: mean 100 us, sd 20 us (200 draws: within ~3 standard
    // errors)
    CHECK(mean == Approx(100).margin(5));
    CHECK(sd == Approx(20).margin(4));
    CHECK(computeTimes(1) == a); // the same run repeats
    CHECK(computeTimes(2) != a); // the seed (RngRun) changes the draws
    CHECK(mlnettest::ScenarioParseError(
              Dumbbell(R"([{"type": "periodic-job", "src": 0, "dst": 2, "compute": "1ms",
                            "bytes": 1, "iterations": 1, "computeCv": 1.5}])",
                       "1ms"))
              .rfind("scenario: traffic[0].computeCv = 1.5", 0) == 0);
}

TEST_CASE("helper: bad rdma entries give one-line errors", "[helper]")
{
    CHECK(
        mlnettest::ScenarioParseError(Dumbbell(R"([{"type": "rdma", "src": 0, "dst": 2}])", "1ms"))
            .rfind("scenario: traffic[0].bytes: missing; must be a byte count in [1, "
                   "1125899906842624]",
                   0) == 0);
    CHECK(
        mlnettest::ScenarioParseError(
            Dumbbell(R"([{"type": "rdma", "src": 0, "dst": 2, "bytes": 1, "cc": "cubic"}])", "1ms"))
            .rfind("scenario: traffic[0].cc = \"cubic\": must be one of", 0) == 0);
    CHECK(
        mlnettest::ScenarioParseError(
            Dumbbell(R"([{"type": "rdma", "src": 0, "dst": 2, "bytes": 1, "aggressiveness": 20}])",
                     "1ms"))
            .rfind("scenario: traffic[0].aggressiveness = 20", 0) == 0);
    CHECK(mlnettest::ScenarioParseError(
              Dumbbell(R"([{"type": "periodic-job", "src": 0, "dst": 2, "compute": "1ms",
                                  "bytes": 1}])",
                       "1ms"))
              .rfind("scenario: traffic[0].iterations: missing", 0) == 0);
}

namespace
{
/// What every port put on the wire and what hosts received, seen through the devices' trace
/// sources (independently of the counters the runner reads).
struct WireProbe
{
    uint64_t ipv4Frames{0};        //!< IPv4 frames transmitted by any port
    uint64_t hostIpv4Frames{0};    //!< IPv4 frames transmitted by host ports
    uint64_t hostDataPackets{0};   //!< RoCE data packets transmitted by host ports
    uint64_t hostDataBytes{0};     //!< their IPv4 bytes
    uint64_t hostCeDataPackets{0}; //!< RoCE data packets carrying CE received by host ports

    static bool IsRoceData(Ptr<const Packet> p, FlowKey& key)
    {
        uint8_t b[29];
        if (!key.Parse(*p) || key.dport != RoceHeader::kUdpPort || p->CopyData(b, 29) < 29)
        {
            return false;
        }
        return b[28] <= RoceHeader::WRITE_ONLY; // BTH opcode after IPv4 (20) + UDP (8)
    }

    void OnSwitchTx(Ptr<const Packet> p)
    {
        FlowKey key;
        ipv4Frames += key.Parse(*p) ? 1 : 0;
    }

    void OnHostTx(Ptr<const Packet> p)
    {
        FlowKey key;
        if (!key.Parse(*p))
        {
            return;
        }
        ipv4Frames++;
        hostIpv4Frames++;
        if (IsRoceData(p, key))
        {
            hostDataPackets++;
            hostDataBytes += p->GetSize();
        }
    }

    void OnHostRx(Ptr<const Packet> p)
    {
        FlowKey key;
        hostCeDataPackets += IsRoceData(p, key) && key.ecn == 3 ? 1 : 0;
    }
};

WireProbe g_probe;

/// Traffic type "test-wire-probe": connects g_probe to every port of the topology.
class WireProbeSpec : public TrafficSpec
{
  public:
    void Install(TrafficContext& ctx) const override
    {
        g_probe = WireProbe();
        const FabricTopology& t = ctx.Topology();
        for (uint32_t h = 0; h < t.hosts.GetN(); ++h)
        {
            Ptr<FabricNetDevice> dev = t.HostDevice(h);
            dev->TraceConnectWithoutContext("PhyTxBegin",
                                            MakeCallback(&WireProbe::OnHostTx, &g_probe));
            dev->TraceConnectWithoutContext("MacRx", MakeCallback(&WireProbe::OnHostRx, &g_probe));
        }
        for (uint32_t s = 0; s < t.switches.GetN(); ++s)
        {
            Ptr<FabricSwitch> sw = t.switches.Get(s)->GetObject<FabricSwitch>();
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                sw->GetPort(p)->TraceConnectWithoutContext(
                    "PhyTxBegin",
                    MakeCallback(&WireProbe::OnSwitchTx, &g_probe));
            }
        }
    }
};

TrafficRegistry::Registrar g_wireProbe("test-wire-probe",
                                       [](ScenarioObject&, const ScenarioConfig&) {
                                           return std::make_shared<WireProbeSpec>();
                                       });

/// 8 RDMA senders into host 8 on a dumbbell (plus the probe), PFC and ECN on.
std::string
Incast(const std::string& fabric,
       const std::string& bytes,
       const std::string& duration,
       const std::string& drain)
{
    std::string traffic = R"([{"type": "test-wire-probe"})";
    for (int i = 0; i < 8; ++i)
    {
        traffic += R"(, {"type": "rdma", "src": )" + std::to_string(i) +
                   R"(, "dst": 8, "bytes": ")" + bytes + R"("})";
    }
    return R"({"topology": {"type": "dumbbell", "left": 8, "right": 1}, "fabric": )" + fabric +
           R"(, "traffic": )" + traffic + R"(], "duration": ")" + duration + R"(", "drain": ")" +
           drain + R"("})";
}
} // namespace

TEST_CASE("helper: RDMA flow records and the summary come from real counters (incast)", "[helper]")
{
    ScenarioResult r = mlnettest::RunScenarioText(
        Incast(R"({"kmin": "20KB", "kmax": "200KB"})", "2MB", "100us", "20ms"));
    const RunSummary& s = r.summary;
    REQUIRE(r.flows.size() == 8);
    REQUIRE(s.drained);
    REQUIRE(s.flowsCompleted == 8);
    uint64_t txPackets = 0;
    uint64_t txBytes = 0;
    uint64_t ce = 0;
    for (const FlowStatsRecord& f : r.flows)
    {
        CHECK(f.deliveredBytes == 2000000);
        CHECK(f.txPackets == 2000 + f.retransmitted);
        CHECK(f.rxPackets == f.txPackets); // lossless: everything sent arrived
        CHECK(f.rxBytes == f.txBytes);
        CHECK(f.firstRxNs > f.startNs);
        CHECK(f.lastRxNs >= f.firstRxNs);
        CHECK(f.srcPort != 0);
        txPackets += f.txPackets;
        txBytes += f.txBytes;
        ce += f.ceMarked;
    }
    // Bytes sent = bytes the NICs put on the wire (not the posted size).
    CHECK(s.bytesSent == txBytes);
    CHECK(s.bytesSent == g_probe.hostDataBytes);
    CHECK(s.packetsSent == g_probe.hostDataPackets);
    CHECK(s.packetsSent == txPackets);
    // CE: what the flows' receivers saw = what arrived at the hosts = what the one congested
    // switch port marked (lossless, so every marked packet arrives).
    INFO("ECN marks " << s.ecnMarks << ", CE received " << s.ceReceived);
    CHECK(s.ecnMarks > 100);
    CHECK(s.ceReceived == ce);
    CHECK(s.ceReceived == g_probe.hostCeDataPackets);
    CHECK(s.ceReceived == s.ecnMarks);
    // Packet-hops: every port's IPv4 transmissions, hosts' (data, ACKs, CNPs) included.
    CHECK(s.packetHops == g_probe.ipv4Frames);
    CHECK(s.packetHops == s.packetsForwarded + g_probe.hostIpv4Frames);
    CHECK(g_probe.hostIpv4Frames > s.packetsSent); // ACKs and CNPs are host transmissions too
    CHECK(s.BytesInFlight() == 0);
}

TEST_CASE("helper: runs drain on the transports' state, and a cut-off run says so", "[helper]")
{
    SECTION("without PFC, lost packets are resent and the run waits for every message")
    {
        // The case of issue 8: 3 x 1 MB into one port, lossy, 256 KiB buffer, 500 us of traffic.
        // Tail drops that no later packet reports by a NAK wait for the retransmission timeout
        // (67.1 ms by default): a drain longer than the default 10 ms.
        ScenarioResult r = mlnettest::RunScenarioText(
            R"({"topology": {"type": "dumbbell", "left": 3, "right": 1},
                "fabric": {"pfc": false, "bufferSize": "256KiB"},
                "traffic": [{"type": "rdma", "src": 0, "dst": 3, "bytes": "1MB"},
                            {"type": "rdma", "src": 1, "dst": 3, "bytes": "1MB"},
                            {"type": "rdma", "src": 2, "dst": 3, "bytes": "1MB"}],
                "duration": "500us", "drain": "1s"})");
        const RunSummary& s = r.summary;
        INFO("stopped at " << s.simulatedSeconds * 1e3 << " ms");
        CHECK(s.drained);
        for (const std::string& w : s.warnings)
        {
            // timeouts that recover drops are said to be such
            CHECK(w.find("RDMA retransmission timeouts") != std::string::npos);
            CHECK(w.find("which they recover") != std::string::npos);
        }
        CHECK(s.flowsCompleted == 3);
        CHECK(s.bytesDropped > 0);
        CHECK(s.retransmitted > 0);
        CHECK(s.bytesDelivered == 3000000);
        CHECK(s.BytesInFlight() == 0);
        // the last flow needs go-back-N rounds past 0.5 ms, at least one after a timeout
        CHECK(s.simulatedSeconds > 0.5e-3 + 67.108864e-3);
        for (const FlowStatsRecord& f : r.flows)
        {
            CHECK(f.txPackets == f.rxPackets + (f.txBytes - f.rxBytes) / 1044);
            CHECK(s.simulatedSeconds * 1e9 >= double(f.completedNs));
        }
    }
    SECTION("spurious retransmission timeouts under PFC are reported as a warning")
    {
        // 8 x 1 MB into one host, lossless: the queue before the host's port delays packets
        // (each queue pair's window of packets waits behind the others'). A 5 us timeout fires
        // with no drop and no PFC pause.
        std::string text = R"({"topology": {"type": "dumbbell", "left": 8, "right": 1},
                "cc": "fixed", "traffic": [)";
        for (int i = 0; i < 8; ++i)
        {
            text += std::string(i ? "," : "") + R"({"type": "rdma", "src": )" + std::to_string(i) +
                    R"(, "dst": 8, "bytes": "1MB"})";
        }
        text += R"(], "duration": "10us"})";
        TypeId::AttributeInformation rto;
        REQUIRE(
            TypeId::LookupByName("ns3::RdmaNic").LookupAttributeByName("RetransmitTimeout", &rto));
        Config::SetDefault("ns3::RdmaNic::RetransmitTimeout", TimeValue(MicroSeconds(5)));
        ScenarioResult r = mlnettest::RunScenarioText(text);
        Config::SetDefault("ns3::RdmaNic::RetransmitTimeout", *rto.initialValue);
        const RunSummary& s = r.summary;
        CHECK(s.drained);
        CHECK(s.bytesDropped == 0);
        CHECK(s.flowsCompleted == 8);
        CHECK(s.retransmitted > 0);
        REQUIRE(s.warnings.size() == 1);
        INFO(s.warnings[0]);
        CHECK(s.warnings[0].find("RDMA retransmission timeouts on ") != std::string::npos);
        CHECK(s.warnings[0].find("RetransmitTimeout = +0.005ms") != std::string::npos);
        CHECK(s.warnings[0].find("no packet was dropped, so they are spurious") !=
              std::string::npos);
        // the default timeout (67.1 ms) is above that delay: no timeout, no warning
        ScenarioResult quiet = mlnettest::RunScenarioText(text);
        CHECK(quiet.summary.retransmitted == 0);
        CHECK(quiet.summary.warnings.empty());
    }
    SECTION("a message that cannot finish stops at the drain limit with a warning")
    {
        ScenarioResult r = mlnettest::RunScenarioText(
            R"({"topology": {"type": "dumbbell", "left": 1, "right": 1},
                "traffic": [{"type": "rdma", "src": 0, "dst": 1, "bytes": "1000000GB"}],
                "duration": "100us", "drain": "100us"})");
        const RunSummary& s = r.summary;
        REQUIRE(r.flows.size() == 1);
        CHECK_FALSE(s.drained);
        REQUIRE(s.warnings.size() == 1);
        CHECK(s.warnings[0].find("drain limit reached") == 0);
        CHECK(s.simulatedSeconds == Approx(200e-6).margin(11e-6));
        CHECK_FALSE(r.flows[0].Completed());
        // Bytes sent are what went on the wire in 200 us at 100 Gb/s, not the posted 1 PB.
        const double wire = 100e9 * 200e-6 / 8 * 1044 / 1082;
        CHECK(double(s.bytesSent) == Approx(wire).epsilon(0.01));
        std::ostringstream js;
        StatsWriter::WriteSummaryJson(js, s, "");
        CHECK(js.str().find("\"drained\": false") != std::string::npos);
        CHECK(js.str().find("drain limit reached") != std::string::npos);
    }
}
