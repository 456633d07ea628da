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

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <algorithm>
#include <array>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

const std::vector<std::string> kModels =
    {"vgg16", "alexnet", "resnet152", "inception_v3", "googlenet", "resnet50"};
const std::vector<std::string> kSchemes = {"ring", "switchml", "switchml-lb", "panama", "ideal"};

struct Options
{
    uint32_t k{4};
    std::string backend{"packet"}; //!< packet, or flow (doc/flow-backend.rst)
    std::string rate{"100Gbps"};
    std::string gpu{"v100-amp"}; //!< calibrated: V100 + AMP, the GPU of PANAMA's time (2020-21)
    uint32_t batch{32};
    uint32_t workers{4};
    double scale{1}; //!< below 1: a smoke test (per-step latencies are not scaled)
    double shortLoad{0.01};
    double longLoad{0.1};
    uint32_t trees{0};
    uint32_t switchmlSlots{256};
    uint64_t fusionBytes{64 * 1048576};
    std::string panamaCc{"dcqcn"};
    std::string dcqcn{"paper"}; //!< DCQCN of every RDMA QP and of PANAMA's reaction point
    std::string traceRing;      //!< directory for the ring QPs' diagnostic traces ("" = none)
    std::string traceTag;       //!< run name in those traces (mode-dcqcn-load-seed)
    Time duration{MilliSeconds(20)};
    Time warmup{MilliSeconds(4)};
    bool fixed{false};                 //!< fixed-load mode: MinIterationPeriod of every job
    std::string passThrough{"bypass"}; //!< PANAMA device output: bypass or shared
    std::string ringOrder{"random"};   //!< ring order of a job's workers: random or rack
    std::string placement{"random"};   //!< a job's hosts: random, or packed (lowest free)
    std::string portsCsv;              //!< --out: per-port utilisation file ("" = none)
    std::string runTag;                //!< mode,k,load,seed of the run (ports.csv)
    uint32_t minIterations{0};         //!< stop once every job measured this many (0 = --duration)
    uint32_t warmupIterations{2};      //!< first iterations of every job not measured
    std::vector<std::string> models{kModels}; //!< models jobs are drawn from (--models)
};

/// A model scaled down: parameters and per-layer compute times times `scale`.
DnnModel
Scaled(const std::string& name, const GpuProfile& gpu, uint32_t batch, double scale)
{
    DnnModel m = ModelZoo::Get(name);
    std::vector<LayerTiming> t = gpu.GetLayerTimings(m, batch);
    std::ostringstream csv;
    csv << "name,parameters,forward_us,backward_us\n";
    for (std::size_t i = 0; i < m.GetNLayers(); ++i)
    {
        const LayerSpec& l = m.GetLayer(i);
        uint64_t p = l.parameters == 0 ? 0 : std::max<uint64_t>(1, uint64_t(l.parameters * scale));
        csv << "l" << i << "," << p << "," << t[i].forwardSeconds * 1e6 * scale << ","
            << t[i].backwardSeconds * 1e6 * scale << "\n";
    }
    std::istringstream in(csv.str());
    return DnnModel::FromCsv(in, name);
}

struct JobPlan
{
    std::string model;
    std::vector<uint32_t> hosts;
    double load{0};     //!< this job's share of the aggregation load
    double gradBits{0}; //!< gradient bits per worker per iteration (scaled)
    double computeS{0}; //!< compute time per iteration (scaled), s
    double periodS{0};  //!< fixed-load mode: iteration period, s (0 = free-running)
    SyncBound bound;    //!< idle-network bound of ring vs in-network aggregation
};

/// Payload / wire bytes of a full packet: ring (RoCEv2 data packet of Mtu 1000 B) and
/// aggregation (256 elements of 4 B); 38 B of Ethernet framing each.
constexpr double kFrameOverhead = 38;

double
RingPayloadFraction()
{
    return 1000.0 / (1000.0 + RoceV2Header().GetSerializedSize() + kFrameOverhead);
}

double
AggPayloadFraction()
{
    return 1024.0 / (AggregationStackHeader::kSize + 1024.0 + kFrameOverhead);
}

/// Fills gradBits and computeS of a job (the scaled model's gradient and compute time).
void
Describe(const Options& o, JobPlan& j)
{
    GpuProfile gpu = GpuProfile::Get(o.gpu);
    DnnModel m = ModelZoo::Get(j.model);
    j.computeS = (gpu.GetForwardTime(m, o.batch) + gpu.GetBackwardTime(m, o.batch)) * o.scale;
    j.gradBits = m.GetParameterBytes() * 8.0 * o.scale;
    SyncBoundInput in;
    in.forwardS = gpu.GetForwardTime(m, o.batch) * o.scale;
    in.backwardS = gpu.GetBackwardTime(m, o.batch) * o.scale;
    in.gradientBytes = j.gradBits / 8;
    in.workers = o.workers;
    in.linkBps = double(DataRate(o.rate).GetBitRate());
    in.ringPayloadFraction = RingPayloadFraction();
    in.aggPayloadFraction = AggPayloadFraction();
    in.minPeriodS = j.periodS;
    j.bound = RingVsAggregationBound(in);
}

