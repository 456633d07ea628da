/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Two periodic training jobs (compute t_c, then send M bytes) with compatible communication
// patterns share one 100 Gbps bottleneck. Compares fair DCQCN, a deliberately unfair profile
// (job A more aggressive: Rajasekaran et al., HotNets 2022) and iteration-aware gain (MLTCP:
// the increase step scaled by F(r) = S r + I, r = fraction of the iteration's bytes sent).
// Reports each job's mean iteration time and whether the communication phases end up
// interleaved (overlap of the two jobs' communication phases in the last iterations).
//
//   ./dcqcn-unfairness --mode=all --iterations=30 --compute=3ms --bytes=20000000

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{
struct Result
{
    double meanA{0};
    double meanB{0};
    double overlap{0}; //!< fraction of communication time the two jobs overlap (last third)
};

/// Overlap of two sets of intervals, over the span of the second half of them.
double
Overlap(const std::vector<MessageRecord>& a, const std::vector<MessageRecord>& b)
{
    double both = 0;
    double total = 0;
    for (size_t i = a.size() * 2 / 3; i < a.size(); ++i)
    {
        total += (a[i].completed - a[i].posted).GetSeconds();
        for (const auto& m : b)
        {
            Time lo = std::max(a[i].posted, m.posted);
            Time hi = std::min(a[i].completed, m.completed);
            if (hi > lo)
            {
                both += (hi - lo).GetSeconds();
            }
        }
    }
    return total > 0 ? both / total : 0;
}

Result
Run(const std::string& mode, const std::string& cc, uint32_t iterations, Time compute,
    uint64_t bytes, Time offset, double aggressiveness, double slope, double intercept)
{
    FabricTopologyHelper th;
    FabricTopology t = th.BuildDumbbell(2, 2);
    RdmaHelper rdma;
    rdma.SetCongestionControl(cc);
    std::vector<Ptr<RdmaNic>> nics = rdma.Install(t.hosts);
    ObjectFactory ccA = rdma.GetCongestionControl();
    ObjectFactory ccB = rdma.GetCongestionControl();
    if (mode == "unfair")
    {
        DcqcnProfile(aggressiveness).Configure(ccA);
    }
    else if (mode == "mltcp")
    {
        for (ObjectFactory* f : {&ccA, &ccB})
        {
            f->Set("IterGainSlope", DoubleValue(slope));
            f->Set("IterGainIntercept", DoubleValue(intercept));
        }
    }
    std::vector<Ptr<PeriodicJob>> jobs;
    for (uint32_t j = 0; j < 2; ++j)
    {
        Ptr<PeriodicJob> job = CreateObject<PeriodicJob>();
        job->SetAttribute("JobName", StringValue(j == 0 ? "A" : "B"));
        job->SetAttribute("JobId", UintegerValue(j));
        job->SetAttribute("Iterations", UintegerValue(iterations));
        job->SetAttribute("ComputeTime", TimeValue(compute));
        job->SetAttribute("MessageBytes", UintegerValue(bytes));
        job->SetAttribute("StartTime", TimeValue(j == 0 ? Time(0) : offset));
        job->SetQueuePair(nics[j]->Connect(nics[2 + j], 3, j == 0 ? &ccA : &ccB));
        job->Start();
        jobs.push_back(job);
    }
    Simulator::Run();
    Result r;
    r.meanA = jobs[0]->GetMeanIterationTime(1).GetSeconds() * 1e3;
    r.meanB = jobs[1]->GetMeanIterationTime(1).GetSeconds() * 1e3;
    r.overlap = Overlap(jobs[0]->GetMessageRecords(), jobs[1]->GetMessageRecords());
    Simulator::Destroy();
    return r;
}
} // namespace

int
main(int argc, char* argv[])
{
    std::string mode = "all";
    std::string cc = "ns3::DcqcnVendor";
    uint32_t iterations = 30;
    Time compute = MilliSeconds(3);
    uint64_t bytes = 20000000;
    Time offset = MicroSeconds(100);
    double aggressiveness = 4.0;
    double slope = 2.0;
    double intercept = 0.5;
    CommandLine cmd(__FILE__);
    cmd.AddValue("mode", "fair, unfair, mltcp or all", mode);
    cmd.AddValue("cc", "Congestion control TypeId (ns3::Dcqcn, ns3::DcqcnVendor)", cc);
    cmd.AddValue("iterations", "Iterations per job", iterations);
    cmd.AddValue("compute", "Compute phase per iteration", compute);
    cmd.AddValue("bytes", "Bytes communicated per iteration", bytes);
    cmd.AddValue("offset", "Start of job B after job A", offset);
    cmd.AddValue("aggressiveness", "Unfair mode: DCQCN profile of job A, in [0.1, 10]",
                 aggressiveness);
    cmd.AddValue("slope", "MLTCP mode: S of F(r) = S r + I", slope);
    cmd.AddValue("intercept", "MLTCP mode: I of F(r) = S r + I", intercept);
    cmd.Parse(argc, argv);
    try
    {
        if (mode != "fair" && mode != "unfair" && mode != "mltcp" && mode != "all")
        {
            throw std::invalid_argument("--mode = " + mode
                                        + ": must be fair, unfair, mltcp or all");
        }
        if (iterations < 3 || iterations > 100000)
        {
            throw std::invalid_argument("--iterations must be in [3, 100000]");
        }
        if (bytes == 0)
        {
            throw std::invalid_argument("--bytes must be >= 1");
        }
        DcqcnProfile check(aggressiveness); // validates the range
        double alone = compute.GetSeconds() * 1e3 + bytes * 8.0 / (100e9 * 1000 / 1082) * 1e3;
        std::cout << "Two periodic jobs, compute " << compute.GetSeconds() * 1e3 << " ms, " << bytes
                  << " B per iteration; alone: about " << std::setprecision(3) << alone
                  << " ms per iteration\n";
        std::cout << std::left << std::setw(10) << "mode" << std::right << std::setw(12) << "A_ms"
                  << std::setw(12) << "B_ms" << std::setw(12) << "mean_ms" << std::setw(12)
                  << "overlap"
                  << "\n";
        double fairMean = 0;
        for (const std::string& m : {"fair", "unfair", "mltcp"})
        {
            if (mode != "all" && mode != m)
            {
                continue;
            }
            Result r
                = Run(m, cc, iterations, compute, bytes, offset, aggressiveness, slope, intercept);
            double mean = (r.meanA + r.meanB) / 2;
            if (m == "fair")
            {
                fairMean = mean;
            }
            std::cout << std::fixed << std::setprecision(3) << std::left << std::setw(10) << m
                      << std::right << std::setw(12) << r.meanA << std::setw(12) << r.meanB
                      << std::setw(12) << mean << std::setw(12) << r.overlap;
            if (fairMean > 0 && m != "fair")
            {
                std::cout << "   speed-up vs fair " << fairMean / mean << "x";
            }
            std::cout << "\n";
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "dcqcn-unfairness: error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
