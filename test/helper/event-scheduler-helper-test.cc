/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The event-scheduler choice: names, bad input, and identical results under every ns-3
// scheduler (they all order events by time, then insertion order).

#include "common/rdma-scenario.h"
#include "common/test-utilities.h"

#include "ns3/default-simulator-impl.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <stdexcept>

using namespace ns3;
using mlnettest::RdmaDumbbell;

namespace
{
/// GlobalValue::ResetInitialValue() of the GlobalValue of that name: as if never set.
void
ResetToInitial(const std::string& name)
{
    for (auto it = GlobalValue::Begin(); it != GlobalValue::End(); ++it)
    {
        if ((*it)->GetName() == name)
        {
            (*it)->ResetInitialValue();
        }
    }
}

/// Whether NS_GLOBAL_VALUE sets SchedulerType or SimulatorImplementationType (the whole suite
/// may run with an implementation forced: that is a user's choice the tests cannot undo).
bool
EnvSetsEngine()
{
    const char* env = std::getenv("NS_GLOBAL_VALUE");
    return env && (std::string(env).find("SchedulerType=") != std::string::npos ||
                   std::string(env).find("SimulatorImplementationType=") != std::string::npos);
}

/// Restores ns-3's SchedulerType and SimulatorImplementationType when a test ends (the tests
/// share one process): the values, and whether they count as set (a Bind would make them so).
struct SchedulerGuard
{
    std::string saved{EventSchedulerHelper::Current()};
    std::string savedImpl{EventSchedulerHelper::CurrentSimulator()};
    bool chose{EventSchedulerHelper::UserChose()};
    bool choseImpl{EventSchedulerHelper::UserChoseSimulator()};

    ~SchedulerGuard()
    {
        ResetToInitial("SchedulerType");
        ResetToInitial("SimulatorImplementationType");
        if (chose || saved != EventSchedulerHelper::Current())
        {
            GlobalValue::Bind("SchedulerType", TypeIdValue(TypeId::LookupByName(saved)));
        }
        if (choseImpl || savedImpl != EventSchedulerHelper::CurrentSimulator())
        {
            GlobalValue::Bind("SimulatorImplementationType", StringValue(savedImpl));
        }
    }
};

/// What an 8-to-1 DCQCN incast produced: every number that the event order could change.
struct IncastOutcome
{
    uint64_t events{0};
    std::vector<int64_t> completionPs;
    uint64_t cnps{0};
    uint64_t ecnMarks{0};
    uint64_t pauses{0};
    uint64_t received{0};
    uint64_t receiverFrames{0}; //!< frames (ACKs, CNPs) the receiver's port sent

    bool operator==(const IncastOutcome& o) const
    {
        return events == o.events && completionPs == o.completionPs && cnps == o.cnps &&
               ecnMarks == o.ecnMarks && pauses == o.pauses && received == o.received;
    }
};

IncastOutcome
RunIncast(Time stop = MilliSeconds(2))
{
    const uint32_t n = 8;
    RdmaDumbbell d(n, 1);
    IncastOutcome r;
    r.completionPs.assign(n, -1);
    std::vector<Ptr<RdmaQueuePair>> qps;
    for (uint32_t i = 0; i < n; ++i)
    {
        qps.push_back(d.Connect(i, n));
        qps.back()->PostSend(400000 + 10000 * i,
                             RdmaQueuePair::CompletionCallback([&r, i](uint64_t, uint64_t) {
                                 r.completionPs[i] = Simulator::Now().GetPicoSeconds();
                             }));
    }
    const uint64_t ev0 = Simulator::GetEventCount();
    Simulator::Stop(stop);
    Simulator::Run();
    r.events = Simulator::GetEventCount() - ev0;
    for (const auto& qp : qps)
    {
        r.cnps += qp->GetCnpsReceived();
    }
    for (uint32_t s = 0; s < d.topo.switches.GetN(); ++s)
    {
        Ptr<FabricSwitch> sw = d.topo.switches.Get(s)->GetObject<FabricSwitch>();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            r.ecnMarks += sw->GetPortStats(p).ecnMarks;
        }
    }
    r.pauses = d.Pauses();
    r.received = d.nics[n]->GetBytesReceived();
    r.receiverFrames = d.nics[n]->GetDevice()->GetTxFrames();
    Simulator::Destroy();
    return r;
}
} // namespace

