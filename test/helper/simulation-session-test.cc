/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// SimulationSession (helper/simulation-session.h), the C++ side of Python's mlnet.Simulation:
// a flow and a periodic job against their line-rate times, and its configuration errors; the
// scenario format's host, aggregation and scheduler sections in a session (AddSection,
// AddTraffic: helper/simulation-session-sections.cc), each against an analytical expectation,
// and their errors (the scenario parser's, one place).

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"
#include "ns3/node-list.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>

using namespace ns3;

namespace
{
/// A dumbbell of one host per side: host - switch - switch - host, 100 Gbps, 1 us per link.
SessionFabric
OneToOne()
{
    SessionFabric f;
    f.kind = "dumbbell";
    f.dims = {1, 1};
    f.hostRate = 100e9;
    f.fabricRate = 100e9;
    f.delay = 1e-6;
    return f;
}

/**
 * A 2-stage "pipeline-job" entry on hosts 0 (stage 0) and 1 (stage 1) with one micro-batch:
 * forward 50 us on each stage, activations to stage 1, backward 100 us on each, gradients
 * back: 300 us of compute and two messages of `activation` on the critical path.
 */
nlohmann::json
OneMicroBatchPipeline(const std::string& activation, uint64_t iterations, const std::string& start)
{
    return {{"type", "pipeline-job"},
            {"hosts", {0, 1}},
            {"microBatches", 1},
            {"forward", "50us"},
            {"backward", "100us"},
            {"activationBytes", activation},
            {"iterations", iterations},
            {"start", start}};
}

/// The RoCEv2 headers and Ethernet framing of one packet bound the wire bytes per payload:
/// at most 56 bytes of headers (RoceV2Header::Write) and 38 of framing (FrameOverhead).
constexpr double kMaxOverheadPerPacket = 56 + 38;
} // namespace

TEST_CASE("helper: a session's RDMA flow completes at the line rate", "[helper]")
{
    SimulationSession s(1);
    SessionTopologyInfo t = s.Build(OneToOne());
    CHECK(t.kind == "dumbbell");
    CHECK(t.hosts == 2);
    CHECK(t.switches == 2);
    CHECK(t.addresses.size() == 2);
    s.InstallRdma("ns3::Dcqcn", std::nullopt, {});
    const uint64_t bytes = 1000000; // 1,000 packets of the default 1,000-byte MTU
    std::shared_ptr<SessionFlow> f = s.AddRdmaFlow(0, 1, bytes, 0.0, 3, 1.0, false);
    s.Run();
    REQUIRE(f->done);
    const double fct = f->finish - f->start;
    // Lower bound: the payload alone at 100 Gbps (80 us). Upper bound: the payload with every
    // packet's headers and framing (1,000 x 94 bytes: 7.52 us more), the last packet's store
    // and forward at two switches and three 1 us links, and its ACK's three links back.
    const double payload = bytes * 8 / 100e9;
    const double upper = (bytes + 1000 * kMaxOverheadPerPacket) * 8 / 100e9 +
                         2 * (1000 + kMaxOverheadPerPacket) * 8 / 100e9 + 6e-6;
    CHECK(fct >= payload);
    CHECK(fct <= upper);
    CHECK(f->GetBytesAcked() == bytes);
    CHECK(f->GetTimeouts() == 0);
    s.Close();
    CHECK_FALSE(s.IsOpen());
    CHECK(f->qp == nullptr); // the counters were kept, the queue pair released
    CHECK(f->GetBytesAcked() == bytes);
    // The run ended with the last ACK (the sender's idle retransmission timer, 67.1 ms later,
    // is not waited for), and the session was closed then.
    CHECK(s.Now() == f->finish);
}

