/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// SimulationSession (helper/simulation-session.h), the C++ side of Python's mlnet.Simulation:
// a flow and a periodic job against their line-rate times, and its configuration errors.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

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
    CHECK(s.Now() == Approx(f->finish).margin(1e-3)); // closed when the run ended
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
