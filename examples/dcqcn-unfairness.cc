/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Unfairness by design (Rajasekaran et al., HotNets 2022) and iteration-aware gain (MLTCP),
// measured as the papers measure them: N periodic training jobs (compute, then send M bytes)
// share one 100 Gb/s bottleneck for hundreds of iterations; each iteration's compute time is
// jittered (normal, coefficient of variation --cv, one ns-3 stream per job, so RngRun changes
// it); the jobs start in phase (the worst case) or offset. Modes:
//   fair    every job plain DCQCN (the --cc variant);
//   unfair  job j gets DcqcnProfile(a^((N-1-j)/(N-1))): job 0 the most aggressive (a), the last
//           plain DCQCN; --aggressiveness is a list, so one run sweeps the unfairness;
//   mltcp   every job scales its increase step by F(r) = S r + I (r = fraction of the
//           iteration's bytes sent).
// Each job's communication fraction alone is f_j (--fractions): the compute time is set from the
// message time measured alone, t_c = t_m (1 - f) / f. Jobs are compatible when sum f_j <= 1.
//
// Reported per (mode, start, seed): the overlap of every communication phase with the others'
// (fraction of the phase during which another job communicates), the phase of job j within
// job 0's cycle, the number of iterations until the jobs interleave (first iteration k from
// which the largest overlap over the jobs, averaged over --window iterations, is <= --threshold;
// "never" when it does not happen in the run), and over the steady state (iterations >= --warmup):
// mean, p50 and p99 iteration time, the mean largest overlap, and the speed-up of the average
// iteration time over fair sharing with the same seed. The table aggregates the seeds (median and
// range).
//
//   ./dcqcn-unfairness --fractions=0.4,0.4 --iterations=300 --warmup=100 --cv=0.05 --runs=3
//       --aggressiveness=1.5,2,4,8 --out=unfair-compatible      (one command line)

#include "rdma-timeout-line.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>
#include <stdexcept>

using namespace ns3;

namespace
{

/// Command-line options of the experiment.
struct Options
{
    std::string cc = "ns3::DcqcnVendor";
    uint64_t bytes = 5000000;
    std::vector<double> fractions{0.4, 0.4};
    std::vector<std::string> modes{"fair", "unfair", "mltcp"};
    std::vector<double> aggressiveness{1.5, 2, 4, 8};
    std::vector<std::string> starts{"phase", "offset"};
    double offset = 0.5; //!< offset start: job j starts j x offset x T_alone(0) / N later
    uint32_t iterations = 300;
    uint32_t warmup = 100;
    double cv = 0.05;
    uint32_t runs = 3;
    uint32_t firstRun = 1;
    double slope = 2.0;
    double intercept = 0.5;
    double threshold = 0.1;
    uint32_t window = 10;
    std::string out;
    std::string backend = "packet"; //!< packet, or flow (FluidDcqcn with the same --cc)
    Time step = MicroSeconds(10);   //!< FluidDcqcn::Step at flow level
};

/// One congestion-control setting of the jobs.
struct CcSetting
{
    std::string mode;
    double a{1}; //!< aggressiveness of job 0 (unfair mode)

    std::string Name() const
    {
        if (mode != "unfair")
        {
            return mode;
        }
        std::ostringstream s;
        s << "unfair-a" << a;
        return s.str();
    }
};

/// What one simulation produced.
struct RunData
{
    std::vector<std::vector<IterationRecord>> iterations;
    std::vector<std::vector<MessageRecord>> messages;
};

/// Steady-state metrics of one run.
struct RunMetrics
{
    int64_t toInterleave{-1};
    double meanMs{0}; //!< average over jobs of the job's mean iteration time
    std::vector<double> durationsMs;
    double overlap{0};          //!< mean overlap
    double interleavedShare{0}; //!< share of steady iterations whose largest overlap <= threshold
};

std::vector<std::string>
Split(const std::string& s)
{
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, ','))
    {
        if (!item.empty())
        {
            out.push_back(item);
        }
    }
    return out;
}

std::vector<double>
SplitReal(const std::string& s, const std::string& name)
{
    std::vector<double> out;
    for (const std::string& item : Split(s))
    {
        std::size_t used = 0;
        double v = std::numeric_limits<double>::quiet_NaN();
        try
        {
            v = std::stod(item, &used);
        }
        catch (const std::exception&)
        {
        }
        if (used != item.size() || !std::isfinite(v))
        {
            throw std::invalid_argument("--" + name + ": '" + item + "' is not a number");
        }
        out.push_back(v);
    }
    if (out.empty())
    {
        throw std::invalid_argument("--" + name + " needs at least one value");
    }
    return out;
}