TEST_CASE("helper: a session run to the end ends at its last packet, not at the idle "
          "retransmission timer",
          "[helper]")
{
    // 10 packets of 1,000 payload bytes at a fixed 100 Gbps over host - switch - switch - host
    // (1 us links): each packet is 1,000 + 44 (IPv4, UDP, BTH, ICRC) + 38 (Ethernet framing)
    // = 1,082 bytes on the wire, 86.56 ns; its ACK 48 + 38 = 86 bytes, 6.88 ns. The last
    // packet leaves the sender after 10 x 86.56 ns, is stored and forwarded by two switches
    // (2 x 86.56 ns) over three links (3 us); its ACK takes 3 x 6.88 ns + 3 us back. The run
    // ends there: 7,059.36 ns (7,060 ns: each device rounds a frame to the 1 ns time step,
    // carrying the remainder, so within 3 ns); the sender's retransmission timer
    // (RetransmitTimeout 67.1 ms, armed at the first packet) is idle then and is not waited for.
    const double expected = (12 * 1082 + 3 * 86) * 8 / 100e9 + 6e-6;
    SimulationSession s(1);
    s.Build(OneToOne());
    s.InstallRdma("ns3::RdmaFixedRate", std::nullopt, {});
    std::shared_ptr<SessionFlow> f = s.AddRdmaFlow(0, 1, 10000, 0.0, 3, 1.0, false);
    s.Run();
    REQUIRE(f->done);
    CHECK(f->finish == Approx(expected).margin(3e-9)); // 7,060 ns
    CHECK(s.Now() == f->finish);
    CHECK(Simulator::IsFinished());
    CHECK(f->GetTimeouts() == 0);
    // A second message later (a new queue pair on the same NICs): that run ends at its ACK too.
    const double start2 = s.Now() + 1e-3;
    std::shared_ptr<SessionFlow> g = s.AddRdmaFlow(0, 1, 10000, start2, 3, 1.0, false);
    s.Run();
    REQUIRE(g->done);
    CHECK(g->finish - start2 == Approx(expected).margin(3e-9)); // 7,061 ns
    CHECK(s.Now() == g->finish);
    // With a stop time, the run goes on to it.
    s.Run(0.5);
    CHECK(s.Now() == Approx(0.5).margin(1e-12));
}

TEST_CASE("helper: a session's periodic job iterates at compute plus transfer time", "[helper]")
{
    SimulationSession s(2);
    s.Build(OneToOne());
    s.InstallRdma("ns3::Dcqcn", std::nullopt, {});
    SessionPeriodicJob j;
    j.src = 0;
    j.dst = 1;
    j.compute = 10e-6;
    j.bytes = 100000; // 8 us at 100 Gbps
    j.iterations = 5;
    Ptr<PeriodicJob> job = s.AddPeriodicJob(j);
    s.Run();
    REQUIRE(job->IsFinished());
    CHECK(job->GetIterationsDone() == 5);
    CHECK(job->GetJobName() == "job0");
    const double mean = job->GetMeanIterationTime(1).GetSeconds();
    const double transfer = j.bytes * 8 / 100e9;
    CHECK(mean >= j.compute + transfer);
    CHECK(mean <= j.compute + (j.bytes + 100 * kMaxOverheadPerPacket) * 8 / 100e9 + 8e-6);
    // the run ends with the last iteration, not RetransmitTimeout (67.1 ms) later
    CHECK(s.Now() == Approx(job->GetIterationRecords().back().end.GetSeconds()).margin(1e-12));
}

