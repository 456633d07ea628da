/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Scenario traffic types of the training jobs, registered with the scenario parser's
// TrafficRegistry (see scenario-traffic.h); their iterations go to iterations.csv:
//
//  {"type": "data-parallel-job", "hosts": [0, 1, 2, 3], "servers": [4], "mode": "ps"|"ring",
//   "model": "resnet50", "gpu": "v100", "batch": 32, "policy": "fifo"|"tic"|"tac"|"p3"|
//   "bytescheduler", "iterations": 3, "start": "0us", "cc": "dcqcn",
//   PS mode only: "coLocated": false (servers on the worker hosts; no "servers" then),
//   "messageOverhead": "0us", "serverSumRate" and "serverUpdateRate" (absent = instantaneous),
//   "serverPriority": false, "outstandingPerChannel": 0,
//   "serverAssignment": "round-robin"|"balanced-bytes"}
//  {"type": "pipeline-job", "hosts": [0, 1, 2, 3], "schedule": "gpipe"|"1f1b",
//   "microBatches": 8, "forward": "100us", "backward": "200us", "activationBytes": "1MB",
//   "iterations": 3, "start": "0us", "cc": "dcqcn"}
//  {"type": "tensor-parallel-job", "hosts": [0, 1, 2, 3], "layers": 4, "forward": "50us",
//   "backward": "100us", "allReduceBytes": "1MB", "iterations": 3, "start": "0us",
//   "cc": "dcqcn"}
// Every job type also takes "minIterationPeriod": "0us" (TrainingJob::MinIterationPeriod:
// iteration i starts no earlier than this after iteration i-1 started; 0 = no cap) and
// "class" (TrainingJob::PriorityClass, 0..6, default the scenario's "dataClass": the class of
// everything the job sends, collectives, pushes and pulls and aggregation packets included).

#include "flow-backend-helper.h"
#include "input-limits.h"
#include "rdma-helper.h"
#include "scenario-congestion-control.h"
#include "scenario-extension.h"
#include "scenario-traffic.h"

#include "ns3/boolean.h"
#include "ns3/data-parallel-job.h"
#include "ns3/data-rate.h"
#include "ns3/dnn-model.h"
#include "ns3/enum.h"
#include "ns3/gpu-profile.h"
#include "ns3/log.h"
#include "ns3/model-zoo.h"
#include "ns3/nstime.h"
#include "ns3/pipeline-parallel-job.h"
#include "ns3/string.h"
#include "ns3/tensor-order-factory.h"
#include "ns3/tensor-parallel-job.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioJobs");

