/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The outputs of the panama-shared-cluster example.

#include "panama-shared-cluster-output.h"

#include "ns3/csv-columns.h"

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

namespace
{

/// The idle-network iteration time of a job under the scheme (s).
double
IdleIterS(const JobPlan& job, const std::string& scheme)
{
    return scheme == "ring" ? job.bound.ringOverlapS : job.bound.aggOverlapS;
}

/// Where a run belongs: the first columns of every file.
struct RunKey
{
    const Options& o;
    const RunPoint& point;
};

/// A row of iterations.csv: job j's measured iteration i.
struct IterationRow
{
    const RunKey& run;
    std::size_t j;
    const JobPlan& job;
    std::size_t i;
    double start;
    double duration;
    double busy;
};

/// A row of flows.csv: a 7 KB flow ("short") or a long flow.
struct FlowRow
{
    const RunKey& run;
    const char* kind;
    uint64_t bytes;
    double fct;
};

/// A row of ports.csv.
struct PortCsvRow
{
    const RunKey& run;
    const PortRow& port;
};

/// The row of summary.csv: a run's results and what Report derives from them.
struct SummaryRow
{
    const RunKey& run;
    const RunResult& res;
    std::size_t jobs;
    double meanIter;
    double p50;
    double p99;
    std::size_t minIters;
    double speedup;
    double bound;
    double boundMax;
    double idle;
    uint32_t ringHops;
    RingHops hops;
};

/// mode,k,load,seed,scheme, then a file's own columns.
template <class R>
std::vector<CsvColumn<R>>
Keyed(std::initializer_list<CsvColumn<R>> own)
{
    std::vector<CsvColumn<R>> columns = {MLNET_CSV_COLUMN(R, "mode", r.run.point.mode),
                                         MLNET_CSV_COLUMN(R, "k", r.run.o.k),
                                         MLNET_CSV_COLUMN(R, "load", r.run.point.load),
                                         MLNET_CSV_COLUMN(R, "seed", r.run.point.seed),
                                         MLNET_CSV_COLUMN(R, "scheme", r.run.point.scheme)};
    columns.insert(columns.end(), own);
    return columns;
}

// Each file's columns: its header and its rows are written from them.

using It = IterationRow;
const std::vector<CsvColumn<It>> kIterationColumns = Keyed<It>({
    MLNET_CSV_COLUMN(It, "job", r.j),
    MLNET_CSV_COLUMN(It, "model", r.job.model),
    MLNET_CSV_COLUMN(It, "workers", r.run.o.workers),
    MLNET_CSV_COLUMN(It, "iteration", r.i),
    MLNET_CSV_COLUMN(It, "start_s", r.start),
    MLNET_CSV_COLUMN(It, "duration_s", r.duration),
    MLNET_CSV_COLUMN(It, "busy_s", r.busy),
    MLNET_CSV_COLUMN(It, "bound_speedup", r.job.bound.speedup),
    MLNET_CSV_COLUMN(It, "idle_iter_s", IdleIterS(r.job, r.run.point.scheme)),
});

const std::vector<CsvColumn<FlowRow>> kFlowColumns = Keyed<FlowRow>({
    MLNET_CSV_COLUMN(FlowRow, "kind", r.kind),
    MLNET_CSV_COLUMN(FlowRow, "bytes", r.bytes),
    MLNET_CSV_COLUMN(FlowRow, "fct_s", r.fct),
});

using Port = PortCsvRow;
const std::vector<CsvColumn<Port>> kPortColumns = Keyed<Port>({
    MLNET_CSV_COLUMN(Port, "switch", r.port.sw),
    MLNET_CSV_COLUMN(Port, "tier", r.port.tier),
    MLNET_CSV_COLUMN(Port, "port", r.port.port),
    MLNET_CSV_COLUMN(Port, "dir", r.port.up ? "up" : "down"),
    MLNET_CSV_COLUMN(Port, "far", r.port.far),
    MLNET_CSV_COLUMN(Port, "tx_bytes", r.port.txBytes),
    MLNET_CSV_COLUMN(Port, "util", r.port.util),
    MLNET_CSV_COLUMN(Port, "max_queue_bytes", r.port.maxQueue),
    MLNET_CSV_COLUMN(Port, "pfc_pauses", r.port.pfcPauses),
    MLNET_CSV_COLUMN(Port, "ecn_marks", r.port.ecnMarks),
});

/// The run is at flow level (summary.csv's fluid_* columns: "-", or 0, at packet level).
bool
AtFlowLevel(const Options& o)
{
    return o.backend == "flow";
}

using Sum = SummaryRow;
const std::vector<CsvColumn<Sum>> kSummaryColumns = {
    MLNET_CSV_COLUMN(Sum, "mode", r.run.point.mode),
    MLNET_CSV_COLUMN(Sum, "k", r.run.o.k),
    MLNET_CSV_COLUMN(Sum, "load", r.run.point.load),
    MLNET_CSV_COLUMN(Sum, "achieved_load", r.run.point.achieved),
    MLNET_CSV_COLUMN(Sum, "seed", r.run.point.seed),
    MLNET_CSV_COLUMN(Sum, "scheme", r.run.point.scheme),
    MLNET_CSV_COLUMN(Sum, "jobs", r.jobs),
    MLNET_CSV_COLUMN(Sum, "mean_iter_s", r.meanIter),
    MLNET_CSV_COLUMN(Sum, "p50_iter_s", r.p50),
    MLNET_CSV_COLUMN(Sum, "p99_iter_s", r.p99),
    MLNET_CSV_COLUMN(Sum, "min_job_iterations", r.minIters),
    MLNET_CSV_COLUMN(Sum, "grad_load", r.res.gradLoad),
    MLNET_CSV_COLUMN(Sum, "end_s", r.res.end),
    MLNET_CSV_COLUMN(Sum, "speedup_vs_ring", r.speedup),
    MLNET_CSV_COLUMN(Sum, "short_flows", r.res.shortCount),
    MLNET_CSV_COLUMN(Sum, "short_mean_fct_s", r.res.shortMean),
    MLNET_CSV_COLUMN(Sum, "short_p99_fct_s", r.res.shortP99),
    MLNET_CSV_COLUMN(Sum, "long_mean_fct_s", Mean(r.res.longFct)),
    MLNET_CSV_COLUMN(Sum, "pfc_pauses", r.res.pauses),
    MLNET_CSV_COLUMN(Sum, "drops", r.res.drops),
    MLNET_CSV_COLUMN(Sum, "wall_s", r.res.wall),
    MLNET_CSV_COLUMN(Sum, "gpu", r.run.o.gpu),
    MLNET_CSV_COLUMN(Sum, "scale", r.run.o.scale),
    MLNET_CSV_COLUMN(Sum, "pass_through", r.run.o.passThrough),
    MLNET_CSV_COLUMN(Sum, "ring_order", r.run.o.ringOrder),
    MLNET_CSV_COLUMN(Sum, "bound_speedup", r.bound),
    MLNET_CSV_COLUMN(Sum, "bound_speedup_max", r.boundMax),
    MLNET_CSV_COLUMN(Sum, "idle_iter_s", r.idle),
    MLNET_CSV_COLUMN(Sum, "ring_hops", r.ringHops),
    MLNET_CSV_COLUMN(Sum, "ring_inter_pod_hops", r.hops.interPod),
    MLNET_CSV_COLUMN(Sum, "ring_same_pod_hops", r.hops.samePod),
    MLNET_CSV_COLUMN(Sum, "cpu_s", r.res.cpu),
    MLNET_CSV_COLUMN(Sum, "placement", r.run.o.placement),
    MLNET_CSV_COLUMN(Sum, "backend", r.run.o.backend),
    MLNET_CSV_COLUMN(Sum, "fluid_background", AtFlowLevel(r.run.o) ? r.run.o.fluidBackground : "-"),
    MLNET_CSV_COLUMN(Sum,
                     "fluid_interval_s",
                     AtFlowLevel(r.run.o) && r.run.o.fluidBackground != "per-flow"
                         ? r.run.o.fluidInterval.GetSeconds()
                         : 0),
    MLNET_CSV_COLUMN(Sum, "fluid_cc", AtFlowLevel(r.run.o) ? r.run.o.fluidCc : "-"),
};

} // namespace

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
    WriteCsvHeader(itCsv, kIterationColumns);
    WriteCsvHeader(flowCsv, kFlowColumns);
    WriteCsvHeader(sumCsv, kSummaryColumns);
    WriteCsvHeader(portCsv, kPortColumns);
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
        idle.push_back(IdleIterS(j, scheme));
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
                      << " ms idle-network " << IdleIterS(plan[j], scheme) * 1e3 << " ms bound "
                      << plan[j].bound.speedup << "\n";
        }
    }
    if (itCsv)
    {
        const RunKey key{o, point};
        for (std::size_t j = 0; j < r.iters.size(); ++j)
        {
            for (std::size_t i = 0; i < r.iters[j].size(); ++i)
            {
                WriteCsvRow(itCsv,
                            kIterationColumns,
                            {key, j, plan[j], i, r.starts[j][i], r.iters[j][i], r.busy[j][i]});
            }
        }
        for (double f : r.shortFct)
        {
            WriteCsvRow(flowCsv, kFlowColumns, {key, "short", 7000, f});
        }
        for (std::size_t i = 0; i < r.longFct.size(); ++i)
        {
            WriteCsvRow(flowCsv, kFlowColumns, {key, "long", r.longBytes[i], r.longFct[i]});
        }
        WriteCsvRow(sumCsv,
                    kSummaryColumns,
                    {key,
                     r,
                     plan.size(),
                     meanIter,
                     Percentile(pooled, 0.5),
                     Percentile(pooled, 0.99),
                     minIters,
                     speedup,
                     bound,
                     boundMax,
                     Mean(idle),
                     ringHops,
                     hops});
        for (const auto& port : r.ports)
        {
            WriteCsvRow(portCsv, kPortColumns, {key, port});
        }
        sumCsv.flush();
        portCsv.flush();
        // Per run, so that a long sweep can be read (and plotted) while it runs.
        itCsv.flush();
        flowCsv.flush();
    }
}

} // namespace panamacluster
} // namespace ns3