/// Run N periodic jobs on one bottleneck.
RunData
Simulate(const Options& o,
         const CcSetting& c,
         const std::vector<Time>& compute,
         const std::vector<Time>& startTimes,
         double cv,
         uint32_t iterations,
         uint32_t run)
{
    RngSeedManager::SetRun(run);
    const uint32_t n = compute.size();
    FabricTopologyHelper th;
    FabricTopology t = th.BuildDumbbell(n, n);
    RdmaHelper rdma;
    rdma.SetCongestionControl(o.cc);
    std::vector<Ptr<RdmaNic>> nics;
    std::vector<Ptr<MessageTransport>> transports;
    if (o.backend == "packet")
    {
        nics = rdma.Install(t.hosts);
    }
    else
    {
        // Flow level: the same dumbbell as fluid links, DCQCN as FluidDcqcn (one reaction point
        // per job's connection, with the job's own factory, as the queue pairs have).
        FlowBackendHelper flow;
        Ptr<FluidFabric> fabric = flow.Install(t);
        Ptr<FluidDcqcn> fluidCc = CreateObject<FluidDcqcn>();
        fluidCc->SetAttribute("Step", TimeValue(o.step));
        fluidCc->SetCongestionControl(rdma.GetCongestionControl());
        fluidCc->AssignStreams(1000);
        fluidCc->Install(fabric);
        std::vector<uint32_t> all(2 * n);
        std::iota(all.begin(), all.end(), 0);
        transports = FlowBackendHelper::Transports(t, all);
    }
    std::vector<Ptr<PeriodicJob>> jobs;
    for (uint32_t j = 0; j < n; ++j)
    {
        ObjectFactory cc = rdma.GetCongestionControl();
        if (c.mode == "unfair" && n > 1)
        {
            DcqcnProfile(std::pow(c.a, double(n - 1 - j) / (n - 1))).Configure(cc);
        }
        else if (c.mode == "mltcp")
        {
            cc.Set("IterGainSlope", DoubleValue(o.slope));
            cc.Set("IterGainIntercept", DoubleValue(o.intercept));
        }
        Ptr<PeriodicJob> job = CreateObject<PeriodicJob>();
        job->SetAttribute("JobName", StringValue(std::string(1, char('A' + j % 26))));
        job->SetAttribute("JobId", UintegerValue(j));
        job->SetAttribute("Iterations", UintegerValue(iterations));
        job->SetAttribute("ComputeTime", TimeValue(compute[j]));
        job->SetAttribute("MessageBytes", UintegerValue(o.bytes));
        job->SetAttribute("StartTime", TimeValue(startTimes[j]));
        job->SetAttribute("ComputeJitter", PointerValue(PeriodicJob::NormalJitter(cv)));
        job->AssignStreams(100 + j);
        if (o.backend == "packet")
        {
            job->SetQueuePair(nics[j]->Connect(nics[n + j], DataClass::DEFAULT, &cc));
        }
        else
        {
            Ptr<FluidConnection> c = DynamicCast<FluidConnection>(
                transports[j]->Open(transports[n + j], DataClass::DEFAULT));
            c->SetCongestionControl(cc);
            job->SetConnection(c);
        }
        job->Start();
        jobs.push_back(job);
    }
    Simulator::Run();
    mlnetexamples::PrintRdmaTimeouts("dcqcn-unfairness", c.Name());
    RunData d;
    for (const auto& job : jobs)
    {
        d.iterations.push_back(job->GetIterationRecords());
        d.messages.push_back(job->GetMessageRecords());
    }
    Simulator::Destroy();
    return d;
}

RunMetrics
Measure(const Options& o, const RunData& d, const PhaseInterleaving& pi)
{
    RunMetrics m;
    std::vector<double> maxOverlap = pi.MaxOverlapSeries();
    m.toInterleave = PhaseInterleaving::IterationsToInterleave(maxOverlap, o.threshold, o.window);
    double sumMeans = 0;
    for (std::size_t j = 0; j < d.iterations.size(); ++j)
    {
        double sum = 0;
        uint32_t cnt = 0;
        for (std::size_t k = o.warmup; k < d.iterations[j].size(); ++k)
        {
            double ms = d.iterations[j][k].Duration().GetSeconds() * 1e3;
            m.durationsMs.push_back(ms);
            sum += ms;
            ++cnt;
        }
        sumMeans += cnt ? sum / cnt : 0;
    }
    double overlapSum = 0;
    uint32_t interleaved = 0;
    for (std::size_t k = o.warmup; k < maxOverlap.size(); ++k)
    {
        overlapSum += maxOverlap[k];
        interleaved += maxOverlap[k] <= o.threshold;
    }
    m.meanMs = sumMeans / d.iterations.size();
    m.overlap = maxOverlap.size() > o.warmup ? overlapSum / (maxOverlap.size() - o.warmup) : 0;
    m.interleavedShare =
        maxOverlap.size() > o.warmup ? double(interleaved) / (maxOverlap.size() - o.warmup) : 0;
    return m;
}