namespace
{

/// Keys every job type has.
struct JobParams
{
    std::vector<uint32_t> hosts;
    uint32_t iterations{1};
    Time start;
    Time minPeriod;             //!< minIterationPeriod (0 = no cap)
    CongestionControlConfig cc; //!< default congestion control of the job's NICs
    std::string entry;          //!< "traffic[i]", for the summary
    uint32_t index{0};          //!< i of traffic[i]
    std::string name;           //!< <type><i>: the job's name in every output and message
    EntryClass cls;             //!< the class of everything the job sends ("class")
};

/// Distinct host indices in [0, hosts-1], at least `min` of them.
std::vector<uint32_t>
ParseHosts(ScenarioObject& in, const std::string& key, const ScenarioConfig& cfg, size_t min)
{
    const nlohmann::json& a = in.Array(key);
    const uint32_t n = cfg.topology.NumHosts();
    std::vector<uint32_t> hosts;
    std::set<uint32_t> seen;
    for (const auto& v : a)
    {
        if (!v.is_number_unsigned() || v.get<uint64_t>() >= n ||
            !seen.insert(v.get<uint32_t>()).second)
        {
            in.Fail(key,
                    "must be an array of distinct host indices in [0, " + std::to_string(n - 1) +
                        "], got " + v.dump());
        }
        hosts.push_back(v.get<uint32_t>());
    }
    if (hosts.size() < min)
    {
        in.Fail(key, "needs at least " + std::to_string(min) + " hosts");
    }
    return hosts;
}

JobParams
ParseJobParams(ScenarioObject& in,
               const ScenarioConfig& cfg,
               size_t minHosts,
               const std::string& type)
{
    JobParams p;
    p.index = static_cast<uint32_t>(cfg.traffic.size()); // entries are parsed in order
    p.name = JobName(type, p.index);
    p.hosts = ParseHosts(in, "hosts", cfg, minHosts);
    p.iterations = static_cast<uint32_t>(in.Uint("iterations", 1, 1000000, std::nullopt));
    p.start = in.Duration("start", Time(0), cfg.duration, std::string("0ns"));
    p.minPeriod = in.Duration("minIterationPeriod",
                              Time(0),
                              Seconds(InputLimits::MIN_ITERATION_PERIOD_S.hi),
                              std::string("0ns"));
    p.cc = CongestionControlConfig::Parse(in, "cc", cfg);
    p.entry = in.Path();
    p.cls = ParseEntryClass(in, cfg, false);
    return p;
}

/// RDMA NICs on the hosts, with the job's congestion control as their default.
std::vector<Ptr<RdmaNic>>
Nics(const FabricTopology& topo,
     const std::vector<uint32_t>& hosts,
     const CongestionControlConfig& cc)
{
    RdmaHelper rdma;
    rdma.SetCongestionControl(cc.TypeIdName());
    for (const auto& [name, value] : cc.attributes)
    {
        rdma.SetCcAttribute(name, *value);
    }
    NodeContainer nodes;
    for (uint32_t h : hosts)
    {
        nodes.Add(topo.hosts.Get(h));
    }
    return rdma.Install(nodes);
}

/// The hosts' transports: RDMA NICs (packet backend) or FluidTransports (flow backend, where
/// the job's congestion control has no meaning).
std::vector<Ptr<MessageTransport>>
Transports(TrafficContext& ctx,
           const std::vector<uint32_t>& hosts,
           const CongestionControlConfig& cc)
{
    if (ctx.Config().backend == "flow")
    {
        return FlowBackendHelper::Transports(ctx.Topology(), hosts);
    }
    const std::vector<Ptr<RdmaNic>> nics = Nics(ctx.Topology(), hosts, cc);
    return std::vector<Ptr<MessageTransport>>(nics.begin(), nics.end());
}

/// Common installation: name, iterations, start, class, records, and keep the run going.
/// \param split the job spreads its data over several classes on purpose (a priority policy)
void
StartJob(TrafficContext& ctx,
         Ptr<TrainingJob> job,
         const JobParams& p,
         const std::string& type,
         bool split = false)
{
    ctx.NewFlowId(); // a flow id per job as before, so the flows of later entries keep theirs
    job->SetAttribute("PriorityClass", UintegerValue(p.cls.cls));
    ctx.AddTrafficClass({p.entry, type, p.cls.cls, p.cls.chosen, split});
    job->SetAttribute("JobName", StringValue(p.name));
    job->SetAttribute("JobId", UintegerValue(p.index));
    job->SetAttribute("Iterations", UintegerValue(p.iterations));
    job->SetAttribute("StartTime", TimeValue(p.start));
    job->SetAttribute("MinIterationPeriod", TimeValue(p.minPeriod));
    job->Start();
    ctx.AddCongestionControl(
        CongestionControlConfig::Effective(p.cc.Factory(), p.entry, type, 1.0));
    ctx.AddIterations([job]() { return job->GetIterationRecords(); });
    ctx.AddActivity([job]() { return !job->IsFinished(); });
}

class DataParallelSpec : public TrafficSpec
{
  public:
    JobParams params;
    std::vector<uint32_t> servers;
    std::string model;
    std::string gpu;
    uint32_t batch{32};
    std::string policy;
    uint64_t fusionBytes{0};
    uint32_t gpusPerServer{1};
    DataRate intraServerRate;
    Time intraServerLatency;
    GradientAggregatorRegistry::Factory aggregator; //!< modes of other parts (e.g. "ina")
    bool coLocated{false};
    Time messageOverhead;
    DataRate serverSumRate;
    DataRate serverUpdateRate;
    bool serverPriority{false};
    uint32_t outstandingPerChannel{0};
    DataParallelJob::ServerAssignment serverAssignment{DataParallelJob::ROUND_ROBIN};

