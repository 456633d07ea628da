/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Scenario traffic types of the RDMA transport and the periodic training job, registered with
// the scenario parser's TrafficRegistry (see scenario-traffic.h):
//
//  {"type": "rdma", "src": 0, "dst": 5, "bytes": "64MiB", "start": "0us", "class": 3,
//   "cc": "dcqcn" | "dcqcn-vendor" | "fixed" | {"variant": ..., "rateAi": "40Mbps", ...},
//   "aggressiveness": 1.0, "fluid": "per-flow" | "aggregate"}
//  {"type": "rdma-permutation", "bytes": ..., (same optional keys)}
//  {"type": "periodic-job", "src": 0, "dst": 1, "compute": "2ms", "bytes": "20MB",
//   "iterations": 20, "start": "0us", (same optional keys), "iterGainSlope": 0,
//   "iterGainIntercept": 1, "computeCv": 0, "minIterationPeriod": "0us"}

#include "flow-backend-helper.h"
#include "input-limits.h"
#include "rdma-helper.h"
#include "scenario-congestion-control.h"
#include "scenario-traffic.h"

#include "ns3/dcqcn-profile.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/periodic-job.h"
#include "ns3/pointer.h"
#include "ns3/rdma-nic.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioRdma");

namespace
{

/// Transport settings shared by the RDMA traffic types.
struct RdmaParams
{
    Time start;
    uint8_t priority{DataClass::DEFAULT}; //!< the entry's class ("class", or "priority")
    bool classChosen{false};              //!< the entry set its class
    CongestionControlConfig cc;           //!< variant and the parameters the scenario sets
    double aggressiveness{1.0};
    /// "rdma" at flow level: the message drains in the aggregate background model
    /// (FluidConnection::Aggregate; "fluid": "aggregate") instead of as a flow of its own
    bool aggregate{false};
    std::string entry; //!< "traffic[i]", for the summary

    /// \return the factory of the entry's queue pairs' algorithms
    ObjectFactory Factory() const
    {
        return cc.Factory(aggressiveness);
    }

