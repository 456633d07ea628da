/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// One run of the panama-shared-cluster example.

#include "panama-shared-cluster-run.h"

#include "fluid-cc-option.h"
#include "panama-shared-cluster-output.h"
#include "panama-shared-cluster-ring-trace.h"
#include "rdma-timeout-line.h"

#include <chrono>
#include <ctime>
#include <iostream>
#include <numeric>
#include <set>

namespace ns3
{
namespace panamacluster
{

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
    const bool flow = o.backend == "flow";
    std::vector<Ptr<MessageTransport>> nics;
    if (!flow)
    {
        RdmaHelper rdma;
        rdma.SetCongestionControl(RdmaCc(o));
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
        reactionPoint.SetTypeId(RdmaCc(o)); // ns3::DcqcnVendor
        agg.SetReactionPoint(reactionPoint);
    }
    if (scheme == "panama")
    {
        agg.SetCongestionControl(o.panamaCc == "dctcp" ? "ns3::AggregationDctcp"
                                                       : "ns3::AggregationDcqcn");
        agg.SetDeviceAttribute("PassThroughPath",
                               EnumValue(o.passThrough == "shared" ? AggregationDevice::SHARED_FIFO
                                                                   : AggregationDevice::BYPASS));
        if (o.panamaSlots > 0)
        {
            agg.SetMaxSlots(o.panamaSlots); // --window-slots: every tree's pool and window
        }
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
    // FluidTransport per host, and with --fluid-cc=dcqcn the RDMA queue pairs' DCQCN at flow
    // level (the trees' congestion control, PFC and the devices' buffers have no effect there).
    Ptr<FluidFabric> fabric;
    if (flow)
    {
        fabric = FlowBackendHelper().Install(t);
        mlnetexamples::InstallFluidCc(fabric, o.fluidCc, RdmaCc(o));
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
    FctSummary shortSummary; // --short-records=false: the 7 KB flows after the warm-up
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
        // --fluid-background (flow level only; main checks it): the aggregate and analytic
        // models drain the flows in the fabric's FluidAggregate (its Interval set from
        // --fluid-interval)
        b->SetAttribute("Fluid", EnumValue(BackgroundTraffic::ParseFluid(o.fluidBackground)));
        // No PriorityClass: every source (jobs, their collectives and aggregation packets, and
        // this traffic) sends in the default data class (DataClass::DEFAULT), so sharing is
        // decided by congestion control alone.
        b->SetHosts(nics, nics);
        if (kind == 0)
        {
            b->SetFlowSizeCdf(FlowSizeCdf({{7000, 0}, {7000, 1}}));
            if (!o.shortRecords)
            {
                // k=16: 17 million 7 KB flows per simulated second; summarised, not recorded
                b->SetAttribute("KeepRecords", BooleanValue(false));
                const Time warmup = o.warmup;
                b->TraceConnectWithoutContext(
                    "FlowDone",
                    Callback<void, const MessageRecord&>(
                        [&shortSummary, warmup](const MessageRecord& rec) {
                            if (rec.posted >= warmup)
                            {
                                shortSummary.Add(rec.bytes, rec.Fct().GetSeconds());
                            }
                        }));
            }
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
    mlnetexamples::PrintRdmaTimeouts("panama-shared-cluster", scheme);

    RunResult r;
    r.end = Simulator::Now().GetSeconds();
    if (fabric)
    {
        // Where a flow-level run's CPU goes: the main network's rate recomputations and the
        // flows each one refilled, and the simulator's events (stderr: not a result).
        Ptr<FluidNetwork> net = fabric->GetNetwork();
        const uint64_t rc = net->GetRecomputations();
        std::cerr << "fluid " << scheme << ": " << Simulator::GetEventCount() << " events, " << rc
                  << " recomputations, " << net->GetFlowsRecomputed() << " flows recomputed ("
                  << (rc ? double(net->GetFlowsRecomputed()) / double(rc) : 0.0)
                  << " per recomputation, at most " << net->GetMaxFlowsRecomputed() << ")"
                  << std::endl;
    }
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
    if (o.shortRecords)
    {
        r.shortCount = r.shortFct.size();
        r.shortMean = Mean(r.shortFct);
        r.shortP99 = Percentile(r.shortFct, 0.99);
    }
    else
    {
        const FctSummary::Stats st = shortSummary.Get();
        r.shortCount = st.n;
        r.shortMean = st.mean;
        r.shortP99 = st.p99;
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
            r.ports.push_back({s,
                               tier,
                               p,
                               up,
                               farTier + std::to_string(farId),
                               tx - since,
                               span > 0 ? (tx - since) * 8.0 / (span * rateBps) : 0,
                               ps.maxQueueBytes,
                               ps.pauseSent,
                               ps.ecnMarks});
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

} // namespace panamacluster
} // namespace ns3
