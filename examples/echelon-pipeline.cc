/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Echelon (Pan et al., HotNets 2022): GPipe pipeline jobs and a parameter-server job sharing
// hosts on one switch. The pipelines' stages 1 and 2 are also the PS job's servers, so
// activations and gradients compete with pushes and pulls on those hosts' links. Every message
// goes through one flow scheduler: fair sharing, MADD coflow scheduling (each pipeline link's
// micro-batches of an iteration form one coflow) or Echelon (EchelonFlows with the pipeline's
// staggered arrangement and the PS job's layer-wise offsets). Prints per job the steady-state
// iteration time and the maximum tardiness per iteration (max over the job's flows of arrival
// minus Echelon ideal finish time), mean, p50 and p99 over the iterations after warm-up;
// --csv writes every iteration.

#include "flow-scheduling-examples.h"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

using namespace ns3;
using mlnetexamples::BuildSwitchCluster;
using mlnetexamples::SplitList;

namespace
{

struct PipeConfig
{
    uint32_t pipelines{2};
    uint32_t stages{4};
    uint32_t microBatches{8};
    Time forward{MilliSeconds(1)};
    Time backward{MilliSeconds(2)};
    uint64_t activationBytes{8000000};
    std::string psModel{"resnet50"};
    uint32_t psWorkers{4};
    uint32_t batch{32};
    double rate{100};
    Time duration{MilliSeconds(1000)};
    Time warmup{MilliSeconds(50)};
    Time controlDelay{0};
    Time startJitter{MilliSeconds(3)};
    std::string cc{"ns3::DcqcnVendor"};
};

/// Measured results of one job in one run.
struct JobResult
{
    std::string name;
    std::vector<double> iterations; //!< s, iterations that started after warm-up
    std::vector<double> tardiness;  //!< s, max tardiness of those iterations
};

std::vector<JobResult>
RunOne(const std::string& policy, const PipeConfig& c, uint32_t run)
{
    RngSeedManager::SetRun(run);
    const uint32_t hosts = c.pipelines * c.stages + c.psWorkers;
    std::vector<Ptr<RdmaNic>> nics = BuildSwitchCluster(hosts, c.rate, c.cc);
    FlowSchedulerHelper fs;
    fs.SetPolicy(policy);
    fs.SetSchedulerAttribute("ControlDelay", TimeValue(c.controlDelay));
    ScheduledFlowStats stats;
    stats.Connect(fs.Install(nics));
    std::vector<Ptr<TrainingJob>> jobs;
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
        job->SetStages({nics.begin() + p * c.stages, nics.begin() + (p + 1) * c.stages});
        jobs.push_back(job);
    }
    if (c.psWorkers > 0)
    {
        // servers on the middle stages (1 and 2) of every pipeline: they share those hosts' links
        std::vector<Ptr<RdmaNic>> servers;
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
        ps->SetWorkers({nics.begin() + c.pipelines * c.stages, nics.end()});
        ps->SetServers(servers);
        jobs.push_back(ps);
    }
    for (auto& j : jobs)
    {
        j->SetAttribute("StartTime",
                        TimeValue(Seconds(offset->GetValue(0, c.startJitter.GetSeconds()))));
        j->Start();
    }
    Simulator::Stop(c.duration);
    Simulator::Run();
    std::vector<JobResult> out;
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
            jr.iterations.push_back(rec.Duration().GetSeconds());
            auto it = tard.find(uint32_t(rec.iteration & 0xFFFFF));
            jr.tardiness.push_back(it != tard.end() ? it->second : 0.0);
        }
        out.push_back(jr);
    }
    Simulator::Destroy();
    return out;
}

} // namespace

