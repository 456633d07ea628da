/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Collectives over RDMA queue pairs: timing on an idle fabric, completions and byte counts.

#include "common/rdma-scenario.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <map>

using namespace ns3;

namespace
{

/// n hosts on one leaf switch (no contention for a ring), RDMA NICs with DCQCN.
std::vector<Ptr<RdmaNic>>
SingleSwitch(uint32_t n, FabricTopology& topo)
{
    FabricTopologyHelper th;
    topo = th.BuildLeafSpine(1, 1, n);
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::Dcqcn");
    // In a ring every uplink also carries the ACKs of the incoming stream; coalesce them (as
    // NICs do) so that the data goodput bound applies.
    rdma.SetNicAttribute("AckInterval", UintegerValue(16));
    return rdma.Install(topo.hosts);
}

struct Counts
{
    std::map<uint32_t, std::pair<uint64_t, uint64_t>> perRank; //!< rank -> (sent, received)
    uint32_t calls{0};
    uint32_t done{0};
};

Collective::ParticipantCallback
Recorder(Counts& c)
{
    return Collective::ParticipantCallback([&c](uint32_t rank, uint64_t sent, uint64_t recv) {
        ++c.calls;
        c.perRank[rank] = {sent, recv};
    });
}

Collective::DoneCallback
DoneRecorder(Counts& c)
{
    return Collective::DoneCallback([&c]() { ++c.done; });
}

} // namespace

TEST_CASE("workload: ring all-reduce on an idle fabric takes 2(n-1)/n S/B plus latency",
          "[workload]")
{
    for (uint32_t subChunks : {1u, 4u})
    {
        const uint32_t n = 4;
        const uint64_t S = 8000000;
        FabricTopology topo;
        auto nics = SingleSwitch(n, topo);
        Ptr<RingAllReduce> ar = CreateObject<RingAllReduce>();
        ar->SetAttribute("SubChunks", UintegerValue(subChunks));
        ar->SetGroup(nics);
        Counts c;
        ar->Start(S, Recorder(c), DoneRecorder(c));
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        REQUIRE(c.done == 1);
        REQUIRE(c.calls == n);
        double b = mlnettest::MaxGoodput(100e9, 1000) / 8.0; // bytes/s
        double ideal = 2.0 * (n - 1) / n * S / b;
        double latency = 2.0 * (n - 1) * subChunks * 3e-6 + 10e-6;
        double t = ar->GetLastDuration().GetSeconds();
        INFO("sub-chunks " << subChunks << ": " << t * 1e6 << " us, ideal " << ideal * 1e6
                           << " us + latency " << latency * 1e6 << " us");
        REQUIRE(t >= ideal * 0.999);
        REQUIRE(t <= 1.05 * (ideal + latency));
        for (uint32_t r = 0; r < n; ++r)
        {
            REQUIRE(c.perRank[r].first == 2 * (n - 1) * S / n);
            REQUIRE(c.perRank[r].second == 2 * (n - 1) * S / n);
        }
        Simulator::Destroy();
    }
}

