/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The outputs of the panama-shared-cluster example.

#include "panama-shared-cluster-output.h"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <numeric>

namespace ns3
{
namespace panamacluster
{

double
Percentile(std::vector<double> v, double p)
{
    if (v.empty())
    {
        return 0;
    }
    std::sort(v.begin(), v.end());
    double idx = p * (v.size() - 1);
    std::size_t lo = std::size_t(idx);
    std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (idx - lo);
}

double
Mean(const std::vector<double>& v)
{
    return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / v.size();
}

void
OpenOutputs(const std::string& out, OutputFiles& files)
{
    std::ofstream& itCsv = files.itCsv;
    std::ofstream& flowCsv = files.flowCsv;
    std::ofstream& sumCsv = files.sumCsv;
    std::ofstream& portCsv = files.portCsv;
    std::filesystem::create_directories(out);
    itCsv.open(out + "/iterations.csv");
    flowCsv.open(out + "/flows.csv");
    sumCsv.open(out + "/summary.csv");
    portCsv.open(out + "/ports.csv");
    if (!itCsv || !flowCsv || !sumCsv || !portCsv)
    {
        throw std::invalid_argument("--out: cannot write into " + out);
    }
    itCsv << "mode,k,load,seed,scheme,job,model,workers,iteration,start_s,duration_s,"
             "busy_s,bound_speedup,idle_iter_s\n";
    flowCsv << "mode,k,load,seed,scheme,kind,bytes,fct_s\n";
    sumCsv << "mode,k,load,achieved_load,seed,scheme,jobs,mean_iter_s,p50_iter_s,"
              "p99_iter_s,min_job_iterations,grad_load,end_s,speedup_vs_ring,"
              "short_flows,short_mean_fct_s,short_p99_fct_s,long_mean_fct_s,pfc_pauses,"
              "drops,wall_s,gpu,scale,pass_through,ring_order,bound_speedup,"
              "bound_speedup_max,idle_iter_s,ring_hops,ring_inter_pod_hops,"
              "ring_same_pod_hops,cpu_s,placement,backend,fluid_background,fluid_interval_s,"
              "fluid_cc\n";
    portCsv << "mode,k,load,seed,scheme,switch,tier,port,dir,far,tx_bytes,util,"
               "max_queue_bytes,pfc_pauses,ecn_marks\n";
}

void
PrintHeading(const Options& o, uint32_t hosts)
{
    std::cout << "k=" << o.k << " (" << hosts << " hosts, " << o.rate << "), " << o.workers
              << " workers per job, " << o.gpu << ", scale " << o.scale << ", short load "
              << o.shortLoad << ", long load " << o.longLoad << ", PANAMA pass-through "
              << o.passThrough << ", ring order " << o.ringOrder << ", placement " << o.placement;
    if (o.backend == "flow")
    {
        std::cout << ", flow level, fluid cc " << o.fluidCc << ", background " << o.fluidBackground;
        if (o.fluidBackground != "per-flow")
        {
            std::cout << " (interval " << o.fluidInterval.GetSeconds() * 1e6 << " us)";
        }
    }
    std::cout << "\n";
    if (o.scale < 1)
    {
        std::cout << "SMOKE TEST: --scale=" << o.scale
                  << " < 1 (models, compute and long flows scaled; per-step latencies are "
                     "not, so iterations are latency-bound): not a result\n";
    }
    std::cout << std::left << std::setw(6) << "load" << std::setw(9) << "achieved" << std::setw(5)
              << "seed" << std::setw(13) << "scheme" << std::right << std::setw(5) << "jobs"
              << std::setw(11) << "iter ms" << std::setw(9) << "vs ring" << std::setw(11)
              << "short us" << std::setw(11) << "p99 us" << std::setw(11) << "long ms"
              << std::setw(8) << "pauses" << std::setw(7) << "min it" << std::setw(7) << "grad"
              << std::setw(9) << "end ms" << std::setw(8) << "bound" << std::setw(8) << "wall s\n";
}

void
Report(const Options& o,
       const RunPoint& point,
       const std::vector<JobPlan>& plan,
       RunResult& r,
       const std::vector<double>& ringMeans,
       bool verbose,
       OutputFiles& files)
{
    const std::string& mode = point.mode;
    const double load = point.load;
    const double achieved = point.achieved;
    const uint32_t seed = point.seed;
    const std::string& scheme = point.scheme;
    std::ofstream& itCsv = files.itCsv;
    std::ofstream& flowCsv = files.flowCsv;
    std::ofstream& sumCsv = files.sumCsv;
    std::ofstream& portCsv = files.portCsv;
    // Speedup: mean over jobs of ring / scheme iteration time (same job).
    double speed = 0;
    uint32_t nSpeed = 0;
    std::vector<double> pooled;
    std::size_t minIters = r.iters.empty() ? 0 : r.iters[0].size();
    for (std::size_t j = 0; j < r.iters.size(); ++j)
    {
        minIters = std::min(minIters, r.iters[j].size());
        pooled.insert(pooled.end(), r.iters[j].begin(), r.iters[j].end());
        if (!ringMeans.empty() && r.jobMeanIter[j] > 0 && ringMeans[j] > 0)
        {
            speed += ringMeans[j] / r.jobMeanIter[j];
            ++nSpeed;
        }
    }
    // Mean over the jobs that completed a measured iteration (a job with none,
    // in a run shorter than its iteration, has no iteration time to average).
    std::vector<double> measuredMeans;
    std::copy_if(r.jobMeanIter.begin(),
                 r.jobMeanIter.end(),
                 std::back_inserter(measuredMeans),
                 [](double x) { return x > 0; });
    double meanIter = Mean(measuredMeans);
    double speedup = nSpeed ? speed / nSpeed : 0;
    // The idle-network bound beside it: the mean over the jobs of each job's
    // RingVsAggregationBound (the measured speed-up is a mean of per-job
    // ratios too), its largest, and this scheme's idle-network iteration.
    std::vector<double> bounds;
    std::vector<double> idle;
    for (const auto& j : plan)
    {
        bounds.push_back(j.bound.speedup);
        idle.push_back(scheme == "ring" ? j.bound.ringOverlapS : j.bound.aggOverlapS);
    }
    // Where the rings' hops go (the same placement for every scheme; the
    // pod-uplink traffic of ring is proportional to the hops between pods).
    RingHops hops;
    uint32_t ringHops = 0;
    for (const auto& j : plan)
    {
        RingHops h = CountRingHops(j.hosts, o.k);
        hops.interPod += h.interPod;
        hops.samePod += h.samePod;
        ringHops += j.hosts.size();
    }
    const double bound = scheme == "ring" ? 1.0 : Mean(bounds);
    const double boundMax =
        scheme == "ring" ? 1.0 : *std::max_element(bounds.begin(), bounds.end());
    std::cout << std::left << std::setw(6) << load << std::setw(9) << std::setprecision(3)
              << achieved << std::setw(5) << seed << std::setw(13) << scheme << std::right
              << std::fixed << std::setw(5) << plan.size() << std::setprecision(3) << std::setw(11)
              << meanIter * 1e3 << std::setprecision(2) << std::setw(9) << speedup
              << std::setprecision(1) << std::setw(11) << r.shortMean * 1e6 << std::setw(11)
              << r.shortP99 * 1e6 << std::setprecision(3) << std::setw(11) << Mean(r.longFct) * 1e3
              << std::setw(8) << r.pauses << std::setw(7) << minIters << std::setprecision(3)
              << std::setw(7) << r.gradLoad << std::setprecision(2) << std::setw(9) << r.end * 1e3
              << std::setw(8) << bound << std::setprecision(1) << std::setw(8) << r.wall
              << std::defaultfloat << std::endl;
    if (verbose)
    {
        std::sort(r.maxQueues.rbegin(), r.maxQueues.rend());
        std::cout << "    largest queues:";
        for (std::size_t q = 0; q < 8 && q < r.maxQueues.size(); ++q)
        {
            std::cout << " " << r.maxQueues[q].second << "=" << r.maxQueues[q].first / 1000 << "KB";
        }
        std::cout << "\n    results " << r.results << " marked " << r.marked << " timeouts "
                  << r.timeouts << "\n";
        std::cout << std::setprecision(4);
        for (std::size_t j = 0; j < r.iters.size(); ++j)
        {
            std::cout << "    job " << j << " " << plan[j].model << " load " << plan[j].load
                      << " compute " << plan[j].computeS * 1e3 << " ms period "
                      << plan[j].periodS * 1e3 << " ms iterations " << r.iters[j].size() << " mean "
                      << r.jobMeanIter[j] * 1e3 << " ms busy " << Mean(r.busy[j]) * 1e3
                      << " ms idle-network "
                      << (scheme == "ring" ? plan[j].bound.ringOverlapS
                                           : plan[j].bound.aggOverlapS) *
                             1e3
                      << " ms bound " << plan[j].bound.speedup << "\n";
        }
    }
    if (itCsv)
    {
        for (std::size_t j = 0; j < r.iters.size(); ++j)
        {
            for (std::size_t i = 0; i < r.iters[j].size(); ++i)
            {
                itCsv << mode << "," << o.k << "," << load << "," << seed << "," << scheme << ","
                      << j << "," << plan[j].model << "," << o.workers << "," << i << ","
                      << r.starts[j][i] << "," << r.iters[j][i] << "," << r.busy[j][i] << ","
                      << plan[j].bound.speedup << ","
                      << (scheme == "ring" ? plan[j].bound.ringOverlapS : plan[j].bound.aggOverlapS)
                      << "\n";
            }
        }
        for (double f : r.shortFct)
        {
            flowCsv << mode << "," << o.k << "," << load << "," << seed << "," << scheme
                    << ",short,7000," << f << "\n";
        }
        for (std::size_t i = 0; i < r.longFct.size(); ++i)
        {
            flowCsv << mode << "," << o.k << "," << load << "," << seed << "," << scheme << ",long,"
                    << r.longBytes[i] << "," << r.longFct[i] << "\n";
        }
        sumCsv << mode << "," << o.k << "," << load << "," << achieved << "," << seed << ","
               << scheme << "," << plan.size() << "," << meanIter << "," << Percentile(pooled, 0.5)
               << "," << Percentile(pooled, 0.99) << "," << minIters << "," << r.gradLoad << ","
               << r.end << "," << speedup << "," << r.shortCount << "," << r.shortMean << ","
               << r.shortP99 << "," << Mean(r.longFct) << "," << r.pauses << "," << r.drops << ","
               << r.wall << "," << o.gpu << "," << o.scale << "," << o.passThrough << ","
               << o.ringOrder << "," << bound << "," << boundMax << "," << Mean(idle) << ","
               << ringHops << "," << hops.interPod << "," << hops.samePod << "," << r.cpu << ","
               << o.placement << "," << o.backend << ","
               << (o.backend == "flow" ? o.fluidBackground : "-") << ","
               << (o.backend == "flow" && o.fluidBackground != "per-flow"
                       ? o.fluidInterval.GetSeconds()
                       : 0)
               << "," << (o.backend == "flow" ? o.fluidCc : "-") << std::endl;
        for (const auto& row : r.ports)
        {
            portCsv << mode << "," << o.k << "," << load << "," << seed << "," << scheme << ","
                    << row << "\n";
        }
        portCsv.flush();
        // Per run, so that a long sweep can be read (and plotted) while it runs.
        itCsv.flush();
        flowCsv.flush();
    }
}

} // namespace panamacluster
} // namespace ns3
