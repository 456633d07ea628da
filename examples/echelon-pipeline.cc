/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Echelon (Pan et al., HotNets 2022) on one 100 Gb/s switch, every message through one flow
// scheduler: fair sharing, FIFO, MADD coflow scheduling (each pipeline link's micro-batches of
// an iteration form one coflow) or Echelon (EchelonFlows with the pipeline's staggered
// arrangement A(i) = i x t_mb).
//
// --scenario=staggered (the case Echelon was designed for): P GPipe jobs whose stage s all run
// on server s (one NIC per server, shared by the P jobs' GPUs) and whose transfers are longer
// than a stage's compute, so every pipeline link carries several micro-batches at once, each
// needed by the consumer one stage time after the previous one; plus a coflow job (shuffle:
// every one of K other servers sends to every pipeline server, all flows needed together)
// loading the pipeline servers' downlinks. Per pipeline iteration: the iteration time, the time
// the consumer (stage 1) starts its first forward, the exposed communication and the maximum
// tardiness; printed beside the analytical iteration times of the ideal staggered schedule and
// of the all-at-once (coflow) schedule, and beside a flow-level (FluidFlowModel) run of the
// same jobs.
//
// --scenario=mixed (the earlier example): two GPipe jobs on hosts of their own whose transfers
// are shorter than a stage's compute, and a ResNet-50 parameter-server job whose servers are
// the pipelines' stages 1 and 2.
//
// --csv writes every measured iteration, --summary one row per policy and job.

#include "example-coflow-job.h"
#include "flow-scheduling-examples.h"
#include "rdma-timeout-line.h"

#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

using namespace ns3;
using mlnetexamples::BuildSwitchClusterTransports;
using mlnetexamples::SplitList;

namespace
{

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

struct PipeConfig
{
    std::string scenario{"mixed"};
    uint32_t pipelines{2};
    uint32_t stages{4};
    uint32_t microBatches{8};
    Time forward{MilliSeconds(1)};
    Time backward{MilliSeconds(2)};
    uint64_t activationBytes{8000000};
    std::string psModel{"resnet50"};
    uint32_t psWorkers{4};
    uint32_t batch{32};
    uint32_t coflowSenders{0};
    uint64_t coflowBytes{4000000};
    Time coflowGap{MilliSeconds(2)};
    double rate{100};
    Time duration{MilliSeconds(1000)};
    Time warmup{MilliSeconds(50)};
    Time controlDelay{0};
    Time startJitter{MilliSeconds(3)};
    std::string cc{"ns3::DcqcnVendor"};
    std::string backend{"packet"};
    std::string fluidCc{"dcqcn"}; //!< --fluid-cc; after validation what the flow level models
    uint32_t fluidIterations{0};

    bool Staggered() const
    {
        return scenario == "staggered";
    }

