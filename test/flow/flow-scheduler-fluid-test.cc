/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The flow schedulers at flow level: a RdmaFlowScheduler installed on FluidTransports turns its
// policy's levels and rate caps into the fluid flows' classes and caps. Hand-solved finish
// times on one sender's uplink, and a scheduled job against the packet backend.

#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{

/// Bytes on the wire per payload byte: (1000 + 44 + 38) / 1000.
constexpr double kWire = 1.082;
/// Line rate of the leaf-spine's host links (B/s).
constexpr double kLine = 100e9 / 8;
/// Unloaded latency host -> leaf -> host: two 1 us links and one frame's store-and-forward.
const double kLatency = 2e-6 + 1082 * 8 / 100e9;
/// When the messages are posted.
const Time kT0 = MicroSeconds(10);

/**
 * Host 0 sends 1, 2 and 4 MB to hosts 1, 2, 3 of one leaf (flow level, 100 Gb/s, 1 us links)
 * through a scheduler with the given policy; priorities 0, 1, 2 or reversed.
 * \return when each message was received
 */
std::vector<Time>
OneToThree(const std::string& policy, bool reversed, Time delay = Time(0))
{
    RngSeedManager::SetRun(1);
    FabricTopology t = FabricTopologyHelper().BuildLeafSpine(2, 1, 4);
    FlowBackendHelper().Install(t);
    std::vector<Ptr<MessageTransport>> tr = FlowBackendHelper::Transports(t, {0, 1, 2, 3});
    FlowSchedulerHelper fs;
    fs.SetPolicy(policy);
    fs.SetSchedulerAttribute("ControlDelay", TimeValue(delay));
    Ptr<RdmaFlowScheduler> s = fs.Install(tr);
    FlowGroupSpec g;
    g.id = 1;
    g.expectedFlows = 3;
    g.priorities = 3;
    s->DeclareGroup(g);
    std::vector<Time> received(3);
    Simulator::Schedule(kT0, [&]() {
        for (uint32_t i = 0; i < 3; ++i)
        {
            FlowDeclaration f;
            f.group = 1;
            f.index = i;
            f.priority = reversed ? 2 - i : i;
            f.bytes = 1000000u << i;
            s->Post(tr[0],
                    tr[i + 1],
                    f,
                    RdmaFlowScheduler::MessageCallback(
                        [&received, i]() { received[i] = Simulator::Now(); }),
                    RdmaFlowScheduler::MessageCallback());
        }
    });
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    Simulator::Destroy();
    return received;
}

/// \param mb payload megabytes through the uplink before a flow's last byte
/// \return its delivery time from kT0 (s): the drain at line rate plus the path latency
double
After(double mb)
{
    return mb * 1e6 * kWire / kLine + kLatency;
}

void
CheckFinish(const std::vector<Time>& received, const std::vector<double>& expected, Time shift)
{
    for (uint32_t i = 0; i < 3; ++i)
    {
        INFO("message " << i << ": " << (received[i] - kT0 - shift).GetNanoSeconds()
                        << " ns, expected " << expected[i] * 1e9 << " ns");
        // events fall on the ns step at or after the exact time; a cap is set in whole bit/s
        CHECK((received[i] - kT0 - shift).GetSeconds() ==
              Approx(expected[i]).epsilon(0).margin(2e-9));
    }
}

} // namespace

TEST_CASE("flow: fair sharing at flow level finishes 1, 2, 4 MB after 3, 5, 7 MB of the uplink",
          "[flow]")
{
    CheckFinish(OneToThree("fair", false), {After(3), After(5), After(7)}, Time(0));
}

TEST_CASE("flow: MADD's rate caps at flow level finish a coflow's flows together", "[flow]")
{
    // rates proportional to the bytes, so that all finish when the 7 MB have left
    CheckFinish(OneToThree("madd", false), {After(7), After(7), After(7)}, Time(0));
    // the control delay shifts every start, hence every finish, by exactly the delay
    CheckFinish(OneToThree("madd", false, MicroSeconds(20)),
                {After(7), After(7), After(7)},
                MicroSeconds(20));
}