/// --ring-order=rack: the workers in rack order (RackOrderedRing: sorted by host, i.e. by
/// rack and pod), so a ring enters and leaves each pod it visits once.
void
OrderRing(const Options& o, JobPlan& j)
{
    if (o.ringOrder == "rack")
    {
        j.hosts = RackOrderedRing(j.hosts, o.k);
    }
}

/// Draws jobs (a model and o.workers hosts not yet taken each): the same sequence for a seed.
struct JobDrawer
{
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    std::vector<uint32_t> free; //!< hosts not yet taken

    explicit JobDrawer(uint32_t hosts)
        : free(hosts)
    {
        u->SetStream(7);
        std::iota(free.begin(), free.end(), 0);
    }

    JobPlan Draw(const Options& o)
    {
        JobPlan j;
        j.model = o.models[u->GetInteger(0, o.models.size() - 1)];
        for (uint32_t w = 0; w < o.workers; ++w)
        {
            uint32_t pick = u->GetInteger(0, free.size() - 1);
            // --placement=packed: the lowest free host (racks and pods filled in order); the
            // draw is made anyway so that the models are the same as with random placement.
            pick = o.placement == "packed" ? 0 : pick;
            j.hosts.push_back(free[pick]);
            free.erase(free.begin() + pick);
        }
        OrderRing(o, j);
        Describe(o, j);
        return j;
    }
};

/**
 * Fixed-load mode: every host is a worker (hosts / workers jobs, models drawn as in PlanJobs)
 * and every job's iteration period is gradient bits / (load x link rate), so each worker offers
 * exactly `load` of its link in gradient bytes, whatever the scheme. The period is never below
 * the job's compute time (such a job offers less, for every scheme alike).
 */
std::vector<JobPlan>
PlanFixed(const Options& o, double load, uint32_t hosts, double rateBps)
{
    JobDrawer draw(hosts);
    std::vector<JobPlan> jobs;
    while (draw.free.size() >= o.workers)
    {
        JobPlan j = draw.Draw(o);
        // A model whose compute time is longer than the period offers what it can (its
        // iteration rate is then capped by compute alone, the same for every scheme).
        j.periodS = std::max(j.computeS, j.gradBits / (load * rateBps));
        Describe(o, j); // the bound with the period
        j.load = j.gradBits / (j.periodS * rateBps) * o.workers / hosts;
        jobs.push_back(j);
    }
    return jobs;
}

/// Jobs and placement for a load: deterministic for a seed (RngRun).
std::vector<JobPlan>
PlanJobs(const Options& o, double load, uint32_t hosts, double rateBps)
{
    JobDrawer draw(hosts);
    std::vector<JobPlan> jobs;
    double offered = 0;
    GpuProfile gpu = GpuProfile::Get(o.gpu);
    while (offered < load * hosts)
    {
        if (draw.free.size() < o.workers)
        {
            std::ostringstream os;
            os << "--loads: " << load << " needs more than the " << hosts << " hosts (reached "
               << offered / hosts << " with every host a worker); use fewer, a faster --gpu or "
               << "smaller loads";
            throw std::invalid_argument(os.str());
        }
        JobPlan j = draw.Draw(o);
        DnnModel m = ModelZoo::Get(j.model);
        double compute = gpu.GetForwardTime(m, o.batch) + gpu.GetBackwardTime(m, o.batch);
        double perWorker = std::min(1.0, m.GetParameterBytes() * 8.0 / (compute * rateBps));
        j.load = perWorker * o.workers / hosts;
        offered += perWorker * o.workers;
        jobs.push_back(j);
    }
    return jobs;
}

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

struct RunResult
{
    std::vector<double> jobMeanIter;         //!< per job: mean steady-state iteration time (s)
    std::vector<std::vector<double>> iters;  //!< per job: steady-state iteration times (s)
    std::vector<std::vector<double>> busy;   //!< per job: the same from the actual start (s)
    std::vector<std::vector<double>> starts; //!< per job: measured iterations' start times (s)
    double gradLoad{0}; //!< gradient bits moved per second / (hosts x link rate), measured
    double end{0};      //!< simulated time when the run stopped (s)
    std::vector<double> shortFct; //!< s
    std::vector<double> longFct;  //!< s
    std::vector<uint64_t> longBytes;
    uint64_t pauses{0};
    uint64_t drops{0};
    double wall{0};
    double cpu{0}; //!< CPU time of the run (s): the cost on a shared machine
    uint64_t results{0};
    uint64_t marked{0};
    uint64_t timeouts{0};
    std::vector<std::pair<uint64_t, std::string>> maxQueues; //!< largest egress queues
    /// per switch port: switch,tier,port,dir,far,tx_bytes,util,max_queue_bytes,pauses,ecn_marks
    std::vector<std::string> ports;
};