void
WriteSeries(std::ostream& csv,
            const CcSetting& c,
            const std::string& start,
            uint32_t run,
            const RunData& d,
            const PhaseInterleaving& pi)
{
    for (std::size_t j = 0; j < d.iterations.size(); ++j)
    {
        for (std::size_t k = 0; k < d.iterations[j].size(); ++k)
        {
            const IterationRecord& r = d.iterations[j][k];
            const MessageRecord& msg = d.messages[j][k];
            csv << c.Name() << ',' << c.mode << ',' << c.a << ',' << start << ',' << run << ',' << j
                << ',' << k << ',' << std::setprecision(9) << r.start.GetSeconds() << ','
                << r.Duration().GetSeconds() * 1e3 << ',' << r.compute.GetSeconds() * 1e3 << ','
                << msg.posted.GetSeconds() << ',' << msg.completed.GetSeconds() << ','
                << pi.Overlap(j, k) << ',';
            if (j > 0 && k + 1 < pi.GetPhases(0))
            {
                double ph = pi.Phase(j, k);
                if (std::isfinite(ph))
                {
                    csv << ph;
                }
            }
            csv << '\n';
        }
    }
}

std::string
Median(std::vector<int64_t> v)
{
    // "never" sorts last; report the median and the range over seeds
    for (auto& x : v)
    {
        x = x < 0 ? std::numeric_limits<int64_t>::max() : x;
    }
    std::sort(v.begin(), v.end());
    auto show = [](int64_t x) {
        return x == std::numeric_limits<int64_t>::max() ? std::string("never") : std::to_string(x);
    };
    std::ostringstream s;
    s << show(v[v.size() / 2]) << " [" << show(v.front()) << "," << show(v.back()) << "]";
    return s.str();
}