namespace
{
/// What JoinOffBottleneck measured.
struct JoinRun
{
    std::vector<Time> received; //!< per message: the three of OneToThree, then the joining one
    uint64_t capChanges{0};     //!< caps re-applied to running messages
    uint64_t capSkipped{0};     //!< cap changes left out within CapTolerance
};

/// When the fourth message is posted, and its size.
const Time kJoin = MicroSeconds(30);
constexpr uint32_t kJoinBytes = 100000;

/**
 * MADD as in OneToThree (host 0 sends 1, 2 and 4 MB to hosts 1, 2, 3; one coflow), and at
 * kT0 + kJoin host 3 sends kJoinBytes to host 1 in the same coflow: off the coflow's bottleneck
 * (uplink 0), so its Gamma and the three caps stay, but for the bytes-sent counters' rounding.
 * \param tolerance the scheduler's CapTolerance
 */
JoinRun
JoinOffBottleneck(double tolerance)
{
    RngSeedManager::SetRun(1);
    FabricTopology t = FabricTopologyHelper().BuildLeafSpine(2, 1, 4);
    FlowBackendHelper().Install(t);
    std::vector<Ptr<MessageTransport>> tr = FlowBackendHelper::Transports(t, {0, 1, 2, 3});
    FlowSchedulerHelper fs;
    fs.SetPolicy("madd");
    fs.SetSchedulerAttribute("CapTolerance", DoubleValue(tolerance));
    Ptr<RdmaFlowScheduler> s = fs.Install(tr);
    FlowGroupSpec g;
    g.id = 1;
    g.expectedFlows = 4;
    s->DeclareGroup(g);
    JoinRun r;
    r.received.resize(4);
    auto post = [&](uint32_t i, uint32_t src, uint32_t dst, uint64_t bytes) {
        FlowDeclaration f;
        f.group = 1;
        f.index = i;
        f.bytes = bytes;
        s->Post(tr[src],
                tr[dst],
                f,
                RdmaFlowScheduler::MessageCallback([&r, i]() { r.received[i] = Simulator::Now(); }),
                RdmaFlowScheduler::MessageCallback());
    };
    Simulator::Schedule(kT0, [&]() {
        for (uint32_t i = 0; i < 3; ++i)
        {
            post(i, 0, i + 1, 1000000u << i);
        }
    });
    Simulator::Schedule(kT0 + kJoin, [&]() { post(3, 3, 1, kJoinBytes); });
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    r.capChanges = s->GetCapChanges();
    r.capSkipped = s->GetCapChangesSkipped();
    Simulator::Destroy();
    return r;
}
} // namespace

TEST_CASE("flow: MADD at flow level keeps a coflow's finish when a flow joins off its "
          "bottleneck, and CapTolerance leaves out the caps that move by rounding only",
          "[flow]")
{
    // Gamma is uplink 0's 7 MB: the three flows still finish together after 7 MB. The joining
    // flow gets its MADD rate and, by the backfill, all that downlink 1 has left beside the
    // 1 MB flow's G/7: 6/7 of the goodput G, so it drains in 7/6 x kJoinBytes / G.
    const double joined = kJoin.GetSeconds() + 7.0 / 6 * kJoinBytes * kWire / kLine + kLatency;
    const JoinRun exact = JoinOffBottleneck(0);
    CheckFinish({exact.received[0], exact.received[1], exact.received[2]},
                {After(7), After(7), After(7)},
                Time(0));
    CHECK((exact.received[3] - kT0).GetSeconds() == Approx(joined).epsilon(0).margin(2e-9));
    // every evaluation re-caps the running flows: at the join, at its end, at theirs
    CHECK(exact.capChanges > 0);
    CHECK(exact.capSkipped == 0);
    // with a tolerance of 1e-6 the re-caps that only follow the rounded byte counts are left
    // out; the finish times stay within the ns step
    const JoinRun approx = JoinOffBottleneck(1e-6);
    for (uint32_t i = 0; i < 4; ++i)
    {
        INFO("message " << i);
        CHECK(std::abs((approx.received[i] - exact.received[i]).GetSeconds()) <= 2e-9);
    }
    CHECK(approx.capSkipped > 0);
    CHECK(approx.capChanges < exact.capChanges);
}

