/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The lazy retransmission timer (RdmaNic::ArmRto/OnRtoTimer): it fires exactly
// RetransmitTimeout after the first unacknowledged send when no ACK makes progress, and an ACK
// that makes progress moves its deadline (no timeout while ACKs come faster than the timeout).

#include "common/rdma-scenario.h"
#include "common/test-utilities.h"

#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <catch2/catch.hpp>

using namespace ns3;
using mlnettest::RdmaDumbbell;

TEST_CASE("rdma: retransmission timer fires RetransmitTimeout after the last progress", "[rdma]")
{
    RdmaDumbbell d(1, 1);
    d.nics[0]->SetAttribute("RetransmitTimeout", TimeValue(MicroSeconds(30)));
    // The receiver acknowledges only at the message end: nothing makes progress before.
    d.nics[1]->SetAttribute("AckInterval", UintegerValue(1u << 20));
    Ptr<RdmaQueuePair> qp = d.Connect(0, 1);
    qp->PostSend(2000000); // 2,000 packets, ~170 us at 100 Gb/s: longer than the timeout
    uint64_t before = 99;
    uint64_t after = 99;
    Simulator::Schedule(MicroSeconds(30) - NanoSeconds(1),
                        [&before, qp]() { before = qp->GetTimeouts(); });
    Simulator::Schedule(MicroSeconds(30) + NanoSeconds(1),
                        [&after, qp]() { after = qp->GetTimeouts(); });
    Simulator::Stop(MicroSeconds(31));
    Simulator::Run();
    // The first packet left at t = 0 (PostSend sends at once), so the timer expires at 30 us
    // (the test time resolution is 1 ns).
    REQUIRE(before == 0);
    REQUIRE(after == 1);
    Simulator::Destroy();
}

TEST_CASE("rdma: ACKs that make progress move the retransmission deadline", "[rdma]")
{
    // One ACK per 100 packets (~8.3 us of packets at 100 Gb/s, plus the round trip): a 30 us
    // timeout is always re-armed in time, a 5 us one expires between ACKs.
    for (auto [rtoUs, expectTimeouts] : {std::pair<int, bool>{30, false}, {5, true}})
    {
        RdmaDumbbell d(1, 1);
        d.nics[0]->SetAttribute("RetransmitTimeout", TimeValue(MicroSeconds(rtoUs)));
        d.nics[1]->SetAttribute("AckInterval", UintegerValue(100));
        Ptr<RdmaQueuePair> qp = d.Connect(0, 1);
        const uint64_t bytes = 5000000;
        bool done = false;
        qp->PostSend(bytes, RdmaQueuePair::CompletionCallback([&done](uint64_t, uint64_t) {
                         done = true;
                     }));
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        INFO("timeout " << rtoUs << " us: " << qp->GetTimeouts() << " timeouts, "
                        << qp->GetRetransmittedPackets() << " packets resent");
        REQUIRE(done);
        REQUIRE(d.nics[1]->GetBytesReceived() == bytes);
        if (expectTimeouts)
        {
            REQUIRE(qp->GetTimeouts() > 0);
        }
        else
        {
            REQUIRE(qp->GetTimeouts() == 0);
            REQUIRE(qp->GetRetransmittedPackets() == 0);
        }
        Simulator::Destroy();
    }
}
