/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The bare ns-3 event-loop floor: N trivial events (count and schedule the successor) through
// the same scheduler as the scenario benchmarks, with a fixed number of events pending. Every
// scenario program measures the same floor in its own process first (floor_* fields); this
// program prints it as a line of its own. Prints one JSON line.

#include "bench-common.h"

#include "ns3/core-module.h"

using namespace ns3;
using namespace ns3::bench;

int
main(int argc, char* argv[])
{
    uint64_t events = 10000000;
    uint32_t population = 128;
    std::string scheduler = EventSchedulerHelper::DefaultType(); // both simulators alike
    std::string name = "floor";
    CommandLine cmd(__FILE__);
    cmd.AddValue("events", "Trivial events to execute (>= 1)", events);
    cmd.AddValue("population", "Events pending at any time (>= 1)", population);
    cmd.AddValue(
        "scheduler",
        "Event scheduler: Map, Heap, List, Calendar, PriorityQueue, QuadHeap, TimingWheel or "
        "a TypeId name",
        scheduler);
    cmd.AddValue("name", "Benchmark name in the JSON line", name);
    EventSchedulerHelper::UseDefaults();  // before Parse: --SimulatorImplementationType wins
    EventSchedulerHelper::UseHugePages(); // a benchmark owns its process
    cmd.Parse(argc, argv);
    if (events == 0 || population == 0)
    {
        std::cerr << "mlnet-bench-floor: error: --events and --population must be >= 1"
                  << std::endl;
        return 2;
    }
    Setup(scheduler);
    RunStats s;
    MeasureEventFloor(scheduler, events, population, s);
    s.events = s.floorEvents;
    s.runWallS = s.floorWallS;
    s.runCpuS = s.floorCpuS;
    s.peakRssMb = PeakRssMb();
    StandardLine(name, "ns-3", s)
        .Add("scheduler", scheduler)
        .Add("population", population)
        .Add("ns_per_event_wall", s.floorWallS * 1e9 / double(s.floorEvents))
        .Print();
    return 0;
}
