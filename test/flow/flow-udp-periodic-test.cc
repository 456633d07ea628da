/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The UDP constant-rate flows ("constant", "permutation") and periodic jobs at flow level:
// analytical delivery and iteration times, max-min shares, the packet backend's paths and
// bytes, and what "backend": "flow" accepts.

#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <string>

using namespace ns3;

namespace
{
/// A scenario on a dumbbell (100 Gb/s links, 1 us delays) with the given traffic.
std::string
Dumbbell(const std::string& backend,
         uint32_t left,
         const std::string& duration,
         const std::string& traffic)
{
    return R"({"topology": {"type": "dumbbell", "left": )" + std::to_string(left) +
           R"(, "right": 1}, "duration": ")" + duration + R"(", "drain": "1s", "backend": ")" +
           backend + R"(", "traffic": )" + traffic + "}";
}

// The dumbbell's path: 3 links of 100 Gb/s (12.5e9 B/s) and 1 us each.
constexpr double kLinkBytesPerS = 12.5e9;
constexpr double kDelayNs = 1000;
constexpr uint32_t kHops = 3;
// A 1000-byte UDP payload: 1028 IPv4 bytes, 1066 bytes on the wire (Ethernet 14 + FCS 4 +
// preamble 8 + gap 12).
constexpr double kIpBytes = 1028;
constexpr double kFrame = 1066;

/// \param rateBps the flow's IPv4 rate \return its packet interval (ns)
double
IntervalNs(double rateBps)
{
    return 8 * kIpBytes / rateBps * 1e9;
}

/// The last packet of n at rateBps (below the line rate) reaches the far host: sent at
/// (n - 1) intervals, then stored and forwarded at every hop. \return ns after the start
double
LastArrivalNs(uint64_t n, double rateBps)
{
    return double(n - 1) * IntervalNs(rateBps) + kHops * (kDelayNs + kFrame / kLinkBytesPerS * 1e9);
}
} // namespace

TEST_CASE("flow: a constant-rate flow alone is delivered at the analytical time", "[flow]")
{
    // 1000 packets at 40 Gb/s: both backends deliver the last one (n - 1) x 205.6 ns + 3 x
    // (1 us + 85.28 ns) after the start = 208,650.24 ns.
    const std::string traffic =
        R"([{"type": "constant", "src": 0, "dst": 1, "rate": "40Gbps", "bytes": 1028000}])";
    const double expected = LastArrivalNs(1000, 40e9);
    CHECK(expected == Approx(208650.24));
    for (const char* backend : {"flow", "packet"})
    {
        INFO(backend);
        ScenarioResult r = mlnettest::RunScenarioText(Dumbbell(backend, 1, "1ms", traffic));
        REQUIRE(r.flows.size() == 1);
        const FlowStatsRecord& f = r.flows[0];
        CHECK(f.flowLevel == (std::string(backend) == "flow"));
        CHECK(f.srcPort == 10000);
        CHECK(f.targetBytes == 1028000);
        CHECK(f.deliveredBytes == 1028000);
        CHECK(f.Completed());
        CHECK(f.completedNs == f.lastRxNs);
        CHECK(std::abs(double(f.lastRxNs) - expected) <= 2);
        CHECK(r.summary.drained);
    }
}

TEST_CASE("flow: an unlimited constant-rate flow sends until the traffic end", "[flow]")
{
    // No byte count: the source sends while the traffic period (100 us) lasts, one packet
    // every 205.6 ns from 0: 487 packets at packet level; the fluid slices stop at the end too.
    const std::string traffic = R"([{"type": "constant", "src": 0, "dst": 1, "rate": "40Gbps"}])";
    const uint64_t packets = uint64_t(std::ceil(100000 / IntervalNs(40e9)));
    CHECK(packets == 487);
    for (const char* backend : {"flow", "packet"})
    {
        INFO(backend);
        ScenarioResult r = mlnettest::RunScenarioText(Dumbbell(backend, 1, "100us", traffic));
        REQUIRE(r.flows.size() == 1);
        const FlowStatsRecord& f = r.flows[0];
        CHECK(f.targetBytes == 0);
        CHECK(!f.Completed());
        CHECK(std::abs(double(f.deliveredBytes) - double(packets) * kIpBytes) <= kIpBytes);
        // the last packet left before the end: delivered by the end + one path latency
        CHECK(double(f.lastRxNs) <= 100000 + LastArrivalNs(1, 40e9));
        CHECK(r.summary.drained);
    }
}