    /// Report the effective congestion control and the class of the entry to the run.
    void Report(TrafficContext& ctx, const std::string& type) const
    {
        ctx.AddCongestionControl(
            CongestionControlConfig::Effective(Factory(), entry, type, aggressiveness));
        ctx.AddTrafficClass({entry, type, priority, classChosen, false});
    }
};

RdmaParams
ParseRdmaParams(ScenarioObject& in, const ScenarioConfig& cfg)
{
    RdmaParams p;
    p.entry = in.Path();
    p.start = in.Duration("start", Time(0), cfg.duration, std::string("0ns"));
    const EntryClass c = ParseEntryClass(in, cfg, true);
    p.priority = c.cls;
    p.classChosen = c.chosen;
    p.cc = CongestionControlConfig::Parse(in, "cc", cfg);
    p.aggressiveness = in.Double("aggressiveness",
                                 InputLimits::AGGRESSIVENESS.lo,
                                 InputLimits::AGGRESSIVENESS.hi,
                                 1.0);
    if (p.aggressiveness != 1.0 && p.cc.variant == "fixed")
    {
        in.Fail("aggressiveness", "applies to dcqcn and dcqcn-vendor only");
    }
    return p;
}

/// The NIC of a host, installed on first use.
Ptr<RdmaNic>
NicOf(const FabricTopology& topo, uint32_t host)
{
    Ptr<Node> node = topo.hosts.Get(host);
    if (!RdmaHelper::GetNic(node))
    {
        RdmaHelper().Install(NodeContainer(node));
    }
    return RdmaHelper::GetNic(node);
}

/// A queue pair from src to dst with the entry's congestion control.
Ptr<RdmaQueuePair>
ConnectQp(const FabricTopology& topo,
          uint32_t src,
          uint32_t dst,
          const RdmaParams& p,
          const ObjectFactory& cc)
{
    return NicOf(topo, src)->Connect(NicOf(topo, dst), p.priority, &cc);
}

/// The flow record of a queue pair from its own counters: the requester's (what it put on the
/// wire, its completion) and the responder's at the destination NIC (what arrived there).
FlowStatsRecord
RdmaFlowRecord(const FlowStatsRecord& base, Ptr<RdmaQueuePair> qp, Ptr<RdmaNic> dstNic)
{
    FlowStatsRecord r = base;
    r.srcPort = qp->GetUdpSourcePort();
    r.txBytes = qp->GetTxBytes();
    r.txPackets = qp->GetTxPackets();
    r.retransmitted = qp->GetRetransmittedPackets();
    const RdmaReceiveStats& rx = dstNic->GetReceiveStats(qp->GetPeerQpn());
    r.rxBytes = rx.bytes;
    r.rxPackets = rx.packets;
    r.ceMarked = rx.ceMarked;
    r.reordered = rx.outOfOrder;
    r.deliveredBytes = rx.deliveredBytes;
    if (rx.packets > 0)
    {
        r.firstRxNs = rx.firstArrival.GetNanoSeconds();
        r.lastRxNs = rx.lastArrival.GetNanoSeconds();
    }
    return r;
}

/// The flow-level record of a fluid connection: what reached the destination and when (the
/// per-packet columns stay empty).
FlowStatsRecord
FluidFlowRecord(const FlowStatsRecord& base, Ptr<FluidConnection> fc)
{
    FlowStatsRecord r = base;
    // Delivered at the destination, and when its last byte arrived there (the goodput's end,
    // as the packet backend's last arrival).
    r.deliveredBytes = fc->GetBytesDelivered();
    const Time last = fc->GetLastDelivery();
    r.lastRxNs = last.IsPositive() ? last.GetNanoSeconds() : -1;
    return r;
}

/// A connection of the flow backend from host src to host dst in a class.
Ptr<FluidConnection>
OpenFluid(const FabricTopology& topo, uint32_t src, uint32_t dst, uint8_t cls)
{
    return DynamicCast<FluidConnection>(FlowBackendHelper::Transports(topo, {src})[0]->Open(
        FlowBackendHelper::Transports(topo, {dst})[0],
        cls));
}

/// Post one message of `bytes` at p.start and register the flow's record and its activity
/// (busy until the message is posted and completed).
void
InstallRdmaFlow(TrafficContext& ctx,
                const std::string& type,
                uint32_t src,
                uint32_t dst,
                uint64_t bytes,
                const RdmaParams& p,
                const ObjectFactory& cc)
{
    const FabricTopology& topo = ctx.Topology();
    FlowStatsRecord base;
    base.id = ctx.NewFlowId();
    base.type = type;
    base.src = src;
    base.dst = dst;
    base.priority = p.priority;
    base.offeredBps = topo.HostDevice(src)->GetDataRate().GetBitRate();
    base.targetBytes = bytes;
    base.startNs = p.start.GetNanoSeconds();
    if (ctx.Config().backend == "flow")
    {
        // The flow backend: one message on a fluid connection (the per-packet columns of the
        // record are empty). Its congestion control only under "fluidCc" (FluidDcqcn): then
        // the entry's own algorithm (cc, aggressiveness) is its reaction point's, as its queue
        // pair's at packet level.
        Ptr<FluidConnection> c = OpenFluid(topo, src, dst, p.priority);
        c->SetCongestionControl(p.Factory());
        if (p.aggregate)
        {
            c->SetAggregate(true);
        }
        auto done = std::make_shared<Time>(Time(-1));
        auto posted = std::make_shared<bool>(false);
        Simulator::Schedule(p.start, [c, bytes, done, posted]() {
            *posted = true;
            c->PostSend(bytes, MessageConnection::CompletionCallback([done](uint64_t, uint64_t) {
                            *done = Simulator::Now();
                        }));
        });
        base.flowLevel = true;
        base.srcPort = c->GetUdpSourcePort();
        ctx.AddFlow([base, c, done]() {
            FlowStatsRecord r = FluidFlowRecord(base, c);
            r.completedNs = *done >= Time(0) ? done->GetNanoSeconds() : -1;
            return r;
        });
        ctx.AddActivity([c, posted]() { return !*posted || c->IsBusy(); });
        return;
    }
    Ptr<RdmaQueuePair> qp = ConnectQp(topo, src, dst, p, cc);
    Ptr<RdmaNic> dstNic = NicOf(topo, dst);
    auto done = std::make_shared<Time>(Time(-1));
    auto posted = std::make_shared<bool>(false);
    Simulator::Schedule(p.start, [qp, bytes, done, posted]() {
        *posted = true;
        qp->PostSend(bytes, RdmaQueuePair::CompletionCallback([done](uint64_t, uint64_t) {
                         *done = Simulator::Now();
                     }));
    });
    ctx.AddFlow([base, qp, dstNic, done]() {
        FlowStatsRecord r = RdmaFlowRecord(base, qp, dstNic);
        // Completion as verbs report it: the sender's completion, when the last byte is
        // acknowledged (the FCT of RDMA simulators such as HPCC's).
        r.completedNs = *done >= Time(0) ? done->GetNanoSeconds() : -1;
        return r;
    });
    ctx.AddActivity([qp, posted]() { return !*posted || qp->IsBusy(); });
}

class RdmaFlowSpec : public TrafficSpec
{
  public:
    uint32_t src{0};
    uint32_t dst{0};
    uint64_t bytes{0};
    RdmaParams params;

