/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Parameter-server data-parallel training with different tensor transfer orders: FIFO
// (framework order), FIFO-split (MXNet-style: large tensors split over the servers), TicTac
// (TIC and TAC, enforced by one transfer per channel in its order), P3 (slicing and priority,
// and each alone: p3-slicing, p3-priority), ByteScheduler (given partition/credit, or tuned by a
// grid search: bytescheduler-tuned). The framework costs of a PS-lite/KVStore host are on by
// default (per-message overhead, server summation and update), servers co-located with the
// workers as P3 and ByteScheduler deploy them. Prints, per model and policy, the steady-state
// iteration time (mean, p50, p99 over the iterations after the warm-up), the training
// throughput and the speed-up over FIFO and FIFO-split; --csv writes every iteration and
// --summaryCsv the table. Published: TicTac up to 37.7% throughput (MLSys 2019), P3 25-66%
// (SysML 2019), ByteScheduler up to 196% (SOSP 2019). The model is deterministic (no
// randomness on this path), so seeds do not apply.

#include "fluid-cc-option.h"
#include "rdma-timeout-line.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

using namespace ns3;

namespace
{
/// The packet level's congestion control (the reaction point of --fluid-cc=dcqcn)
const std::string kCc = "ns3::Dcqcn";

std::vector<std::string>
SplitList(const std::string& s)
{
    std::vector<std::string> v;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        if (!item.empty())
        {
            v.push_back(item);
        }
    }
    return v;
}

/**
 * FIFO as MXNet's parameter-server KVStore does it: tensors in the order the backward pass
 * produces them, all with one priority, but a tensor larger than BigArrayBound parameters is
 * split into one equal part per server (MXNET_KVSTORE_BIGARRAY_BOUND, default 1,000,000), so a
 * large layer is spread over all servers. The baseline P3 and ByteScheduler were measured
 * against; plain FIFO keeps every tensor whole on one server (as TensorFlow places variables).
 */
class FifoSplitTensorOrder : public TensorOrderPolicy
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::FifoSplitTensorOrder")
                                .SetParent<TensorOrderPolicy>()
                                .SetGroupName("Mlnet")
                                .AddConstructor<FifoSplitTensorOrder>();
        return tid;
    }

    std::string GetName() const override
    {
        return "FIFO-split";
    }

    uint64_t m_bound{1000000}; //!< tensors above this many parameters are split
    uint32_t m_parts{1};       //!< parts per split tensor (the number of servers)

  protected:
    std::vector<TransferSlice> DoPlan(const std::vector<GradientTensor>& tensors) const override
    {
        Ptr<FifoTensorOrder> fifo = CreateObject<FifoTensorOrder>();
        std::vector<TransferSlice> plan;
        for (const auto& whole : fifo->Plan(tensors))
        {
            const GradientTensor& t =
                *std::find_if(tensors.begin(), tensors.end(), [&whole](const GradientTensor& x) {
                    return x.id == whole.tensorId;
                });
            uint64_t part =
                t.parameters > m_bound && m_parts > 1 ? (t.parameters + m_parts - 1) / m_parts : 0;
            for (const auto& sl : Slice(t, part, 0))
            {
                plan.push_back(sl);
            }
        }
        return plan;
    }
};

/// Settings shared by every run.
struct RunConfig
{
    std::string gpu{"v100-fp32"};
    uint32_t workers{4};
    uint32_t servers{4};
    bool colocated{true};
    uint32_t leaves{1};
    double rate{10};
    uint32_t batch{32};
    uint32_t iterations{12};
    uint32_t warmup{2};
    uint32_t mtu{4000};
    uint32_t ackInterval{16};
    uint32_t bytesPerParam{4};
    uint64_t window{0};
    uint32_t p3Depth{1};
    uint64_t fifoWindow{0};
    uint64_t bigArrayBound{1000000};
    uint32_t classes{1};
    uint64_t p3Slice{50000};
    uint64_t bsPartition{1000000};
    uint64_t bsCredit{4000000};
    double overheadUs{50};
    double sumGbps{40};
    double updateGbps{40};
    int serverPriority{-1};
    uint32_t channelDepth{0};
    std::string backend{"packet"};
    std::string fluidCc{"dcqcn"}; //!< --fluid-cc; after validation what the flow level models
};