    void Install(TrafficContext& ctx) const override
    {
        Ptr<DataParallelJob> job = CreateObject<DataParallelJob>();
        job->SetModel(ModelZoo::Get(model), GpuProfile::Get(gpu));
        job->SetAttribute(
            "Mode",
            StringValue(aggregator ? "Aggregator"
                                   : (servers.empty() ? "RingAllReduce" : "ParameterServer")));
        if (aggregator)
        {
            job->SetAggregator(aggregator(ctx, params.hosts, params.name));
        }
        job->SetAttribute("BatchSize", UintegerValue(batch));
        job->SetAttribute("FusionBytes", UintegerValue(fusionBytes));
        job->SetAttribute("GpusPerServer", UintegerValue(gpusPerServer));
        job->SetAttribute("IntraServerRate", DataRateValue(intraServerRate));
        job->SetAttribute("IntraServerLatency", TimeValue(intraServerLatency));
        job->SetAttribute("CoLocatedServers", BooleanValue(coLocated));
        job->SetAttribute("MessageOverhead", TimeValue(messageOverhead));
        job->SetAttribute("ServerSumRate", DataRateValue(serverSumRate));
        job->SetAttribute("ServerUpdateRate", DataRateValue(serverUpdateRate));
        job->SetAttribute("ServerPriority", BooleanValue(serverPriority));
        job->SetAttribute("OutstandingPerChannel", UintegerValue(outstandingPerChannel));
        job->SetAttribute("ServerAssignment", EnumValue(serverAssignment));
        job->SetWorkers(Transports(ctx, params.hosts, params.cc));
        if (!servers.empty() && !coLocated)
        {
            job->SetServers(Transports(ctx, servers, params.cc));
        }
        job->SetTensorOrderPolicy(CreateTensorOrderPolicy(policy));
        // A priority policy spreads PS and aggregation slices over the classes at and below
        // the job's class (DataParallelJob::SliceClass); the ring sends all in the job's class.
        const bool split =
            (aggregator || !servers.empty()) && policy != "fifo" && policy != "p3-slicing";
        StartJob(ctx, job, params, "data-parallel-job", split);
        ctx.AddWarning([job]() { return job->GetServerImbalanceWarning(); });
    }

    std::vector<uint32_t> ScheduledHosts() const override
    {
        // Parameter-server mode declares its pushes (workers) and pulls (servers); ring and
        // aggregator modes keep their collectives' own queue pairs.
        if (aggregator || servers.empty())
        {
            return {};
        }
        std::vector<uint32_t> h = params.hosts;
        h.insert(h.end(), servers.begin(), servers.end());
        return h;
    }
};

std::shared_ptr<const TrafficSpec>
ParseDataParallel(ScenarioObject& in, const ScenarioConfig& cfg)
{
    auto s = std::make_shared<DataParallelSpec>();
    s->params = ParseJobParams(in, cfg, 1, "data-parallel-job");
    std::vector<std::string> modes{"ring", "ps"};
    for (const std::string& m : GradientAggregatorRegistry::Modes())
    {
        modes.push_back(m);
    }
    std::string mode = in.Choice("mode", modes, std::string("ring"));
    if (const GradientAggregatorRegistry::ParseFunction* f = GradientAggregatorRegistry::Find(mode))
    {
        s->aggregator = (*f)(in, cfg);
    }
    else if (mode == "ps")
    {
        s->coLocated = in.Bool("coLocated", false);
        s->messageOverhead =
            in.Duration("messageOverhead", Time(0), Seconds(1), std::string("0us"));
        s->serverSumRate =
            in.Has("serverSumRate") ? in.Rate("serverSumRate", std::nullopt) : DataRate(0);
        s->serverUpdateRate =
            in.Has("serverUpdateRate") ? in.Rate("serverUpdateRate", std::nullopt) : DataRate(0);
        s->serverPriority = in.Bool("serverPriority", false);
        s->outstandingPerChannel =
            static_cast<uint32_t>(in.Uint("outstandingPerChannel", 0, 1 << 20, 0));
        s->serverAssignment =
            DataParallelJob::ServerAssignmentFromName(in.Choice("serverAssignment",
                                                                {"round-robin", "balanced-bytes"},
                                                                std::string("round-robin")));
        if (s->coLocated)
        {
            if (in.Has("servers"))
            {
                in.Fail("servers",
                        "must be absent when coLocated is true (a server shard runs "
                        "on every worker host)");
            }
            s->servers = s->params.hosts;
        }
        else
        {
            s->servers = ParseHosts(in, "servers", cfg, 1);
            for (uint32_t h : s->servers)
            {
                if (std::find(s->params.hosts.begin(), s->params.hosts.end(), h) !=
                    s->params.hosts.end())
                {
                    in.Fail("servers",
                            "must not include a worker host (" + std::to_string(h) + ")");
                }
            }
        }
    }
    s->gpusPerServer = static_cast<uint32_t>(in.Uint("gpusPerServer", 1, 64, 1));
    if (mode != "ring" && s->gpusPerServer > 1)
    {
        in.Fail("gpusPerServer", "must be 1 unless mode is \"ring\"");
    }
    if (mode == "ring" && s->params.hosts.size() < 2 && s->gpusPerServer < 2)
    {
        in.Fail("hosts", "ring all-reduce needs at least 2 hosts (or gpusPerServer >= 2)");
    }
    // Horovod's HOROVOD_FUSION_THRESHOLD default (64 MiB); ring mode only
    s->fusionBytes = in.Bytes("fusionBytes", 0, uint64_t(1) << 34, uint64_t(64) << 20);
    s->intraServerRate = in.Rate("intraServerRate", std::string("1200Gbps"));
    s->intraServerLatency =
        in.Duration("intraServerLatency", Time(0), Seconds(1), std::string("5us"));
    s->model = in.Choice("model", ModelZoo::Names(), std::string("resnet50"));
    std::vector<std::string> gpus;
    for (std::string n : GpuProfile::Names())
    {
        std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) {
            return std::tolower(c);
        });
        gpus.push_back(n);
    }
    s->gpu = in.Choice("gpu", gpus, std::string("v100"));
    s->batch = static_cast<uint32_t>(in.Uint("batch", 1, 65536, 32));
    s->policy = in.Choice("policy", TensorOrderPolicyNames(), std::string("fifo"));
    return s;
}

