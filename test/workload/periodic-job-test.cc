/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// PeriodicJob compute jitter (statistics of the drawn compute times, determinism per RngRun,
// no jitter by default) and the interleaving measures of PhaseInterleaving, checked by hand.

#include "common/rdma-scenario.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace ns3;

namespace
{

/// Draw n compute times (ms) from a job with mean 2 ms and the given cv, on RngRun `run`.
std::vector<double>
Draw(double cv, uint32_t run, uint32_t n)
{
    RngSeedManager::SetRun(run);
    Ptr<PeriodicJob> job = CreateObject<PeriodicJob>();
    job->SetAttribute("ComputeTime", TimeValue(MilliSeconds(2)));
    job->SetAttribute("ComputeJitter", PointerValue(PeriodicJob::NormalJitter(cv)));
    job->AssignStreams(7);
    std::vector<double> v;
    for (uint32_t i = 0; i < n; ++i)
    {
        v.push_back(job->DrawComputeTime().GetSeconds() * 1e3);
    }
    return v;
}

} // namespace

TEST_CASE("workload: periodic job compute jitter has the requested mean and cv", "[workload]")
{
    for (double cv : {0.05, 0.2})
    {
        std::vector<double> v = Draw(cv, 1, 20000);
        double mean = 0;
        for (double x : v)
        {
            mean += x;
            REQUIRE(x >= 0.0);
            REQUIRE(x <= 4.0); // |X| <= 1
        }
        mean /= v.size();
        double var = 0;
        for (double x : v)
        {
            var += (x - mean) * (x - mean);
        }
        double sd = std::sqrt(var / (v.size() - 1));
        INFO("cv " << cv << ": mean " << mean << " ms, sd " << sd << " ms");
        // standard error of the mean: 2 cv / sqrt(20000) < 0.003 ms
        REQUIRE(mean == Approx(2.0).margin(0.01));
        REQUIRE(sd / mean == Approx(cv).epsilon(0.03));
    }
}

TEST_CASE("workload: periodic job jitter is deterministic per RngRun and off by default",
          "[workload]")
{
    REQUIRE(Draw(0.1, 3, 50) == Draw(0.1, 3, 50));
    REQUIRE(Draw(0.1, 3, 50) != Draw(0.1, 4, 50));
    for (double x : Draw(0.0, 1, 10))
    {
        REQUIRE(x == 2.0);
    }
    Ptr<PeriodicJob> plain = CreateObject<PeriodicJob>();
    plain->SetAttribute("ComputeTime", TimeValue(MicroSeconds(1234)));
    REQUIRE(plain->DrawComputeTime() == MicroSeconds(1234));
    REQUIRE_THROWS_AS(PeriodicJob::NormalJitter(-0.1), std::invalid_argument);
    REQUIRE_THROWS_AS(PeriodicJob::NormalJitter(1.5), std::invalid_argument);
    REQUIRE_THROWS_AS(PeriodicJob::NormalJitter(std::nan("")), std::invalid_argument);
}

TEST_CASE("workload: jittered periodic job records the drawn compute time", "[workload]")
{
    RngSeedManager::SetRun(2);
    mlnettest::RdmaDumbbell net(1, 1);
    Ptr<PeriodicJob> job = CreateObject<PeriodicJob>();
    job->SetAttribute("Iterations", UintegerValue(20));
    job->SetAttribute("ComputeTime", TimeValue(MicroSeconds(200)));
    job->SetAttribute("MessageBytes", UintegerValue(100000));
    job->SetAttribute("StartTime", TimeValue(MicroSeconds(50)));
    job->SetAttribute("ComputeJitter", PointerValue(PeriodicJob::NormalJitter(0.2)));
    job->SetQueuePair(net.Connect(0, 1));
    job->Start();
    Simulator::Run();
    const auto& recs = job->GetIterationRecords();
    REQUIRE(recs.size() == 20);
    REQUIRE(recs[0].start == MicroSeconds(50));
    std::set<int64_t> distinct;
    for (const auto& r : recs)
    {
        distinct.insert(r.compute.GetNanoSeconds());
        REQUIRE(r.compute >= Time(0));
        REQUIRE(r.compute + r.exposedComm == r.Duration());
        // the message (100 KB at < 92.4 Gb/s goodput) takes >= 8.6 us after the compute phase
        REQUIRE(r.exposedComm >= MicroSeconds(8));
    }
    REQUIRE(distinct.size() == 20);
    Simulator::Destroy();
}

TEST_CASE("workload: phase interleaving measures overlap and phase and convergence", "[workload]")
{
    using Iv = PhaseInterleaving::Interval;
    // job 0 communicates [0,1], [4,5], [8,9]; job 1 [0.5,1.5], [5,6], [10,11]
    PhaseInterleaving pi({{Iv{0, 1}, Iv{4, 5}, Iv{8, 9}}, {Iv{0.5, 1.5}, Iv{5, 6}, Iv{10, 11}}});
    REQUIRE(pi.Overlap(0, 0) == Approx(0.5));
    REQUIRE(pi.Overlap(1, 0) == Approx(0.5));
    REQUIRE(pi.Overlap(0, 1) == 0.0); // touching at t = 5 only
    REQUIRE(pi.Overlap(1, 2) == 0.0);
    REQUIRE(pi.MaxOverlapSeries() == std::vector<double>{0.5, 0.0, 0.0});
    REQUIRE(pi.Phase(1, 0) == Approx(0.5 / 4));
    REQUIRE(pi.Phase(1, 1) == Approx(1.0 / 4));
    REQUIRE_THROWS_AS(pi.Phase(0, 0), std::out_of_range);

    // three jobs: the union of the others counts once
    PhaseInterleaving three({{Iv{0, 2}}, {Iv{0, 1}}, {Iv{0.5, 1.5}}});
    REQUIRE(three.Overlap(0, 0) == Approx(0.75));
    REQUIRE(three.Overlap(1, 0) == Approx(1.0));

    // window means: [0,1] 0.25, [1,2] 0.15, [2,3] 0.15, [3,4] 0.005, ...
    std::vector<double> s{0.5, 0.0, 0.3, 0.0, 0.01, 0.02, 0.5, 0.0};
    REQUIRE(PhaseInterleaving::IterationsToInterleave(s, 0.05, 2) == 3);
    REQUIRE(PhaseInterleaving::IterationsToInterleave(s, 0.1, 3) == 1); // (0 + 0.3 + 0) / 3
    REQUIRE(PhaseInterleaving::IterationsToInterleave(s, 0.05, 1) == 1);
    REQUIRE(PhaseInterleaving::IterationsToInterleave(s, 0.1, 8) == -1); // mean 0.16
    REQUIRE(PhaseInterleaving::IterationsToInterleave(s, 0.2, 8) == 0);
    REQUIRE(PhaseInterleaving::IterationsToInterleave(s, 0.2, 9) == -1); // too short
    REQUIRE_THROWS_AS(PhaseInterleaving::IterationsToInterleave(s, 1.5, 3), std::invalid_argument);
    REQUIRE_THROWS_AS(PhaseInterleaving({{Iv{0, 1}}}), std::invalid_argument);
    REQUIRE_THROWS_AS(PhaseInterleaving({{Iv{1, 0}}, {}}), std::invalid_argument);
}
