/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ina-cc-trace: run a scenario at packet level (as mlnet-run does, with the same output files)
// and trace the in-network aggregation trees' own congestion control, AggregationDcqcn: every
// reaction point's rate RC, target RT, alpha and CNPs, per job, worker and tree, and per
// training iteration what the trees' rates were and how many CNPs they took.
//
//   ina-cc-trace FILE --out=DIR [--seed=N] [--queue-from=T --queue-to=T]
//                [ns-3 --ns3::Type::Attribute=value ...]
//
// Writes, besides mlnet-run's files, DIR/cc-trace.csv (timeNs,job,worker,tree,event,value; job:
// the training job, its traffic entry's index;
// event rate / target / alpha / cnp; rates in bit/s; a reaction point's timers are applied
// when the tree next sends, so an idle tree's recovery shows at its next send) and
// DIR/marks.csv (timeNs,node,port,class: every ECN mark of a switch, node its node id, port its
// port index as in ports.csv), DIR/queue.csv with --queue-from/--queue-to (timeNs,node,port,
// class,bytes: every switch port's and every worker host's port's (port 0) queue at each
// change in that window), and
// DIR/cc-iterations.csv, one row per job and iteration:
//   rateStartBps   the mean RC of the job's trees (every worker's) at the iteration's start,
//   rateMinBps     the lowest RC of any worker's tree in the iteration,
//   rateMeanBps    their mean time-weighted RC over the iteration's communication
//                  (from its first post to its last result, PostDone),
//   cnps           CNPs per worker in the iteration,
//   commStartNs / commEndNs  that communication phase, both empty in an iteration without one
//                  (no post made in it); its rateMeanBps and rateMinBps are then the RC held
//                  at its start.
// The table is also printed. doc/flow-backend.rst (*The aggregation trees' own congestion
// control*) quotes it.

#include "ns3/aggregation-endpoint.h"
#include "ns3/aggregation-worker.h"
#include "ns3/command-line.h"
#include "ns3/fabric-switch.h"
#include "ns3/node-list.h"
#include "ns3/scenario-runner.h"
#include "ns3/scenario.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{
/// One traced reaction point (a tree of a worker of a job).
struct Point
{
    uint16_t job{0};
    uint32_t worker{0};
    uint32_t tree{0};
    std::vector<std::pair<int64_t, double>> rate;   //!< (ns, RC after the change)
    std::vector<int64_t> cnps;                      //!< ns
    std::vector<std::pair<int64_t, int64_t>> posts; //!< (posted, done) ns
};

std::vector<Point> g_points;
std::ofstream g_trace;
std::ofstream g_marks;
std::ofstream g_queue;
Time g_queueFrom; //!< the window of queue.csv
Time g_queueTo;

void
Log(uint32_t i, const char* event, double value)
{
    const Point& p = g_points[i];
    g_trace << Simulator::Now().GetNanoSeconds() << "," << p.job << "," << p.worker << "," << p.tree
            << "," << event << "," << std::setprecision(12) << value << "\n";
}

void
OnRate(uint32_t i, double, double now)
{
    g_points[i].rate.emplace_back(Simulator::Now().GetNanoSeconds(), now);
    Log(i, "rate", now);
}

void
OnTarget(uint32_t i, double, double now)
{
    Log(i, "target", now);
}

void
OnAlpha(uint32_t i, double, double now)
{
    Log(i, "alpha", now);
}

void
OnCnp(uint32_t i, Time t)
{
    g_points[i].cnps.push_back(t.GetNanoSeconds());
    Log(i, "cnp", 1);
}

void
OnPost(uint32_t i, uint64_t, uint64_t, Time posted, Time done)
{
    g_points[i].posts.emplace_back(posted.GetNanoSeconds(), done.GetNanoSeconds());
}

void
OnMark(uint32_t node, uint32_t port, uint8_t cls)
{
    g_marks << Simulator::Now().GetNanoSeconds() << "," << node << "," << port << ","
            << unsigned(cls) << "\n";
}

void
OnQueue(uint32_t node, uint32_t port, uint8_t cls, uint64_t bytes)
{
    const Time now = Simulator::Now();
    if (now >= g_queueFrom && now <= g_queueTo)
    {
        g_queue << now.GetNanoSeconds() << "," << node << "," << port << "," << unsigned(cls) << ","
                << bytes << "\n";
    }
}

/// the training job (its traffic entry's index) of each ina entry, in entry order
std::vector<uint16_t> g_inaEntries;