TEST_CASE("helper: a session refuses calls out of order and values out of range", "[helper]")
{
    SimulationSession s(1);
    CHECK_THROWS_WITH(SimulationSession(1), Catch::Contains("another SimulationSession is open"));
    CHECK_THROWS_WITH(s.InstallRdma("ns3::Dcqcn", std::nullopt, {}),
                      Catch::Contains("build a topology"));
    SessionFabric bad = OneToOne();
    bad.ecnKmin = 2000000;
    bad.ecnKmax = 1000000;
    CHECK_THROWS_WITH(s.Build(bad), Catch::Contains("ecn_kmin must be <= ecn_kmax"));
    bad = OneToOne();
    bad.ecnMarking = "sometimes";
    CHECK_THROWS_WITH(s.Build(bad), Catch::Contains("ecn_marking = 'sometimes'"));
    bad = OneToOne();
    bad.kind = "ring";
    CHECK_THROWS_AS(s.Build(bad), std::invalid_argument);
    s.Build(OneToOne());
    CHECK_THROWS_WITH(s.Build(OneToOne()), Catch::Contains("already has a topology"));
    CHECK_THROWS_WITH(s.AddRdmaFlow(0, 1, 1000, 0.0, 3, 1.0, false),
                      Catch::Contains("install_rdma() before rdma_flow()"));
    CHECK_THROWS_WITH(s.InstallRdma("ns3::Dcqcn", 5000, {}),
                      Catch::Equals("mtu = 5000 is out of range [64, 4096]"));
    s.InstallRdma("ns3::Dcqcn", std::nullopt, {});
    CHECK_THROWS_WITH(s.InstallRdma("ns3::Dcqcn", std::nullopt, {}),
                      Catch::Contains("already called"));
    CHECK_THROWS_WITH(s.AddRdmaFlow(0, 2, 1000, 0.0, 3, 1.0, false),
                      Catch::Equals("dst (host index) = 2 is out of range [0, 1]"));
    CHECK_THROWS_WITH(s.AddRdmaFlow(1, 1, 1000, 0.0, 3, 1.0, false),
                      Catch::Contains("src and dst must differ"));
    CHECK_THROWS_WITH(s.AddRdmaFlow(0, 1, 1000, 0.0, 7, 1.0, false),
                      Catch::Equals("priority = 7 is out of range [0, 6]"));
    CHECK_THROWS_WITH(SimulationSession::CcParameter("ns3::Dcqcn", "no_such_knob"),
                      Catch::Contains("has no such attribute"));
    s.Run(1e-6);
    CHECK(s.Now() == Approx(1e-6));
    CHECK_THROWS_WITH(s.AddRdmaFlow(0, 1, 1000, 0.0, 3, 1.0, false),
                      Catch::Contains("start is in the simulated past"));
    CHECK_THROWS_WITH(s.Run(0.5e-6), Catch::Contains("until is in the simulated past"));
    s.Close();
    CHECK_THROWS_WITH(s.AddRdmaFlow(0, 1, 1000, 2e-6, 3, 1.0, false), Catch::Contains("closed"));
    SimulationSession next(3); // the first one is closed: a new one may open
    CHECK(next.IsOpen());
}

TEST_CASE("helper: a session's host section limits a flow to the host path's write rate",
          "[helper]")
{
    const uint64_t bytes = 2000000; // 2,000 packets of the default 1,000-byte MTU
    double fct[2] = {0, 0};
    double writeRate = 0;
    for (int narrow : {0, 1})
    {
        SimulationSession s(1);
        s.Build(OneToOne());
        s.InstallRdma("ns3::Dcqcn", std::nullopt, {});
        if (narrow)
        {
            // The receiver's NIC on one PCIe 3.0 lane, its buffer pausing the link when full.
            s.AddSection("host",
                         {{"hosts", nlohmann::json::array({1})}, {"pcieLanes", 1}, {"pfc", true}});
            Ptr<HostInterconnect> hi = HostInterconnectHelper::Get(s.GetTopology().hosts.Get(1));
            REQUIRE(hi);
            CHECK_FALSE(HostInterconnectHelper::Get(s.GetTopology().hosts.Get(0)));
            writeRate = hi->GetOperatingPoint().writeRate;
        }
        std::shared_ptr<SessionFlow> f = s.AddRdmaFlow(0, 1, bytes, 0.0, 3, 1.0, false);
        s.Run();
        REQUIRE(f->done);
        fct[narrow] = f->finish - f->start;
    }
    // One PCIe 3.0 lane: 8 GT/s x 128/130 = 7.88 Gb/s before the TLP headers.
    REQUIRE(writeRate > 0);
    CHECK(writeRate < 8e9 * 128 / 130);
    // The flow drains at the write rate: its time is the payload at that rate (lower bound),
    // plus the buffer's fill and the round trip (upper).
    const double bound = bytes * 8 / writeRate;
    CHECK(fct[1] >= bound);
    CHECK(fct[1] <= bound * 1.05);
    // Without the section it runs at the 100 Gb/s line rate (with every packet's headers),
    // more than 10x faster.
    CHECK(fct[0] <= (bytes + 2000 * kMaxOverheadPerPacket) * 8 / 100e9 + 20e-6);
}

