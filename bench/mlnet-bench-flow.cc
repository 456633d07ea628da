/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The flow-level backend at PANAMA's scale (Gebara et al., MLSys 2021): a k-ary fat-tree
// (k = 16: 1024 hosts) shared by data-parallel ring all-reduce jobs of full-size models
// (VGG-16, AlexNet, ResNet-152, Inception-v3, GoogLeNet, ResNet-50 in turn; workers placed at
// random, disjoint), plus web-search background flows between all hosts, for a number of
// iterations per job. Prints one JSON line: wall and CPU seconds, peak RSS, simulated time,
// mean iteration time, the fluid network's flows and recomputations (flows recomputed per
// recomputation: the incremental component's size). A benchmark, never a timed test;
// doc/flow-backend.rst gives the measured numbers.
//
//   ./mlnet-bench-flow --k=16 --jobs=16 --workers=64 --iterations=100 --background=0.05
//
// Tensor fusion is the scenario files' default (64 MiB, --fusion); --incremental=0 refills the
// whole connected component at every change (the reference the incremental one must match);
// --ring=group carries each ring all-reduce as one fluid group, --ring=phased as --phases phases
// of one fluid flow per member (FluidTransport::RingGranularity). --fluid=aggregate drains the
// background flows in the aggregate background model (FluidAggregate, coupled to the network
// every --interval) instead of one fluid flow of the network each; --fluid=analytic completes
// each interval's arrivals analytically (FluidAggregate::CompleteAnalytic: no event, connection
// or fluid flow per background flow). The background FCTs are summarized streaming
// (FctSummary: p50/p99/mean overall and per size bucket); --records=1 also keeps the per-flow
// records (BackgroundTraffic::KeepRecords). --tolerance sets FluidAggregate::LoadTolerance (a
// link's background load in the main network changed only when it moves by more than that share
// of the link).

#include "bench-common.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <numeric>

using namespace ns3;
using namespace ns3::bench;

namespace
{
const std::vector<std::string> kModels =
    {"vgg16", "alexnet", "resnet152", "inception_v3", "googlenet", "resnet50"};
} // namespace