    void Install(TrafficContext& ctx) const override
    {
        params.Report(ctx, "rdma");
        InstallRdmaFlow(ctx, "rdma", src, dst, bytes, params, params.Factory());
    }
};

std::shared_ptr<const TrafficSpec>
ParseRdmaFlow(ScenarioObject& in, const ScenarioConfig& cfg)
{
    auto s = std::make_shared<RdmaFlowSpec>();
    const uint32_t last = cfg.topology.NumHosts() - 1;
    s->src = static_cast<uint32_t>(in.Uint("src", 0, last, std::nullopt));
    s->dst = static_cast<uint32_t>(in.Uint("dst", 0, last, std::nullopt));
    if (s->src == s->dst)
    {
        in.Fail("dst", "must differ from src");
    }
    s->bytes = in.Bytes("bytes",
                        InputLimits::MESSAGE_BYTES.lo,
                        InputLimits::MESSAGE_BYTES.hi,
                        std::nullopt);
    s->params = ParseRdmaParams(in, cfg);
    // How the message crosses a flow-level network (ignored at packet level, so one file runs
    // at either fidelity): a fluid flow of its own, or in the aggregate background model.
    s->params.aggregate = in.Choice("fluid", {"per-flow", "aggregate"}, "per-flow") == "aggregate";
    return s;
}

class RdmaPermutationSpec : public TrafficSpec
{
  public:
    uint64_t bytes{0};
    RdmaParams params;

    void Install(TrafficContext& ctx) const override
    {
        const uint32_t n = ctx.Topology().hosts.GetN();
        std::vector<uint32_t> dst = RandomDerangement(n, ctx.Random());
        params.Report(ctx, "rdma-permutation");
        const ObjectFactory cc = params.Factory();
        for (uint32_t i = 0; i < n; ++i)
        {
            InstallRdmaFlow(ctx, "rdma-permutation", i, dst[i], bytes, params, cc);
        }
    }
};

std::shared_ptr<const TrafficSpec>
ParseRdmaPermutation(ScenarioObject& in, const ScenarioConfig& cfg)
{
    if (cfg.topology.NumHosts() < 2)
    {
        in.Fail("type", "needs a topology with at least 2 hosts");
    }
    auto s = std::make_shared<RdmaPermutationSpec>();
    s->bytes = in.Bytes("bytes",
                        InputLimits::MESSAGE_BYTES.lo,
                        InputLimits::MESSAGE_BYTES.hi,
                        std::nullopt);
    s->params = ParseRdmaParams(in, cfg);
    return s;
}

class PeriodicJobSpec : public TrafficSpec
{
  public:
    uint32_t src{0};
    uint32_t dst{0};
    Time compute;
    uint64_t bytes{0};
    uint32_t iterations{0};
    double computeCv{0};
    Time minPeriod; //!< minIterationPeriod (0 = no cap)
    RdmaParams params;
    uint32_t index{0}; //!< i of traffic[i]: the job's id, and its name periodic-job<i>