TEST_CASE("helper: scheduler names resolve and bad names are rejected", "[helper]")
{
    SchedulerGuard guard;
    REQUIRE(EventSchedulerHelper::KnownTypes().size() == 7);
    for (const std::string& t : EventSchedulerHelper::KnownTypes())
    {
        CHECK(EventSchedulerHelper::Resolve(t) == t);
    }
    CHECK(EventSchedulerHelper::Resolve("Heap") == "ns3::HeapScheduler");
    CHECK(EventSchedulerHelper::Resolve("PriorityQueue") == "ns3::PriorityQueueScheduler");
    CHECK(EventSchedulerHelper::Resolve("QuadHeap") == "ns3::QuadHeapScheduler");
    for (const std::string bad : {"", "heap", "Fast", "ns3::Node", "ns3::Scheduler"})
    {
        INFO("'" << bad << "'");
        CHECK_THROWS_WITH(
            EventSchedulerHelper::Resolve(bad),
            Catch::Contains("not an ns-3 event scheduler") &&
                Catch::Contains("Map, Heap, List, Calendar, PriorityQueue, QuadHeap, TimingWheel"));
    }
    EventSchedulerHelper::Use("Calendar");
    CHECK(EventSchedulerHelper::Current() == "ns3::CalendarScheduler");
    CHECK_THROWS_AS(EventSchedulerHelper::Use("Splay"), std::invalid_argument);
    CHECK(EventSchedulerHelper::Current() == "ns3::CalendarScheduler"); // unchanged
    CHECK(EventSchedulerHelper::UserChose());
}

TEST_CASE("helper: the default scheduler is bound unless the user chose one, --scheduler and "
          "--SchedulerType override it",
          "[helper]")
{
    SchedulerGuard guard;
    if (EnvSetsEngine())
    {
        CHECK(EventSchedulerHelper::UserChose());
        return;
    }
    ResetToInitial("SchedulerType");
    {
        CommandLine cmd;
        EventSchedulerHelper::UseDefault(cmd);
        CHECK(EventSchedulerHelper::Current() == EventSchedulerHelper::DefaultType());
        char prog[] = "prog";
        char* argv[] = {prog};
        cmd.Parse(1, argv);
        CHECK(EventSchedulerHelper::Current() == EventSchedulerHelper::DefaultType());
    }
    {
        ResetToInitial("SchedulerType");
        CommandLine cmd;
        EventSchedulerHelper::UseDefault(cmd);
        char prog[] = "prog";
        char arg[] = "--scheduler=Heap";
        char* argv[] = {prog, arg};
        cmd.Parse(2, argv);
        CHECK(EventSchedulerHelper::Current() == "ns3::HeapScheduler");
    }
    {
        CommandLine cmd;
        EventSchedulerHelper::UseDefault(cmd); // Heap is bound: the user's choice stays
        CHECK(EventSchedulerHelper::Current() == "ns3::HeapScheduler");
        char prog[] = "prog";
        char arg[] = "--SchedulerType=ns3::ListScheduler";
        char* argv[] = {prog, arg};
        cmd.Parse(2, argv);
        CHECK(EventSchedulerHelper::Current() == "ns3::ListScheduler");
    }
}