TEST_CASE("helper: a session's aggregation section bounds an in-network aggregation job",
          "[helper]")
{
    // A leaf-spine of 2 leaves x 2 hosts, 2 spines, at 10 Gb/s; aggregation devices on the
    // switches' up ports; a 4-worker cifarnet job aggregating its gradients through them.
    const DnnModel model = ModelZoo::CifarNet();
    const double elements = double(model.GetParameterBytes()) / 4; // fp32 gradients
    const double chunk = 256;                                      // chunkElements

    struct Case
    {
        uint32_t lanes;
        double clockMHz;
        double bound;    //!< per-iteration communication bound (s)
        double overhead; //!< most the packets' headers add to it
    };

    // Two trees, rooted at the two spines: each leaf's two up ports carry one tree each.
    // Line rate: every worker sends its whole gradient once and receives the sum once (full
    // duplex), so the gradient at 10 Gb/s bounds an iteration, within the packets' headers
    // (ring all-reduce would move 2 (n - 1) / n = 1.5 times that). One 100 MHz lane: the device
    // on a leaf's up port sums both hosts' halves of the gradient (its tree's), one element
    // per cycle: 2 x elements / 2 / 100 MHz bounds it (3.1x the line-rate bound), within 10%
    // for the gaps of the input buffers' back pressure.
    for (const Case& c :
         {Case{16, 300, elements * 4 * 8 / 10e9, (chunk * 4 + kMaxOverheadPerPacket) / (chunk * 4)},
          Case{1, 100, elements / 100e6, 1.10}})
    {
        SimulationSession s(1);
        SessionFabric f;
        f.kind = "leaf_spine";
        f.dims = {2, 2, 2};
        f.hostRate = 10e9;
        f.fabricRate = 10e9;
        s.Build(f);
        s.InstallRdma("ns3::Dcqcn", std::nullopt, {});
        s.AddSection("aggregation",
                     {{"placement", "devices"}, {"lanes", c.lanes}, {"clockMHz", c.clockMHz}});
        const uint32_t index = s.AddTraffic({{"type", "data-parallel-job"},
                                             {"hosts", {0, 1, 2, 3}},
                                             {"mode", "ina"},
                                             {"model", "cifarnet"},
                                             {"iterations", 3},
                                             {"trees", 2}});
        CHECK(index == 0);
        // when the last post of any worker got its sum
        Time lastResult;
        uint32_t workers = 0;
        for (auto n = NodeList::Begin(); n != NodeList::End(); ++n)
        {
            if (Ptr<AggregationEndpoint> ep = (*n)->GetObject<AggregationEndpoint>())
            {
                if (Ptr<AggregationWorker> w = ep->GetWorker(0))
                {
                    ++workers;
                    w->TraceConnectWithoutContext(
                        "PostDone",
                        MakeCallback(+[](Time* last, uint64_t, uint64_t, Time, Time done) {
                            *last = std::max(*last, done);
                        }).Bind(&lastResult));
                }
            }
        }
        CHECK(workers == 4);
        // pause frames (quanta > 0) the fabric's ports received
        uint64_t pausesReceived = 0;
        for (auto n = NodeList::Begin(); n != NodeList::End(); ++n)
        {
            for (uint32_t i = 0; i < (*n)->GetNDevices(); ++i)
            {
                if (Ptr<FabricNetDevice> d = DynamicCast<FabricNetDevice>((*n)->GetDevice(i)))
                {
                    d->TraceConnectWithoutContext(
                        "PfcRx",
                        MakeCallback(+[](uint64_t* count, uint8_t, uint16_t quanta) {
                            *count += quanta > 0;
                        }).Bind(&pausesReceived));
                }
            }
        }
        s.Run();
        std::vector<IterationRecord> it = s.GetIterations();
        REQUIRE(it.size() == 3);
        CHECK(it[0].job == "data-parallel-job0");
        // An iteration's gradients are aggregated during the next one: the mean over the
        // job is the steady-state period.
        const double mean = (it.back().end - it.front().start).GetSeconds() / it.size();
        const double compute = it.back().compute.GetSeconds();
        INFO(c.lanes << " lanes at " << c.clockMHz << " MHz: " << mean << " s per iteration, "
                     << "bound " << c.bound << " s, compute " << compute << " s");
        CHECK(mean >= std::max(compute, c.bound));
        CHECK(mean <= compute + c.bound * c.overhead);
        // The run ended with the job's last result (the last iteration's gradients are summed
        // after its end when the adders are the bottleneck): the workers' retransmission
        // timers (AggregationWorker::RetransmitTimeout, 500 us), cancelled once every chunk
        // has its result, the devices' and switches' pause refreshes and drain checks, and the
        // ports' wake-ups at a received pause's expiry (FabricNetDevice, replaced by each pause
        // frame and cancelled at the resume) are not waited for. With one lane the devices
        // pause their switch ports: before the wake-up was a timer, that run ended 0.878 ms
        // after its last result (57.2717 ms against 56.3933 ms).
        INFO("run ended at " << s.Now() << " s, last result at " << lastResult.GetSeconds()
                             << " s, last iteration's end at " << it.back().end.GetSeconds()
                             << " s");
        CHECK(lastResult >= it.back().end);
        INFO(pausesReceived << " pause frames received");
        CHECK((c.lanes == 1) == (pausesReceived > 0)); // the one-lane case ends after pauses
        CHECK(s.Now() == lastResult.GetSeconds());
        CHECK(Simulator::IsFinished());
        s.Close();
        CHECK(s.GetIterations().size() == 3); // kept after Close()
    }
}