int
main(int argc, char* argv[])
{
    uint32_t k = 16;
    uint32_t jobs = 16;
    uint32_t workers = 64;
    uint32_t iterations = 100;
    uint32_t batch = 32;
    double background = 0.05;
    std::string gpu = "a100";
    uint32_t seed = 1;
    uint64_t fusion = uint64_t(64) << 20;
    bool incremental = true;
    std::string ring = "message";
    uint32_t phases = 8;
    std::string fluid = "per-flow";
    std::string interval = "100us";
    double tolerance = 0;
    bool records = false;
    CommandLine cmd(__FILE__);
    cmd.AddValue("k", "Fat-tree arity (k^3/4 hosts), even in [4, 32]", k);
    cmd.AddValue("jobs", "Training jobs (ring all-reduce), >= 1", jobs);
    cmd.AddValue("workers", "Workers per job (>= 2; jobs x workers <= hosts)", workers);
    cmd.AddValue("iterations", "Iterations per job (>= 1)", iterations);
    cmd.AddValue("batch", "Batch size per worker", batch);
    cmd.AddValue("background", "Web-search background load per host link, in [0, 1)", background);
    cmd.AddValue("gpu", "GPU profile (a100, v100, h100, ...)", gpu);
    cmd.AddValue("seed", "RngRun (placement, background flows)", seed);
    cmd.AddValue("fusion",
                 "Tensor fusion in bytes (the scenario default, Horovod's 64 MiB; 0 = one "
                 "all-reduce per gradient slice)",
                 fusion);
    cmd.AddValue("incremental",
                 "FluidNetwork::Incremental (false: refill the whole component, the reference)",
                 incremental);
    cmd.AddValue("ring",
                 "FluidTransport::RingGranularity: message (one fluid flow per ring-step "
                 "message), group (one fluid group per ring all-reduce) or phased (--phases "
                 "phases of one fluid flow per member)",
                 ring);
    cmd.AddValue("phases", "FluidTransport::RingPhases (ring=phased), in [1, 8192]", phases);
    cmd.AddValue("fluid",
                 "BackgroundTraffic::Fluid: per-flow (one fluid flow each), aggregate (the "
                 "aggregate background model) or analytic (completed analytically per interval)",
                 fluid);
    cmd.AddValue("interval",
                 "FluidAggregate::Interval with --fluid=aggregate or analytic, a time in [1ns, 1s]",
                 interval);
    cmd.AddValue("tolerance",
                 "FluidAggregate::LoadTolerance with --fluid=aggregate or analytic: a link's "
                 "background load keeps its rate while the new one is within this share of the "
                 "link's capacity, in [0, 1] (0 = exact)",
                 tolerance);
    cmd.AddValue("records",
                 "BackgroundTraffic::KeepRecords: keep a record per background flow (the FCTs "
                 "are summarized either way)",
                 records);
    EventSchedulerHelper::UseDefault(cmd); // mlnet's scheduler and event loop, as mlnet-run
    cmd.Parse(argc, argv);
    try
    {
        if (k < 4 || k > 32 || k % 2 != 0)
        {
            throw std::invalid_argument("--k must be even in [4, 32]");
        }
        const uint32_t hosts = k * k * k / 4;
        if (jobs == 0 || workers < 2 || uint64_t(jobs) * workers > hosts || iterations == 0)
        {
            throw std::invalid_argument("need --jobs >= 1, --workers >= 2, --iterations >= 1 and "
                                        "jobs x workers <= " +
                                        std::to_string(hosts) + " hosts");
        }
        if (!(background >= 0 && background < 1))
        {
            throw std::invalid_argument("--background must be in [0, 1)");
        }
        if (ring != "message" && ring != "group" && ring != "phased")
        {
            throw std::invalid_argument("--ring must be message, group or phased");
        }
        if (phases < 1 || phases > 8192)
        {
            throw std::invalid_argument("--phases must be in [1, 8192]");
        }
        BackgroundTraffic::ParseFluid(fluid); // the one check of the mode
        RngSeedManager::SetRun(seed);
        WallClock build;
        FabricTopology t = FabricTopologyHelper().BuildFatTree(k);
        FlowBackendHelper flow;
        std::string granularity = ring;
        granularity[0] = char(std::toupper(granularity[0]));
        flow.SetTransportAttribute("RingGranularity", StringValue(granularity));
        flow.SetTransportAttribute("RingPhases", UintegerValue(phases));
        Ptr<FluidFabric> fabric = flow.Install(t);
        fabric->GetNetwork()->SetAttribute("Incremental", BooleanValue(incremental));
        if (!fabric->GetAggregate()->SetAttributeFailSafe("Interval", StringValue(interval)))
        {
            throw std::invalid_argument("--interval must be a time in [1ns, 1s]");
        }
        if (!fabric->GetAggregate()->SetAttributeFailSafe("LoadTolerance", DoubleValue(tolerance)))
        {
            throw std::invalid_argument("--tolerance = " + std::to_string(tolerance) +
                                        " is out of range: must be in [0, 1]");
        }
        std::vector<uint32_t> order(hosts);
        std::iota(order.begin(), order.end(), 0);
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(7);
        for (uint32_t i = hosts - 1; i > 0; --i) // Fisher-Yates with ns-3's stream
        {
            std::swap(order[i], order[u->GetInteger(0, i)]);
        }
        const GpuProfile profile = GpuProfile::Get(gpu);
        std::vector<Ptr<DataParallelJob>> dp;
        for (uint32_t j = 0; j < jobs; ++j)
        {
            Ptr<DataParallelJob> job = CreateObject<DataParallelJob>();
            const std::string model = kModels[j % kModels.size()];
            job->SetAttribute("JobName", StringValue(model + "-" + std::to_string(j)));
            job->SetAttribute("JobId", UintegerValue(j));
            job->SetAttribute("Iterations", UintegerValue(iterations));
            job->SetAttribute("BatchSize", UintegerValue(batch));
            job->SetAttribute("FusionBytes", UintegerValue(fusion));
            job->SetModel(ModelZoo::Get(model), profile);
            std::vector<uint32_t> w(order.begin() + j * workers, order.begin() + (j + 1) * workers);
            job->SetWorkers(FlowBackendHelper::Transports(t, w));
            job->Start();
            dp.push_back(job);
        }
        Ptr<BackgroundTraffic> bg;
        if (background > 0)
        {
            std::vector<uint32_t> all(hosts);
            std::iota(all.begin(), all.end(), 0);
            std::vector<Ptr<MessageTransport>> tr = FlowBackendHelper::Transports(t, all);
            bg = CreateObject<BackgroundTraffic>();
            bg->SetAttribute("Load", DoubleValue(background));
            bg->SetAttribute("LinkRate", DataRateValue(DataRate("100Gbps")));
            bg->SetAttribute("PriorityClass", UintegerValue(6));
            bg->SetAttribute("Fluid", StringValue(fluid));
            bg->SetAttribute("KeepRecords", BooleanValue(records));
            bg->SetHosts(tr, tr);
            bg->AssignStreams(100);
            bg->Start();
        }
        const double buildS = build.Seconds();
        // Stop the background once every job is done.
        uint32_t done = 0;
        for (auto& job : dp)
        {
            job->TraceConnectWithoutContext("IterationEnd",
                                            Callback<void, const IterationRecord&>(
                                                [&done, iterations](const IterationRecord& r) {
                                                    done += r.iteration + 1 == iterations ? 1 : 0;
                                                }));
        }
        std::function<void()> check;
        check = [&]() {
            if (done == dp.size())
            {
                Simulator::Stop();
                return;
            }
            Simulator::Schedule(MilliSeconds(1), check);
        };
        Simulator::Schedule(MilliSeconds(1), check);
        const double cpu0 = ProcessCpuSeconds();
        const uint64_t ev0 = ExecutedEvents();
        WallClock run;
        Simulator::Run();
        const double runS = run.Seconds();
        const double cpuS = ProcessCpuSeconds() - cpu0;
        double sum = 0;
        uint64_t n = 0;
        for (auto& job : dp)
        {
            for (const IterationRecord& r : job->GetIterationRecords())
            {
                sum += r.Duration().GetSeconds();
                ++n;
            }
        }
        Ptr<FluidNetwork> net = fabric->GetNetwork();
        Ptr<FluidAggregate> agg = fabric->GetAggregate();
        const FctSummary fct = bg ? bg->GetFctSummary() : FctSummary();
        JsonLine()
            .Add("bench", "flow-backend")
            .Add("k", k)
            .Add("hosts", hosts)
            .Add("jobs", jobs)
            .Add("workers", workers)
            .Add("iterations", iterations)
            .Add("background", background)
            .Add("fusion", fusion)
            .Add("incremental", incremental)
            .Add("scheduler", EventSchedulerHelper::Current())
            .Add("ring", ring)
            .Add("phases", phases)
            .Add("iterationsDone", n)
            .Add("meanIterationMs", n ? 1e3 * sum / n : 0.0)
            .Add("simulatedS", Simulator::Now().GetSeconds())
            .Add("buildWallS", buildS)
            .Add("runWallS", runS)
            .Add("runCpuS", cpuS)
            .Add("peakRssMb", PeakRssMb())
            .Add("events", ExecutedEvents() - ev0)
            .Add("recomputations", net->GetRecomputations())
            .Add("flowsPerRecomputation",
                 net->GetRecomputations()
                     ? double(net->GetFlowsRecomputed()) / net->GetRecomputations()
                     : 0.0)
            .Add("maxFlowsPerRecomputation", net->GetMaxFlowsRecomputed())
            .Add("fillings", net->GetFillings())
            .Add("unconvergedFillings", net->GetUnconvergedFillings())
            .Add("bytesDrained", net->GetBytesDrained())
            .Add("fluid", fluid)
            .Add("interval", interval)
            .Add("backgroundFlows", bg ? bg->GetFlowsStarted() : 0)
            .Add("backgroundFctP50Us", 1e6 * fct.Get().p50)
            .Add("backgroundFctP99Us", 1e6 * fct.Get().p99)
            .Add("backgroundFctMeanUs", 1e6 * fct.Get().mean)
            .Add("aggregateIntervals", agg->GetIntervals())
            .Add("aggregateLoadUpdates", agg->GetLoadUpdates())
            .Add("aggregateLoadSkips", agg->GetLoadSkips())
            .Add("loadTolerance", tolerance)
            .Add("aggregateRecomputations", agg->GetNetwork()->GetRecomputations())
            .Add("aggregateFlowsPerRecomputation",
                 agg->GetNetwork()->GetRecomputations()
                     ? double(agg->GetNetwork()->GetFlowsRecomputed()) /
                           agg->GetNetwork()->GetRecomputations()
                     : 0.0)
            .Add("analyticFlows", agg->GetAnalyticFlows())
            .Add("cpuSPerIteration", cpuS / iterations)
            .Print();
        // The background FCTs per size bucket (one JSON line each).
        for (uint32_t b = 0; bg && b < FctSummary::kBuckets; ++b)
        {
            const FctSummary::Stats st = fct.Get(b);
            JsonLine()
                .Add("bench", "flow-backend-fct")
                .Add("fluid", fluid)
                .Add("bucket", FctSummary::BucketName(b))
                .Add("flows", st.n)
                .Add("p50Us", 1e6 * st.p50)
                .Add("p99Us", 1e6 * st.p99)
                .Add("meanUs", 1e6 * st.mean)
                .Print();
        }
        Simulator::Destroy();
    }
    catch (const std::exception& e)
    {
        std::cerr << "mlnet-bench-flow: " << e.what() << std::endl;
        return 2;
    }
    return 0;
}