int
main(int argc, char* argv[])
{
    PipeConfig c;
    std::string policies = "fair,madd,echelon";
    std::string csv;
    uint32_t runs = 1;
    CommandLine cmd(__FILE__);
    EventSchedulerHelper::UseDefault(cmd); // mlnet's event scheduler; --scheduler=...
    cmd.AddValue("policies",
                 "Comma-separated flow-scheduling policies (fair, fifo, madd, echelon, "
                 "cadentflow-priority, cadentflow-deadline)",
                 policies);
    cmd.AddValue("pipelines", "GPipe jobs (>= 1), each on its own hosts", c.pipelines);
    cmd.AddValue("stages", "Stages per pipeline (>= 2)", c.stages);
    cmd.AddValue("microBatches", "Micro-batches per iteration (>= 1)", c.microBatches);
    cmd.AddValue("forward", "Forward time of a micro-batch on a stage", c.forward);
    cmd.AddValue("backward", "Backward time of a micro-batch on a stage", c.backward);
    cmd.AddValue("activationBytes", "Bytes of one activation (and gradient) message",
                 c.activationBytes);
    cmd.AddValue("psModel", "Model of the parameter-server job", c.psModel);
    cmd.AddValue("psWorkers", "Workers of the parameter-server job (0 = no PS job)", c.psWorkers);
    cmd.AddValue("batch", "PS job per-worker batch", c.batch);
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
    cmd.AddValue("runs", "Runs per policy (RngRun = --RngRun .. --RngRun + runs - 1)", runs);
    cmd.AddValue("csv", "Write every measured iteration to this CSV file", csv);
    cmd.Parse(argc, argv);
    const uint32_t firstRun = RngSeedManager::GetRun(); // --RngRun, default 1
    try
    {
        if (c.pipelines < 1 || c.stages < 2 || c.microBatches < 1 || runs < 1
            || c.activationBytes < 1 || !(c.rate > 0))
        {
            throw std::invalid_argument("--pipelines, --microBatches, --runs, --activationBytes "
                                        "must be >= 1, --stages >= 2, --rate > 0");
        }
        if (c.startJitter.IsNegative() || c.startJitter >= c.warmup)
        {
            throw std::invalid_argument("--startJitter must be in [0, warmup = "
                                        + std::to_string(c.warmup.GetMilliSeconds()) + " ms)");
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
            out << "policy,job,run,iteration,seconds,max_tardiness\n";
        }
        std::cout << c.pipelines << " GPipe job(s) of " << c.stages << " stages x "
                  << c.microBatches << " micro-batches (" << c.forward.GetMilliSeconds() << "/"
                  << c.backward.GetMilliSeconds() << " ms, " << c.activationBytes / 1e6
                  << " MB), PS job " << c.psModel << " with " << c.psWorkers
                  << " workers whose servers are the pipelines' stages 1 and 2, " << c.rate
                  << " Gbit/s, " << c.cc << ", " << c.duration.GetMilliSeconds()
                  << " ms simulated (" << c.warmup.GetMilliSeconds()
                  << " ms warm-up), job starts jittered by up to "
                  << c.startJitter.GetMicroSeconds() / 1e3 << " ms, RngRun " << firstRun << ".."
                  << firstRun + runs - 1 << "\n\n";
        std::cout << std::left << std::setw(20) << "policy" << std::setw(11) << "job" << std::right
                  << std::setw(6) << "iters" << std::setw(11) << "iter(ms)" << std::setw(9) << "p50"
                  << std::setw(9) << "p99" << std::setw(13) << "tardy(ms)" << std::setw(9) << "p50"
                  << std::setw(9) << "p99"
                  << "\n";
        for (const auto& p : pol)
        {
            std::map<std::string, JobResult> all;
            for (uint32_t run = firstRun; run < firstRun + runs; ++run)
            {
                for (const auto& jr : RunOne(p, c, run))
                {
                    JobResult& a = all[jr.name];
                    a.name = jr.name;
                    for (std::size_t i = 0; i < jr.iterations.size(); ++i)
                    {
                        if (out)
                        {
                            out << p << "," << jr.name << "," << run << "," << i << ","
                                << jr.iterations[i] << "," << jr.tardiness[i] << "\n";
                        }
                    }
                    a.iterations.insert(a.iterations.end(), jr.iterations.begin(),
                                        jr.iterations.end());
                    a.tardiness.insert(a.tardiness.end(), jr.tardiness.begin(), jr.tardiness.end());
                }
            }
            for (const auto& [name, jr] : all)
            {
                SampleSummary it = SampleSummary::Of(jr.iterations);
                SampleSummary td = SampleSummary::Of(jr.tardiness);
                std::cout << std::left << std::setw(20) << p << std::setw(11) << name << std::right
                          << std::setw(6) << it.n << std::fixed << std::setprecision(2)
                          << std::setw(11) << it.mean * 1e3 << std::setw(9) << it.p50 * 1e3
                          << std::setw(9) << it.p99 * 1e3 << std::setw(13) << td.mean * 1e3
                          << std::setw(9) << td.p50 * 1e3 << std::setw(9) << td.p99 * 1e3
                          << std::endl;
            }
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "echelon-pipeline: error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
