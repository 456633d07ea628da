/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Benchmarks (2)-(4), mlnet: k-ary fat-tree at 100 Gbps with a traffic pattern:
//  (2) k=4 random permutation, (3) k=8 all-to-all shuffle, (4) k=16 build time, memory and a
//  short permutation run. Prints one JSON line.

#include "bench-common.h"
#include "mlnet-traffic.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

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

    std::string transport = "udp"; // the mainline baseline sends the same UDP traffic
    std::string devices = "none";
    uint32_t ackInterval = 1;
    double load = 0.5;
    uint64_t floorEvents = 1000000;
    uint32_t floorPopulation = 128;
    CommandLine cmd(__FILE__);
    cmd.AddValue("k", "Fat-tree arity (k^3/4 hosts)", k);
    cmd.AddValue("pattern",
                 "Traffic: permutation, shuffle, or websearch / datamining (Poisson arrivals of "
                 "RDMA messages sized by that CDF at --load, each to a random other host)",
                 pattern);
    cmd.AddValue("load", "websearch / datamining: offered load per host, fraction of --rate", load);
    cmd.AddValue("ackInterval",
                 "RDMA: acknowledge every this many packets (1: per packet)",
                 ackInterval);
    cmd.AddValue("floorEvents",
                 "Trivial events of the event-loop floor run first (0: none)",
                 floorEvents);
    cmd.AddValue("floorPopulation", "Events pending during the floor run", floorPopulation);
    cmd.AddValue("duration", "Simulated seconds", duration);
    cmd.AddValue("rate", "Link rate; a host's flows share it", rate);
    cmd.AddValue("payload", "Payload bytes per packet", payload);
    cmd.AddValue("seed", "Seed of the permutation", seed);
    cmd.AddValue("transport",
                 "mlnet traffic: rdma (DCQCN queue pairs) or udp (constant rate)",
                 transport);
    cmd.AddValue(
        "scheduler",
        "Event scheduler: Map, Heap, List, Calendar, PriorityQueue, QuadHeap, TimingWheel or "
        "a TypeId name",
        scheduler);
    cmd.AddValue("devices",
                 "In-network aggregation devices spliced into the links: none, or bump (on every "
                 "edge and aggregation uplink and every core port, as PANAMA places them); the "
                 "traffic does not aggregate, it only crosses them",
                 devices);
    cmd.AddValue("name", "Benchmark name in the JSON line (default fattree<k>-<pattern>)", name);
    EventSchedulerHelper::UseDefaults();  // before Parse: --SimulatorImplementationType wins
    EventSchedulerHelper::UseHugePages(); // a benchmark owns its process
    cmd.Parse(argc, argv);
    if (name.empty())
    {
        name = "fattree" + std::to_string(k) + "-" + pattern;
    }
    const bool cdfPattern = pattern == "websearch" || pattern == "datamining";
    if (cdfPattern && !(load > 0 && load <= 1))
    {
        std::cerr << "mlnet-bench-fattree: error: --load must be in (0, 1]" << std::endl;
        return 2;
    }
    if (cdfPattern)
    {
        transport = "rdma"; // BackgroundTraffic posts RDMA messages
    }
    Setup(scheduler);
    RunStats s;
    MeasureEventFloor(scheduler, floorEvents, floorPopulation, s);

    WallClock build;
    FabricTopologyHelper topo;
    topo.SetHostLinkRate(DataRate(rate));
    topo.SetFabricLinkRate(DataRate(rate));
    topo.SetLinkDelay(MicroSeconds(1));
    FabricTopology t = topo.BuildFatTree(k);
    if (devices == "bump")
    {
        AggregationHelper agg;
        agg.InstallDevices(t.edge, "up");
        agg.InstallDevices(t.agg, "up");
        agg.InstallDevices(t.core, "all");
    }
    else if (devices != "none")
    {
        std::cerr << "mlnet-bench-fattree: error: --devices must be none or bump" << std::endl;
        return 2;
    }
    double topoWall = build.Seconds();
    double topoRss = CurrentRssMb();

    const uint32_t n = t.hosts.GetN();
    std::vector<FlowPair> flows;
    Ptr<BackgroundTraffic> bg;
    if (cdfPattern)
    {
        MlnetFlowParams fp;
        fp.rate = DataRate(rate);
        fp.payload = payload;
        fp.ackInterval = ackInterval;
        bg = InstallMlnetBackground(t.hosts, pattern, load, fp, int64_t(seed) * 10);
    }
    else
    {
        flows = TrafficPattern(pattern, n, seed);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        InstallMlnetSink(t.hosts.Get(i));
    }
    std::vector<uint32_t> outDegree(n, 0);
    for (const auto& f : flows)
    {
        outDegree[f.src]++;
    }
    std::vector<uint32_t> next(n, 0);
    for (const auto& f : flows)
    {
        MlnetFlowParams fp;
        fp.transport = transport;
        fp.rate = DataRate(DataRate(rate).GetBitRate() / outDegree[f.src]);
        fp.payload = payload;
        fp.ackInterval = ackInterval;
        InstallMlnetSource(t.hosts.Get(f.src),
                           t.hosts.Get(f.dst),
                           uint16_t(10000 + next[f.src]++),
                           fp);
    }
    uint32_t hooked = HopCounter::UseFrameCounters<FabricNetDevice>();
    s.buildWallS = build.Seconds();

    RunAndMeasure(duration, s);

    uint64_t rx = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        rx += ReceivedBytes(t.hosts.Get(i));
    }
    MlnetSwitchTotals sw = SumSwitchStats(t);
    // Frames sent by the aggregation devices (their pass-through): the rest are the hops the
    // same traffic makes without devices.
    uint64_t deviceHops = 0;
    NetDeviceContainer ports = AggregationHelper::GetDevices();
    for (auto it = ports.Begin(); it != ports.End(); ++it)
    {
        Ptr<AggregationDevice> d = AggregationHelper::Get(*it);
        deviceHops += d->GetStats().passThrough[0] + d->GetStats().passThrough[1];
    }
    StandardLine(name, "mlnet", s)
        .Add("scheduler", scheduler)
        .Add("transport", transport)
        .Add("k", k)
        .Add("pattern", pattern)
        .Add("hosts", n)
        .Add("switches", t.switches.GetN())
        .Add("links", t.links)
        .Add("flows", bg ? bg->GetFlowsStarted() : uint64_t(flows.size()))
        .Add("load", cdfPattern ? load : 0.0)
        .Add("flows_completed_bytes", bg ? bg->GetCompletedBytes() : uint64_t(0))
        .Add("ack_interval", ackInterval)
        .Add("topology_build_s", topoWall)
        .Add("topology_rss_mb", topoRss)
        .Add("devices_hooked", hooked)
        .Add("rx_bytes", rx)
        .Add("rx_gbps_per_host", s.simTimeS > 0 ? rx * 8.0 / s.simTimeS / n / 1e9 : 0.0)
        .Add("drops", sw.drops)
        .Add("ecn_marks", sw.ecnMarks)
        .Add("pfc_pauses", sw.pauses)
        .Add("devices", devices)
        .Add("aggregation_devices", ports.GetN())
        .Add("device_hops", deviceHops)
        .Add("fabric_hops", s.packetHops - deviceHops)
        .Add("wall_ns_per_fabric_hop",
             s.packetHops > deviceHops ? s.runWallS * 1e9 / double(s.packetHops - deviceHops) : 0.0)
        .Print();
    Simulator::Destroy();
    return 0;
}