class PipelineSpec : public TrafficSpec
{
  public:
    JobParams params;
    std::string schedule;
    uint32_t microBatches{1};
    Time forward;
    Time backward;
    uint64_t activationBytes{0};

    void Install(TrafficContext& ctx) const override
    {
        Ptr<PipelineParallelJob> job = CreateObject<PipelineParallelJob>();
        job->SetAttribute("Schedule", StringValue(schedule == "gpipe" ? "GPipe" : "1F1B"));
        job->SetAttribute("MicroBatches", UintegerValue(microBatches));
        job->SetAttribute("ForwardTime", TimeValue(forward));
        job->SetAttribute("BackwardTime", TimeValue(backward));
        job->SetAttribute("ActivationBytes", UintegerValue(activationBytes));
        job->SetStages(Transports(ctx, params.hosts, params.cc));
        StartJob(ctx, job, params, "pipeline-job");
    }

    std::vector<uint32_t> ScheduledHosts() const override
    {
        return params.hosts; // every stage sends activations or gradients
    }
};

std::shared_ptr<const TrafficSpec>
ParsePipeline(ScenarioObject& in, const ScenarioConfig& cfg)
{
    auto s = std::make_shared<PipelineSpec>();
    s->params = ParseJobParams(in, cfg, 1, "pipeline-job");
    s->schedule = in.Choice("schedule", {"gpipe", "1f1b"}, std::string("1f1b"));
    s->microBatches = static_cast<uint32_t>(in.Uint("microBatches", 1, 65536, 8));
    s->forward = in.Duration("forward", Time(0), Seconds(3600), std::nullopt);
    s->backward = in.Duration("backward", Time(0), Seconds(3600), std::nullopt);
    s->activationBytes = in.Bytes("activationBytes", 1, uint64_t(1) << 40, std::nullopt);
    return s;
}

class TensorParallelSpec : public TrafficSpec
{
  public:
    JobParams params;
    uint32_t layers{1};
    Time forward;
    Time backward;
    uint64_t allReduceBytes{0};

    void Install(TrafficContext& ctx) const override
    {
        Ptr<TensorParallelJob> job = CreateObject<TensorParallelJob>();
        job->SetAttribute("Layers", UintegerValue(layers));
        job->SetAttribute("ForwardTime", TimeValue(forward));
        job->SetAttribute("BackwardTime", TimeValue(backward));
        job->SetAttribute("AllReduceBytes", UintegerValue(allReduceBytes));
        job->SetGroup(Transports(ctx, params.hosts, params.cc));
        StartJob(ctx, job, params, "tensor-parallel-job");
    }
};

std::shared_ptr<const TrafficSpec>
ParseTensorParallel(ScenarioObject& in, const ScenarioConfig& cfg)
{
    auto s = std::make_shared<TensorParallelSpec>();
    s->params = ParseJobParams(in, cfg, 2, "tensor-parallel-job");
    s->layers = static_cast<uint32_t>(in.Uint("layers", 1, 1000000, std::nullopt));
    s->forward = in.Duration("forward", Time(0), Seconds(3600), std::nullopt);
    s->backward = in.Duration("backward", Time(0), Seconds(3600), std::nullopt);
    s->allReduceBytes = in.Bytes("allReduceBytes", 1, uint64_t(1) << 40, std::nullopt);
    return s;
}

TrafficRegistry::Registrar g_dp("data-parallel-job", &ParseDataParallel);
TrafficRegistry::Registrar g_pp("pipeline-job", &ParsePipeline);
TrafficRegistry::Registrar g_tp("tensor-parallel-job", &ParseTensorParallel);

} // namespace
} // namespace ns3
