/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// PANAMA's shared-cluster experiment (Gebara et al., MLSys 2021) at packet level: a k-ary
// fat-tree shared by data-parallel training jobs (models drawn from VGG-16, AlexNet, ResNet-152,
// Inception-v3, GoogLeNet, ResNet-50; workers placed at random) and non-aggregation traffic
// (7 KB latency-sensitive flows; long flows of 40 MB and 1.1 GB, half each), with the gradients
// synchronised by
//   ring        ring all-reduce over RDMA (DCQCN), Horovod-style tensor fusion
//   switchml    SwitchML-style in-switch aggregation: INT32, fixed slot pool, no congestion
//               control, one tree
//   switchml-lb the same striped over several trees
//   panama      PANAMA: bump-in-the-wire FPGA devices (edge and aggregation uplinks, core ports),
//               FP32 adder trees, ECN-OR congestion control, several trees
//   ideal       in-switch aggregation at infinite speed with PANAMA's congestion control
// The aggregation load is the fraction of the hosts' link capacity the jobs would use if the
// network never slowed them: sum over workers of min(1, gradient bits per iteration /
// (compute time x link rate)) / hosts. Jobs are added until it is reached.
//
// Full-size models and calibrated compute (v100-amp: V100 with mixed precision, the GPU of
// PANAMA's time) by default. --scale < 1 multiplies every model's parameters and compute time
// and the long flows' sizes (the 7 KB flows keep theirs): a smoke test only, since per-step
// latencies are not scaled. Beside every measured speed-up the idle-network bound of ring vs
// in-network aggregation for the jobs (RingVsAggregationBound) is printed. Steady state:
// iterations that start after the warm-up are measured; every scheme sees the same jobs,
// placement and background flows for a seed. Prints a table; --out writes iterations.csv,
// flows.csv, summary.csv and ports.csv (every switch port's utilisation after the warm-up),
// which contrib-scripts/plot-aggregation.py plots.
//
//   ./panama-shared-cluster --k=4 --loads=0.2,0.5 --seeds=1,2,3 --min-iterations=10 --out=k4

#include "fluid-cc-option.h"
#include "panama-shared-cluster-output.h"
#include "panama-shared-cluster-plan.h"
#include "panama-shared-cluster-run.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <iostream>
#include <sstream>
#include <stdexcept>

using namespace ns3;
using namespace ns3::panamacluster;

namespace
{

std::vector<double>
ParseDoubles(const std::string& s, const std::string& name, double lo, double hi)
{
    std::vector<double> v;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        size_t used = 0;
        double x = 0;
        try
        {
            x = std::stod(item, &used);
        }
        catch (const std::exception&)
        {
            used = 0;
        }
        if (used != item.size() || item.empty() || x < lo || x > hi)
        {
            std::ostringstream os;
            os << "--" << name << " = \"" << s << "\": must be a comma-separated list of numbers "
               << "in [" << lo << ", " << hi << "]";
            throw std::invalid_argument(os.str());
        }
        v.push_back(x);
    }
    return v;
}

