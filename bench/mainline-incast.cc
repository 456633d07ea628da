/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Benchmark (1), mainline ns-3 baseline: the same N-to-1 incast as mlnet-bench-incast on
// point-to-point links with RED/ECN queue discs, UDP ECT(0) senders and global routing with
// random ECMP. Prints one JSON line.

#include "bench-common.h"
#include "mainline-common.h"

#include "ns3/core-module.h"
#include "ns3/point-to-point-module.h"

using namespace ns3;
using namespace ns3::bench;

int
main(int argc, char* argv[])
{
    uint32_t senders = 16;
    double duration = 0.002;
    std::string rate = "100Gbps";
    uint32_t payload = 1000;
    std::string scheduler = EventSchedulerHelper::DefaultType(); // both simulators alike
    std::string name = "incast16";

    CommandLine cmd(__FILE__);
    cmd.AddValue("senders", "Number of senders", senders);
    cmd.AddValue("duration", "Simulated seconds", duration);
    cmd.AddValue("rate", "Link and sender rate", rate);
    cmd.AddValue("payload", "Payload bytes per packet", payload);
    cmd.AddValue(
        "scheduler",
        "Event scheduler: Map, Heap, List, Calendar, PriorityQueue, QuadHeap, TimingWheel or "
        "a TypeId name",
        scheduler);
    cmd.AddValue("name", "Benchmark name in the JSON line", name);
    EventSchedulerHelper::UseDefaults();  // before Parse: --SimulatorImplementationType wins
    EventSchedulerHelper::UseHugePages(); // a benchmark owns its process
    cmd.Parse(argc, argv);
    Setup(scheduler);
    MainlineDefaults();

    WallClock build;
    MainlineLinkParams lp;
    lp.rate = DataRate(rate);
    MainlineTopology t = BuildMainlineDumbbell(senders, 1, lp);
    Ptr<Application> sink = InstallMainlineSink(t.hosts.Get(senders));
    for (uint32_t i = 0; i < senders; ++i)
    {
        InstallMainlineSource(t.hosts.Get(i),
                              t.hostAddr[senders],
                              uint16_t(10000 + i),
                              DataRate(rate),
                              payload);
    }
    uint32_t hooked = HopCounter::ConnectAll<PointToPointNetDevice>();
    RunStats s;
    s.buildWallS = build.Seconds();

    RunAndMeasure(duration, s);

    MainlineQueueTotals q = SumQueueDiscStats();
    StandardLine(name, "mainline", s)
        .Add("scheduler", scheduler)
        .Add("hosts", t.hosts.GetN())
        .Add("switches", t.switches.GetN())
        .Add("devices_hooked", hooked)
        .Add("rx_bytes", MainlineSinkBytes(sink))
        .Add("drops", q.drops)
        .Add("ecn_marks", q.ecnMarks)
        .Print();
    Simulator::Destroy();
    return 0;
}
