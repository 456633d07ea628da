/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Benchmark (1), mlnet: N-to-1 incast at 100 Gbps on a dumbbell (N senders on one switch, the
// receiver on the other), PFC on. Prints one JSON line.

#include "bench-common.h"
#include "mlnet-traffic.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

using namespace ns3;
using namespace ns3::bench;

int
main(int argc, char* argv[])
{
    uint32_t senders = 16;
    double duration = 0.002;
    std::string rate = "100Gbps";
    uint32_t payload = 1000;
    bool pfc = true;
    std::string scheduler = EventSchedulerHelper::DefaultType(); // both simulators alike
    std::string name = "incast16";

    std::string transport = "rdma";
    uint64_t flowBytes = 0;
    uint32_t ackInterval = 1;
    uint64_t floorEvents = 1000000;
    uint32_t floorPopulation = 128;
    CommandLine cmd(__FILE__);
    cmd.AddValue("senders", "Number of senders", senders);
    cmd.AddValue("duration", "Simulated seconds", duration);
    cmd.AddValue("rate", "Link and sender rate", rate);
    cmd.AddValue("payload", "Payload bytes per packet", payload);
    cmd.AddValue("pfc", "PFC on the switches", pfc);
    cmd.AddValue("transport",
                 "mlnet traffic: rdma (DCQCN queue pairs) or udp (constant rate)",
                 transport);
    cmd.AddValue(
        "scheduler",
        "Event scheduler: Map, Heap, List, Calendar, PriorityQueue, QuadHeap, TimingWheel or "
        "a TypeId name",
        scheduler);
    cmd.AddValue("flowBytes",
                 "RDMA: every sender sends one message of this many bytes and the run ends when "
                 "all are acknowledged (--duration is then a limit); 0: endless senders",
                 flowBytes);
    cmd.AddValue("ackInterval",
                 "RDMA: acknowledge every this many packets (1: per packet)",
                 ackInterval);
    cmd.AddValue("floorEvents",
                 "Trivial events of the event-loop floor run first (0: none)",
                 floorEvents);
    cmd.AddValue("floorPopulation", "Events pending during the floor run", floorPopulation);
    cmd.AddValue("name", "Benchmark name in the JSON line", name);
    EventSchedulerHelper::UseDefaults();  // before Parse: --SimulatorImplementationType wins
    EventSchedulerHelper::UseHugePages(); // a benchmark owns its process
    cmd.Parse(argc, argv);
    if (flowBytes > 0 && transport != "rdma")
    {
        std::cerr << "mlnet-bench-incast: error: --flowBytes needs --transport=rdma" << std::endl;
        return 2;
    }
    Setup(scheduler);
    RunStats s;
    MeasureEventFloor(scheduler, floorEvents, floorPopulation, s);

    WallClock build;
    FabricTopologyHelper topo;
    topo.SetHostLinkRate(DataRate(rate));
    topo.SetFabricLinkRate(DataRate(rate));
    topo.SetLinkDelay(MicroSeconds(1));
    topo.Fabric().SetSwitchAttribute("PfcEnabled", BooleanValue(pfc));
    FabricTopology t = topo.BuildDumbbell(senders, 1);
    InstallMlnetSink(t.hosts.Get(senders));
    MlnetFlowParams fp;
    fp.transport = transport;
    fp.rate = DataRate(rate);
    fp.payload = payload;
    fp.ackInterval = ackInterval;
    fp.messageBytes = flowBytes;
    uint32_t done = 0;
    Time lastDone;
    if (flowBytes > 0)
    {
        fp.onDone = [&done, &lastDone, senders]() {
            lastDone = Simulator::Now();
            if (++done == senders)
            {
                Simulator::Stop();
            }
        };
    }
    for (uint32_t i = 0; i < senders; ++i)
    {
        InstallMlnetSource(t.hosts.Get(i), t.hosts.Get(senders), uint16_t(10000 + i), fp);
    }
    uint32_t hooked = HopCounter::UseFrameCounters<FabricNetDevice>();
    s.buildWallS = build.Seconds();

    RunAndMeasure(duration, s);

    MlnetSwitchTotals sw = SumSwitchStats(t);
    StandardLine(name, "mlnet", s)
        .Add("scheduler", scheduler)
        .Add("transport", transport)
        .Add("hosts", t.hosts.GetN())
        .Add("switches", t.switches.GetN())
        .Add("devices_hooked", hooked)
        .Add("rx_bytes", ReceivedBytes(t.hosts.Get(senders)))
        .Add("drops", sw.drops)
        .Add("ecn_marks", sw.ecnMarks)
        .Add("pfc_pauses", sw.pauses)
        .Add("pfc", pfc)
        .Add("ack_interval", ackInterval)
        .Add("flow_bytes", flowBytes)
        .Add("flows_done", done)
        .Add("completion_s", lastDone.GetSeconds())
        .Print();
    Simulator::Destroy();
    return 0;
}