TEST_CASE("workload: every collective completes once per participant with exact byte counts",
          "[workload]")
{
    const uint32_t n = 5;
    const uint64_t S = 1000003; // not divisible by n
    FabricTopology topo;
    auto nics = SingleSwitch(n, topo);
    Ptr<RingAllReduce> ar = CreateObject<RingAllReduce>();
    Ptr<RingReduceScatter> rs = CreateObject<RingReduceScatter>();
    Ptr<RingAllGather> ag = CreateObject<RingAllGather>();
    Ptr<PipelineBroadcast> bc = CreateObject<PipelineBroadcast>();
    bc->SetAttribute("Root", UintegerValue(2));
    bc->SetAttribute("SubChunks", UintegerValue(8));
    Ptr<AllToAll> a2a = CreateObject<AllToAll>();
    std::vector<Ptr<Collective>> all{ar, rs, ag, bc, a2a};
    std::vector<Counts> counts(all.size());
    for (std::size_t k = 0; k < all.size(); ++k)
    {
        all[k]->SetGroup(nics);
        // all collectives share the NICs (dispatcher) and run at the same time
        all[k]->Start(S, Recorder(counts[k]), DoneRecorder(counts[k]));
    }
    // a second invocation of the all-reduce is queued and reuses the queue pairs
    Counts second;
    ar->Start(S, Recorder(second), DoneRecorder(second));
    REQUIRE_THROWS_AS(ar->Start(n - 1), std::invalid_argument);
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    uint64_t sum = 0;
    for (uint32_t r = 0; r < n; ++r)
    {
        sum += counts[0].perRank[r].first;
    }
    for (std::size_t k = 0; k < all.size(); ++k)
    {
        INFO(all[k]->GetName());
        REQUIRE(counts[k].calls == n);
        REQUIRE(counts[k].done == 1);
    }
    REQUIRE(second.calls == n);
    REQUIRE(ar->GetCompletedInvocations() == 2);
    REQUIRE(ar->GetNQueuePairs() == n);
    // all-reduce: every chunk travels 2(n-1) hops
    REQUIRE(sum == 2 * (n - 1) * S);
    for (uint32_t r = 0; r < n; ++r)
    {
        uint64_t own = Collective::SplitSize(S, n, r);
        // reduce-scatter / all-gather: n-1 chunks each
        REQUIRE(counts[1].perRank[r].first + counts[1].perRank[r].second > 0);
        REQUIRE(counts[2].perRank[r].second + counts[2].perRank[r].first > 0);
        // broadcast from rank 2 along 2,3,4,0,1
        uint64_t bsent = r == 1 ? 0 : S;
        uint64_t brecv = r == 2 ? 0 : S;
        REQUIRE(counts[3].perRank[r].first == bsent);
        REQUIRE(counts[3].perRank[r].second == brecv);
        // all-to-all
        REQUIRE(counts[4].perRank[r].first == S - own);
        REQUIRE(counts[4].perRank[r].second == (n - 1) * own);
    }
    uint64_t rsSent = 0, agRecv = 0;
    for (uint32_t r = 0; r < n; ++r)
    {
        rsSent += counts[1].perRank[r].first;
        agRecv += counts[2].perRank[r].second;
    }
    REQUIRE(rsSent == (n - 1) * S);
    REQUIRE(agRecv == (n - 1) * S);
    for (auto& nic : nics)
    {
        REQUIRE(RdmaMessageDispatcher::Get(nic)->GetUnmatchedMessages() == 0);
    }
    Simulator::Destroy();
}

TEST_CASE("workload: collectives reject bad input", "[workload]")
{
    Ptr<RingAllReduce> ar = CreateObject<RingAllReduce>();
    REQUIRE_THROWS_AS(ar->Start(1000), std::invalid_argument);
    REQUIRE_THROWS_AS(ar->SetGroup({}), std::invalid_argument);
    Simulator::Destroy();
}

TEST_CASE("workload: a periodic job alone iterates in t_c + M/B", "[workload]")
{
    mlnettest::RdmaDumbbell d(1, 1);
    Ptr<PeriodicJob> job = CreateObject<PeriodicJob>();
    job->SetQueuePair(d.Connect(0, 1));
    const Time tc = MicroSeconds(500);
    const uint64_t M = 4000000;
    job->SetAttribute("ComputeTime", TimeValue(tc));
    job->SetAttribute("MessageBytes", UintegerValue(M));
    job->SetAttribute("Iterations", UintegerValue(5));
    job->SetAttribute("StartTime", TimeValue(MicroSeconds(100)));
    job->Start();
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    REQUIRE(job->IsFinished());
    const auto& recs = job->GetIterationRecords();
    REQUIRE(recs.size() == 5);
    REQUIRE(recs[0].start == MicroSeconds(100));
    double expected = tc.GetSeconds() + M * 8.0 / mlnettest::MaxGoodput(100e9, 1000);
    for (const auto& r : recs)
    {
        INFO("iteration " << r.iteration << ": " << r.Duration().GetMicroSeconds()
                          << " us, expected " << expected * 1e6);
        REQUIRE(r.Duration().GetSeconds() >= expected * 0.999);
        REQUIRE(r.Duration().GetSeconds() <= expected * 1.03);
        REQUIRE(r.compute == tc);
        REQUIRE(r.compute + r.exposedComm == r.Duration());
    }
    REQUIRE(job->GetMessageRecords().size() == 5);
    REQUIRE(job->GetJobRecord().Jct() == recs.back().end - recs.front().start);
    Simulator::Destroy();
}
