/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Small versions of the dcqcn-unfairness experiment (doc/rdma.rst): two periodic jobs with
// jittered compute share a 100 Gb/s bottleneck; the direction of the headline results with a
// bound, so they cannot silently regress.

#include "common/rdma-scenario.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{

/// 10 MB per iteration: alone about 0.87 ms on the 100 Gb/s dumbbell (92.4 Gb/s goodput).
constexpr uint64_t BYTES = 10000000;

/// Compute time giving communication fraction f alone: t_m (1 - f) / f, t_m = 0.872 ms.
Time
ComputeFor(double f)
{
    return MicroSeconds(int64_t(872 * (1 - f) / f));
}

/**
 * Two jobs (compute each, BYTES per iteration) on one bottleneck, job 0 with DCQCN profile `a`,
 * job 1 starting `offset` later; the jobs' communication phases.
 */
PhaseInterleaving
RunPair(double a, Time compute, uint32_t iterations, double cv, uint32_t run, Time offset = Time(0))
{
    RngSeedManager::SetRun(run);
    mlnettest::RdmaDumbbell net(2, 2, true, 32u * 1024 * 1024, "ns3::DcqcnVendor");
    std::vector<Ptr<PeriodicJob>> jobs;
    for (uint32_t j = 0; j < 2; ++j)
    {
        ObjectFactory cc;
        cc.SetTypeId("ns3::DcqcnVendor");
        if (j == 0)
        {
            DcqcnProfile(a).Configure(cc);
        }
        Ptr<PeriodicJob> job = CreateObject<PeriodicJob>();
        job->SetAttribute("Iterations", UintegerValue(iterations));
        job->SetAttribute("ComputeTime", TimeValue(compute));
        job->SetAttribute("MessageBytes", UintegerValue(BYTES));
        job->SetAttribute("StartTime", TimeValue(j == 0 ? Time(0) : offset));
        job->SetAttribute("ComputeJitter", PointerValue(PeriodicJob::NormalJitter(cv)));
        job->AssignStreams(100 + j);
        job->SetQueuePair(net.Connect(j, 2 + j, &cc));
        job->Start();
        jobs.push_back(job);
    }
    Simulator::Run();
    std::vector<std::vector<MessageRecord>> msgs;
    for (const auto& job : jobs)
    {
        msgs.push_back(job->GetMessageRecords());
    }
    Simulator::Destroy();
    return PhaseInterleaving::FromMessages(msgs);
}

/// Mean of the largest overlap over iterations [from, to).
double
MeanOverlap(const PhaseInterleaving& pi, std::size_t from, std::size_t to)
{
    std::vector<double> s = pi.MaxOverlapSeries();
    REQUIRE(s.size() >= to);
    double sum = 0;
    for (std::size_t k = from; k < to; ++k)
    {
        sum += s[k];
    }
    return sum / (to - from);
}

} // namespace

TEST_CASE("workload: a compatible pair interleaves while a partially compatible pair overlaps",
          "[workload][interleaving]")
{
    // fractions 0.4 + 0.4 <= 1: the phases can slide apart completely; 0.65 + 0.65 > 1: each
    // job's phase overlaps the other's by at least (0.65 + 0.65 - 1) / 0.65 = 46 % of it when
    // both run at their alone speed, less only by slowing down
    PhaseInterleaving compatible = RunPair(1.0, ComputeFor(0.4), 30, 0.0, 1, MicroSeconds(400));
    PhaseInterleaving partial = RunPair(1.0, ComputeFor(0.65), 20, 0.0, 1, MicroSeconds(400));
    double c = MeanOverlap(compatible, 20, 30);
    double p = MeanOverlap(partial, 10, 20);
    INFO("overlap: compatible " << c << " (iterations 20-29), partially compatible " << p
                                << " (10-19)");
    CHECK(c <= 0.05);
    CHECK(p >= 0.25);
    CHECK(PhaseInterleaving::IterationsToInterleave(compatible.MaxOverlapSeries(), 0.1, 10) >= 0);
    CHECK(PhaseInterleaving::IterationsToInterleave(partial.MaxOverlapSeries(), 0.1, 10) == -1);
}