TEST_CASE("flow: two constant-rate flows over one link get their max-min shares", "[flow]")
{
    // 30 and 90 Gb/s of IPv4 bytes from two hosts to one: on the wire 3.889 and 11.667 GB/s,
    // above the 12.5 GB/s of the shared links. Max-min: the 30 Gb/s flow keeps its rate, the
    // other gets the rest (8.611 GB/s) until the first is done, then its own rate.
    const std::string traffic =
        R"([{"type": "constant", "src": 0, "dst": 2, "rate": "30Gbps", "bytes": 1028000},
            {"type": "constant", "src": 1, "dst": 2, "rate": "90Gbps", "bytes": 4112000}])";
    ScenarioResult r = mlnettest::RunScenarioText(Dumbbell("flow", 2, "2ms", traffic));
    REQUIRE(r.flows.size() == 2);
    const double capA = kFrame / (IntervalNs(30e9) * 1e-9);
    const double capB = kFrame / (IntervalNs(90e9) * 1e-9);
    REQUIRE(capA < kLinkBytesPerS / 2);
    REQUIRE(capA + capB > kLinkBytesPerS);
    const double wireA = 1000 * kFrame;
    const double wireB = 4000 * kFrame;
    const double drainA = wireA / capA;
    const double drainB = drainA + (wireB - (kLinkBytesPerS - capA) * drainA) / capB;
    // Delivery: the drain, less one packet interval, plus the path's store-and-forward.
    const double path = kHops * (kDelayNs + kFrame / kLinkBytesPerS * 1e9);
    CHECK(double(r.flows[0].lastRxNs) == Approx(drainA * 1e9 - IntervalNs(30e9) + path).margin(2));
    CHECK(double(r.flows[1].lastRxNs) == Approx(drainB * 1e9 - IntervalNs(90e9) + path).margin(2));
    INFO("flow A done at " << r.flows[0].lastRxNs << " ns, flow B at " << r.flows[1].lastRxNs);
    CHECK(r.flows[0].deliveredBytes == 1028000);
    CHECK(r.flows[1].deliveredBytes == 4112000);
    // The same with no byte counts over 1 ms: the delivered bytes are the shares.
    const std::string unlimited =
        R"([{"type": "constant", "src": 0, "dst": 2, "rate": "30Gbps"},
            {"type": "constant", "src": 1, "dst": 2, "rate": "90Gbps"}])";
    r = mlnettest::RunScenarioText(Dumbbell("flow", 2, "1ms", unlimited));
    REQUIRE(r.flows.size() == 2);
    const double ipv4 = kIpBytes / kFrame;
    CHECK(double(r.flows[0].deliveredBytes) == Approx(capA * 1e-3 * ipv4).epsilon(2e-3));
    CHECK(double(r.flows[1].deliveredBytes) ==
          Approx((kLinkBytesPerS - capA) * 1e-3 * ipv4).epsilon(2e-3));
    for (const FlowStatsRecord& f : r.flows)
    {
        CHECK(double(f.lastRxNs) < 1e6 + 5000); // stopped sending at the traffic end
    }
    CHECK(r.summary.drained);
}

TEST_CASE("flow: a permutation takes the packet backend's paths and delivers its bytes", "[flow]")
{
    // 16 flows of 2 MB at 40 Gb/s on a k=4 fat-tree (at most two per link: no queue), the same
    // derangement and UDP ports in both backends, so the same ECMP paths: every switch port
    // carries the same bytes (the flow level counts the fluid link's wire bytes as IPv4 bytes
    // of full RDMA packets, 1044/1082, against 1028/1066 for these: 0.055 % apart).
    auto text = [](const std::string& backend) {
        return R"({"topology": {"type": "fat-tree", "k": 4}, "duration": "1ms", "drain": "1s",
                   "seed": 2, "backend": ")" +
               backend + R"(", "traffic": [{"type": "permutation", "rate": "40Gbps",
                   "bytes": "2MB"}]})";
    };
    ScenarioResult flow = mlnettest::RunScenarioText(text("flow"));
    ScenarioResult packet = mlnettest::RunScenarioText(text("packet"));
    REQUIRE(flow.flows.size() == 16);
    REQUIRE(packet.flows.size() == 16);
    for (size_t i = 0; i < 16; ++i)
    {
        const FlowStatsRecord& f = flow.flows[i];
        const FlowStatsRecord& p = packet.flows[i];
        INFO("flow " << i);
        CHECK(f.src == p.src);
        CHECK(f.dst == p.dst);
        CHECK(f.srcPort == p.srcPort);
        CHECK(f.deliveredBytes == p.deliveredBytes);
        CHECK(f.deliveredBytes == 2000488); // 1946 packets of 1028 B
        CHECK(f.Completed());
        // No queue but the frames of the other flow on a shared link: within a microsecond.
        CHECK(std::abs(f.lastRxNs - p.lastRxNs) < 1000);
    }
    REQUIRE(flow.ports.size() == packet.ports.size());
    uint32_t used = 0;
    for (size_t i = 0; i < flow.ports.size(); ++i)
    {
        const PortStatsRecord& f = flow.ports[i];
        const PortStatsRecord& p = packet.ports[i];
        INFO(f.node << " port " << f.port << " to " << f.peer);
        REQUIRE(f.node == p.node);
        REQUIRE(f.port == p.port);
        CHECK(double(f.txBytes) == Approx(double(p.txBytes)).epsilon(1e-3));
        CHECK((f.txBytes == 0) == (p.txBytes == 0));
        used += p.txBytes > 0 ? 1 : 0;
    }
    CHECK(used > 16); // the flows cross the fabric, not only their host links
    CHECK(flow.summary.drained);
}