TEST_CASE("helper: every ns-3 scheduler gives identical results on a DCQCN incast", "[helper]")
{
    SchedulerGuard guard;
    std::vector<IncastOutcome> out;
    for (const std::string& t : EventSchedulerHelper::KnownTypes())
    {
        EventSchedulerHelper::Use(t);
        out.push_back(RunIncast());
    }
    const IncastOutcome& ref = out.front();
    // The run exercises what the order of simultaneous events could change.
    REQUIRE(ref.received == 8 * 400000 + 10000 * 28);
    for (int64_t ps : ref.completionPs)
    {
        REQUIRE(ps > 0);
    }
    REQUIRE(ref.ecnMarks > 0);
    REQUIRE(ref.cnps > 0);
    for (std::size_t i = 1; i < out.size(); ++i)
    {
        INFO(EventSchedulerHelper::KnownTypes()[i] << ": events " << out[i].events << " vs "
                                                   << ref.events << ", marks " << out[i].ecnMarks
                                                   << " vs " << ref.ecnMarks);
        CHECK(out[i] == ref);
    }
}

TEST_CASE("helper: simulator implementation names resolve, bad ones are rejected, and the "
          "default is bound unless the user chose one",
          "[helper]")
{
    SchedulerGuard guard;
    CHECK(EventSchedulerHelper::ResolveSimulator("mlnet") == "ns3::MlnetSimulatorImpl");
    CHECK(EventSchedulerHelper::ResolveSimulator("ns3") == "ns3::DefaultSimulatorImpl");
    CHECK(EventSchedulerHelper::ResolveSimulator("ns3::RealtimeSimulatorImpl") ==
          "ns3::RealtimeSimulatorImpl");
    for (const std::string bad : {"", "Mlnet", "ns3::Node", "ns3::SimulatorImpl", "ns3::Scheduler"})
    {
        INFO("'" << bad << "'");
        CHECK_THROWS_WITH(EventSchedulerHelper::ResolveSimulator(bad),
                          Catch::Contains("not an ns-3 simulator implementation") &&
                              Catch::Contains("accepted: mlnet, ns3"));
    }
    if (EnvSetsEngine())
    {
        // The whole suite runs with an implementation forced: that is the user's choice.
        CHECK((EventSchedulerHelper::UserChoseSimulator() || EventSchedulerHelper::UserChose()));
        return;
    }
    ResetToInitial("SimulatorImplementationType");
    CHECK_FALSE(EventSchedulerHelper::UserChoseSimulator());
    {
        CommandLine cmd;
        EventSchedulerHelper::UseDefault(cmd);
        CHECK(EventSchedulerHelper::CurrentSimulator() == "ns3::MlnetSimulatorImpl");
        char prog[] = "prog";
        char arg[] = "--simulator=ns3";
        char* argv[] = {prog, arg};
        cmd.Parse(2, argv);
        CHECK(EventSchedulerHelper::CurrentSimulator() == "ns3::DefaultSimulatorImpl");
    }
    // A user's choice (here a real-time implementation) is kept.
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::RealtimeSimulatorImpl"));
    CHECK(EventSchedulerHelper::UserChoseSimulator());
    EventSchedulerHelper::UseDefaults();
    CHECK(EventSchedulerHelper::CurrentSimulator() == "ns3::RealtimeSimulatorImpl");
    CHECK_THROWS_AS(EventSchedulerHelper::UseSimulator("fast"), std::invalid_argument);
    CHECK(EventSchedulerHelper::CurrentSimulator() == "ns3::RealtimeSimulatorImpl");
}