void
ParseOptions(int argc, char* argv[], Options& o)
{
    std::string fractions = "0.4,0.4";
    std::string modes = "fair,unfair,mltcp";
    std::string aggr = "1.5,2,4,8";
    std::string starts = "phase,offset";
    CommandLine cmd(__FILE__);
    EventSchedulerHelper::UseDefault(cmd); // mlnet's event scheduler; --scheduler=...
    EventSchedulerHelper::UseHugePages();  // a program owns its process: huge-page heap
    cmd.AddValue("cc", "Congestion control TypeId (ns3::Dcqcn, ns3::DcqcnVendor)", o.cc);
    cmd.AddValue("bytes", "Bytes each job sends per iteration (>= 1000)", o.bytes);
    cmd.AddValue("fractions",
                 "Communication fraction alone of each job, comma-separated, each in (0, 1); "
                 "N = their number (>= 2)",
                 fractions);
    cmd.AddValue("modes", "Comma-separated subset of fair, unfair, mltcp", modes);
    cmd.AddValue("aggressiveness",
                 "Unfair mode: a of job 0, comma-separated, each in [0.1, 10]",
                 aggr);
    cmd.AddValue("starts",
                 "Comma-separated subset of phase (all jobs start together), offset",
                 starts);
    cmd.AddValue("offset",
                 "Offset start: job j starts j x offset x T_alone / N later, [0, 1]",
                 o.offset);
    cmd.AddValue("iterations", "Iterations per job, in [10, 100000]", o.iterations);
    cmd.AddValue("warmup", "Iterations excluded from the steady state (< iterations)", o.warmup);
    cmd.AddValue("cv", "Coefficient of variation of the compute time, in [0, 1]", o.cv);
    cmd.AddValue("runs",
                 "Seeds (RngRun values firstRun .. firstRun + runs - 1), in [1, 100]",
                 o.runs);
    cmd.AddValue("firstRun", "First RngRun value (>= 1)", o.firstRun);
    cmd.AddValue("slope", "MLTCP mode: S of F(r) = S r + I", o.slope);
    cmd.AddValue("intercept", "MLTCP mode: I of F(r) = S r + I (>= 0)", o.intercept);
    cmd.AddValue("threshold",
                 "Interleaved: the largest overlap, averaged over --window iterations, is <= "
                 "this, in [0, 1]",
                 o.threshold);
    cmd.AddValue("window", "Iterations of that average (>= 1)", o.window);
    cmd.AddValue("out", "Prefix of the CSV files (<out>-iterations.csv, <out>-runs.csv)", o.out);
    cmd.AddValue("backend",
                 "packet, or flow (DCQCN at flow level: FluidDcqcn with the same --cc and each "
                 "job's profile)",
                 o.backend);
    cmd.AddValue("step", "FluidDcqcn::Step with --backend=flow, in [100ns, 1ms]", o.step);
    cmd.Parse(argc, argv);
    if (o.backend != "packet" && o.backend != "flow")
    {
        throw std::invalid_argument("--backend must be packet or flow, got '" + o.backend + "'");
    }
    if (o.step < NanoSeconds(100) || o.step > MilliSeconds(1))
    {
        throw std::invalid_argument("--step must be in [100ns, 1ms]");
    }

    o.fractions = SplitReal(fractions, "fractions");
    o.aggressiveness = SplitReal(aggr, "aggressiveness");
    o.modes = Split(modes);
    o.starts = Split(starts);
    if (o.fractions.size() < 2 || o.fractions.size() > 16)
    {
        throw std::invalid_argument("--fractions: needs 2 to 16 jobs");
    }
    for (double f : o.fractions)
    {
        if (!(f > 0 && f < 1))
        {
            throw std::invalid_argument("--fractions: each must be in (0, 1)");
        }
    }
    for (double a : o.aggressiveness)
    {
        DcqcnProfile check(a); // throws naming the range
    }
    for (const std::string& m : o.modes)
    {
        if (m != "fair" && m != "unfair" && m != "mltcp")
        {
            throw std::invalid_argument("--modes: '" + m + "' is not fair, unfair or mltcp");
        }
    }
    if (std::find(o.modes.begin(), o.modes.end(), "fair") == o.modes.end())
    {
        o.modes.insert(o.modes.begin(), "fair"); // the reference of every speed-up
    }
    for (const std::string& s : o.starts)
    {
        if (s != "phase" && s != "offset")
        {
            throw std::invalid_argument("--starts: '" + s + "' is not phase or offset");
        }
    }
    if (o.starts.empty() || o.modes.empty())
    {
        throw std::invalid_argument("--starts and --modes need at least one value");
    }
    if (o.bytes < 1000 || o.bytes > (uint64_t(1) << 34))
    {
        throw std::invalid_argument("--bytes must be in [1000, 2^34]");
    }
    if (o.iterations < 10 || o.iterations > 100000)
    {
        throw std::invalid_argument("--iterations must be in [10, 100000]");
    }
    if (o.warmup >= o.iterations)
    {
        throw std::invalid_argument("--warmup must be < --iterations");
    }
    if (!(o.cv >= 0 && o.cv <= 1) || !(o.offset >= 0 && o.offset <= 1) ||
        !(o.threshold >= 0 && o.threshold <= 1))
    {
        throw std::invalid_argument("--cv, --offset and --threshold must be in [0, 1]");
    }
    if (o.runs < 1 || o.runs > 100 || o.firstRun < 1 || o.window < 1)
    {
        throw std::invalid_argument("--runs must be in [1, 100], --firstRun and --window >= 1");
    }
    if (!std::isfinite(o.slope) || !std::isfinite(o.intercept) || o.intercept < 0)
    {
        throw std::invalid_argument("--slope must be finite and --intercept finite and >= 0");
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o;
    try
    {
        ParseOptions(argc, argv, o);
        const uint32_t n = o.fractions.size();

        // The message time alone (no other job), measured: 20 iterations of one sender.
        RunData a = Simulate(o, {"fair", 1}, {MilliSeconds(1)}, {Seconds(0)}, 0.0, 20, o.firstRun);
        double tm = 0;
        for (std::size_t k = 1; k < a.messages[0].size(); ++k)
        {
            tm += a.messages[0][k].Fct().GetSeconds();
        }
        tm /= a.messages[0].size() - 1;
        std::vector<Time> compute;
        std::vector<Time> offsetStart;
        double sumF = 0;
        for (uint32_t j = 0; j < n; ++j)
        {
            double f = o.fractions[j];
            sumF += f;
            compute.push_back(Seconds(tm * (1 - f) / f));
            offsetStart.push_back(Seconds(j * o.offset * tm / o.fractions[0] / n));
        }
        std::cout << n << " periodic jobs, " << o.bytes << " B per iteration, message alone "
                  << std::fixed << std::setprecision(3) << tm * 1e3 << " ms; compute";
        for (uint32_t j = 0; j < n; ++j)
        {
            std::cout << " " << compute[j].GetSeconds() * 1e3;
        }
        std::cout << " ms (fractions sum " << std::setprecision(2) << sumF
                  << (sumF <= 1 ? ": compatible" : ": partially compatible") << "), cv " << o.cv
                  << ", " << o.iterations << " iterations, steady state from " << o.warmup << ", "
                  << o.runs << " seeds, cc " << o.cc << "\n";
        std::cout << "alone: iteration " << std::setprecision(3);
        for (uint32_t j = 0; j < n; ++j)
        {
            std::cout << (compute[j].GetSeconds() + tm) * 1e3 << (j + 1 < n ? " / " : " ms\n");
        }

        std::vector<CcSetting> configs;
        for (const std::string& m : o.modes)
        {
            if (m == "unfair")
            {
                for (double x : o.aggressiveness)
                {
                    configs.push_back({m, x});
                }
            }
            else
            {
                configs.push_back({m, 1});
            }
        }

        std::ofstream series;
        std::ofstream runsCsv;
        if (!o.out.empty())
        {
            series.open(o.out + "-iterations.csv");
            runsCsv.open(o.out + "-runs.csv");
            if (!series || !runsCsv)
            {
                throw std::invalid_argument("--out: cannot write " + o.out + "-*.csv");
            }
            series << "config,mode,aggressiveness,start,run,job,iteration,start_s,duration_ms,"
                      "compute_ms,comm_start_s,comm_end_s,overlap,phase\n";
            runsCsv << "config,mode,aggressiveness,start,run,iterations_to_interleave,mean_ms,"
                       "p50_ms,p99_ms,overlap,interleaved_share,speedup_vs_fair,fractions_sum\n";
        }

        std::cout << std::left << std::setw(16) << "config" << std::setw(8) << "start" << std::right
                  << std::setw(22) << "iters_to_interleave" << std::setw(10) << "mean_ms"
                  << std::setw(9) << "p50_ms" << std::setw(9) << "p99_ms" << std::setw(9)
                  << "overlap" << std::setw(26) << "speedup_vs_fair"
                  << "\n";
        for (const std::string& start : o.starts)
        {
            std::map<uint32_t, double> fairMean; // per seed
            for (const CcSetting& c : configs)
            {
                std::vector<int64_t> toInterleave;
                std::vector<double> durations;
                std::vector<double> speedups;
                double meanSum = 0;
                double overlapSum = 0;
                for (uint32_t r = o.firstRun; r < o.firstRun + o.runs; ++r)
                {
                    std::vector<Time> st =
                        start == "phase" ? std::vector<Time>(n, Seconds(0)) : offsetStart;
                    RunData d = Simulate(o, c, compute, st, o.cv, o.iterations, r);
                    PhaseInterleaving pi = PhaseInterleaving::FromMessages(d.messages);
                    RunMetrics m = Measure(o, d, pi);
                    if (c.mode == "fair")
                    {
                        fairMean[r] = m.meanMs;
                    }
                    double speedup = fairMean.count(r) ? fairMean[r] / m.meanMs : 0;
                    toInterleave.push_back(m.toInterleave);
                    durations.insert(durations.end(), m.durationsMs.begin(), m.durationsMs.end());
                    speedups.push_back(speedup);
                    meanSum += m.meanMs;
                    overlapSum += m.overlap;
                    SampleSummary s = SampleSummary::Of(m.durationsMs);
                    if (series.is_open())
                    {
                        WriteSeries(series, c, start, r, d, pi);
                        runsCsv << c.Name() << ',' << c.mode << ',' << c.a << ',' << start << ','
                                << r << ',' << m.toInterleave << ',' << std::setprecision(6)
                                << m.meanMs << ',' << s.p50 << ',' << s.p99 << ',' << m.overlap
                                << ',' << m.interleavedShare << ',' << speedup << ',' << sumF
                                << std::endl; // complete runs survive an interrupted sweep
                        series.flush();
                    }
                }
                SampleSummary all = SampleSummary::Of(durations);
                SampleSummary sp = SampleSummary::Of(speedups);
                std::ostringstream spText;
                spText << std::fixed << std::setprecision(3) << sp.mean << "x [" << sp.min << ","
                       << sp.max << "]";
                std::cout << std::left << std::setw(16) << c.Name() << std::setw(8) << start
                          << std::right << std::setw(22) << Median(toInterleave) << std::fixed
                          << std::setprecision(3) << std::setw(10) << meanSum / o.runs
                          << std::setw(9) << all.p50 << std::setw(9) << all.p99 << std::setw(9)
                          << overlapSum / o.runs << std::setw(26) << spText.str() << std::endl;
            }
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "dcqcn-unfairness: error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