/**
 * Diagnostic of the ring scheme (--trace-ring): every queue pair of the hosts is picked up
 * within 2 us of its creation (a scan of the NICs: the collective creates its queue pairs on
 * first use) and its DCQCN rate, target rate and completed messages are recorded. After the
 * run, the queue pairs that carried a message of a size no background flow has are the ring's.
 */
struct QpTracer
{
    struct Qp
    {
        uint32_t host{0};
        uint32_t peer{0};
        Ptr<RdmaQueuePair> qp;
        std::vector<std::array<double, 3>> rates; //!< time, rate, target (bit/s)
        std::vector<std::array<double, 3>> msgs;  //!< bytes, posted, done (s)
        double lastRate{0};
        double lastTarget{0};
    };

    std::vector<Ptr<RdmaNic>> nics;
    std::map<uint32_t, uint32_t> hostOf; //!< address -> host index
    std::vector<std::unique_ptr<Qp>> qps;
    std::vector<uint32_t> seen; //!< per NIC: queue pairs picked up

    static void OnRate(Qp* q, double rate)
    {
        q->lastRate = rate;
        q->rates.push_back({Simulator::Now().GetSeconds(), rate, q->lastTarget});
    }

    static void OnTarget(Qp* q, double target)
    {
        q->lastTarget = target;
        q->rates.push_back({Simulator::Now().GetSeconds(), q->lastRate, target});
    }

    static void OnMsg(Qp* q, uint64_t, uint64_t bytes, Time posted, Time done)
    {
        q->msgs.push_back({double(bytes), posted.GetSeconds(), done.GetSeconds()});
    }

    void Scan()
    {
        for (uint32_t h = 0; h < nics.size(); ++h)
        {
            for (; seen[h] < nics[h]->GetNQueuePairs(); ++seen[h])
            {
                auto q = std::make_unique<Qp>();
                q->host = h;
                q->qp = nics[h]->GetQueuePair(seen[h]);
                q->peer = hostOf[q->qp->GetPeer().Get()];
                q->lastRate = q->qp->GetCcState().rate;
                q->lastTarget = q->qp->GetCcState().targetRate;
                q->rates.push_back({Simulator::Now().GetSeconds(), q->lastRate, q->lastTarget});
                q->qp->TraceConnectWithoutContext("Rate", MakeBoundCallback(&OnRate, q.get()));
                q->qp->TraceConnectWithoutContext("TargetRate",
                                                  MakeBoundCallback(&OnTarget, q.get()));
                q->qp->TraceConnectWithoutContext("MessageComplete",
                                                  MakeBoundCallback(&OnMsg, q.get()));
                qps.push_back(std::move(q));
            }
        }
        Simulator::Schedule(MicroSeconds(2), &QpTracer::Scan, this);
    }

    void Start(const std::vector<Ptr<RdmaNic>>& n)
    {
        nics = n;
        seen.assign(n.size(), 0);
        for (uint32_t h = 0; h < n.size(); ++h)
        {
            hostOf[n[h]->GetDevice()->GetIpv4Address().Get()] = h;
        }
        Scan();
    }