TEST_CASE("helper: an explicit choice of ns-3's own engine is kept by UseDefaults, and "
          "mlnet's own binding is no choice",
          "[helper]")
{
    SchedulerGuard guard;
    if (EnvSetsEngine())
    {
        CHECK((EventSchedulerHelper::UserChose() || EventSchedulerHelper::UserChoseSimulator()));
        return;
    }
    // Never set (as at program start): no choice, and nothing bound until asked.
    ResetToInitial("SchedulerType");
    ResetToInitial("SimulatorImplementationType");
    CHECK_FALSE(EventSchedulerHelper::UserChose());
    CHECK_FALSE(EventSchedulerHelper::UserChoseSimulator());
    CHECK(EventSchedulerHelper::Current() == "ns3::MapScheduler");
    CHECK(EventSchedulerHelper::CurrentSimulator() == "ns3::DefaultSimulatorImpl");

    // The user binds ns-3's own defaults: the same values as the initial ones, but a choice.
    GlobalValue::Bind("SchedulerType", TypeIdValue(TypeId::LookupByName("ns3::MapScheduler")));
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    CHECK(EventSchedulerHelper::UserChose());
    CHECK(EventSchedulerHelper::UserChoseSimulator());
    EventSchedulerHelper::UseDefaults();
    CHECK(EventSchedulerHelper::Current() == "ns3::MapScheduler");
    CHECK(EventSchedulerHelper::CurrentSimulator() == "ns3::DefaultSimulatorImpl");
    {
        CommandLine cmd;
        EventSchedulerHelper::UseDefault(cmd);
        char prog[] = "prog";
        char* argv[] = {prog};
        cmd.Parse(1, argv);
        CHECK(EventSchedulerHelper::Current() == "ns3::MapScheduler");
        CHECK(EventSchedulerHelper::CurrentSimulator() == "ns3::DefaultSimulatorImpl");
    }
    Simulator::Destroy();
    CHECK(Simulator::GetImplementation()->GetInstanceTypeId().GetName() ==
          "ns3::DefaultSimulatorImpl");
    Simulator::Destroy();

    // ResetInitialValue() undoes the choice: UseDefaults() binds mlnet's engine, and that
    // binding is not a user's choice (a second UseDefaults() may bind again).
    ResetToInitial("SchedulerType");
    ResetToInitial("SimulatorImplementationType");
    EventSchedulerHelper::UseDefaults();
    CHECK(EventSchedulerHelper::Current() == EventSchedulerHelper::DefaultType());
    CHECK(EventSchedulerHelper::CurrentSimulator() == EventSchedulerHelper::DefaultSimulatorType());
    CHECK_FALSE(EventSchedulerHelper::UserChose());
    CHECK_FALSE(EventSchedulerHelper::UserChoseSimulator());
    // A user's later Bind, of ns-3's default again, wins over mlnet's earlier one.
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    CHECK(EventSchedulerHelper::UserChoseSimulator());
    EventSchedulerHelper::UseDefaults();
    CHECK(EventSchedulerHelper::CurrentSimulator() == "ns3::DefaultSimulatorImpl");
    CHECK(EventSchedulerHelper::Current() == EventSchedulerHelper::DefaultType());
    // A parsed --SchedulerType=ns3::MapScheduler is a choice too.
    ResetToInitial("SchedulerType");
    {
        CommandLine cmd;
        char prog[] = "prog";
        char arg[] = "--SchedulerType=ns3::MapScheduler";
        char* argv[] = {prog, arg};
        cmd.Parse(2, argv);
        CHECK(EventSchedulerHelper::UserChose());
    }
}

namespace
{
/// Stands in for ns-3's MPI implementation where this ns-3 was built without MPI (Debian's):
/// the same TypeId name, so that selecting it goes the way the real one would.
class NullMessageStandIn : public DefaultSimulatorImpl
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::NullMessageSimulatorImpl")
                                .SetParent<DefaultSimulatorImpl>()
                                .SetGroupName("MlnetTest")
                                .AddConstructor<NullMessageStandIn>();
        return tid;
    }
};
} // namespace