    void Install(TrafficContext& ctx) const override
    {
        const FabricTopology& topo = ctx.Topology();
        const uint32_t id = ctx.NewFlowId();
        Ptr<PeriodicJob> job = CreateObject<PeriodicJob>();
        if (computeCv > 0)
        {
            // one stream per entry (flow ids follow the entries' order): RngRun alone changes
            // the draws, and adding a job does not shift the others' streams
            job->SetAttribute("ComputeJitter", PointerValue(PeriodicJob::NormalJitter(computeCv)));
            job->AssignStreams(PeriodicJob::JITTER_STREAM_BASE + id);
        }
        job->SetAttribute("JobName", StringValue(JobName("periodic-job", index)));
        job->SetAttribute("JobId", UintegerValue(index));
        job->SetAttribute("Iterations", UintegerValue(iterations));
        job->SetAttribute("StartTime", TimeValue(params.start));
        job->SetAttribute("ComputeTime", TimeValue(compute));
        job->SetAttribute("MessageBytes", UintegerValue(bytes));
        job->SetAttribute("MinIterationPeriod", TimeValue(minPeriod));
        job->SetAttribute("PriorityClass", UintegerValue(params.priority));
        params.Report(ctx, "periodic-job");
        FlowStatsRecord base;
        base.id = id;
        base.type = "periodic-job";
        base.src = src;
        base.dst = dst;
        base.priority = params.priority;
        base.offeredBps = topo.HostDevice(src)->GetDataRate().GetBitRate();
        base.targetBytes = bytes * iterations;
        base.startNs = params.start.GetNanoSeconds();
        // The job's end is the flow's completion.
        auto end = [job]() {
            const JobRecord jr = job->GetJobRecord();
            return jr.finished ? jr.end.GetNanoSeconds() : int64_t(-1);
        };
        if (ctx.Config().backend == "flow")
        {
            // The flow backend: the job's messages on a fluid connection (per-packet columns
            // empty). Under "fluidCc" (FluidDcqcn) the entry's own algorithm (cc,
            // aggressiveness, the iteration-gain keys) is its reaction point's; without it
            // nothing controls the rate and those keys change nothing.
            Ptr<FluidConnection> c = OpenFluid(topo, src, dst, params.priority);
            c->SetCongestionControl(params.Factory());
            job->SetConnection(c);
            job->Start();
            base.flowLevel = true;
            base.srcPort = c->GetUdpSourcePort();
            ctx.AddFlow([base, c, end]() {
                FlowStatsRecord r = FluidFlowRecord(base, c);
                r.completedNs = end();
                return r;
            });
        }
        else
        {
            Ptr<RdmaQueuePair> qp = ConnectQp(topo, src, dst, params, params.Factory());
            job->SetQueuePair(qp);
            job->Start();
            Ptr<RdmaNic> dstNic = NicOf(topo, dst);
            ctx.AddFlow([base, qp, dstNic, end]() {
                FlowStatsRecord r = RdmaFlowRecord(base, qp, dstNic);
                r.completedNs = end();
                return r;
            });
        }
        ctx.AddIterations([job]() { return job->GetIterationRecords(); });
        ctx.AddActivity([job]() { return !job->IsFinished(); });
    }
};

std::shared_ptr<const TrafficSpec>
ParsePeriodicJob(ScenarioObject& in, const ScenarioConfig& cfg)
{
    auto s = std::make_shared<PeriodicJobSpec>();
    s->index = static_cast<uint32_t>(cfg.traffic.size()); // entries are parsed in order
    const uint32_t last = cfg.topology.NumHosts() - 1;
    s->src = static_cast<uint32_t>(in.Uint("src", 0, last, std::nullopt));
    s->dst = static_cast<uint32_t>(in.Uint("dst", 0, last, std::nullopt));
    if (s->src == s->dst)
    {
        in.Fail("dst", "must differ from src");
    }
    s->compute = in.Duration("compute", Time(0), Seconds(3600), std::nullopt);
    s->bytes = in.Bytes("bytes",
                        InputLimits::MESSAGE_BYTES.lo,
                        InputLimits::MESSAGE_BYTES.hi,
                        std::nullopt);
    s->iterations = static_cast<uint32_t>(in.Uint("iterations",
                                                  InputLimits::ITERATIONS.lo,
                                                  InputLimits::ITERATIONS.hi,
                                                  std::nullopt));
    s->computeCv =
        in.Double("computeCv", InputLimits::COMPUTE_CV.lo, InputLimits::COMPUTE_CV.hi, 0.0);
    s->minPeriod = in.Duration("minIterationPeriod",
                               Time(0),
                               Seconds(InputLimits::MIN_ITERATION_PERIOD_S.hi),
                               std::string("0ns"));
    s->params = ParseRdmaParams(in, cfg);
    // The iteration-aware gain: these keys override the "cc" object's (only when given, so a
    // global default such as --ns3::DcqcnBase::IterGainSlope=... applies otherwise).
    const std::pair<const char*, const char*> gains[] = {
        {"iterGainSlope", "IterGainSlope"},
        {"iterGainIntercept", "IterGainIntercept"}};
    for (const auto& [key, attribute] : gains)
    {
        if (!in.Has(key))
        {
            in.Raw(key);
            continue;
        }
        const RealLimit& limit = std::string(key) == "iterGainSlope"
                                     ? InputLimits::ITER_GAIN_SLOPE
                                     : InputLimits::ITER_GAIN_INTERCEPT;
        const double v = in.Double(key, limit.lo, limit.hi, std::nullopt);
        if (s->params.cc.variant == "fixed")
        {
            in.Fail(key, "applies to dcqcn and dcqcn-vendor only");
        }
        auto& attrs = s->params.cc.attributes;
        attrs.erase(std::remove_if(
                        attrs.begin(),
                        attrs.end(),
                        [attribute = attribute](const auto& kv) { return kv.first == attribute; }),
                    attrs.end());
        attrs.emplace_back(attribute, Create<DoubleValue>(v));
    }
    return s;
}

TrafficRegistry::Registrar g_rdma("rdma", &ParseRdmaFlow);
TrafficRegistry::Registrar g_rdmaPermutation("rdma-permutation", &ParseRdmaPermutation);
TrafficRegistry::Registrar g_periodicJob("periodic-job", &ParsePeriodicJob);

} // namespace
} // namespace ns3