    /// Appends the ring's queue pairs to DIR/ring-qps.csv, ring-rates.csv, ring-msgs.csv.
    void Write(const std::string& dir,
               const std::string& tag,
               const std::set<uint64_t>& bgSizes,
               double lineRate) const
    {
        std::filesystem::create_directories(dir);
        const bool fresh = !std::filesystem::exists(dir + "/ring-qps.csv");
        std::ofstream qf(dir + "/ring-qps.csv", std::ios::app);
        std::ofstream rf(dir + "/ring-rates.csv", std::ios::app);
        std::ofstream mf(dir + "/ring-msgs.csv", std::ios::app);
        if (fresh)
        {
            qf << "run,host,peer,qpn,cnps,tx_bytes,messages,busy_s,mean_rate_busy_bps,"
                  "time_below_half_busy_s,min_rate_bps,end_rate_bps,end_target_bps\n";
            rf << "run,host,peer,qpn,t_s,rate_bps,target_bps\n";
            mf << "run,host,peer,qpn,index,bytes,posted_s,done_s\n";
        }
        for (const auto& q : qps)
        {
            bool ring = !q->msgs.empty();
            for (const auto& m : q->msgs)
            {
                ring = ring && !bgSizes.count(uint64_t(m[0]));
            }
            if (!ring)
            {
                continue;
            }
            // the rate while the queue pair has a message outstanding (messages on one queue
            // pair complete in order; the collective posts one message per step)
            double busy = 0;
            double rateTime = 0;
            double below = 0;
            double minRate = lineRate;
            for (const auto& m : q->msgs)
            {
                busy += m[2] - m[1];
                double t = m[1];
                double rate = q->rates.front()[1];
                for (const auto& r : q->rates)
                {
                    if (r[0] <= m[1])
                    {
                        rate = r[1];
                        continue;
                    }
                    if (r[0] >= m[2])
                    {
                        break;
                    }
                    rateTime += rate * (r[0] - t);
                    below += rate < lineRate / 2 ? r[0] - t : 0;
                    minRate = std::min(minRate, rate);
                    t = r[0];
                    rate = r[1];
                }
                rateTime += rate * (m[2] - t);
                below += rate < lineRate / 2 ? m[2] - t : 0;
                minRate = std::min(minRate, rate);
            }
            qf << tag << "," << q->host << "," << q->peer << "," << q->qp->GetQpn() << ","
               << q->qp->GetCnpsReceived() << "," << q->qp->GetTxBytes() << "," << q->msgs.size()
               << "," << busy << "," << (busy > 0 ? rateTime / busy : 0) << "," << below << ","
               << minRate << "," << q->lastRate << "," << q->lastTarget << "\n";
            for (const auto& r : q->rates)
            {
                rf << tag << "," << q->host << "," << q->peer << "," << q->qp->GetQpn() << ","
                   << r[0] << "," << r[1] << "," << r[2] << "\n";
            }
            for (std::size_t i = 0; i < q->msgs.size(); ++i)
            {
                mf << tag << "," << q->host << "," << q->peer << "," << q->qp->GetQpn() << "," << i
                   << "," << q->msgs[i][0] << "," << q->msgs[i][1] << "," << q->msgs[i][2] << "\n";
            }
        }
    }
};