/// At time 0 (after the scenario is built): connect to every worker's reaction points.
void
Connect()
{
    std::map<uint16_t, uint32_t> workersOfJob;
    for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
    {
        if (Ptr<FabricSwitch> sw = NodeList::GetNode(n)->GetObject<FabricSwitch>())
        {
            sw->TraceConnectWithoutContext("EcnMark", MakeBoundCallback(&OnMark, n));
            for (uint32_t port = 0; g_queueTo > g_queueFrom && port < sw->GetNPorts(); ++port)
            {
                sw->GetPort(port)->TraceConnectWithoutContext("QueueBytes",
                                                              MakeBoundCallback(&OnQueue, n, port));
            }
        }
        Ptr<AggregationEndpoint> ep = NodeList::GetNode(n)->GetObject<AggregationEndpoint>();
        if (!ep)
        {
            continue;
        }
        if (g_queueTo > g_queueFrom)
        {
            // a worker's host port (port 0): what its workers have queued for the wire
            ep->GetDevice()->TraceConnectWithoutContext("QueueBytes",
                                                        MakeBoundCallback(&OnQueue, n, 0u));
        }
        for (uint32_t job = 0; job < 256; ++job)
        {
            Ptr<AggregationWorker> w = ep->GetWorker(uint16_t(job));
            if (!w)
            {
                continue;
            }
            const uint32_t worker = workersOfJob[uint16_t(job)]++;
            for (uint32_t t = 0; t < w->GetNTrees(); ++t)
            {
                Ptr<AggregationDcqcn> d = DynamicCast<AggregationDcqcn>(w->GetCongestionOps(t));
                if (!d || !d->GetReactionPoint())
                {
                    continue;
                }
                const uint32_t i = g_points.size();
                Point p;
                p.job = uint16_t(job);
                p.worker = worker;
                p.tree = t;
                p.rate.emplace_back(0, w->GetCcState(t).rate);
                g_points.push_back(p);
                Ptr<RdmaCongestionOps> rp = d->GetReactionPoint();
                rp->TraceConnectWithoutContext("Rate", MakeBoundCallback(&OnRate, i));
                rp->TraceConnectWithoutContext("TargetRate", MakeBoundCallback(&OnTarget, i));
                rp->TraceConnectWithoutContext("Alpha", MakeBoundCallback(&OnAlpha, i));
                rp->TraceConnectWithoutContext("Cnp", MakeBoundCallback(&OnCnp, i));
                if (t == 0)
                {
                    w->TraceConnectWithoutContext("PostDone", MakeBoundCallback(&OnPost, i));
                }
            }
        }
    }
    // An aggregation job's id is a flow id taken in entry order: the k-th smallest is the k-th
    // ina entry, whose training job's id is the entry's index.
    std::vector<uint16_t> ids;
    for (const auto& [job, n] : workersOfJob)
    {
        ids.push_back(job);
    }
    for (Point& p : g_points)
    {
        const auto k = size_t(std::lower_bound(ids.begin(), ids.end(), p.job) - ids.begin());
        p.job = k < g_inaEntries.size() ? g_inaEntries[k] : p.job;
    }
    std::cerr << "ina-cc-trace: " << g_points.size() << " AggregationDcqcn reaction points"
              << std::endl;
}

/// RC of a point at time t (ns): its last change at or before t.
double
RateAt(const Point& p, int64_t t)
{
    auto it = std::upper_bound(p.rate.begin(),
                               p.rate.end(),
                               std::make_pair(t, 1e300),
                               [](const auto& a, const auto& b) { return a.first < b.first; });
    return it == p.rate.begin() ? p.rate.front().second : std::prev(it)->second;
}

/// Time-weighted mean RC of a point over [a, b) (ns), and its minimum there.
std::pair<double, double>
RateOver(const Point& p, int64_t a, int64_t b)
{
    double r = RateAt(p, a);
    double lo = r;
    double area = 0;
    int64_t t = a;
    for (const auto& [when, rate] : p.rate)
    {
        if (when <= a)
        {
            continue;
        }
        if (when >= b)
        {
            break;
        }
        area += r * double(when - t);
        t = when;
        r = rate;
        lo = std::min(lo, r);
    }
    area += r * double(b - t);
    return {b > a ? area / double(b - a) : r, lo};
}

