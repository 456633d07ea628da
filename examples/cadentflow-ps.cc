/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// CadentFlow (Abdu Jyothi et al., HotCloud 2020): parameter-server training of the paper's
// models (TF-slim CifarNet, MobileNet-v2, Inception-v1, ResNet-v1-200, ResNet-v2-101,
// ResNet-v2-152) with W workers and W servers on one switch, every push and pull scheduled by
// max-min fair sharing, MADD coflow scheduling (Varys) or CadentFlow (priority and deadline
// objectives). Prints per model the steady-state iteration time (mean, p50, p99 over the
// iterations after warm-up) relative to fair sharing, and the CCT flexibility ratio (max
// tolerable / min CCT of an iteration's parameter transfers); --csv writes every iteration.
// Published: up to 25% lower iteration time than max-min fairness; coflow scheduling can be
// slower than fair sharing; where the gain is low, the flexibility ratio is high.

#include "flow-scheduling-examples.h"
#include "rdma-timeout-line.h"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

using namespace ns3;
using mlnetexamples::BuildSwitchClusterTransports;
using mlnetexamples::PrintRdmaTimeouts;
using mlnetexamples::SplitList;

namespace
{

/// Settings shared by every run.
struct PsConfig
{
    uint32_t workers{8};
    double rate{100};
    std::string gpu{"v100"};
    uint32_t batch{32};
    uint32_t iterations{10};
    uint32_t warmup{2};
    Time controlDelay{0};
    std::string mode{"centralised"};
    std::string cc{"ns3::DcqcnVendor"};
    std::string backend{"packet"};
    std::string fluidCc{"dcqcn"}; //!< --fluid-cc; after validation what the flow level models
    std::string serverAssignment{"round-robin"}; //!< or balanced-bytes
};

/// \return the DataParallelJob::ServerAssignment of a --serverAssignment value
DataParallelJob::ServerAssignment
Assignment(const PsConfig& c)
{
    return DataParallelJob::ServerAssignmentFromName(c.serverAssignment);
}

/// One simulation: \return per-iteration times (s) after warm-up, without the last iteration
/// (which also waits for its own synchronisation)
std::vector<double>
RunOne(const DnnModel& model, const std::string& policy, const PsConfig& c, uint32_t run)
{
    RngSeedManager::SetRun(run);
    std::vector<Ptr<MessageTransport>> nics =
        BuildSwitchClusterTransports(2 * c.workers, c.rate, c.cc, c.backend, c.fluidCc);
    if (policy != "none")
    {
        FlowSchedulerHelper fs;
        fs.SetPolicy(policy);
        fs.SetSchedulerAttribute("ControlDelay", TimeValue(c.controlDelay));
        fs.SetSchedulerAttribute(
            "Mode",
            StringValue(c.mode == "centralised" ? "Centralised" : "Decentralised"));
        Ptr<RdmaFlowScheduler> s = fs.Install(nics);
        Simulator::ScheduleDestroy([s]() {
            std::clog << "  [" << s->GetPostedFlows() << " flows, " << s->GetEvaluations()
                      << " evaluations, " << s->GetClassChanges() << " class changes, "
                      << s->GetCapChanges() << " cap changes (" << s->GetCapChangesSkipped()
                      << " within CapTolerance), " << s->GetQueuePairs() << " QPs]\n";
        });
    }
    Ptr<DataParallelJob> job = CreateObject<DataParallelJob>();
    job->SetModel(model, GpuProfile::Get(c.gpu));
    job->SetAttribute("Mode", StringValue("ParameterServer"));
    job->SetAttribute("BatchSize", UintegerValue(c.batch));
    job->SetAttribute("Iterations", UintegerValue(c.iterations));
    job->SetAttribute("RecordMessages", BooleanValue(false));
    job->SetAttribute("ServerAssignment", EnumValue(Assignment(c)));
    job->SetWorkers({nics.begin(), nics.begin() + c.workers});
    job->SetServers({nics.begin() + c.workers, nics.end()});
    job->Start();
    Simulator::Stop(Seconds(3600));
    Simulator::Run();
    PrintRdmaTimeouts("cadentflow-ps", model.GetName() + " " + policy);
    // the placement's imbalance, once per model (the same for every policy and run)
    static std::set<std::string> reported;
    const std::string imbalance = job->GetServerImbalanceWarning();
    if (!imbalance.empty() && reported.insert(model.GetName()).second)
    {
        std::clog << "cadentflow-ps: warning: " << model.GetName() << " " << imbalance << "\n";
    }
    if (!job->IsFinished())
    {
        Simulator::Destroy();
        throw std::runtime_error("job did not finish (" + policy + ")");
    }
    std::vector<double> iters;
    const auto& recs = job->GetIterationRecords();
    for (std::size_t i = c.warmup; i + 1 < recs.size(); ++i)
    {
        iters.push_back(recs[i].Duration().GetSeconds());
    }
    Simulator::Destroy();
    return iters;
}

} // namespace