TEST_CASE("helper: a session's scheduler delays each pipeline message by its control delay",
          "[helper]")
{
    // A 2-stage pipeline of one micro-batch: forward on stage 0, activations to stage 1,
    // forward and backward there, gradients back, backward on stage 0. The centralised
    // scheduler starts each message when its decision arrives, controlDelay after its release:
    // two messages on the critical path, so each iteration takes 2 x controlDelay longer.
    std::vector<double> iteration;
    for (const char* delay : {"0us", "20us"})
    {
        SimulationSession s(1);
        s.Build(OneToOne());
        s.InstallRdma("ns3::Dcqcn", std::nullopt, {});
        s.AddSection("scheduler", {{"policy", "fair"}, {"controlDelay", delay}});
        s.AddTraffic(OneMicroBatchPipeline("100KB", 3, "0us"));
        s.Run();
        std::vector<IterationRecord> it = s.GetIterations();
        REQUIRE(it.size() == 3);
        iteration.push_back(it.back().Duration().GetSeconds());
    }
    CHECK(iteration[1] - iteration[0] == Approx(2 * 20e-6).epsilon(0.01));
}

TEST_CASE("helper: a session's FIFO scheduler serves the earlier pipeline message first",
          "[helper]")
{
    // Two 2-stage pipelines of one micro-batch on the same two hosts, 1 MB of activations and
    // of gradients each; the second starts 10 us later. Under "fifo" the first one's messages
    // are released first and go alone: its iteration is the one it has without the other.
    // The second one's activations wait for the first's to finish: its iteration is longer by
    // one transfer less its 10 us lag (its gradients, released one transfer later, no longer
    // meet the first's). Under "fair" the two share the link and the first one is slower.
    auto run = [](const std::string& policy) {
        SimulationSession s(1);
        s.Build(OneToOne());
        s.InstallRdma("ns3::Dcqcn", std::nullopt, {});
        if (!policy.empty())
        {
            s.AddSection("scheduler", {{"policy", policy}});
            s.AddTraffic(OneMicroBatchPipeline("1MB", 1, "10us"));
        }
        s.AddTraffic(OneMicroBatchPipeline("1MB", 1, "0us"));
        s.Run();
        std::vector<double> t;
        for (const IterationRecord& r : s.GetIterations())
        {
            t.push_back(r.Duration().GetSeconds());
        }
        return t;
    };
    const double alone = run("").at(0);
    const double transfer = (alone - 2 * 50e-6 - 2 * 100e-6) / 2; // one 1 MB message
    CHECK(transfer >= 1e6 * 8 / 100e9);
    const std::vector<double> fifo = run("fifo");
    const std::vector<double> fair = run("fair");
    REQUIRE(fifo.size() == 2);
    REQUIRE(fair.size() == 2);
    // entry 0 starts at 10 us, entry 1 at 0
    CHECK(fifo[1] == Approx(alone).epsilon(0.001));
    CHECK(fifo[0] == Approx(alone + transfer - 10e-6).epsilon(0.01));
    CHECK(fair[1] > fifo[1] + (transfer - 10e-6) / 2);
}