/// \return the policy named \p name (fifo, fifo-split, tic, tac, p3, bytescheduler)
Ptr<TensorOrderPolicy>
MakePolicy(const std::string& name, const RunConfig& c)
{
    Ptr<TensorOrderPolicy> p;
    if (name == "fifo")
    {
        p = CreateObject<FifoTensorOrder>();
    }
    else if (name == "fifo-split")
    {
        Ptr<FifoSplitTensorOrder> t = CreateObject<FifoSplitTensorOrder>();
        t->m_bound = c.bigArrayBound;
        t->m_parts = c.servers;
        p = t;
    }
    else if (name == "tic" || name == "tac")
    {
        Ptr<TicTacTensorOrder> t = CreateObject<TicTacTensorOrder>();
        t->SetMode(name == "tic" ? TicTacTensorOrder::TIC : TicTacTensorOrder::TAC);
        // TAC's transfer-time estimate: a worker's share of the servers' links
        double share = std::min(1.0, static_cast<double>(c.servers) / c.workers);
        t->SetBandwidth(c.rate * 1e9 / 8 * share);
        p = t;
    }
    else if (name == "p3" || name == "p3-slicing" || name == "p3-priority")
    {
        Ptr<P3TensorOrder> t = CreateObject<P3TensorOrder>();
        t->SetSliceSize(name == "p3-priority" ? 0 : c.p3Slice);
        t->SetPriority(name != "p3-slicing");
        p = t;
    }
    else if (name == "bytescheduler" || name == "bytescheduler-tuned")
    {
        Ptr<ByteSchedulerTensorOrder> t = CreateObject<ByteSchedulerTensorOrder>();
        t->SetPartitionSize(c.bsPartition);
        t->SetCredit(c.bsCredit);
        p = t;
    }
    else
    {
        throw std::invalid_argument("unknown policy '" + name +
                                    "' (fifo, fifo-split, tic, tac, p3, p3-slicing, "
                                    "p3-priority, bytescheduler, bytescheduler-tuned)");
    }
    p->SetPriorityClasses(c.classes);
    return p;
}

/**
 * \param policy a policy name \param c settings
 * \return true if the servers serve by priority for this policy: --serverPriority, or by
 * default the policies whose paper orders the server side (TicTac orders the parameter
 * transfers, P3 changed the KVServer; ByteScheduler schedules at the worker only)
 */
bool
ServerPriority(const std::string& policy, const RunConfig& c)
{
    if (c.serverPriority >= 0)
    {
        return c.serverPriority > 0;
    }
    return policy == "tic" || policy == "tac" || policy == "p3" || policy == "p3-priority";
}

/**
 * One simulation.
 * \return the steady-state iteration times (s): the iterations after the warm-up, without the
 * last one (which also waits for its own synchronisation)
 */