TEST_CASE("helper: ns-3's distributed (MPI) implementations are refused, with the reason",
          "[helper]")
{
    SchedulerGuard guard;
    for (const std::string name :
         {"ns3::DistributedSimulatorImpl", "ns3::NullMessageSimulatorImpl"})
    {
        INFO(name);
        // What --simulator=NAME and mlnet.set_simulator(NAME) call.
        CHECK_THROWS_WITH(EventSchedulerHelper::ResolveSimulator(name),
                          Catch::Contains("'" + name + "' is ns-3's distributed (MPI)") &&
                              Catch::Contains("every MPI rank would simulate the whole fabric") &&
                              !Catch::Contains("not an ns-3 simulator implementation"));
        CHECK_THROWS_AS(EventSchedulerHelper::UseSimulator(name), std::invalid_argument);
    }
    // Selected behind the helper's back (NS_GLOBAL_VALUE, --SimulatorImplementationType, a
    // Bind): building the fabric refuses it.
    TypeId mpi;
    if (!TypeId::LookupByNameFailSafe("ns3::NullMessageSimulatorImpl", &mpi))
    {
        mpi = NullMessageStandIn::GetTypeId();
    }
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", StringValue(mpi.GetName()));
    CHECK_THROWS_WITH(RdmaDumbbell(1, 1),
                      Catch::Contains("distributed (MPI) implementation, which mlnet does not "
                                      "support"));
    Simulator::Destroy();
}

TEST_CASE("helper: ns-3's and mlnet's simulator implementations give identical results on a "
          "DCQCN incast",
          "[helper]")
{
    SchedulerGuard guard;
    EventSchedulerHelper::Use(EventSchedulerHelper::DefaultType());
    EventSchedulerHelper::UseSimulator("ns3");
    IncastOutcome ref = RunIncast();
    EventSchedulerHelper::UseSimulator("mlnet");
    IncastOutcome ours = RunIncast();
    REQUIRE(ref.received == 8 * 400000 + 10000 * 28);
    REQUIRE(ref.cnps > 0);
    REQUIRE(ref.pauses + ref.ecnMarks > 0);
    // mlnet's implementation lets an idle switch port skip its transmit-complete event (a
    // reserved uid, FabricNetDevice::StartFrame), and so does the receiver's port, whose NIC
    // has no queue pair to pull from (RdmaNic::MayPull): the same results from fewer events,
    // and the same count (a skipped event counts once its time has passed).
    INFO("events: ns-3 " << ref.events << ", mlnet " << ours.events << "; receiver frames "
                         << ours.receiverFrames);
    REQUIRE(ours.receiverFrames == ref.receiverFrames);
    CHECK(ours.receiverFrames > 1000);
    CHECK(ours == ref);
}

TEST_CASE("helper: GetEventCount() is the same under ns-3's and mlnet's engines, also when the "
          "run stops with frames on the wires, and so is summary.json's events",
          "[helper]")
{
    SchedulerGuard guard;
    EventSchedulerHelper::Use(EventSchedulerHelper::DefaultType());
    // Stops in the middle of transmissions (odd times), and after the incast completed.
    for (Time stop : {NanoSeconds(3001), NanoSeconds(47317), MicroSeconds(400), MilliSeconds(2)})
    {
        INFO("stop " << stop.As(Time::NS));
        EventSchedulerHelper::UseSimulator("ns3");
        const IncastOutcome ref = RunIncast(stop);
        EventSchedulerHelper::UseSimulator("mlnet");
        const IncastOutcome ours = RunIncast(stop);
        CHECK(ref.events > 0);
        CHECK(ours.events == ref.events);
    }
    const std::string text = R"({"topology": {"type": "fat-tree", "k": 4},
            "traffic": [{"type": "rdma", "src": 0, "dst": 9, "bytes": 300000},
                        {"type": "rdma", "src": 1, "dst": 9, "bytes": 300000},
                        {"type": "periodic-job", "src": 4, "dst": 13, "compute": "3us",
                         "bytes": 20000, "iterations": 1000}],
            "duration": "150us"})";
    EventSchedulerHelper::UseSimulator("ns3");
    const ScenarioResult ref = mlnettest::RunScenarioText(text);
    EventSchedulerHelper::UseSimulator("mlnet");
    const ScenarioResult ours = mlnettest::RunScenarioText(text);
    CHECK(ref.summary.events > 10000);
    CHECK(ours.summary.events == ref.summary.events);
}