TEST_CASE("flow: a periodic job's iteration at flow level is compute + drain + latencies", "[flow]")
{
    // 1 MB per iteration on a 3-hop path of 100 Gb/s: 1000 packets of 1000 B payload, 1082 B
    // on the wire each (RDMA headers 44, Ethernet 38) drain in 86.56 us; the last byte arrives
    // 3 x 1 us + 2 frames' store-and-forward (2 x 86.56 ns) later, and the acknowledgement
    // comes back in 3 x (1 us + 84 B / 12.5 GB/s). Iteration = 100 us compute + those.
    const std::string traffic =
        R"([{"type": "periodic-job", "src": 0, "dst": 1, "compute": "100us", "bytes": "1MB",
             "iterations": 5}])";
    const double drain = 1000 * 1082 / kLinkBytesPerS * 1e9;
    const double latency = std::round(kHops * kDelayNs + 2 * 1082 / kLinkBytesPerS * 1e9);
    const double ack = std::round(kHops * (kDelayNs + 84 / kLinkBytesPerS * 1e9));
    const double expected = 100000 + drain + latency + ack;
    CHECK(expected == Approx(192753).margin(1));
    ScenarioResult flow = mlnettest::RunScenarioText(Dumbbell("flow", 1, "1us", traffic));
    REQUIRE(flow.iterations.size() == 5);
    for (const IterationRecord& it : flow.iterations)
    {
        CHECK(double(it.Duration().GetNanoSeconds()) == Approx(expected).margin(2));
        CHECK(it.compute == MicroSeconds(100));
    }
    REQUIRE(flow.flows.size() == 1);
    CHECK(flow.flows[0].flowLevel);
    CHECK(flow.flows[0].type == "periodic-job");
    CHECK(flow.flows[0].deliveredBytes == 5000000);
    CHECK(flow.flows[0].completedNs == flow.iterations.back().end.GetNanoSeconds());
    CHECK(flow.summary.drained);
    // The packet backend on the idle path (DCQCN starts at line rate): within 1 %.
    ScenarioResult packet = mlnettest::RunScenarioText(Dumbbell("packet", 1, "1us", traffic));
    REQUIRE(packet.iterations.size() == 5);
    for (size_t i = 0; i < 5; ++i)
    {
        const double p = double(packet.iterations[i].Duration().GetNanoSeconds());
        const double f = double(flow.iterations[i].Duration().GetNanoSeconds());
        INFO("iteration " << i << ": packet " << p << " ns, flow " << f << " ns");
        CHECK(std::abs(f - p) / p < 0.01);
    }
    CHECK(packet.flows[0].srcPort == flow.flows[0].srcPort); // the same 5-tuple
}

TEST_CASE("flow: the flow backend accepts the UDP types, periodic jobs and the host section",
          "[flow]")
{
    auto text = [](const std::string& extra, const std::string& traffic) {
        return R"({"topology": {"type": "fat-tree", "k": 4}, "duration": "1us",
                   "backend": "flow", )" +
               extra + R"("traffic": )" + traffic + "}";
    };
    CHECK(mlnettest::ScenarioParseError(
              text("", R"([{"type": "permutation", "rate": "1Gbps"}])")) == "");
    CHECK(mlnettest::ScenarioParseError(
              text("", R"([{"type": "constant", "src": 0, "dst": 3, "rate": "1Gbps"}])")) == "");
    CHECK(mlnettest::ScenarioParseError(text("",
                                             R"([{"type": "periodic-job", "src": 0, "dst": 3,
                         "compute": "1us", "bytes": "1KB", "iterations": 1}])")) == "");
    CHECK(mlnettest::ScenarioParseError(text(R"("host": {"pfc": true}, )", "[]")) == "");
}