RunResult
RunOne(const Options& o, const std::string& scheme, const std::vector<JobPlan>& plan)
{
    auto wall0 = std::chrono::steady_clock::now();
    const std::clock_t cpu0 = std::clock();
    FabricTopologyHelper th;
    th.SetHostLinkRate(DataRate(o.rate));
    th.SetFabricLinkRate(DataRate(o.rate));
    FabricTopology t = th.BuildFatTree(o.k);
    // --dcqcn: the same DCQCN for every RDMA queue pair (ring, background flows) and for
    // PANAMA's / ideal's reaction point (AggregationDcqcn)
    // (none: the RDMA queue pairs send at line rate, PFC only; a diagnostic)
    const std::string dcqcnType = o.dcqcn == "vendor" ? "ns3::DcqcnVendor" : "ns3::Dcqcn";
    const bool flow = o.backend == "flow";
    std::vector<Ptr<MessageTransport>> nics;
    if (!flow)
    {
        RdmaHelper rdma;
        rdma.SetCongestionControl(o.dcqcn == "none" ? "ns3::RdmaFixedRate" : dcqcnType);
        for (const Ptr<RdmaNic>& nic : rdma.Install(t.hosts))
        {
            nics.push_back(nic);
        }
    }
    const double rateBps = double(DataRate(o.rate).GetBitRate());
    const uint32_t trees = o.trees ? o.trees : (o.k / 2) * (o.k / 2);

    AggregationHelper agg;
    agg.SetEngineAttribute("MaxJobs", UintegerValue(256));
    if (o.dcqcn == "vendor")
    {
        ObjectFactory reactionPoint;
        reactionPoint.SetTypeId(dcqcnType);
        agg.SetReactionPoint(reactionPoint);
    }
    if (scheme == "panama")
    {
        agg.SetCongestionControl(o.panamaCc == "dctcp" ? "ns3::AggregationDctcp"
                                                       : "ns3::AggregationDcqcn");
        agg.SetDeviceAttribute("PassThroughPath",
                               EnumValue(o.passThrough == "shared" ? AggregationDevice::SHARED_FIFO
                                                                   : AggregationDevice::BYPASS));
        agg.InstallDevices(t.edge, "up");
        agg.InstallDevices(t.agg, "up");
        agg.InstallDevices(t.core, "all");
    }
    else if (scheme == "switchml" || scheme == "switchml-lb")
    {
        agg.SetCongestionControl("ns3::AggregationFixedWindow");
        agg.SetMaxSlots(o.switchmlSlots);
        agg.SetWorkerAttribute("ElementType", EnumValue(AggElementType::INT32));
        agg.SetTimingAttribute("ElementType", EnumValue(AggElementType::INT32));
        agg.InstallInSwitch(t.switches);
    }
    else if (scheme == "ideal")
    {
        agg.SetEngineAttribute("BufferBytesPerJob", UintegerValue(uint64_t(1) << 30));
        agg.InstallInSwitch(t.switches);
    }
    // Flow level: the fluid fabric over the network with its aggregation points, a
    // FluidTransport per host (congestion control, PFC and the devices' buffers have no
    // effect there).
    Ptr<FluidFabric> fabric;
    if (flow)
    {
        fabric = FlowBackendHelper().Install(t);
        std::vector<uint32_t> all(t.hosts.GetN());
        std::iota(all.begin(), all.end(), 0);
        nics = FlowBackendHelper::Transports(t, all);
    }
    GpuProfile gpu = GpuProfile::Get(o.gpu);
    std::vector<Ptr<DataParallelJob>> jobs;
    std::vector<Ptr<InNetworkAggregator>> aggs;
    // Steady state: stop once every job has --min-iterations measured iterations (those after
    // the first --warmup-iterations that start after --warmup), or at --duration.
    std::vector<uint32_t> measured(plan.size(), 0);
    uint32_t jobsDone = 0;
    auto onIteration = [&](uint32_t j, const IterationRecord& rec) {
        if (rec.iteration >= o.warmupIterations && rec.start >= o.warmup &&
            ++measured[j] == o.minIterations && ++jobsDone == plan.size())
        {
            Simulator::Stop();
        }
    };
    for (std::size_t j = 0; j < plan.size(); ++j)
    {
        Ptr<DataParallelJob> job = CreateObject<DataParallelJob>();
        // Fixed-load mode: iteration i starts no earlier than one period after i-1 started
        // (records then span the idle time; BusyTime() is the time from the actual start).
        job->SetAttribute("MinIterationPeriod", TimeValue(Seconds(plan[j].periodS)));
        if (o.minIterations > 0)
        {
            const uint32_t id = j;
            job->TraceConnectWithoutContext(
                "IterationEnd",
                Callback<void, const IterationRecord&>(
                    [&onIteration, id](const IterationRecord& rec) { onIteration(id, rec); }));
        }
        job->SetAttribute("JobName", StringValue(plan[j].model));
        job->SetAttribute("JobId", UintegerValue(j));
        job->SetAttribute("Iterations", UintegerValue(0));
        job->SetAttribute("BatchSize", UintegerValue(o.batch));
        job->SetModel(Scaled(plan[j].model, gpu, o.batch, o.scale), gpu);
        std::vector<Ptr<MessageTransport>> w;
        NodeContainer nodes;
        for (uint32_t h : plan[j].hosts)
        {
            w.push_back(nics[h]);
            nodes.Add(t.hosts.Get(h));
        }
        job->SetWorkers(w);
        if (scheme == "ring")
        {
            job->SetAttribute("FusionBytes", UintegerValue(o.fusionBytes));
        }
        else
        {
            uint32_t treesOf = scheme == "switchml" ? 1 : trees;
            // SwitchML: --switchml-slots per tree, or fewer when the trees of a job striped
            // over one switch would not fit its BufferBytesPerJob (the pool is split, not
            // grown: at k=8, 16 trees of 64 slots in 2 MiB).
            uint32_t slots = 0;
            job->SetAttribute("Mode", EnumValue(DataParallelJob::AGGREGATOR));
            if (flow)
            {
                job->SetAggregator(agg.InstallFluidJob(nodes, uint16_t(j), treesOf, fabric));
            }
            else
            {
                Ptr<InNetworkAggregator> a = agg.InstallJob(nodes, uint16_t(j), treesOf, slots);
                aggs.push_back(a);
                job->SetAggregator(a);
            }
        }
        job->Start();
        jobs.push_back(job);
    }
    // Non-aggregation traffic from every host to every other host.
    std::vector<Ptr<BackgroundTraffic>> bg;
    const double mb = 1e6;
    for (int kind = 0; kind < 2; ++kind)
    {
        double load = kind == 0 ? o.shortLoad : o.longLoad;
        if (load <= 0)
        {
            bg.push_back(nullptr);
            continue;
        }
        Ptr<BackgroundTraffic> b = CreateObject<BackgroundTraffic>();
        b->SetAttribute("Load", DoubleValue(load));
        b->SetAttribute("LinkRate", DataRateValue(DataRate(o.rate)));
        // No PriorityClass: every source (jobs, their collectives and aggregation packets, and
        // this traffic) sends in the default data class (DataClass::DEFAULT), so sharing is
        // decided by congestion control alone.
        b->SetHosts(nics, nics);
        if (kind == 0)
        {
            b->SetFlowSizeCdf(FlowSizeCdf({{7000, 0}, {7000, 1}}));
        }
        else
        {
            double a = 40 * mb * o.scale;
            double c = 1100 * mb * o.scale;
            b->SetFlowSizeCdf(FlowSizeCdf({{a, 0}, {a, 0.5}, {c, 0.5}, {c, 1}}));
        }
        b->AssignStreams(100 + 10 * kind);
        b->Start();
        bg.push_back(b);
    }
    // Link utilisation after the warm-up: every switch port's bytes at --warmup.
    // (flow level: the port's fluid link's bytes, counted as the IPv4 bytes of full RDMA
    // frames, 1044 of 1082 wire bytes, as mlnet-run's ports.csv counts them)
    auto txBytesOf = [fabric](Ptr<FabricSwitch> sw, uint32_t p) -> uint64_t {
        if (!fabric)
        {
            return sw->GetPortStats(p).txBytes;
        }
        const int64_t link = fabric->GetLink(sw->GetPort(p));
        fabric->GetNetwork()->Advance();
        return link < 0
                   ? 0
                   : uint64_t(fabric->GetNetwork()->GetLinkBytes(uint32_t(link)) * 1044.0 / 1082.0);
    };
    std::vector<std::vector<uint64_t>> txAtWarmup(t.switches.GetN());
    Simulator::Schedule(o.warmup, [&t, &txAtWarmup, &txBytesOf]() {
        for (uint32_t s = 0; s < t.switches.GetN(); ++s)
        {
            Ptr<FabricSwitch> sw = t.switches.Get(s)->GetObject<FabricSwitch>();
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                txAtWarmup[s].push_back(txBytesOf(sw, p));
            }
        }
    });
    QpTracer tracer;
    if (!o.traceRing.empty() && scheme == "ring" && !flow)
    {
        std::vector<Ptr<RdmaNic>> rdmaNics;
        for (const auto& n : nics)
        {
            rdmaNics.push_back(DynamicCast<RdmaNic>(n));
        }
        tracer.Start(rdmaNics);
    }
    Simulator::Stop(o.duration);
    Simulator::Run();

    RunResult r;
    r.end = Simulator::Now().GetSeconds();
    for (const auto& a : aggs)
    {
        for (const auto& w : a->GetWorkers())
        {
            r.results += w->GetStats().results;
            r.marked += w->GetStats().markedResults;
            r.timeouts += w->GetStats().timeouts;
        }
    }
    double gradBps = 0;
    for (std::size_t j = 0; j < jobs.size(); ++j)
    {
        std::vector<double> it;
        std::vector<double> busy;
        std::vector<double> st;
        const auto& recs = jobs[j]->GetIterationRecords();
        for (const auto& rec : recs)
        {
            if (rec.iteration >= o.warmupIterations && rec.start >= o.warmup)
            {
                it.push_back(rec.Duration().GetSeconds());
                busy.push_back(rec.BusyTime().GetSeconds());
                st.push_back(rec.start.GetSeconds());
            }
        }
        r.iters.push_back(it);
        r.busy.push_back(busy);
        r.starts.push_back(st);
        r.jobMeanIter.push_back(Mean(it));
        if (!it.empty())
        {
            gradBps += plan[j].gradBits * plan[j].hosts.size() / Mean(it);
        }
    }
    r.gradLoad = gradBps / (rateBps * t.hosts.GetN());
    for (int kind = 0; kind < 2; ++kind)
    {
        if (!bg[kind])
        {
            continue;
        }
        for (const auto& f : bg[kind]->GetFlowRecords())
        {
            if (f.posted >= o.warmup)
            {
                (kind == 0 ? r.shortFct : r.longFct).push_back(f.Fct().GetSeconds());
                if (kind == 1)
                {
                    r.longBytes.push_back(f.bytes);
                }
            }
        }
    }
    for (uint32_t s = 0; s < t.switches.GetN(); ++s)
    {
        Ptr<FabricSwitch> sw = t.switches.Get(s)->GetObject<FabricSwitch>();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            r.pauses += sw->GetPortStats(p).pauseSent;
            r.drops += sw->GetPortStats(p).drops;
            std::string tier =
                s < t.edge.GetN() ? "edge" : (s < t.edge.GetN() + t.agg.GetN() ? "agg" : "core");
            Ptr<FabricNetDevice> far = FabricHelper::GetFarPeer(sw->GetPort(p));
            bool toHost = far && !far->GetNode()->GetObject<FabricSwitch>();
            r.maxQueues.emplace_back(sw->GetPortStats(p).maxQueueBytes,
                                     tier + std::to_string(s) + "." + std::to_string(p) +
                                         (toHost ? "->host" : "->sw"));
            // Up: edge -> aggregation, aggregation -> core (a pod's uplinks); down otherwise.
            const uint32_t farId = far ? far->GetNode()->GetId() : 0;
            auto in = [farId](const NodeContainer& c) {
                for (uint32_t i = 0; i < c.GetN(); ++i)
                {
                    if (c.Get(i)->GetId() == farId)
                    {
                        return true;
                    }
                }
                return false;
            };
            const char* farTier =
                toHost ? "host" : (in(t.edge) ? "edge" : (in(t.agg) ? "agg" : "core"));
            const bool up = (tier == "edge" && std::string(farTier) == "agg") ||
                            (tier == "agg" && std::string(farTier) == "core");
            const SwitchPortStats& ps = sw->GetPortStats(p);
            const uint64_t since = p < txAtWarmup[s].size() ? txAtWarmup[s][p] : 0;
            const uint64_t tx = txBytesOf(sw, p);
            const double span = r.end - o.warmup.GetSeconds();
            std::ostringstream row;
            row << s << "," << tier << "," << p << "," << (up ? "up" : "down") << "," << farTier
                << farId << "," << tx - since << ","
                << (span > 0 ? (tx - since) * 8.0 / (span * rateBps) : 0) << "," << ps.maxQueueBytes
                << "," << ps.pauseSent << "," << ps.ecnMarks;
            r.ports.push_back(row.str());
        }
    }
    if (!o.traceRing.empty() && scheme == "ring")
    {
        std::set<uint64_t> bgSizes;
        for (const auto& b : bg)
        {
            for (const auto& f : b ? b->GetFlowRecords() : std::vector<MessageRecord>())
            {
                bgSizes.insert(f.bytes);
            }
        }
        tracer.Write(o.traceRing, o.traceTag, bgSizes, rateBps);
    }
    Simulator::Destroy();
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    r.cpu = double(std::clock() - cpu0) / CLOCKS_PER_SEC;
    return r;
}

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
    cmd.AddValue("out", "Directory for iterations.csv, flows.csv and summary.csv", out);
    cmd.AddValue("backend",
                 "packet or flow: the flow-level backend (doc/flow-backend.rst: fluid flows, "
                 "in-network aggregation trees as fluid flows; no PFC, ECN or congestion "
                 "control, so the pauses, marks and queue columns are 0)",
                 o.backend);
    cmd.Parse(argc, argv);
    try
    {
        if (o.backend != "packet" && o.backend != "flow")
        {
            throw std::invalid_argument("--backend = " + o.backend + ": must be packet or flow");
        }
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
        if (o.panamaCc != "dcqcn" && o.panamaCc != "dctcp")
        {
            throw std::invalid_argument("--panama-cc must be dcqcn or dctcp");
        }
        if (o.dcqcn != "paper" && o.dcqcn != "vendor" && o.dcqcn != "none")
        {
            throw std::invalid_argument("--dcqcn = " + o.dcqcn + ": must be paper, vendor or none");
        }
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

        std::ofstream itCsv;
        std::ofstream flowCsv;
        std::ofstream sumCsv;
        std::ofstream portCsv;
        if (!out.empty())
        {
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
                      "ring_same_pod_hops,cpu_s,placement\n";
            portCsv << "mode,k,load,seed,scheme,switch,tier,port,dir,far,tx_bytes,util,"
                       "max_queue_bytes,pfc_pauses,ecn_marks\n";
        }
        std::cout << "k=" << o.k << " (" << hosts << " hosts, " << o.rate << "), " << o.workers
                  << " workers per job, " << o.gpu << ", scale " << o.scale << ", short load "
                  << o.shortLoad << ", long load " << o.longLoad << ", PANAMA pass-through "
                  << o.passThrough << ", ring order " << o.ringOrder << ", placement "
                  << o.placement << "\n";
        if (o.scale < 1)
        {
            std::cout << "SMOKE TEST: --scale=" << o.scale
                      << " < 1 (models, compute and long flows scaled; per-step latencies are "
                         "not, so iterations are latency-bound): not a result\n";
        }
        std::cout << std::left << std::setw(6) << "load" << std::setw(9) << "achieved"
                  << std::setw(5) << "seed" << std::setw(13) << "scheme" << std::right
                  << std::setw(5) << "jobs" << std::setw(11) << "iter ms" << std::setw(9)
                  << "vs ring" << std::setw(11) << "short us" << std::setw(11) << "p99 us"
                  << std::setw(11) << "long ms" << std::setw(8) << "pauses" << std::setw(7)
                  << "min it" << std::setw(7) << "grad" << std::setw(9) << "end ms" << std::setw(8)
                  << "bound" << std::setw(8) << "wall s\n";
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
                    // The jobs a run would have, without simulating: to choose loads and seeds
                    // and to estimate a run's simulated length (12 iterations of the slowest).
                    double slowest = 0;
                    for (const auto& j : plan)
                    {
                        RingHops h = CountRingHops(j.hosts, o.k);
                        std::cout << "  load " << load << " seed " << seed << " " << j.model
                                  << " hosts";
                        for (uint32_t host : j.hosts)
                        {
                            std::cout << " " << host;
                        }
                        std::cout << " gradient_MB " << j.gradBits / 8e6 << " offered "
                                  << j.load * hosts / j.hosts.size() << " compute_ms "
                                  << j.computeS * 1e3 << " ring_idle_ms "
                                  << j.bound.ringOverlapS * 1e3 << " agg_idle_ms "
                                  << j.bound.aggOverlapS * 1e3 << " bound " << j.bound.speedup
                                  << " ring_inter_pod_hops " << h.interPod << "/" << j.hosts.size()
                                  << "\n";
                        slowest = std::max(slowest, j.bound.ringOverlapS);
                    }
                    std::cout << "load " << load << " seed " << seed << ": " << plan.size()
                              << " jobs, offered " << achieved << ", slowest idle ring iteration "
                              << slowest * 1e3 << " ms\n";
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
                        idle.push_back(scheme == "ring" ? j.bound.ringOverlapS
                                                        : j.bound.aggOverlapS);
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
                    std::cout << std::left << std::setw(6) << load << std::setw(9)
                              << std::setprecision(3) << achieved << std::setw(5) << seed
                              << std::setw(13) << scheme << std::right << std::fixed << std::setw(5)
                              << plan.size() << std::setprecision(3) << std::setw(11)
                              << meanIter * 1e3 << std::setprecision(2) << std::setw(9) << speedup
                              << std::setprecision(1) << std::setw(11) << Mean(r.shortFct) * 1e6
                              << std::setw(11) << Percentile(r.shortFct, 0.99) * 1e6
                              << std::setprecision(3) << std::setw(11) << Mean(r.longFct) * 1e3
                              << std::setw(8) << r.pauses << std::setw(7) << minIters
                              << std::setprecision(3) << std::setw(7) << r.gradLoad
                              << std::setprecision(2) << std::setw(9) << r.end * 1e3 << std::setw(8)
                              << bound << std::setprecision(1) << std::setw(8) << r.wall
                              << std::defaultfloat << std::endl;
                    if (verbose)
                    {
                        std::sort(r.maxQueues.rbegin(), r.maxQueues.rend());
                        std::cout << "    largest queues:";
                        for (std::size_t q = 0; q < 8 && q < r.maxQueues.size(); ++q)
                        {
                            std::cout << " " << r.maxQueues[q].second << "="
                                      << r.maxQueues[q].first / 1000 << "KB";
                        }
                        std::cout << "\n    results " << r.results << " marked " << r.marked
                                  << " timeouts " << r.timeouts << "\n";
                        std::cout << std::setprecision(4);
                        for (std::size_t j = 0; j < r.iters.size(); ++j)
                        {
                            std::cout << "    job " << j << " " << plan[j].model << " load "
                                      << plan[j].load << " compute " << plan[j].computeS * 1e3
                                      << " ms period " << plan[j].periodS * 1e3 << " ms iterations "
                                      << r.iters[j].size() << " mean " << r.jobMeanIter[j] * 1e3
                                      << " ms busy " << Mean(r.busy[j]) * 1e3 << " ms idle-network "
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
                                itCsv << mode << "," << o.k << "," << load << "," << seed << ","
                                      << scheme << "," << j << "," << plan[j].model << ","
                                      << o.workers << "," << i << "," << r.starts[j][i] << ","
                                      << r.iters[j][i] << "," << r.busy[j][i] << ","
                                      << plan[j].bound.speedup << ","
                                      << (scheme == "ring" ? plan[j].bound.ringOverlapS
                                                           : plan[j].bound.aggOverlapS)
                                      << "\n";
                            }
                        }
                        for (double f : r.shortFct)
                        {
                            flowCsv << mode << "," << o.k << "," << load << "," << seed << ","
                                    << scheme << ",short,7000," << f << "\n";
                        }
                        for (std::size_t i = 0; i < r.longFct.size(); ++i)
                        {
                            flowCsv << mode << "," << o.k << "," << load << "," << seed << ","
                                    << scheme << ",long," << r.longBytes[i] << "," << r.longFct[i]
                                    << "\n";
                        }
                        sumCsv << mode << "," << o.k << "," << load << "," << achieved << ","
                               << seed << "," << scheme << "," << plan.size() << "," << meanIter
                               << "," << Percentile(pooled, 0.5) << "," << Percentile(pooled, 0.99)
                               << "," << minIters << "," << r.gradLoad << "," << r.end << ","
                               << speedup << "," << r.shortFct.size() << "," << Mean(r.shortFct)
                               << "," << Percentile(r.shortFct, 0.99) << "," << Mean(r.longFct)
                               << "," << r.pauses << "," << r.drops << "," << r.wall << "," << o.gpu
                               << "," << o.scale << "," << o.passThrough << "," << o.ringOrder
                               << "," << bound << "," << boundMax << "," << Mean(idle) << ","
                               << ringHops << "," << hops.interPod << "," << hops.samePod << ","
                               << r.cpu << "," << o.placement << std::endl;
                        for (const auto& row : r.ports)
                        {
                            portCsv << mode << "," << o.k << "," << load << "," << seed << ","
                                    << scheme << "," << row << "\n";
                        }
                        portCsv.flush();
                        // Per run, so that a long sweep can be read (and plotted) while it runs.
                        itCsv.flush();
                        flowCsv.flush();
                    }
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