int
main(int argc, char* argv[])
{
    PsConfig c;
    std::string models = "cifarnet,mobilenet_v2,inception_v1,resnet_v1_200,resnet_v2_101,"
                         "resnet_v2_152";
    std::string policies = "fair,madd,cadentflow-priority,cadentflow-deadline";
    std::string csv;
    uint32_t runs = 1;
    CommandLine cmd(__FILE__);
    EventSchedulerHelper::UseDefault(cmd); // mlnet's event scheduler; --scheduler=...
    EventSchedulerHelper::UseHugePages();  // a program owns its process: huge-page heap
    cmd.AddValue("models", "Comma-separated model zoo names", models);
    cmd.AddValue("policies",
                 "Comma-separated flow-scheduling policies (fair, fifo, madd, echelon, "
                 "cadentflow-priority, cadentflow-deadline; none = the job's own queue pairs); "
                 "the first is the baseline",
                 policies);
    cmd.AddValue("workers", "Workers, and as many parameter servers (>= 1)", c.workers);
    cmd.AddValue("rate", "Link rate in Gbit/s (> 0)", c.rate);
    cmd.AddValue("gpu", "GPU profile (v100, a100, h100)", c.gpu);
    cmd.AddValue("batch", "Per-worker batch size (>= 1)", c.batch);
    cmd.AddValue("iterations",
                 "Iterations per run (> warmup + 1: the statistics skip the warm-up iterations "
                 "and the last one)",
                 c.iterations);
    cmd.AddValue("warmup", "Warm-up iterations left out of the statistics", c.warmup);
    cmd.AddValue("controlDelay", "Centralised scheduler's control delay", c.controlDelay);
    cmd.AddValue("mode", "Scheduler mode: centralised or decentralised", c.mode);
    cmd.AddValue("cc",
                 "Congestion control (ns3::DcqcnVendor, the NIC-vendor DCQCN most published "
                 "simulations use; ns3::Dcqcn, the SIGCOMM 2015 specification; "
                 "ns3::RdmaFixedRate, none: PFC alone)",
                 c.cc);
    cmd.AddValue("runs",
                 "Runs per configuration (RngRun = --RngRun .. --RngRun + runs - 1: the seed "
                 "changes the switches' random ECN marking between Kmin and Kmax)",
                 runs);
    cmd.AddValue("csv", "Write every measured iteration to this CSV file", csv);
    cmd.AddValue("backend",
                 "packet (RDMA NICs, the default) or flow (the fluid backend: the policy's "
                 "classes and rate caps on fluid flows, --cc as DCQCN at flow level, "
                 "--fluid-cc)",
                 c.backend);
    cmd.AddValue("fluid-cc", mlnetexamples::kFluidCcHelp, c.fluidCc);
    cmd.AddValue("serverAssignment",
                 "Placement of the slices on the servers: round-robin (tensor index mod servers, "
                 "the default) or balanced-bytes (largest first on the least-loaded server; "
                 "DataParallelJob::ServerAssignment)",
                 c.serverAssignment);
    cmd.Parse(argc, argv);
    const uint32_t firstRun = RngSeedManager::GetRun(); // --RngRun, default 1
    try
    {
        if (c.workers < 1 || !(c.rate > 0) || c.batch < 1 || runs < 1)
        {
            throw std::invalid_argument("--workers, --batch and --runs must be >= 1, --rate > 0");
        }
        if (c.iterations < c.warmup + 2)
        {
            throw std::invalid_argument("--iterations = " + std::to_string(c.iterations) +
                                        " must be >= warmup + 2 = " + std::to_string(c.warmup + 2));
        }
        if (c.backend != "packet" && c.backend != "flow")
        {
            throw std::invalid_argument("--backend = " + c.backend + ": must be packet or flow");
        }
        c.fluidCc = mlnetexamples::FluidCc(c.fluidCc, c.cc);
        Assignment(c); // throws for a value other than round-robin or balanced-bytes
        if (c.mode != "centralised" && c.mode != "decentralised")
        {
            throw std::invalid_argument("--mode = " + c.mode +
                                        ": must be centralised or decentralised");
        }
        std::vector<std::string> pol = SplitList(policies);
        if (pol.empty())
        {
            throw std::invalid_argument("--policies is empty");
        }
        for (const auto& p : pol)
        {
            if (p != "none")
            {
                CreateFlowSchedulingPolicy(p); // validate names before the first run
            }
        }
        std::ofstream out;
        if (!csv.empty())
        {
            out.open(csv);
            if (!out)
            {
                throw std::invalid_argument("--csv: cannot write '" + csv + "'");
            }
            out << "model,policy,workers,run,iteration,seconds,flexibility\n";
        }
        // goodput of a worker's downlink: what its pulls get at best
        const double goodput = c.rate * 1e9 / 8 * 4096 / (4096 + 82.0);
        const GpuProfile gpu = GpuProfile::Get(c.gpu);
        std::cout << c.workers << " workers + " << c.workers << " parameter servers, " << c.rate
                  << " Gbit/s, " << c.gpu << " batch " << c.batch << ", " << c.iterations
                  << " iterations (" << c.warmup << " warm-up), " << runs << " run(s), " << c.cc
                  << ", " << c.mode << ", " << c.backend << " level"
                  << (c.backend == "flow" ? " (fluid cc " + c.fluidCc + ")" : "") << ", servers "
                  << c.serverAssignment
                  << (c.mode == "centralised"
                          ? ", control delay " + std::to_string(c.controlDelay.GetMicroSeconds()) +
                                " us"
                          : "")
                  << "\n";
        for (const auto& name : SplitList(models))
        {
            DnnModel m = ModelZoo::Get(name);
            // the pull phase as the forward pass sees it: tensor t comes from its server (the
            // job's placement, one slice per tensor), whose uplink carries it once per worker
            // (link 1 + server), and crosses the worker's downlink (link 0)
            const ComputeDag dag = IterationDag::Build(m, gpu, c.batch);
            std::vector<TransferSlice> whole(dag.GetTensors().size());
            for (uint32_t t = 0; t < whole.size(); ++t)
            {
                whole[t].tensorId = t;
                whole[t].size = dag.GetTensors()[t].bytes;
            }
            const std::vector<uint32_t> server =
                DataParallelJob::PlaceSlices(whole, c.workers, Assignment(c));
            std::vector<std::vector<ComputeDag::LinkUse>> links(dag.GetTensors().size());
            for (uint32_t t = 0; t < links.size(); ++t)
            {
                links[t] = {{0, 1.0}, {1 + server[t], double(c.workers)}};
            }
            const DagSchedule ideal =
                dag.IdealSchedule(links, std::vector<double>(1 + c.workers, goodput));
            std::cout << "\n"
                      << name << ": " << m.GetParameterCount() << " parameters, compute "
                      << std::fixed << std::setprecision(2)
                      << (gpu.GetForwardTime(m, c.batch) + gpu.GetBackwardTime(m, c.batch)) * 1e3
                      << " ms, min CCT " << ideal.minCct * 1e3 << " ms, max tolerable CCT "
                      << ideal.maxTolerableCct * 1e3 << " ms, flexibility ratio "
                      << ideal.FlexibilityRatio() << "\n";
            std::cout << std::left << std::setw(22) << "policy" << std::right << std::setw(10)
                      << "mean(ms)" << std::setw(10) << "p50(ms)" << std::setw(10) << "p99(ms)"
                      << std::setw(12) << "vs " + pol[0] << "\n";
            double base = 0;
            for (const auto& p : pol)
            {
                std::vector<double> all;
                for (uint32_t run = firstRun; run < firstRun + runs; ++run)
                {
                    std::vector<double> it = RunOne(m, p, c, run);
                    for (std::size_t i = 0; i < it.size(); ++i)
                    {
                        if (out)
                        {
                            out << name << "," << p << "," << c.workers << "," << run << ","
                                << c.warmup + i << "," << it[i] << "," << ideal.FlexibilityRatio()
                                << "\n";
                        }
                    }
                    all.insert(all.end(), it.begin(), it.end());
                }
                SampleSummary s = SampleSummary::Of(all);
                base = base > 0 ? base : s.mean;
                std::cout << std::left << std::setw(22) << p << std::right << std::fixed
                          << std::setprecision(3) << std::setw(10) << s.mean * 1e3 << std::setw(10)
                          << s.p50 * 1e3 << std::setw(10) << s.p99 * 1e3 << std::setw(12)
                          << s.mean / base << std::endl;
            }
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "cadentflow-ps: error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