    /// the defaults of --scenario=staggered
    void SetStaggeredDefaults()
    {
        scenario = "staggered";
        forward = MicroSeconds(500);
        backward = MilliSeconds(1);
        psWorkers = 0;
        coflowSenders = 2;
        duration = MilliSeconds(1200);
        warmup = MilliSeconds(100);
        fluidIterations = 16;
    }
};

/// One measured iteration of one job.
struct IterationSample
{
    double seconds{0};       //!< iteration time
    double tardiness{0};     //!< max tardiness of the iteration's flows (s)
    double exposed{0};       //!< iteration time - compute (s)
    double consumerStart{0}; //!< pipelines: stage 1's first forward, from the start (s)
};

/// Measured results of one job in one run.
struct JobResult
{
    std::string name;
    std::vector<IterationSample> samples; //!< iterations that started after warm-up
};

/// One packet-level run.
struct RunResult
{
    std::vector<JobResult> jobs;
    double portCapacity{0};     //!< payload bytes/s of a port, as the policies see it
    std::vector<double> starts; //!< start time of each job (s), in job order
};

/// \return stage 1's first forward start (s from the iteration start) in op timings
double
ConsumerStart(const std::vector<std::vector<PipelineOpTiming>>& t)
{
    if (t.size() < 2)
    {
        return kNan;
    }
    for (const auto& op : t[1])
    {
        if (op.op.type == PipelineOp::FORWARD)
        {
            return op.start;
        }
    }
    return kNan;
}

RunResult
RunOne(const std::string& policy, const PipeConfig& c, uint32_t run)
{
    RngSeedManager::SetRun(run);
    const uint32_t pipeHosts = c.Staggered() ? c.stages : c.pipelines * c.stages;
    const uint32_t hosts = pipeHosts + c.psWorkers + c.coflowSenders;
    std::vector<Ptr<MessageTransport>> nics =
        BuildSwitchClusterTransports(hosts, c.rate, c.cc, c.backend, c.fluidCc);
    FlowSchedulerHelper fs;
    fs.SetPolicy(policy);
    fs.SetSchedulerAttribute("ControlDelay", TimeValue(c.controlDelay));
    ScheduledFlowStats stats;
    Ptr<RdmaFlowScheduler> scheduler = fs.Install(nics);
    stats.Connect(scheduler);
    RunResult result;
    result.portCapacity = scheduler->GetPortCapacity(0).first;
    std::vector<Ptr<TrainingJob>> jobs;
    // stage 1's first forward start of every finished pipeline iteration, by job and iteration
    std::map<std::pair<uint32_t, uint64_t>, double> consumer;
    // each job starts at a random offset in [0, startJitter), so that runs differ in the jobs'
    // relative phase (besides the switches' random ECN marking between Kmin and Kmax)
    Ptr<UniformRandomVariable> offset = CreateObject<UniformRandomVariable>();
    offset->SetStream(1);
    for (uint32_t p = 0; p < c.pipelines; ++p)
    {
        Ptr<PipelineParallelJob> job = CreateObject<PipelineParallelJob>();
        job->SetAttribute("JobName", StringValue("pipeline" + std::to_string(p)));
        job->SetAttribute("JobId", UintegerValue(p + 1));
        job->SetAttribute("Schedule", StringValue("GPipe"));
        job->SetAttribute("MicroBatches", UintegerValue(c.microBatches));
        job->SetAttribute("ForwardTime", TimeValue(c.forward));
        job->SetAttribute("BackwardTime", TimeValue(c.backward));
        job->SetAttribute("ActivationBytes", UintegerValue(c.activationBytes));
        job->SetAttribute("Iterations", UintegerValue(0));
        job->SetAttribute("RecordMessages", BooleanValue(false));
        // staggered: stage s of every pipeline on server s; mixed: hosts of its own
        const uint32_t first = c.Staggered() ? 0 : p * c.stages;
        job->SetStages({nics.begin() + first, nics.begin() + first + c.stages});
        PipelineParallelJob* raw = PeekPointer(job);
        job->TraceConnectWithoutContext(
            "IterationEnd",
            Callback<void, const IterationRecord&>([raw, &consumer](const IterationRecord& r) {
                consumer[{r.jobId, r.iteration}] = ConsumerStart(raw->GetLastOpTimings());
            }));
        jobs.push_back(job);
    }
    if (c.psWorkers > 0)
    {
        // servers on the middle stages (1 and 2) of every pipeline: they share those hosts' links
        std::vector<Ptr<MessageTransport>> servers;
        for (uint32_t p = 0; p < c.pipelines; ++p)
        {
            servers.push_back(nics[p * c.stages + 1]);
            if (c.stages > 2)
            {
                servers.push_back(nics[p * c.stages + 2]);
            }
        }
        Ptr<DataParallelJob> ps = CreateObject<DataParallelJob>();
        ps->SetAttribute("JobName", StringValue("ps"));
        ps->SetAttribute("JobId", UintegerValue(c.pipelines + 1));
        ps->SetModel(ModelZoo::Get(c.psModel), GpuProfile::V100());
        ps->SetAttribute("Mode", StringValue("ParameterServer"));
        ps->SetAttribute("BatchSize", UintegerValue(c.batch));
        ps->SetAttribute("Iterations", UintegerValue(0));
        ps->SetAttribute("RecordMessages", BooleanValue(false));
        ps->SetWorkers({nics.begin() + pipeHosts, nics.begin() + pipeHosts + c.psWorkers});
        ps->SetServers(servers);
        jobs.push_back(ps);
    }
    if (c.coflowSenders > 0)
    {
        Ptr<ExampleCoflowJob> cf = CreateObject<ExampleCoflowJob>();
        cf->SetAttribute("JobName", StringValue("coflow"));
        cf->SetAttribute("JobId", UintegerValue(c.pipelines + 2));
        cf->SetAttribute("FlowBytes", UintegerValue(c.coflowBytes));
        cf->SetAttribute("Gap", TimeValue(c.coflowGap));
        cf->SetAttribute("Iterations", UintegerValue(0));
        cf->SetAttribute("RecordMessages", BooleanValue(false));
        const auto senders = nics.begin() + pipeHosts + c.psWorkers;
        cf->SetHosts({senders, senders + c.coflowSenders},
                     {nics.begin(), nics.begin() + pipeHosts});
        jobs.push_back(cf);
    }
    for (auto& j : jobs)
    {
        result.starts.push_back(offset->GetValue(0, c.startJitter.GetSeconds()));
        j->SetAttribute("StartTime", TimeValue(Seconds(result.starts.back())));
        j->Start();
    }
    Simulator::Stop(c.duration);
    Simulator::Run();
    mlnetexamples::PrintRdmaTimeouts("echelon-pipeline", policy);
    for (auto& j : jobs)
    {
        JobResult jr;
        jr.name = j->GetJobName();
        const auto tard = stats.MaxTardiness(j->GetJobId());
        for (const auto& rec : j->GetIterationRecords())
        {
            if (rec.start < c.warmup)
            {
                continue;
            }
            IterationSample s;
            s.seconds = rec.Duration().GetSeconds();
            auto it = tard.find(uint32_t(rec.iteration & 0xFFFFF));
            s.tardiness = it != tard.end() ? it->second : 0.0;
            s.exposed = (rec.Duration() - rec.compute).GetSeconds();
            auto cs = consumer.find({rec.jobId, rec.iteration});
            s.consumerStart = cs != consumer.end() ? cs->second : kNan;
            jr.samples.push_back(s);
        }
        result.jobs.push_back(jr);
    }
    Simulator::Destroy();
    return result;
}

/**
 * Analytical iteration times of one GPipe job alone on the network (S stages, M micro-batches,
 * a transfer of X = bytes / port capacity per micro-batch and link). Per pass (forward with
 * compute c = F per micro-batch and stage, then backward with c = B):
 *  - staggered (what Echelon aims at: each link delivers the micro-batches one after the other,
 *    the consumer starts on the first): a flow shop of S compute and S - 1 transfer steps,
 *    S c + (S - 1) X + (M - 1) max(c, X); no policy does better, with other traffic or not;
 *  - all at once (coflow scheduling: the micro-batches that are on a link together finish
 *    together): if X > c the link stays busy from the first release and all M arrive at
 *    c + M X, so each of the S - 1 hops costs c + M X and the last stage computes M c:
 *    (S - 1)(c + M X) + M c; if X <= c every micro-batch is alone on its link and the pass is
 *    the staggered one.
 * \return (staggered, all at once) in s
 */
std::pair<double, double>
PipelineBounds(const PipeConfig& c, double capacity)
{
    const double S = c.stages;
    const double M = c.microBatches;
    const double X = double(c.activationBytes) / capacity;
    double stag = 0;
    double aao = 0;
    for (double op : {c.forward.GetSeconds(), c.backward.GetSeconds()})
    {
        const double pass = S * op + (S - 1) * X + (M - 1) * std::max(op, X);
        stag += pass;
        aao += X > op ? (S - 1) * (op + M * X) + M * op : pass;
    }
    return {stag, aao};
}

/// Flow-level expectation of one job: per iteration (after the first).
struct FluidJob
{
    std::vector<double> seconds;
    std::vector<double> tardiness;
    std::vector<double> consumerStart;
};

/**
 * The staggered scenario at flow level: the same jobs with the same start times (those of
 * the first seed's packet-level run: starts, in job order, the coflow job last), each pipeline for
 * fluidIterations iterations, the coflow job until the pipelines are done; flows through a
 * FluidFlowModel with the same policy (port capacity as at packet level), compute exactly as
 * the jobs do it (each stage runs its GPipe op list in order, an op starts when the previous
 * one ended and its input arrived). Flow releases depend on finish times and the reverse, so
 * the run is repeated with the releases of the previous run's finish times until they no
 * longer change (each repetition fixes at least the next event in time, as every policy is
 * causal).
 * \param trace if not null, gets one CSV row per flow (policy, job, iteration, phase = 2 x link
 * + 1 for gradients, micro-batch or flow index, release, finish, ideal finish in s)
 * \return by job name; the number of repetitions in rounds
 */
std::map<std::string, FluidJob>
RunFluid(const std::string& policy,
         const PipeConfig& c,
         double capacity,
         const std::vector<double>& starts,
         std::ostream* trace,
         uint32_t& rounds)
{
    using Key = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>; // job, iteration, phase, idx
    const uint32_t S = c.stages;
    const uint32_t M = c.microBatches;
    const double F = c.forward.GetSeconds();
    const double B = c.backward.GetSeconds();
    const PipelineSchedule sched = PipelineSchedule::Gpipe(S, M);
    const uint32_t coflowJob = c.pipelines + 2;
    std::map<Key, double> finish;
    std::map<Key, double> ideal;
    std::map<Key, double> lastReleases;
    // pipeline iteration records: (start, end, consumer start) per job and iteration
    std::map<std::pair<uint32_t, uint32_t>, std::tuple<double, double, double>> iters;
    std::map<uint32_t, double> coflowStart;
    for (rounds = 1; rounds <= 100000; ++rounds)
    {
        std::map<Key, std::tuple<double, uint32_t, uint32_t>> releases; // key -> (t, src, dst)
        iters.clear();
        coflowStart.clear();
        auto arrived = [&finish](const Key& k) {
            auto it = finish.find(k);
            return it == finish.end() ? kInf : it->second;
        };
        double lastPipe = 0;
        for (uint32_t p = 0; p < c.pipelines; ++p)
        {
            const uint32_t job = p + 1;
            double t0 = starts.at(p);
            for (uint32_t k = 0; k < c.fluidIterations && t0 < kInf; ++k)
            {
                double end = 0;
                double consumerStart = kNan;
                for (uint32_t s = 0; s < S; ++s)
                {
                    double t = t0;
                    for (const PipelineOp& op : sched.GetOps(s))
                    {
                        const bool fwd = op.type == PipelineOp::FORWARD;
                        double ready = t0;
                        if (fwd && s > 0)
                        {
                            ready = arrived({job, k, 2 * (s - 1), op.microBatch});
                        }
                        else if (!fwd && s + 1 < S)
                        {
                            ready = arrived({job, k, 2 * s + 1, op.microBatch});
                        }
                        const double start = std::max(t, ready);
                        if (!(start < kInf))
                        {
                            t = kInf;
                            break;
                        }
                        if (s == 1 && fwd && std::isnan(consumerStart))
                        {
                            consumerStart = start - t0;
                        }
                        t = start + (fwd ? F : B);
                        if (fwd && s + 1 < S)
                        {
                            releases[{job, k, 2 * s, op.microBatch}] = {t, s, s + 1};
                        }
                        else if (!fwd && s > 0)
                        {
                            releases[{job, k, 2 * (s - 1) + 1, op.microBatch}] = {t, s, s - 1};
                        }
                    }
                    end = std::max(end, t);
                }
                if (end < kInf)
                {
                    iters[{job, k}] = {t0, end, consumerStart};
                    lastPipe = std::max(lastPipe, end);
                }
                t0 = end;
            }
        }
        if (c.coflowSenders > 0)
        {
            double t0 = starts.at(c.pipelines);
            for (uint32_t k = 0; t0 < lastPipe; ++k)
            {
                const double rel = t0 + c.coflowGap.GetSeconds();
                double end = 0;
                for (uint32_t i = 0; i < c.coflowSenders * S; ++i)
                {
                    releases[{coflowJob, k, 0, i}] = {rel, S + i / S, i % S};
                    end = std::max(end, arrived({coflowJob, k, 0, i}));
                }
                coflowStart[k] = t0;
                if (!(end < kInf))
                {
                    break;
                }
                t0 = end;
            }
        }
        std::map<Key, double> now;
        for (const auto& [k, r] : releases)
        {
            now[k] = std::get<0>(r);
        }
        if (now == lastReleases)
        {
            break;
        }
        lastReleases = now;
        // one flow-level run with these releases
        FluidFlowModel fluid(CreateFlowSchedulingPolicy(policy));
        FlowSchedulingState echelon; // for the ideal finish times, as the packet level does
        for (uint32_t q = 0; q < S + c.coflowSenders; ++q)
        {
            fluid.SetPort(q, capacity, capacity);
            echelon.SetPort(q, capacity, capacity);
        }
        std::map<uint64_t, FlowGroupSpec> groups;
        std::vector<Key> keys;
        std::map<uint64_t, uint32_t> sent; // group -> flows indexed so far (order of sending)
        std::vector<std::pair<double, Key>> order;
        for (const auto& [k, r] : releases)
        {
            order.emplace_back(std::get<0>(r), k);
        }
        std::sort(order.begin(), order.end());
        for (const auto& [t, k] : order)
        {
            const auto& [job, it, phase, idx] = k;
            FlowGroupSpec g;
            g.id = RdmaFlowScheduler::MakeGroupId(job, it, phase);
            g.job = job;
            if (job == coflowJob)
            {
                g.arrangement = FlowArrangement::Coflow;
                g.expectedFlows = c.coflowSenders * S;
            }
            else
            {
                g.arrangement = FlowArrangement::Pipeline;
                g.stageTime = phase % 2 == 0 ? F : B; // the receiver's op time, as the job
                g.expectedFlows = M;
                g.priorities = M;
            }
            if (groups.emplace(g.id, g).second)
            {
                fluid.DeclareGroup(g);
                echelon.DeclareGroup(g);
            }
            FlowDeclaration d;
            d.id = keys.size();
            d.job = job;
            d.group = g.id;
            d.index = sent[g.id]++;
            d.priority = job == coflowJob ? 0 : d.index;
            d.src = std::get<1>(releases[k]);
            d.dst = std::get<2>(releases[k]);
            d.bytes = job == coflowJob ? c.coflowBytes : c.activationBytes;
            fluid.AddFlow(d, t);
            echelon.AddFlow(d, t);
            keys.push_back(k);
        }
        finish.clear();
        ideal.clear();
        Ptr<EchelonFlowPolicy> reference = CreateObject<EchelonFlowPolicy>();
        std::map<uint64_t, EchelonFlowPolicy::Reference> refs;
        for (const auto& [id, g] : groups)
        {
            refs[id] = reference->ComputeReference(echelon, id);
        }
        for (const auto& f : echelon.GetFlows())
        {
            ideal[keys[f.decl.id]] = EchelonFlowPolicy::IdealFinish(echelon, f, refs[f.decl.group]);
        }
        for (const auto& r : fluid.Run())
        {
            finish[keys[r.id]] = r.finish;
        }
    }
    std::map<std::string, FluidJob> out;
    for (const auto& [k, f] : trace ? finish : std::map<Key, double>())
    {
        *trace << policy << "," << std::get<0>(k) << "," << std::get<1>(k) << "," << std::get<2>(k)
               << "," << std::get<3>(k) << "," << lastReleases[k] << "," << f << "," << ideal[k]
               << "\n";
    }
    std::map<std::pair<uint32_t, uint32_t>, double> tard;
    for (const auto& [k, f] : finish)
    {
        auto& t = tard.try_emplace({std::get<0>(k), std::get<1>(k)}, -kInf).first->second;
        t = std::max(t, f - ideal[k]);
    }
    for (const auto& [key, rec] : iters)
    {
        if (key.second == 0)
        {
            continue; // the first iteration (the jobs' starts) is left out
        }
        FluidJob& j = out["pipeline" + std::to_string(key.first - 1)];
        j.seconds.push_back(std::get<1>(rec) - std::get<0>(rec));
        j.tardiness.push_back(tard[key]);
        j.consumerStart.push_back(std::get<2>(rec));
    }
    for (const auto& [k, t0] : coflowStart)
    {
        auto end = tard.find({coflowJob, k});
        double last = 0;
        bool complete = end != tard.end();
        for (uint32_t i = 0; complete && i < c.coflowSenders * S; ++i)
        {
            auto f = finish.find({coflowJob, k, 0, i});
            complete = f != finish.end();
            last = complete ? std::max(last, f->second) : last;
        }
        if (k == 0 || !complete)
        {
            continue;
        }
        FluidJob& j = out["coflow"];
        j.seconds.push_back(last - t0);
        j.tardiness.push_back(end->second);
        j.consumerStart.push_back(kNan);
    }
    return out;
}

double
Mean(const std::vector<double>& v)
{
    double s = 0;
    std::size_t n = 0;
    for (double x : v)
    {
        if (!std::isnan(x))
        {
            s += x;
            ++n;
        }
    }
    return n ? s / n : kNan;
}

/// \return x (s) in ms with 2 decimals, or "" if not a number
std::string
Ms(double x)
{
    if (std::isnan(x))
    {
        return "";
    }
    std::ostringstream o;
    o << std::fixed << std::setprecision(2) << x * 1e3;
    return o.str();
}

/// Summary of a sample without NaNs.
SampleSummary
Summary(const std::vector<double>& v)
{
    std::vector<double> w;
    for (double x : v)
    {
        if (!std::isnan(x))
        {
            w.push_back(x);
        }
    }
    return w.empty() ? SampleSummary{} : SampleSummary::Of(w);
}

} // namespace