std::vector<double>
RunOne(const DnnModel& m,
       const GpuProfile& g,
       const std::string& policy,
       const RunConfig& c,
       Time* compute)
{
    uint32_t hosts = c.workers + (c.colocated ? 0 : c.servers);
    uint32_t perLeaf = (hosts + c.leaves - 1) / c.leaves;
    FabricTopologyHelper th;
    std::ostringstream r;
    r << c.rate << "Gbps";
    th.SetHostLinkRate(DataRate(r.str()));
    th.SetFabricLinkRate(DataRate(r.str()));
    FabricTopology topo = th.BuildLeafSpine(c.leaves, 1, perLeaf);
    std::vector<Ptr<MessageTransport>> nics;
    if (c.backend == "flow")
    {
        // the fluid backend: the same messages as fluid flows, classes in strict priority
        FlowBackendHelper flow;
        flow.SetTransportAttribute("Mtu", UintegerValue(c.mtu));
        flow.SetTransportAttribute("AckInterval", UintegerValue(c.ackInterval));
        mlnetexamples::InstallFluidCc(flow.Install(topo), c.fluidCc, kCc);
        for (uint32_t h = 0; h < topo.hosts.GetN(); ++h)
        {
            nics.push_back(FlowBackendHelper::GetTransport(topo.hosts.Get(h)));
        }
    }
    else
    {
        RdmaHelper rdma;
        rdma.SetCongestionControl(kCc);
        rdma.SetNicAttribute("Mtu", UintegerValue(c.mtu));
        rdma.SetNicAttribute("AckInterval", UintegerValue(c.ackInterval));
        for (const auto& nic : rdma.Install(topo.hosts))
        {
            nics.push_back(nic);
        }
    }
    // servers spread over the leaves (the last host of each leaf), workers on the rest
    std::vector<Ptr<MessageTransport>> workers;
    std::vector<Ptr<MessageTransport>> servers;
    for (uint32_t i = 0; i < nics.size(); ++i)
    {
        uint32_t leaf = i / perLeaf;
        uint32_t slot = i % perLeaf;
        bool server = !c.colocated && servers.size() < c.servers && slot == perLeaf - 1 &&
                      leaf < c.servers; // one server per leaf first
        if (server)
        {
            servers.push_back(nics[i]);
        }
        else if (workers.size() < c.workers)
        {
            workers.push_back(nics[i]);
        }
    }
    for (uint32_t i = nics.size(); i-- > 0 && !c.colocated && servers.size() < c.servers;)
    {
        // more servers than leaves: take the remaining hosts from the end
        if (std::find(workers.begin(), workers.end(), nics[i]) == workers.end() &&
            std::find(servers.begin(), servers.end(), nics[i]) == servers.end())
        {
            servers.push_back(nics[i]);
        }
    }
    if (workers.size() != c.workers || (!c.colocated && servers.size() != c.servers))
    {
        throw std::logic_error("could not place workers and servers");
    }
    Ptr<DataParallelJob> job = CreateObject<DataParallelJob>();
    job->SetModel(m, g);
    job->SetAttribute("Mode", StringValue("ParameterServer"));
    job->SetAttribute("BatchSize", UintegerValue(c.batch));
    job->SetAttribute("Iterations", UintegerValue(c.iterations));
    job->SetAttribute("BytesPerParameter", UintegerValue(c.bytesPerParam));
    // FIFO posts as produced (frameworks do); TicTac and P3 enforce their order at the sender
    // by a per-channel queue in plan order (TicTac: its policy's one transfer per channel; P3:
    // --p3Depth), not by a byte window (--window adds one for P3); ByteScheduler its credit
    const bool fifo = policy.compare(0, 4, "fifo") == 0 || policy == "p3-slicing";
    const bool p3 = policy == "p3" || policy == "p3-priority";
    job->SetAttribute("MaxInflightBytes", UintegerValue(fifo ? c.fifoWindow : (p3 ? c.window : 0)));
    job->SetAttribute("OutstandingPerChannel", UintegerValue(p3 ? c.p3Depth : c.channelDepth));
    job->SetAttribute("RecordMessages", BooleanValue(false));
    job->SetAttribute("MessageOverhead", TimeValue(MicroSeconds(c.overheadUs)));
    job->SetAttribute("ServerSumRate", DataRateValue(DataRate(uint64_t(c.sumGbps * 1e9))));
    job->SetAttribute("ServerUpdateRate", DataRateValue(DataRate(uint64_t(c.updateGbps * 1e9))));
    job->SetAttribute("ServerPriority", BooleanValue(ServerPriority(policy, c)));
    // --classes > 1 splits the job's data over classes on purpose: its most urgent slices in
    // the highest data class, the others below (DataParallelJob::SliceClass); one class: the
    // default data class, as all data traffic
    job->SetAttribute("PriorityClass",
                      UintegerValue(c.classes > 1 ? DataClass::MAX : DataClass::DEFAULT));
    job->SetWorkers(workers);
    if (c.colocated)
    {
        job->SetAttribute("CoLocatedServers", BooleanValue(true));
    }
    else
    {
        job->SetServers(servers);
    }
    Ptr<TensorOrderPolicy> p = MakePolicy(policy, c);
    p->SetBytesPerParameter(c.bytesPerParam);
    job->SetTensorOrderPolicy(p);
    job->Start();
    Simulator::Stop(Seconds(1000));
    Simulator::Run();
    mlnetexamples::PrintRdmaTimeouts("tensor-priority", m.GetName() + " " + policy);
    if (!job->IsFinished())
    {
        Simulator::Destroy();
        throw std::runtime_error("job did not finish (policy " + policy + ")");
    }
    std::vector<double> iters = job->GetSteadyStateIterationSeconds(c.warmup);
    *compute = job->GetComputeTime();
    Simulator::Destroy();
    if (iters.empty())
    {
        throw std::invalid_argument("--iterations must exceed --warmup + 1");
    }
    return iters;
}