int
Main(int argc, char* argv[])
{
    std::string file;
    std::string out = "ina-cc-trace-out";
    std::string seed;
    Time queueFrom;
    Time queueTo;
    CommandLine cmd(__FILE__);
    cmd.Usage("Run a scenario at packet level and trace its aggregation trees' AggregationDcqcn "
              "(rate, target, alpha, CNPs; per iteration): DIR/cc-trace.csv, "
              "DIR/cc-iterations.csv");
    cmd.AddValue("out", "Output directory (mlnet-run's files and the traces)", out);
    cmd.AddValue("seed", "Override the scenario's seed (an integer >= 1)", seed);
    cmd.AddValue("queue-from",
                 "Start of the window of DIR/queue.csv (every switch port's queued bytes per "
                 "class at each change; none without --queue-to)",
                 queueFrom);
    cmd.AddValue("queue-to", "End of that window (after --queue-from)", queueTo);
    cmd.AddNonOption("file", "JSON scenario file", file);
    cmd.Parse(argc, argv);
    if (file.empty())
    {
        throw std::invalid_argument("a scenario file is required");
    }
    ScenarioConfig cfg = Scenario::Load(file);
    if (cfg.backend != "packet")
    {
        throw std::invalid_argument("the scenario's backend is \"" + cfg.backend +
                                    "\": the trees' AggregationDcqcn runs at packet level only");
    }
    if (!seed.empty())
    {
        if (seed.find_first_not_of("0123456789") != std::string::npos || seed.size() > 9 ||
            std::stoul(seed) == 0)
        {
            throw std::invalid_argument("--seed=" + seed + " must be an integer in [1, 999999999]");
        }
        cfg.seed = uint32_t(std::stoul(seed));
    }
    const nlohmann::json doc = nlohmann::json::parse(cfg.json);
    for (size_t i = 0; doc.contains("traffic") && i < doc["traffic"].size(); ++i)
    {
        const nlohmann::json& e = doc["traffic"][i];
        if (e.value("mode", std::string()) == "ina")
        {
            g_inaEntries.push_back(uint16_t(i));
        }
    }
    ScenarioRunner::PrepareOutputDir(out);
    g_trace.open(out + "/cc-trace.csv");
    g_trace << "timeNs,job,worker,tree,event,value\n";
    g_marks.open(out + "/marks.csv");
    g_marks << "timeNs,node,port,class\n";
    if (queueTo.IsStrictlyPositive())
    {
        if (!(queueTo > queueFrom) || queueFrom.IsStrictlyNegative())
        {
            throw std::invalid_argument("--queue-from and --queue-to: need 0 <= from < to");
        }
        g_queueFrom = queueFrom;
        g_queueTo = queueTo;
        g_queue.open(out + "/queue.csv");
        g_queue << "timeNs,node,port,class,bytes\n";
    }
    Simulator::Schedule(Seconds(0), &Connect);
    ScenarioRunner runner(cfg);
    const ScenarioResult result = runner.Run();
    ScenarioRunner::WriteResults(result, cfg, out);
    g_trace.close();
    g_marks.close();
    g_queue.close();

    std::ofstream csv(out + "/cc-iterations.csv");
    csv << "job,iteration,startNs,durationNs,commStartNs,commEndNs,rateStartBps,rateMinBps,"
           "rateMeanBps,cnps\n";
    std::cout << std::setw(4) << "job" << std::setw(5) << "iter" << std::setw(11) << "dur ms"
              << std::setw(11) << "comm ms" << std::setw(12) << "RC0 Gb/s" << std::setw(12)
              << "RCmin Gb/s" << std::setw(13) << "RCmean Gb/s" << std::setw(9) << "CNPs"
              << std::endl;
    for (const IterationRecord& it : result.iterations)
    {
        const int64_t a = it.start.GetNanoSeconds();
        const int64_t b = it.end.GetNanoSeconds();
        double start = 0;
        double lo = 1e300;
        double mean = 0;
        double cnps = 0;
        int64_t c0 = b;
        int64_t c1 = a;
        uint32_t n = 0;
        // the communication phase: posts made in the iteration (any worker's first tree)
        for (const Point& p : g_points)
        {
            if (p.job != it.jobId)
            {
                continue;
            }
            for (const auto& [posted, done] : p.posts)
            {
                if (posted >= a && posted < b)
                {
                    c0 = std::min(c0, posted);
                    c1 = std::max(c1, done);
                }
            }
        }
        for (const Point& p : g_points)
        {
            if (p.job != it.jobId)
            {
                continue;
            }
            ++n;
            start += RateAt(p, a);
            const auto [m, l] = RateOver(p, std::min(c0, c1), c1);
            mean += m;
            lo = std::min(lo, l);
            cnps += double(std::count_if(p.cnps.begin(), p.cnps.end(), [a, b](int64_t t) {
                return t >= a && t < b;
            }));
        }
        if (n == 0)
        {
            continue;
        }
        const uint32_t workers = std::max<uint32_t>(
            1,
            uint32_t(std::count_if(g_points.begin(), g_points.end(), [&it](const Point& p) {
                return p.job == it.jobId && p.tree == 0;
            })));
        start /= n;
        mean /= n;
        cnps /= workers;
        csv << it.jobId << "," << it.iteration << "," << a << "," << (b - a) << ",";
        if (c0 < c1)
        {
            csv << c0 << "," << c1;
        }
        else
        {
            csv << ","; // no communication phase: empty, not 0
        }
        csv << "," << start << "," << lo << "," << mean << "," << cnps << "\n";
        std::cout << std::setw(4) << it.jobId << std::setw(5) << it.iteration << std::fixed
                  << std::setprecision(3) << std::setw(11) << (b - a) / 1e6 << std::setw(11)
                  << (c0 < c1 ? (c1 - c0) / 1e6 : 0.0) << std::setprecision(2) << std::setw(12)
                  << start / 1e9 << std::setw(12) << lo / 1e9 << std::setw(13) << mean / 1e9
                  << std::setprecision(1) << std::setw(9) << cnps << std::endl;
    }
    return 0;
}
} // namespace

int
main(int argc, char* argv[])
{
    // bad input (a missing or invalid file, a bad --seed): one line, status 2
    int status = 2;
    try
    {
        status = Main(argc, argv);
    }
    catch (const std::exception& e)
    {
        std::cerr << "ina-cc-trace: error: " << e.what() << std::endl;
    }
    return status;
}