int
main(int argc, char* argv[])
{
    PipeConfig c;
    // --scenario chooses the defaults of the other options, so it is read first
    for (int i = 1; i < argc; ++i)
    {
        if (std::string(argv[i]) == "--scenario=staggered")
        {
            c.SetStaggeredDefaults();
        }
    }
    std::string policies = c.Staggered() ? "fair,fifo,madd,echelon" : "fair,madd,echelon";
    std::string csv;
    std::string summaryCsv;
    std::string fluidCsv;
    uint32_t runs = 1;
    CommandLine cmd(__FILE__);
    EventSchedulerHelper::UseDefault(cmd); // mlnet's event scheduler; --scheduler=...
    EventSchedulerHelper::UseHugePages();  // a program owns its process: huge-page heap
    cmd.AddValue("scenario",
                 "staggered (network-bound GPipe jobs sharing servers + a coflow job: the case "
                 "Echelon was designed for) or mixed (compute-bound GPipe jobs + a PS job); "
                 "sets the defaults of the other options",
                 c.scenario);
    cmd.AddValue("policies",
                 "Comma-separated flow-scheduling policies (fair, fifo, madd, echelon, "
                 "cadentflow-priority, cadentflow-deadline)",
                 policies);
    cmd.AddValue("pipelines",
                 "GPipe jobs (>= 1); staggered: stage s of every job on server s, mixed: each "
                 "job on hosts of its own",
                 c.pipelines);
    cmd.AddValue("stages", "Stages per pipeline (>= 2)", c.stages);
    cmd.AddValue("microBatches", "Micro-batches per iteration (>= 1)", c.microBatches);
    cmd.AddValue("forward", "Forward time of a micro-batch on a stage", c.forward);
    cmd.AddValue("backward", "Backward time of a micro-batch on a stage", c.backward);
    cmd.AddValue("activationBytes",
                 "Bytes of one activation (and gradient) message",
                 c.activationBytes);
    cmd.AddValue("psModel", "Model of the parameter-server job", c.psModel);
    cmd.AddValue("psWorkers", "Workers of the parameter-server job (0 = no PS job)", c.psWorkers);
    cmd.AddValue("batch", "PS job per-worker batch", c.batch);
    cmd.AddValue("coflowSenders",
                 "Servers of the coflow job, each sending to every pipeline server (0 = none)",
                 c.coflowSenders);
    cmd.AddValue("coflowBytes", "Bytes of each flow of the coflow job", c.coflowBytes);
    cmd.AddValue("coflowGap", "Compute time of the coflow job before each coflow", c.coflowGap);
    cmd.AddValue("rate", "Link rate in Gbit/s", c.rate);
    cmd.AddValue("duration", "Simulated time", c.duration);
    cmd.AddValue("warmup", "Iterations starting before this are left out", c.warmup);
    cmd.AddValue("controlDelay", "Scheduler control delay", c.controlDelay);
    cmd.AddValue("startJitter",
                 "Each job starts at a uniform random offset in [0, startJitter) (0 = together)",
                 c.startJitter);
    cmd.AddValue("cc",
                 "Congestion control TypeId (ns3::DcqcnVendor, ns3::Dcqcn, "
                 "ns3::RdmaFixedRate)",
                 c.cc);
    cmd.AddValue("fluidIterations",
                 "Staggered: pipeline iterations of the flow-level cross-check (0 = none, at most "
                 "50; the first is left out)",
                 c.fluidIterations);
    cmd.AddValue("runs", "Runs per policy (RngRun = --RngRun .. --RngRun + runs - 1)", runs);
    cmd.AddValue("csv", "Write every measured iteration to this CSV file", csv);
    cmd.AddValue("backend",
                 "packet (RDMA NICs, the default) or flow (fluid transports: the policies' "
                 "classes and rate caps on fluid flows, --cc as DCQCN at flow level, "
                 "--fluid-cc)",
                 c.backend);
    cmd.AddValue("fluid-cc", mlnetexamples::kFluidCcHelp, c.fluidCc);
    cmd.AddValue("summary", "Write one row per policy and job to this CSV file", summaryCsv);
    cmd.AddValue("fluidCsv", "Write every flow of the flow-level runs to this CSV file", fluidCsv);
    cmd.Parse(argc, argv);
    const uint32_t firstRun = RngSeedManager::GetRun(); // --RngRun, default 1
    try
    {
        if (c.backend != "packet" && c.backend != "flow")
        {
            throw std::invalid_argument("--backend = " + c.backend + ": must be packet or flow");
        }
        c.fluidCc = mlnetexamples::FluidCc(c.fluidCc, c.cc);
        if (c.scenario != "mixed" && c.scenario != "staggered")
        {
            throw std::invalid_argument("--scenario must be mixed or staggered, got '" +
                                        c.scenario + "'");
        }
        if (c.pipelines < 1 || c.stages < 2 || c.microBatches < 1 || runs < 1 ||
            c.activationBytes < 1 || c.coflowBytes < 1 || !(c.rate > 0))
        {
            throw std::invalid_argument("--pipelines, --microBatches, --runs, --activationBytes, "
                                        "--coflowBytes must be >= 1, --stages >= 2, --rate > 0");
        }
        if (c.forward.IsStrictlyNegative() || c.backward.IsStrictlyNegative() ||
            c.coflowGap.IsStrictlyNegative())
        {
            throw std::invalid_argument("--forward, --backward, --coflowGap must be >= 0");
        }
        if (c.fluidIterations > 50)
        {
            throw std::invalid_argument("--fluidIterations must be in [0, 50]");
        }
        if (c.startJitter.IsNegative() || c.startJitter >= c.warmup)
        {
            throw std::invalid_argument("--startJitter must be in [0, warmup = " +
                                        std::to_string(c.warmup.GetMilliSeconds()) + " ms)");
        }
        if (c.warmup >= c.duration)
        {
            throw std::invalid_argument("--warmup must be shorter than --duration");
        }
        std::vector<std::string> pol = SplitList(policies);
        for (const auto& p : pol)
        {
            CreateFlowSchedulingPolicy(p);
        }
        std::ofstream out;
        if (!csv.empty())
        {
            out.open(csv);
            if (!out)
            {
                throw std::invalid_argument("--csv: cannot write '" + csv + "'");
            }
            out << "policy,job,run,iteration,seconds,max_tardiness,exposed,consumer_start\n";
        }
        std::ofstream sum;
        if (!summaryCsv.empty())
        {
            sum.open(summaryCsv);
            if (!sum)
            {
                throw std::invalid_argument("--summary: cannot write '" + summaryCsv + "'");
            }
            sum << "scenario,forward_ms,backward_ms,transfer_ms,coflow_mb,policy,job,n,seeds,iter_"
                   "mean_ms,iter_p50_ms,iter_p99_ms,iter_min_ms,"
                   "iter_max_ms,seed_mean_min_ms,seed_mean_max_ms,tardy_mean_ms,tardy_p50_ms,"
                   "tardy_p99_ms,tardy_max_ms,consumer_start_mean_ms,consumer_start_p99_ms,"
                   "exposed_mean_ms,staggered_bound_ms,all_at_once_ms,fluid_iter_ms,"
                   "fluid_tardy_ms,fluid_consumer_start_ms\n";
        }
        std::ofstream fluidOut;
        if (!fluidCsv.empty())
        {
            fluidOut.open(fluidCsv);
            if (!fluidOut)
            {
                throw std::invalid_argument("--fluidCsv: cannot write '" + fluidCsv + "'");
            }
            fluidOut << "policy,job,iteration,phase,index,release,finish,ideal\n";
        }
        if (c.Staggered())
        {
            std::cout << c.pipelines << " GPipe job(s) of " << c.stages << " stages x "
                      << c.microBatches << " micro-batches (" << c.forward.GetMicroSeconds() / 1e3
                      << "/" << c.backward.GetMicroSeconds() / 1e3 << " ms, "
                      << c.activationBytes / 1e6 << " MB), stage s of every job on server s; "
                      << "coflow job: " << c.coflowSenders << " servers x " << c.stages
                      << " pipeline servers x " << c.coflowBytes / 1e6 << " MB every "
                      << c.coflowGap.GetMicroSeconds() / 1e3 << " ms of compute; ";
        }
        else
        {
            std::cout << c.pipelines << " GPipe job(s) of " << c.stages << " stages x "
                      << c.microBatches << " micro-batches (" << c.forward.GetMilliSeconds() << "/"
                      << c.backward.GetMilliSeconds() << " ms, " << c.activationBytes / 1e6
                      << " MB), PS job " << c.psModel << " with " << c.psWorkers
                      << " workers whose servers are the pipelines' stages 1 and "
                      << "2, ";
        }
        std::cout << c.rate << " Gbit/s, " << c.cc << ", " << c.backend << " level"
                  << (c.backend == "flow" ? " (fluid cc " + c.fluidCc + ")" : "") << ", "
                  << c.duration.GetMilliSeconds() << " ms simulated (" << c.warmup.GetMilliSeconds()
                  << " ms warm-up), job starts jittered by up to "
                  << c.startJitter.GetMicroSeconds() / 1e3 << " ms, RngRun " << firstRun << ".."
                  << firstRun + runs - 1 << "\n\n";
        std::cout << std::left << std::setw(20) << "policy" << std::setw(11) << "job" << std::right
                  << std::setw(6) << "iters" << std::setw(11) << "iter(ms)" << std::setw(9) << "p50"
                  << std::setw(9) << "p99" << std::setw(13) << "tardy(ms)" << std::setw(9) << "p50"
                  << std::setw(9) << "p99";
        if (c.Staggered())
        {
            std::cout << std::setw(11) << "cons(ms)" << std::setw(15) << "seeds(ms)"
                      << std::setw(11) << "fluid" << std::setw(9) << "f.tardy" << std::setw(9)
                      << "f.cons";
        }
        std::cout << "\n";
        double capacity = 0;
        std::vector<double> starts; // the first seed's job start times, for the fluid run
        std::pair<double, double> bounds{0, 0}; // pipelines: (staggered, all at once), s
        for (const auto& p : pol)
        {
            std::map<std::string, std::vector<IterationSample>> all;
            std::map<std::string, std::vector<double>> seedMeans;
            for (uint32_t run = firstRun; run < firstRun + runs; ++run)
            {
                RunResult rr = RunOne(p, c, run);
                capacity = rr.portCapacity;
                if (run == firstRun)
                {
                    starts = rr.starts;
                }
                for (const auto& jr : rr.jobs)
                {
                    std::vector<double> secs;
                    for (std::size_t i = 0; i < jr.samples.size(); ++i)
                    {
                        const IterationSample& s = jr.samples[i];
                        secs.push_back(s.seconds);
                        if (out)
                        {
                            out << p << "," << jr.name << "," << run << "," << i << "," << s.seconds
                                << "," << s.tardiness << "," << s.exposed << ","
                                << (std::isnan(s.consumerStart) ? std::string()
                                                                : std::to_string(s.consumerStart))
                                << "\n";
                        }
                    }
                    auto& a = all[jr.name];
                    a.insert(a.end(), jr.samples.begin(), jr.samples.end());
                    if (!secs.empty())
                    {
                        seedMeans[jr.name].push_back(Mean(secs));
                    }
                }
            }
            std::map<std::string, FluidJob> fluid;
            if (c.Staggered() && c.psWorkers == 0 && c.fluidIterations > 1)
            {
                uint32_t rounds = 0;
                fluid = RunFluid(p, c, capacity, starts, fluidOut ? &fluidOut : nullptr, rounds);
            }
            const auto b = PipelineBounds(c, capacity);
            for (const auto& [name, samples] : all)
            {
                std::vector<double> it, td, cs, ex;
                for (const auto& s : samples)
                {
                    it.push_back(s.seconds);
                    td.push_back(s.tardiness);
                    cs.push_back(s.consumerStart);
                    ex.push_back(s.exposed);
                }
                const SampleSummary si = Summary(it);
                const SampleSummary st = Summary(td);
                const SampleSummary sc = Summary(cs);
                const auto& sm = seedMeans[name];
                const double smMin = sm.empty() ? kNan : *std::min_element(sm.begin(), sm.end());
                const double smMax = sm.empty() ? kNan : *std::max_element(sm.begin(), sm.end());
                const bool pipe = name.rfind("pipeline", 0) == 0;
                const FluidJob* fj = fluid.count(name) ? &fluid[name] : nullptr;
                std::cout << std::left << std::setw(20) << p << std::setw(11) << name << std::right
                          << std::setw(6) << si.n << std::fixed << std::setprecision(2)
                          << std::setw(11) << si.mean * 1e3 << std::setw(9) << si.p50 * 1e3
                          << std::setw(9) << si.p99 * 1e3 << std::setw(13) << st.mean * 1e3
                          << std::setw(9) << st.p50 * 1e3 << std::setw(9) << st.p99 * 1e3;
                if (c.Staggered())
                {
                    std::cout << std::setw(11) << (pipe ? Ms(sc.mean) : "-") << std::setw(15)
                              << (Ms(smMin) + "-" + Ms(smMax)) << std::setw(11)
                              << (fj ? Ms(Mean(fj->seconds)) : "-") << std::setw(9)
                              << (fj ? Ms(Mean(fj->tardiness)) : "-") << std::setw(9)
                              << (fj && pipe ? Ms(Mean(fj->consumerStart)) : "-");
                }
                std::cout << std::endl;
                if (sum)
                {
                    sum << c.scenario << "," << Ms(c.forward.GetSeconds()) << ","
                        << Ms(c.backward.GetSeconds()) << ","
                        << Ms(double(c.activationBytes) / capacity) << ","
                        << (c.coflowSenders ? c.coflowBytes / 1e6 : 0.0) << "," << p << "," << name
                        << "," << si.n << "," << runs << "," << Ms(si.mean) << "," << Ms(si.p50)
                        << "," << Ms(si.p99) << "," << Ms(si.min) << "," << Ms(si.max) << ","
                        << Ms(smMin) << "," << Ms(smMax) << "," << Ms(st.mean) << "," << Ms(st.p50)
                        << "," << Ms(st.p99) << "," << Ms(st.max) << ","
                        << (pipe ? Ms(sc.mean) : "") << "," << (pipe ? Ms(sc.p99) : "") << ","
                        << Ms(Mean(ex)) << "," << (pipe ? Ms(b.first) : "") << ","
                        << (pipe ? Ms(b.second) : "") << "," << (fj ? Ms(Mean(fj->seconds)) : "")
                        << "," << (fj ? Ms(Mean(fj->tardiness)) : "") << ","
                        << (fj && pipe ? Ms(Mean(fj->consumerStart)) : "") << "\n";
                }
            }
            bounds = b;
        }
        if (c.Staggered() && capacity > 0)
        {
            const auto& b = bounds;
            std::cout << "\nanalytical pipeline iteration time (port " << std::setprecision(2)
                      << capacity * 8e-9 << " Gbit/s of payload, a micro-batch "
                      << Ms(double(c.activationBytes) / capacity)
                      << " ms per link) of one job alone: staggered (in order, the consumer "
                         "starts on the first micro-batch; a lower bound for every policy) "
                      << Ms(b.first) << " ms, all at once (coflow) " << Ms(b.second)
                      << " ms; consumer start at best "
                      << Ms(c.forward.GetSeconds() + double(c.activationBytes) / capacity)
                      << " ms (one forward + one transfer)\n"
                      << "cons = stage 1's first forward start from the iteration start; seeds = "
                         "range of the per-seed mean iteration time; fluid / f.tardy / f.cons = "
                         "the flow-level run of the same jobs with the first seed's start times "
                         "(iterations 2.."
                      << c.fluidIterations << ")\n";
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "echelon-pipeline: error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
