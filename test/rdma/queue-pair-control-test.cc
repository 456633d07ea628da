/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Run-time control of a queue pair by a scheduler: rate cap and priority class.

#include "common/rdma-scenario.h"

#include <catch2/catch.hpp>

using namespace ns3;
using mlnettest::MaxGoodput;
using mlnettest::RdmaDumbbell;

namespace
{

/// Post `bytes` on qp and return a reference that receives the completion time.
void
PostAndTime(Ptr<RdmaQueuePair> qp, uint64_t bytes, Time& done)
{
    qp->PostSend(bytes, RdmaQueuePair::CompletionCallback([&done](uint64_t, uint64_t) {
                     done = Simulator::Now();
                 }));
}

} // namespace

TEST_CASE("rdma: a queue pair's rate cap limits its goodput to the cap", "[rdma]")
{
    RdmaDumbbell d(1, 1);
    Ptr<RdmaQueuePair> qp = d.Connect(0, 1);
    qp->SetAttribute("MaxRate", DataRateValue(DataRate("25Gbps")));
    CHECK(qp->GetMaxRate() == DataRate("25Gbps"));
    const uint64_t bytes = 10000000;
    Time done;
    PostAndTime(qp, bytes, done);
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    REQUIRE(done > Time(0));
    const double goodput = bytes * 8.0 / done.GetSeconds();
    const double expected = MaxGoodput(25e9, 1000); // the cap is a wire rate
    INFO("goodput " << goodput / 1e9 << " Gb/s, expected " << expected / 1e9);
    CHECK(goodput == Approx(expected).epsilon(0.01));
    CHECK(qp->GetRetransmittedPackets() == 0);
    Simulator::Destroy();
}

TEST_CASE("rdma: lifting a rate cap mid-message restores line rate", "[rdma]")
{
    RdmaDumbbell d(1, 1);
    Ptr<RdmaQueuePair> qp = d.Connect(0, 1);
    qp->SetMaxRate(DataRate("20Gbps"));
    const uint64_t bytes = 10000000;
    Time done;
    PostAndTime(qp, bytes, done);
    Simulator::Schedule(MilliSeconds(1), &RdmaQueuePair::SetMaxRate, qp, DataRate(0));
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    REQUIRE(done > Time(0));
    // 1 ms at 20 Gb/s of wire, the rest at 100 Gb/s
    const double first = MaxGoodput(20e9, 1000) / 8 * 1e-3;
    const double expected = 1e-3 + (bytes - first) / (MaxGoodput(100e9, 1000) / 8);
    INFO("done " << done.GetSeconds() * 1e3 << " ms, expected " << expected * 1e3);
    CHECK(done.GetSeconds() == Approx(expected).epsilon(0.01));
    Simulator::Destroy();
}

TEST_CASE("rdma: raising a queue pair's class mid-message gives it strict priority without "
          "reordering",
          "[rdma]")
{
    // Two senders to one receiver, 8 MB each, both in class 3, without congestion control
    // (PFC keeps the fabric lossless): they share the bottleneck. At 0.3 ms sender A moves to
    // class 5: from then on the switch serves A first.
    RdmaDumbbell d(2, 1, true, 32u * 1024 * 1024, "ns3::RdmaFixedRate");
    Ptr<RdmaQueuePair> a = d.Connect(0, 2);
    Ptr<RdmaQueuePair> b = d.Connect(1, 2);
    const uint64_t bytes = 8000000;
    Time doneA;
    Time doneB;
    PostAndTime(a, bytes, doneA);
    PostAndTime(b, bytes, doneB);
    bool pendingRightAfter = false;
    Simulator::Schedule(MicroSeconds(300), [&]() {
        a->SetPriorityClass(5);
        pendingRightAfter = a->IsClassChangePending();
    });
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    REQUIRE(doneA > Time(0));
    REQUIRE(doneB > Time(0));
    CHECK(pendingRightAfter); // packets were in flight: the change waited for their ACKs
    CHECK_FALSE(a->IsClassChangePending());
    CHECK(a->GetPriorityClass() == 5);
    // no packet of the new class overtook one of the old: no NAK, no resend
    CHECK(a->GetRetransmittedPackets() == 0);
    CHECK(d.nics[2]->GetNaksSent() == 0);
    // Shared: both would end near 2 x 8 MB / 92.4 Gb/s = 1.39 ms. With the change A waits for
    // its queued packets (the fence), then goes first: it ends well before B, and B at the end
    // of both messages.
    const double g = MaxGoodput(100e9, 1000) / 8;
    INFO("A " << doneA.GetSeconds() * 1e3 << " ms, B " << doneB.GetSeconds() * 1e3 << " ms");
    CHECK(doneA.GetSeconds() < 0.8 * 2 * bytes / g);
    CHECK(doneB.GetSeconds() > 0.98 * 2 * bytes / g);
    CHECK(doneA < doneB);
    REQUIRE_THROWS_AS(a->SetPriorityClass(8), std::invalid_argument);
    Simulator::Destroy();
}