TEST_CASE("flow: FIFO and priority schedulers serialise the flows at flow level", "[flow]")
{
    // FIFO with one release time: one tier, MADD rates: together
    CheckFinish(OneToThree("fifo", false), {After(7), After(7), After(7)}, Time(0));
    // CadentFlow's priority objective: levels -> classes 6, 4, 2 (strict priority)
    CheckFinish(OneToThree("cadentflow-priority", false), {After(1), After(3), After(7)}, Time(0));
    CheckFinish(OneToThree("cadentflow-priority", true), {After(7), After(6), After(4)}, Time(0));
    // Echelon: a group of the coflow arrangement has one ideal finish time, one tier, MADD rates
    CheckFinish(OneToThree("echelon", false), {After(7), After(7), After(7)}, Time(0));
}

TEST_CASE("flow: a scheduler installed on transports of two backends is refused", "[flow]")
{
    RngSeedManager::SetRun(1);
    FabricTopology t = FabricTopologyHelper().BuildLeafSpine(1, 1, 4);
    FlowBackendHelper().Install(t);
    std::vector<Ptr<MessageTransport>> tr = FlowBackendHelper::Transports(t, {0, 1});
    NodeContainer two;
    two.Add(t.hosts.Get(2));
    two.Add(t.hosts.Get(3));
    for (const auto& nic : RdmaHelper().Install(two))
    {
        tr.push_back(nic);
    }
    FlowSchedulerHelper fs;
    fs.SetPolicy("fair");
    CHECK_THROWS_WITH(fs.Install(tr), Catch::Contains("transports of two backends"));
    Simulator::Destroy();
}

namespace
{
/// A parameter-server job (4 workers, 2 servers, GoogLeNet) on one leaf, through a scheduler.
std::string
ScheduledPs(const std::string& backend, const std::string& policy)
{
    return R"({"topology": {"type": "leaf-spine", "leaves": 1, "spines": 1, "hostsPerLeaf": 8},
               "backend": ")" +
           backend + R"(", "duration": "1us", "drain": "10s",
               "scheduler": {"policy": ")" +
           policy + R"("},
               "traffic": [{"type": "data-parallel-job", "hosts": [0, 1, 2, 3], "mode": "ps",
                            "servers": [4, 5], "model": "googlenet", "gpu": "a100", "batch": 8,
                            "iterations": 3}]})";
}

/// \return the mean of the iterations after the first (which has no synchronisation)
double
MeanSynced(const ScenarioResult& r)
{
    double sum = 0;
    for (std::size_t i = 1; i < r.iterations.size(); ++i)
    {
        sum += r.iterations[i].Duration().GetSeconds();
    }
    return sum / double(r.iterations.size() - 1);
}
} // namespace

TEST_CASE("flow: a scheduled parameter-server job agrees with packet level", "[flow]")
{
    // Echelon (the pushes and pulls of an iteration as EchelonFlows of tensor offsets): the
    // iterations agree within 2 % (measured: 16.70 ms flow, 16.93 ms packet)
    ScenarioResult flow = mlnettest::RunScenarioText(ScheduledPs("flow", "echelon"));
    ScenarioResult packet = mlnettest::RunScenarioText(ScheduledPs("packet", "echelon"));
    REQUIRE(flow.iterations.size() == 3);
    REQUIRE(packet.iterations.size() == 3);
    CHECK(flow.summary.backend == "flow");
    const double f = MeanSynced(flow);
    const double p = MeanSynced(packet);
    INFO("mean iteration: flow " << f * 1e3 << " ms, packet " << p * 1e3 << " ms");
    CHECK(std::abs(f - p) / p < 0.05);
}

TEST_CASE("flow: strict-priority scheduling at flow level starves, then serves, the low classes",
          "[flow]")
{
    // CadentFlow's priority objective puts the tensors on classes 6..0: the classes below a
    // saturated link keep a rounding remainder of rate, which must not overflow the drain time
    ScenarioResult r = mlnettest::RunScenarioText(ScheduledPs("flow", "cadentflow-priority"));
    REQUIRE(r.iterations.size() == 3);
    CHECK(r.summary.drained);
}

TEST_CASE("flow: the scheduler section is accepted with the flow backend", "[flow]")
{
    CHECK(mlnettest::ScenarioParseError(ScheduledPs("flow", "fair")) == "");
    // and with the host section (FluidHost; test/flow/flow-host-test.cc)
    CHECK(mlnettest::ScenarioParseError(
              R"({"topology": {"type": "fat-tree", "k": 4}, "duration": "1us", "backend": "flow",
                  "host": {}, "traffic": []})") == "");
}
