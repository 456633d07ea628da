/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Benchmark (2), mainline ns-3 baseline: the same k-ary fat-tree and traffic pattern as
// mlnet-bench-fattree on point-to-point links with RED/ECN queue discs, UDP ECT(0) senders and
// global routing with random ECMP. Prints one JSON line.

#include "bench-common.h"
#include "mainline-common.h"

#include "ns3/core-module.h"
#include "ns3/point-to-point-module.h"

using namespace ns3;
using namespace ns3::bench;

int
main(int argc, char* argv[])
{
    uint32_t k = 4;
    std::string pattern = "permutation";
    double duration = 0.001;
    std::string rate = "100Gbps";
    uint32_t payload = 1000;
    uint32_t seed = 1;
    std::string scheduler = EventSchedulerHelper::DefaultType(); // both simulators alike
    std::string name;

    CommandLine cmd(__FILE__);
    cmd.AddValue("k", "Fat-tree arity (k^3/4 hosts)", k);
    cmd.AddValue("pattern", "Traffic: permutation or shuffle", pattern);
    cmd.AddValue("duration", "Simulated seconds", duration);
    cmd.AddValue("rate", "Link rate; a host's flows share it", rate);
    cmd.AddValue("payload", "Payload bytes per packet", payload);
    cmd.AddValue("seed", "Seed of the permutation", seed);
    cmd.AddValue(
        "scheduler",
        "Event scheduler: Map, Heap, List, Calendar, PriorityQueue, QuadHeap, TimingWheel or "
        "a TypeId name",
        scheduler);
    cmd.AddValue("name", "Benchmark name in the JSON line (default fattree<k>-<pattern>)", name);
    EventSchedulerHelper::UseDefaults();  // before Parse: --SimulatorImplementationType wins
    EventSchedulerHelper::UseHugePages(); // a benchmark owns its process
    cmd.Parse(argc, argv);
    if (name.empty())
    {
        name = "fattree" + std::to_string(k) + "-" + pattern;
    }
    if (k < 2 || k % 2 != 0 || k > 64)
    {
        std::cerr << "k must be even, 2..64\n";
        return 1;
    }
    Setup(scheduler);
    MainlineDefaults();

    WallClock build;
    MainlineLinkParams lp;
    lp.rate = DataRate(rate);
    MainlineTopology t = BuildMainlineFatTree(k, lp);
    double topoWall = build.Seconds();
    double topoRss = CurrentRssMb();

    const uint32_t n = t.hosts.GetN();
    std::vector<FlowPair> flows = TrafficPattern(pattern, n, seed);
    std::vector<Ptr<Application>> sinks;
    for (uint32_t i = 0; i < n; ++i)
    {
        sinks.push_back(InstallMainlineSink(t.hosts.Get(i)));
    }
    std::vector<uint32_t> outDegree(n, 0);
    for (const auto& f : flows)
    {
        outDegree[f.src]++;
    }
    std::vector<uint32_t> next(n, 0);
    for (const auto& f : flows)
    {
        InstallMainlineSource(t.hosts.Get(f.src),
                              t.hostAddr[f.dst],
                              uint16_t(10000 + next[f.src]++),
                              DataRate(DataRate(rate).GetBitRate() / outDegree[f.src]),
                              payload);
    }
    uint32_t hooked = HopCounter::ConnectAll<PointToPointNetDevice>();
    RunStats s;
    s.buildWallS = build.Seconds();

    RunAndMeasure(duration, s);

    uint64_t rx = 0;
    for (auto& sink : sinks)
    {
        rx += MainlineSinkBytes(sink);
    }
    MainlineQueueTotals q = SumQueueDiscStats();
    StandardLine(name, "mainline", s)
        .Add("scheduler", scheduler)
        .Add("k", k)
        .Add("pattern", pattern)
        .Add("hosts", n)
        .Add("switches", t.switches.GetN())
        .Add("links", t.links)
        .Add("flows", uint64_t(flows.size()))
        .Add("topology_build_s", topoWall)
        .Add("topology_rss_mb", topoRss)
        .Add("devices_hooked", hooked)
        .Add("rx_bytes", rx)
        .Add("rx_gbps_per_host", s.simTimeS > 0 ? rx * 8.0 / s.simTimeS / n / 1e9 : 0.0)
        .Add("drops", q.drops)
        .Add("ecn_marks", q.ecnMarks)
        .Print();
    Simulator::Destroy();
    return 0;
}