/// \param v values \param p percentile \return nearest-rank percentile
double
Percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    std::size_t k =
        std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(p / 100 * v.size())));
    return v[k - 1];
}

/// \param v values \return their mean
double
Mean(const std::vector<double>& v)
{
    double s = 0;
    for (double x : v)
    {
        s += x;
    }
    return s / v.size();
}

/**
 * ByteScheduler's auto-tuning, as a grid search over the same two-dimensional space its
 * Bayesian optimisation explores (partition size x credit), each point measured by a short run
 * (warm-up 1, 2 measured iterations; the model is deterministic, so they are steady).
 * \return the best (partition, credit) in parameters; *log gets one line per point
 */
std::pair<uint64_t, uint64_t>
TuneByteScheduler(const DnnModel& m,
                  const GpuProfile& g,
                  const RunConfig& c,
                  const std::vector<uint64_t>& partitions,
                  const std::vector<uint64_t>& credits,
                  std::ostream& log)
{
    RunConfig t = c;
    t.iterations = 4;
    t.warmup = 1;
    double best = 0;
    std::pair<uint64_t, uint64_t> arg{c.bsPartition, c.bsCredit};
    for (uint64_t part : partitions)
    {
        for (uint64_t mult : credits)
        {
            t.bsPartition = part;
            t.bsCredit = part * mult;
            Time compute;
            double iter = Mean(RunOne(m, g, "bytescheduler", t, &compute));
            log << "  search: partition " << part << " credit " << t.bsCredit << " -> "
                << std::fixed << std::setprecision(2) << iter * 1e3 << " ms\n";
            if (best == 0 || iter < best)
            {
                best = iter;
                arg = {part, t.bsCredit};
            }
        }
    }
    return arg;
}

/// \param s comma-separated unsigned integers \return them
std::vector<uint64_t>
SplitUints(const std::string& s)
{
    std::vector<uint64_t> v;
    for (const auto& x : SplitList(s))
    {
        v.push_back(std::stoull(x));
    }
    return v;
}
} // namespace