TEST_CASE("helper: a session's sections and traffic entries are checked by the scenario parser",
          "[helper]")
{
    SimulationSession s(1);
    s.Build(OneToOne());
    CHECK_THROWS_WITH(s.AddSection("host", {{"iommu", true}}),
                      Catch::Equals("call install_rdma() before section 'host'"));
    s.InstallRdma("ns3::Dcqcn", std::nullopt, {});
    CHECK_THROWS_WITH(s.AddSection("hosts", nlohmann::json::object()),
                      Catch::Equals("scenario: hosts: unknown key (accepted: aggregation, cc, "
                                    "fluidCc, fluidSharing, host, scheduler)"));
    CHECK_THROWS_WITH(s.AddSection("host", {{"pcieLanes", 3}}),
                      Catch::Equals("scenario: host.pcieLanes = 3: must be a power of two in [1, "
                                    "32]"));
    CHECK_THROWS_WITH(s.AddSection("host", {{"memoryAppDemand", 1.5}}),
                      Catch::StartsWith("scenario: host.memoryAppDemand = 1.5: must be"));
    CHECK_THROWS_WITH(s.AddSection("host", {{"pcieLanez", 4}}),
                      Catch::StartsWith("scenario: host.pcieLanez: unknown key (accepted: "));
    CHECK_THROWS_WITH(
        s.AddSection("aggregation", {{"treeDepth", 5000}}),
        Catch::StartsWith("scenario: aggregation.treeDepth = 5000: must be an integer "
                          "in ["));
    CHECK_THROWS_WITH(s.AddSection("scheduler", {{"policy", "lifo"}}),
                      Catch::StartsWith("scenario: scheduler.policy = \"lifo\": must be one of"));
    CHECK_THROWS_WITH(s.AddTraffic({{"type", "pipeline-job"}, {"hosts", {0, 2}}}),
                      Catch::StartsWith("scenario: traffic[0].hosts = [0,2]: must be an array "
                                        "of distinct host indices in [0, 1]"));
    // A scheduler that no entry posts through changes nothing: refused when the run starts.
    s.AddSection("scheduler", {{"policy", "fair"}});
    CHECK_THROWS_WITH(s.AddSection("scheduler", {{"policy", "fair"}}),
                      Catch::Contains("already applied"));
    CHECK_THROWS_WITH(s.Run(), Catch::StartsWith("scenario: scheduler: no traffic entry posts"));
    s.AddRdmaFlow(0, 1, 1000, 0.0, 3, 1.0, false);
    CHECK_THROWS_WITH(s.AddSection("host", {{"iommu", true}}),
                      Catch::Contains("must come before the first flow, job or traffic entry"));
    s.AddTraffic(OneMicroBatchPipeline("1KB", 1, "0us"));
    s.Run();
    CHECK(s.GetIterations().size() == 1);
    CHECK_THROWS_WITH(s.AddTraffic({{"type", "pipeline-job"}}),
                      Catch::Equals("a traffic entry must come before the first run()"));
}

TEST_CASE("helper: a session keeps the warnings a scenario puts in summary.json", "[helper]")
{
    // A parameter-server job of one worker (host 0) and two servers (hosts 1, 2) on CifarNet:
    // round-robin puts 90.0 % of the worker's 7,025,704 pushed bytes on server 0, 1.80x an even
    // share of 50 % (above ServerImbalanceWarning, 1.5): summary.json's warning, which the
    // session now keeps. With one server there is nothing to balance: no warning.
    auto run = [](const nlohmann::json& servers) {
        SimulationSession s(1);
        SessionFabric f;
        f.kind = "leaf_spine";
        f.dims = {2, 1, 2};
        s.Build(f);
        s.InstallRdma("ns3::Dcqcn", std::nullopt, {});
        s.AddTraffic({{"type", "data-parallel-job"},
                      {"hosts", {0}},
                      {"mode", "ps"},
                      {"servers", servers},
                      {"model", "cifarnet"},
                      {"iterations", 1}});
        s.Run();
        REQUIRE(s.GetIterations().size() == 1);
        const std::vector<std::string> live = s.GetWarnings();
        s.Close();
        CHECK(s.GetWarnings() == live); // kept
        return live;
    };
    const std::vector<std::string> w = run({1, 2});
    REQUIRE(w.size() == 1);
    CHECK(w[0] == "data-parallel-job0: parameter server 0 receives 90.0 % of each worker's "
                  "7025704 pushed bytes over 2 servers (1.80x an even share of 50.0 %, "
                  "ServerImbalanceWarning 1.5), so it may bound the iteration; "
                  "serverAssignment \"balanced-bytes\" puts at most 89.6 % on one");
    CHECK(run({1}).empty());
}