/// A comma-separated list of names, each one of `allowed` (the option's name in errors).
std::vector<std::string>
ParseNames(const std::string& s, const std::vector<std::string>& allowed, const std::string& option)
{
    std::vector<std::string> v;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        if (std::find(allowed.begin(), allowed.end(), item) == allowed.end())
        {
            std::string all;
            for (const auto& a : allowed)
            {
                all += (all.empty() ? "" : ", ") + a;
            }
            throw std::invalid_argument("--" + option + ": \"" + item + "\" is not one of " + all);
        }
        v.push_back(item);
    }
    if (v.empty())
    {
        throw std::invalid_argument("--" + option + ": empty list");
    }
    return v;
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    Options o;
    std::string loads = "0.05,0.2,0.4,0.8";
    std::string seeds = "1";
    std::string schemes = "all";
    std::string models = "vgg16,alexnet,resnet152,inception_v3,googlenet,resnet50";
    std::string out;
    std::string mode = "free";
    bool verbose = false;
    bool planOnly = false;
    CommandLine cmd(__FILE__);
    EventSchedulerHelper::UseDefault(cmd); // mlnet's event scheduler; --scheduler=...
    EventSchedulerHelper::UseHugePages();  // a program owns its process: huge-page heap
    cmd.AddValue("k", "Fat-tree arity: k^3/4 hosts (even, 4..16)", o.k);
    cmd.AddValue("rate", "Rate of every link", o.rate);
    cmd.AddValue("gpu",
                 "GPU compute profile of the workers: calibrated v100-amp (default), v100-fp32, "
                 "a100-amp, a100-tf32, or the raw rooflines v100, a100, h100 (not for headline "
                 "numbers)",
                 o.gpu);
    cmd.AddValue("batch", "Per-worker batch size", o.batch);
    cmd.AddValue("workers", "Workers per job", o.workers);
    cmd.AddValue("scale",
                 "Scale of gradients, compute times and long flows, in (0, 1]; 1 = full-size "
                 "models; below 1 only a smoke test (per-step latencies are not scaled, so a "
                 "scaled iteration is latency-bound)",
                 o.scale);
    cmd.AddValue("pass-through",
                 "PANAMA devices' output path for non-aggregation frames: bypass (default, "
                 "never queued behind aggregation results) or shared (one FIFO per class)",
                 o.passThrough);
    cmd.AddValue("ring-order",
                 "Order of a job's workers in its ring (and rank order): random (as placed) or "
                 "rack (sorted by host, i.e. by rack and pod: each pod's uplinks crossed twice)",
                 o.ringOrder);
    cmd.AddValue("placement",
                 "Hosts of a job: random (default) or packed (the lowest free hosts, so a job "
                 "fills racks and pods in order: at k=4 a 4-worker job is one pod, and its ring "
                 "never crosses a pod's aggregation -> core uplinks); the same models either way",
                 o.placement);
    cmd.AddValue("loads", "Aggregation loads, comma-separated, in (0, 1]", loads);
    cmd.AddValue("seeds", "Seeds (RngRun), comma-separated", seeds);
    cmd.AddValue("schemes",
                 "ring, switchml, switchml-lb, panama, ideal (comma-separated) or all",
                 schemes);
    cmd.AddValue("models",
                 "Models the jobs are drawn from, comma-separated (default PANAMA's six: "
                 "vgg16,alexnet,resnet152,inception_v3,googlenet,resnet50); e.g. alexnet alone, "
                 "the one whose transfer is longer than its compute, for --mode=fixed at high "
                 "loads",
                 models);
    cmd.AddValue("short-load", "Load of the 7 KB flows per host, in [0, 1)", o.shortLoad);
    cmd.AddValue("long-load", "Load of the long flows per host, in [0, 1)", o.longLoad);
    cmd.AddValue("trees", "Trees per job with load balancing (0 = one per core switch)", o.trees);
    cmd.AddValue("switchml-slots",
                 "SwitchML slot pool per tree (its window), at most what the switches' "
                 "BufferBytesPerJob holds for all of a job's trees",
                 o.switchmlSlots);
    cmd.AddValue("window-slots",
                 "PANAMA's slot pool per tree, i.e. its workers' window (chunks outstanding per "
                 "tree), in [0, 4096]; 0 = the helper's cap of 512. A pool is also at most what "
                 "every device's BufferBytesPerJob holds for the job's trees through it (at k=4 "
                 "and the default 2 MiB: 512), so up to that every job gets this window",
                 o.panamaSlots);
    cmd.AddValue("fusion",
                 "Ring all-reduce tensor-fusion buffer (bytes; Horovod's 64 MiB)",
                 o.fusionBytes);
    cmd.AddValue("verbose", "Print every job's model and mean iteration time", verbose);
    cmd.AddValue("plan-only",
                 "Print each load's and seed's jobs (model, hosts, offered load, idle-network "
                 "iterations, bound, ring hops between pods) without simulating",
                 planOnly);
    cmd.AddValue("panama-cc", "PANAMA's congestion control: dcqcn or dctcp", o.panamaCc);
    cmd.AddValue("dcqcn",
                 "DCQCN of every RDMA queue pair (ring, background flows) and of PANAMA's and "
                 "ideal's reaction point: paper (ns3::Dcqcn, Zhu et al. 2015) or vendor "
                 "(ns3::DcqcnVendor, the NIC's / HPCC simulator's); their attributes as usual "
                 "(--ns3::DcqcnBase::RateAI=...); none: RDMA queue pairs at line rate without "
                 "congestion control (PFC only; PANAMA keeps the paper's), a diagnostic",
                 o.dcqcn);
    cmd.AddValue("trace-ring",
                 "Diagnostic: directory for the ring queue pairs' DCQCN rate and messages "
                 "(ring-qps.csv, ring-rates.csv, ring-msgs.csv; appended)",
                 o.traceRing);
    cmd.AddValue("short-records",
                 "One record per 7 KB flow (flows.csv rows; exact mean and p99); false: the 7 KB "
                 "flows after the warm-up are summarised (FctSummary: exact count and mean, p99 "
                 "within 1.2 %) and flows.csv lists the long flows only, for k=16 runs (17 "
                 "million 7 KB flows per simulated second, tens of GB as records)",
                 o.shortRecords);
    cmd.AddValue("duration", "Simulated time per run (the cap with --min-iterations)", o.duration);
    cmd.AddValue("warmup", "Iterations and flows starting before this are not measured", o.warmup);
    cmd.AddValue("warmup-iterations",
                 "First iterations of every job that are not measured",
                 o.warmupIterations);
    cmd.AddValue("min-iterations",
                 "Stop a run once every job has this many measured iterations (0 = run "
                 "--duration)",
                 o.minIterations);
    cmd.AddValue("mode",
                 "free: jobs iterate as fast as they can and --loads is the load they would "
                 "offer on an idle network; fixed: every host is a worker and every job's "
                 "iteration rate is capped so each worker offers exactly --loads of its link in "
                 "gradient bytes, the same for every scheme",
                 mode);
    cmd.AddValue("out", "Directory for iterations.csv, flows.csv, summary.csv and ports.csv", out);
    cmd.AddValue("backend",
                 "packet or flow: the flow-level backend (doc/flow-backend.rst: fluid flows, "
                 "in-network aggregation trees as fluid flows; no PFC, no packet queues, the "
                 "RDMA queue pairs' --dcqcn as DCQCN at flow level with --fluid-cc, the trees' "
                 "congestion control not modelled, so the pauses, marks and queue columns are 0)",
                 o.backend);
    cmd.AddValue("fluid-cc", mlnetexamples::kFluidCcHelp, o.fluidCc);
    cmd.AddValue("fluid-background",
                 "With --backend=flow: the background flows as one fluid flow each (per-flow, "
                 "the default), in the aggregate background model (aggregate: "
                 "BackgroundTraffic::Fluid, FluidAggregate; the jobs see the background's load "
                 "per link averaged over --fluid-interval and one interval late; "
                 "doc/flow-backend.rst, Background traffic in aggregate) or completed "
                 "analytically per --fluid-interval (analytic: no fluid flow per background "
                 "flow; doc/flow-backend.rst, Analytic background)",
                 o.fluidBackground);
    cmd.AddValue("fluid-interval",
                 "With --fluid-background=aggregate or analytic: its coupling interval "
                 "(FluidAggregate::Interval), in [1ns, 1s]",
                 o.fluidInterval);
    cmd.Parse(argc, argv);
    try
    {
        if (o.backend != "packet" && o.backend != "flow")
        {
            throw std::invalid_argument("--backend = " + o.backend + ": must be packet or flow");
        }
        try
        {
            BackgroundTraffic::ParseFluid(o.fluidBackground); // the one check of the mode
        }
        catch (const std::invalid_argument& e)
        {
            throw std::invalid_argument(std::string("--fluid-background: ") + e.what());
        }
        if (o.fluidBackground != "per-flow" && o.backend != "flow")
        {
            throw std::invalid_argument(
                "--fluid-background = " + o.fluidBackground +
                ": needs --backend=flow (the packet backend has no fluid background)");
        }
        if (o.fluidInterval < NanoSeconds(1) || o.fluidInterval > Seconds(1))
        {
            throw std::invalid_argument(
                "--fluid-interval = " + std::to_string(o.fluidInterval.GetSeconds()) +
                " s: must be in [1ns, 1s]");
        }
        Config::SetDefault("ns3::FluidAggregate::Interval", TimeValue(o.fluidInterval));
        if (o.k < 4 || o.k > 16 || o.k % 2)
        {
            throw std::invalid_argument("--k = " + std::to_string(o.k) +
                                        ": must be even, in [4, 16]");
        }
        if (o.workers < 2 || o.workers > o.k * o.k * o.k / 4)
        {
            throw std::invalid_argument("--workers = " + std::to_string(o.workers) +
                                        ": must be in [2, hosts]");
        }
        if (!(o.scale > 0 && o.scale <= 1))
        {
            throw std::invalid_argument("--scale must be in (0, 1]");
        }
        if (!(o.shortLoad >= 0 && o.shortLoad < 1) || !(o.longLoad >= 0 && o.longLoad < 1))
        {
            throw std::invalid_argument("--short-load and --long-load must be in [0, 1)");
        }
        if (o.panamaSlots > 4096)
        {
            throw std::invalid_argument("--window-slots = " + std::to_string(o.panamaSlots) +
                                        ": must be in [0, 4096] (0: the helper's 512)");
        }
        if (o.panamaCc != "dcqcn" && o.panamaCc != "dctcp")
        {
            throw std::invalid_argument("--panama-cc must be dcqcn or dctcp");
        }
        if (o.dcqcn != "paper" && o.dcqcn != "vendor" && o.dcqcn != "none")
        {
            throw std::invalid_argument("--dcqcn = " + o.dcqcn + ": must be paper, vendor or none");
        }
        o.fluidCc = mlnetexamples::FluidCc(o.fluidCc, RdmaCc(o));
        if (o.passThrough != "bypass" && o.passThrough != "shared")
        {
            throw std::invalid_argument("--pass-through = " + o.passThrough +
                                        ": must be bypass or shared");
        }
        if (o.placement != "random" && o.placement != "packed")
        {
            throw std::invalid_argument("--placement = " + o.placement +
                                        ": must be random or packed");
        }
        if (o.ringOrder != "random" && o.ringOrder != "rack")
        {
            throw std::invalid_argument("--ring-order = " + o.ringOrder +
                                        ": must be random or rack");
        }
        if (mode != "free" && mode != "fixed")
        {
            throw std::invalid_argument("--mode = " + mode + ": must be free or fixed");
        }
        o.fixed = mode == "fixed";
        if (o.warmup >= o.duration)
        {
            throw std::invalid_argument("--warmup must be shorter than --duration");
        }
        GpuProfile::Get(o.gpu);
        std::vector<double> loadList = ParseDoubles(loads, "loads", 1e-6, 1);
        std::vector<double> seedList = ParseDoubles(seeds, "seeds", 1, 1e9);
        std::vector<std::string> schemeList =
            schemes == "all" ? kSchemes : ParseNames(schemes, kSchemes, "schemes");
        o.models = ParseNames(models, kModels, "models");
        const uint32_t hosts = o.k * o.k * o.k / 4;
        const double rateBps = double(DataRate(o.rate).GetBitRate());

        OutputFiles files;
        if (!out.empty())
        {
            OpenOutputs(out, files);
        }
        PrintHeading(o, hosts);
        for (double load : loadList)
        {
            for (double seedD : seedList)
            {
                uint32_t seed = uint32_t(seedD);
                RngSeedManager::SetRun(seed);
                std::vector<JobPlan> plan = o.fixed ? PlanFixed(o, load, hosts, rateBps)
                                                    : PlanJobs(o, load, hosts, rateBps);
                double achieved = 0;
                for (const auto& j : plan)
                {
                    achieved += j.load;
                }
                if (planOnly)
                {
                    PrintPlan(o, load, seed, plan, hosts, achieved);
                    continue;
                }
                std::vector<double> ringMeans;
                for (const std::string& scheme : schemeList)
                {
                    RngSeedManager::SetRun(seed);
                    std::ostringstream tag;
                    tag << mode << "-" << o.dcqcn << "-" << load << "-" << seed;
                    o.traceTag = tag.str();
                    RunResult r = RunOne(o, scheme, plan);
                    if (scheme == "ring")
                    {
                        ringMeans = r.jobMeanIter;
                    }
                    Report(o,
                           {mode, load, achieved, seed, scheme},
                           plan,
                           r,
                           ringMeans,
                           verbose,
                           files);
                }
            }
        }
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "panama-shared-cluster: error: " << e.what() << std::endl;
        return 2;
    }
    return 0;
}