int
main(int argc, char* argv[])
{
    RunConfig c;
    std::string models = "resnet50,vgg19";
    std::string policies = "fifo,fifo-split,tic,tac,p3-slicing,p3-priority,p3,bytescheduler,"
                           "bytescheduler-tuned";
    std::string csvPath;
    std::string summaryPath;
    std::string bsPartitions = "100000,400000,1600000,6400000";
    std::string bsCredits = "1,2,4,8,16,32";
    CommandLine cmd(__FILE__);
    EventSchedulerHelper::UseDefault(cmd); // mlnet's event scheduler; --scheduler=...
    EventSchedulerHelper::UseHugePages();  // a program owns its process: huge-page heap
    cmd.AddValue("model", "Comma-separated model zoo names (vgg16, vgg19, resnet50, ...)", models);
    cmd.AddValue("policies",
                 "Comma-separated policies (fifo, fifo-split, tic, tac, p3, p3-slicing, "
                 "p3-priority, bytescheduler, bytescheduler-tuned); the first is the baseline",
                 policies);
    cmd.AddValue("gpu", "GPU profile (v100-fp32, v100-amp, a100-amp, v100, ...)", c.gpu);
    cmd.AddValue("workers", "Number of workers (>= 1)", c.workers);
    cmd.AddValue("servers",
                 "Number of parameter servers (>= 1; ignored with --colocated=1)",
                 c.servers);
    cmd.AddValue("colocated",
                 "1: a server shard on every worker host (as P3 and ByteScheduler deploy); 0: "
                 "--servers dedicated server hosts",
                 c.colocated);
    cmd.AddValue("leaves",
                 "Leaf switches of the leaf-spine (one spine at the host rate, so more than one "
                 "leaf oversubscribes the fabric; hosts spread evenly)",
                 c.leaves);
    cmd.AddValue("rate", "Host and fabric link rate in Gbit/s", c.rate);
    cmd.AddValue("batch", "Per-worker batch size", c.batch);
    cmd.AddValue("iterations", "Iterations per run (> warmup + 1)", c.iterations);
    cmd.AddValue("warmup", "Iterations left out at the start of the statistics", c.warmup);
    cmd.AddValue("mtu", "RDMA payload bytes per packet", c.mtu);
    cmd.AddValue("ackInterval", "RDMA NIC ACK coalescing (packets per ACK)", c.ackInterval);
    cmd.AddValue("bytesPerParam",
                 "Gradient bytes per parameter (4 = FP32, 2 = FP16)",
                 c.bytesPerParam);
    cmd.AddValue("overhead",
                 "Framework CPU time per PS message at each end, us (DataParallelJob "
                 "MessageOverhead; 0 = ideal host)",
                 c.overheadUs);
    cmd.AddValue("sumRate",
                 "Server summation rate, Gbit/s (ServerSumRate; 0 = instantaneous)",
                 c.sumGbps);
    cmd.AddValue("updateRate",
                 "Server update (apply) rate, Gbit/s (ServerUpdateRate; 0 = instantaneous)",
                 c.updateGbps);
    cmd.AddValue("serverPriority",
                 "Servers serve pushes and pulls by priority: 1 on, 0 off, -1 = per policy "
                 "(on for tic, tac, p3, p3-priority)",
                 c.serverPriority);
    cmd.AddValue("channelDepth",
                 "Messages in flight per channel for the policies other than P3 (0 = the "
                 "policy's: TicTac 1, others no limit)",
                 c.channelDepth);
    cmd.AddValue("window",
                 "Bytes in flight per worker for P3 and P3-priority on top of --p3Depth (0 = "
                 "no byte window)",
                 c.window);
    cmd.AddValue("p3Depth",
                 "P3 and P3-priority: messages in flight per channel, the rest queued by "
                 "priority at the sender (>= 1)",
                 c.p3Depth);
    cmd.AddValue("fifoWindow",
                 "The same for FIFO, FIFO-split and P3-slicing (0 = unlimited: posted as "
                 "produced, as frameworks do)",
                 c.fifoWindow);
    cmd.AddValue("bigArrayBound",
                 "FIFO-split: tensors above this many parameters are split over the servers",
                 c.bigArrayBound);
    cmd.AddValue("classes",
                 "Network priority classes the policies' priorities map onto",
                 c.classes);
    cmd.AddValue("p3Slice", "P3 slice size (parameters)", c.p3Slice);
    cmd.AddValue("bsPartition", "ByteScheduler partition size (parameters)", c.bsPartition);
    cmd.AddValue("bsCredit", "ByteScheduler credit (parameters)", c.bsCredit);
    cmd.AddValue("bsPartitions",
                 "bytescheduler-tuned: partition sizes searched (parameters)",
                 bsPartitions);
    cmd.AddValue("bsCredits",
                 "bytescheduler-tuned: credits searched, as multiples of the partition size",
                 bsCredits);
    cmd.AddValue("csv", "Write every steady-state iteration to this CSV file", csvPath);
    cmd.AddValue("summaryCsv", "Write the summary table to this CSV file", summaryPath);
    cmd.AddValue("backend",
                 "packet (RDMA NICs with DCQCN, the default) or flow (the fluid backend: the "
                 "policies' classes in strict priority on fluid flows, DCQCN at flow level "
                 "with --fluid-cc)",
                 c.backend);
    cmd.AddValue("fluid-cc", mlnetexamples::kFluidCcHelp, c.fluidCc);
    cmd.Parse(argc, argv);
    try
    {
        if (c.backend != "packet" && c.backend != "flow")
        {
            throw std::invalid_argument("--backend=" + c.backend +
                                        " is out of range (must be packet or flow)");
        }
        c.fluidCc = mlnetexamples::FluidCc(c.fluidCc, kCc);
        if (c.workers < 1 || c.servers < 1 || c.leaves < 1 || c.iterations < c.warmup + 2)
        {
            throw std::invalid_argument("--workers, --servers and --leaves must be >= 1 and "
                                        "--iterations >= --warmup + 2");
        }
        if (c.p3Depth < 1)
        {
            throw std::invalid_argument("--p3Depth must be >= 1");
        }
        if (c.rate <= 0 || c.overheadUs < 0 || c.overheadUs > 1e6 || c.sumGbps < 0 ||
            c.updateGbps < 0)
        {
            throw std::invalid_argument("--rate must be > 0, --overhead in [0, 1e6] us, "
                                        "--sumRate and --updateRate >= 0");
        }
        if (c.colocated)
        {
            c.servers = c.workers;
        }
        GpuProfile g = GpuProfile::Get(c.gpu);
        std::vector<std::string> pol = SplitList(policies);
        if (pol.empty())
        {
            throw std::invalid_argument("--policies is empty");
        }
        for (const auto& p : pol)
        {
            MakePolicy(p, c); // validate the names before the first run
        }
        const auto partitions = SplitUints(bsPartitions);
        const auto credits = SplitUints(bsCredits);
        if (partitions.empty() || credits.empty() ||
            std::count(partitions.begin(), partitions.end(), 0) ||
            std::count(credits.begin(), credits.end(), 0))
        {
            throw std::invalid_argument("--bsPartitions and --bsCredits must list values >= 1");
        }
        std::ofstream csv;
        std::ofstream summary;
        if (!csvPath.empty())
        {
            csv.open(csvPath);
            csv << "model,gbps,workers,servers,colocated,policy,iteration,seconds\n";
        }
        if (!summaryPath.empty())
        {
            summary.open(summaryPath);
            summary << "model,gbps,workers,servers,colocated,policy,name,mean_ms,p50_ms,p99_ms,"
                       "samples_per_s,speedup_vs_first,speedup_vs_fifo_split,partition,credit\n";
        }
        std::cout << c.workers << " workers, " << c.servers
                  << (c.colocated ? " co-located" : " dedicated") << " server(s), " << c.rate
                  << " Gbit/s, gpu " << c.gpu << ", batch " << c.batch << ", " << c.iterations
                  << " iterations (warm-up " << c.warmup << "), overhead " << c.overheadUs
                  << " us/message, server sum " << c.sumGbps << " Gbit/s, update " << c.updateGbps
                  << " Gbit/s, P3 " << c.p3Depth << " per channel + window " << c.window << " B, "
                  << c.classes << " priority class(es), " << c.backend << " level"
                  << (c.backend == "flow" ? " (fluid cc " + c.fluidCc + ")" : "") << "\n";
        for (const auto& name : SplitList(models))
        {
            DnnModel m = ModelZoo::Get(name);
            std::cout << "\nmodel " << name << " (" << m.GetParameterCount() << " parameters, "
                      << m.GetParameterBytes(c.bytesPerParam) / 1e6 << " MB of gradients)\n";
            std::vector<std::vector<double>> iters;
            std::vector<std::pair<uint64_t, uint64_t>> bs(pol.size(), {0, 0});
            Time compute;
            for (std::size_t i = 0; i < pol.size(); ++i)
            {
                RunConfig rc = c;
                if (pol[i] == "bytescheduler-tuned")
                {
                    bs[i] = TuneByteScheduler(m, g, c, partitions, credits, std::cout);
                    rc.bsPartition = bs[i].first;
                    rc.bsCredit = bs[i].second;
                    std::cout << "  tuned: partition " << rc.bsPartition << ", credit "
                              << rc.bsCredit << " parameters\n";
                }
                else if (pol[i] == "bytescheduler")
                {
                    bs[i] = {c.bsPartition, c.bsCredit};
                }
                iters.push_back(RunOne(m, g, pol[i], rc, &compute));
                for (std::size_t k = 0; k < iters.back().size() && csv.is_open(); ++k)
                {
                    csv << name << "," << c.rate << "," << c.workers << "," << c.servers << ","
                        << c.colocated << "," << pol[i] << "," << c.warmup + k << ","
                        << iters.back()[k] << "\n";
                }
            }
            double split = 0;
            for (std::size_t i = 0; i < pol.size(); ++i)
            {
                split = pol[i] == "fifo-split" ? Mean(iters[i]) : split;
            }
            std::cout << "compute (forward + backward) " << std::fixed << std::setprecision(2)
                      << compute.GetSeconds() * 1e3 << " ms\n";
            std::cout << std::left << std::setw(20) << "policy" << std::right << std::setw(10)
                      << "mean(ms)" << std::setw(10) << "p50(ms)" << std::setw(10) << "p99(ms)"
                      << std::setw(12) << "samples/s" << std::setw(11) << "vs first"
                      << (split > 0 ? "  vs FIFO-split" : "") << "\n";
            const double first = Mean(iters[0]);
            for (std::size_t i = 0; i < pol.size(); ++i)
            {
                const double mean = Mean(iters[i]);
                const double tput = c.workers * c.batch / mean;
                std::string label = MakePolicy(pol[i], c)->GetName();
                label = pol[i] == "bytescheduler-tuned" ? "ByteScheduler-tuned" : label;
                std::cout << std::left << std::setw(20) << label << std::right << std::fixed
                          << std::setprecision(2) << std::setw(10) << mean * 1e3 << std::setw(10)
                          << Percentile(iters[i], 50) * 1e3 << std::setw(10)
                          << Percentile(iters[i], 99) * 1e3 << std::setprecision(1) << std::setw(12)
                          << tput << std::showpos << std::setw(10) << (first / mean - 1) * 100
                          << "%";
                if (split > 0)
                {
                    std::cout << std::setw(14) << (split / mean - 1) * 100 << "%";
                }
                std::cout << std::noshowpos << "\n";
                if (summary.is_open())
                {
                    summary << name << "," << c.rate << "," << c.workers << "," << c.servers << ","
                            << c.colocated << "," << pol[i] << "," << label << "," << mean * 1e3
                            << "," << Percentile(iters[i], 50) * 1e3 << ","
                            << Percentile(iters[i], 99) * 1e3 << "," << tput << ","
                            << (first / mean - 1) << "," << (split > 0 ? split / mean - 1 : 0)
                            << "," << bs[i].first << "," << bs[i].second << "\n";
                }
            }
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "tensor-priority: error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
