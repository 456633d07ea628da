/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ECN marking in simulation. At enqueue (EcnMarkingPoint = Enqueue): a burst into a very slow
// egress port builds the queue linearly, so the i-th packet finds a known queue length. At
// dequeue (the default): the burst is queued first, then drains, and each packet leaves a known
// queue behind (the port's QueueBytes trace just before it goes on the wire). Either way the
// marked fraction per queue-length bin must follow the RED curve, and packets that are not
// ECN-capable are never marked. An RDMA incast then shows DCQCN reacting earlier with dequeue
// marking: a lower peak queue.

#include "common/rdma-scenario.h"
#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{
const uint64_t kKmin = 100000;
const uint64_t kKmax = 4100000;
const double kPmax = 0.2;
const uint32_t kPacket = 1028; // IPv4 bytes of a 1000-byte UDP payload

/// One packet at the slow egress port: the queue (bytes) its marking decision used, and the mark.
struct Sample
{
    uint64_t queue;
    bool marked;
};

/// \return whether the packet carries CE
bool
IsCe(Ptr<const Packet> p)
{
    FlowKey k;
    k.Parse(*p);
    return k.ecn == 3;
}

/**
 * A burst of `packets` 1028-byte packets at 100 Gb/s into an egress port of `rate`.
 * Enqueue marking: samples in arrival order, queue = i packets (packet 0 went straight to the
 * wire). Dequeue marking: samples in departure order, queue = what the packet leaves behind.
 */
std::vector<Sample>
RunBurst(bool ect, uint32_t packets, uint32_t run, bool atDequeue)
{
    RngSeedManager::SetRun(run);
    FabricTopologyHelper topo;
    topo.Fabric().SetSwitchAttribute("PfcEnabled", BooleanValue(false));
    topo.Fabric().SetSwitchAttribute("EcnScaleWithRate", BooleanValue(false));
    topo.Fabric().SetSwitchAttribute("EcnKmin", UintegerValue(kKmin));
    topo.Fabric().SetSwitchAttribute("EcnKmax", UintegerValue(kKmax));
    topo.Fabric().SetSwitchAttribute("EcnPmax", DoubleValue(kPmax));
    topo.Fabric().SetSwitchAttribute(
        "EcnMarkingPoint",
        EnumValue(atDequeue ? FabricSwitch::ECN_AT_DEQUEUE : FabricSwitch::ECN_AT_ENQUEUE));
    // The bottleneck between the two switches: at enqueue only arrivals matter (1 Mb/s: one
    // packet leaves during the run); at dequeue the whole burst drains (1 Gb/s, ~37 ms).
    topo.SetFabricLinkRate(DataRate(atDequeue ? "1Gbps" : "1Mbps"));
    FabricTopology t = topo.BuildDumbbell(1, 1);
    Ptr<FabricSwitch> sw = t.edge.Get(0)->GetObject<FabricSwitch>();
    Ptr<FabricNetDevice> egress = sw->GetPort(sw->GetRoute(t.HostAddress(1)).at(0));
    std::vector<Sample> samples;
    uint64_t queue = 0; // data class queue after the last change
    egress->TraceConnectWithoutContext(
        "QueueBytes",
        Callback<void, uint8_t, uint64_t>([&queue](uint8_t, uint64_t bytes) { queue = bytes; }));
    if (atDequeue)
    {
        egress->TraceConnectWithoutContext(
            "PhyTxBegin",
            Callback<void, Ptr<const Packet>>([&samples, &queue](Ptr<const Packet> p) {
                samples.push_back({queue, IsCe(p)});
            }));
    }
    else
    {
        egress->TraceConnectWithoutContext(
            "MacTx",
            Callback<void, Ptr<const Packet>>([&samples](Ptr<const Packet> p) {
                samples.push_back({uint64_t(samples.size()) * kPacket, IsCe(p)});
            }));
    }
    Ptr<ConstantRateFlow> f = CreateObject<ConstantRateFlow>();
    f->SetAttribute("Remote", Ipv4AddressValue(t.HostAddress(1)));
    f->SetAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
    f->SetAttribute("MaxBytes", UintegerValue(uint64_t(packets) * kPacket));
    f->SetAttribute("Ect", BooleanValue(ect));
    t.hosts.Get(0)->AddApplication(f);
    Simulator::Stop(MilliSeconds(atDequeue ? 50 : 2));
    Simulator::Run();
    uint64_t marks = sw->GetPortStats(sw->GetRoute(t.HostAddress(1)).at(0)).ecnMarks;
    Simulator::Destroy();
    REQUIRE(uint64_t(std::count_if(samples.begin(), samples.end(), [](const Sample& s) {
                return s.marked;
            })) == marks);
    return samples;
}

/// The marked fraction per queue bin between Kmin and Kmax follows the RED curve; none below
/// Kmin, all above Kmax.
void
CheckCurve(const std::vector<Sample>& samples)
{
    const int bins = 8;
    for (int b = 0; b < bins; ++b)
    {
        uint64_t from = kKmin + (kKmax - kKmin) * b / bins;
        uint64_t to = kKmin + (kKmax - kKmin) * (b + 1) / bins;
        double expect = 0;
        double seen = 0;
        uint32_t n = 0;
        for (const Sample& s : samples)
        {
            if (s.queue > from && s.queue <= to)
            {
                expect += FabricSwitch::EcnProbability(s.queue, kKmin, kKmax, kPmax);
                seen += s.marked ? 1 : 0;
                n++;
            }
        }
        REQUIRE(n > 400);
        expect /= n;
        seen /= n;
        double sigma = std::sqrt(expect * (1 - expect) / n);
        INFO("bin " << b << " expected " << expect << " seen " << seen);
        REQUIRE(std::abs(seen - expect) < 4 * sigma + 0.005);
    }
    for (const Sample& s : samples)
    {
        INFO("queue " << s.queue);
        if (s.queue <= kKmin)
        {
            REQUIRE_FALSE(s.marked);
        }
        else if (s.queue > kKmax)
        {
            REQUIRE(s.marked);
        }
    }
}
} // namespace

TEST_CASE("fabric: ecn marking fraction follows the Kmin/Kmax/Pmax curve (enqueue)", "[fabric]")
{
    const uint32_t n = 4500;
    std::vector<Sample> m = RunBurst(true, n, 1, false);
    REQUIRE(m.size() == n);
    CheckCurve(m);
}

TEST_CASE("fabric: ecn marking fraction follows the Kmin/Kmax/Pmax curve (dequeue, left behind)",
          "[fabric]")
{
    const uint32_t n = 4500;
    std::vector<Sample> m = RunBurst(true, n, 1, true);
    REQUIRE(m.size() == n); // the whole burst left
    // The queue builds while the burst arrives (the first packet leaves it empty), then
    // drains: the packets leaving at the peak leave more than Kmax behind, the last one none.
    REQUIRE(m.front().queue == 0);
    REQUIRE(std::max_element(m.begin(), m.end(), [](const Sample& a, const Sample& b) {
                return a.queue < b.queue;
            })->queue > kKmax);
    REQUIRE(m.back().queue == 0);
    CheckCurve(m);
}

TEST_CASE("fabric: packets that are not ECN-capable are never marked", "[fabric]")
{
    for (bool atDequeue : {false, true})
    {
        std::vector<Sample> m = RunBurst(false, 4500, 1, atDequeue);
        REQUIRE(m.size() == 4500);
        REQUIRE(std::count_if(m.begin(), m.end(), [](const Sample& s) { return s.marked; }) == 0);
    }
}

TEST_CASE("fabric: the ECN marking point is an attribute, Dequeue by default", "[fabric]")
{
    Ptr<FabricSwitch> sw = CreateObject<FabricSwitch>();
    // Read as a string: EnumValue is a class template from ns-3.41 on (portable both ways).
    StringValue v;
    sw->GetAttribute("EcnMarkingPoint", v);
    REQUIRE(v.Get() == "Dequeue");
    REQUIRE(sw->SetAttributeFailSafe("EcnMarkingPoint", StringValue("Enqueue")));
    sw->GetAttribute("EcnMarkingPoint", v);
    REQUIRE(v.Get() == "Enqueue");
    REQUIRE_FALSE(sw->SetAttributeFailSafe("EcnMarkingPoint", StringValue("Egress")));
}

namespace
{
struct IncastPeak
{
    uint64_t peakQueue{0};
    uint64_t pauses{0};
    uint64_t cnps{0};
    double lastFinish{0};
};

/// 8-to-1 RDMA incast of 2 MB messages with DCQCN and PFC at 100 Gb/s.
IncastPeak
RunRdmaIncast(const std::string& point)
{
    Config::SetDefault("ns3::FabricSwitch::EcnMarkingPoint", StringValue(point));
    RngSeedManager::SetRun(1);
    const uint32_t n = 8;
    mlnettest::RdmaDumbbell d(n, 1);
    Config::SetDefault("ns3::FabricSwitch::EcnMarkingPoint", StringValue("Dequeue"));
    std::vector<Ptr<RdmaQueuePair>> qps;
    for (uint32_t i = 0; i < n; ++i)
    {
        qps.push_back(d.Connect(i, n));
        qps.back()->PostSend(2000000);
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    IncastPeak r;
    Ptr<FabricSwitch> left = d.topo.edge.Get(0)->GetObject<FabricSwitch>();
    r.peakQueue = left->GetPortStats(left->GetRoute(d.topo.HostAddress(n)).at(0)).maxQueueBytes;
    r.pauses = d.Pauses();
    for (auto& qp : qps)
    {
        r.cnps += qp->GetCnpsReceived();
        REQUIRE(qp->GetCcState().bytesSent >= 2000000);
    }
    REQUIRE(d.DroppedBytes() == 0);
    Simulator::Destroy();
    return r;
}
} // namespace

TEST_CASE("fabric: dequeue marking makes DCQCN react earlier than enqueue marking (lower peak "
          "queue)",
          "[fabric]")
{
    IncastPeak enq = RunRdmaIncast("Enqueue");
    IncastPeak deq = RunRdmaIncast("Dequeue");
    INFO("peak queue enqueue " << enq.peakQueue << " B, dequeue " << deq.peakQueue << " B; pauses "
                               << enq.pauses << " / " << deq.pauses << "; CNPs " << enq.cnps
                               << " / " << deq.cnps);
    REQUIRE(enq.cnps > 0);
    REQUIRE(deq.cnps > 0);
    REQUIRE(deq.peakQueue < enq.peakQueue);
}

namespace
{
/// The same 8-to-1 incast as a JSON scenario, with the given "fabric" block.
std::string
IncastScenario(const std::string& fabric)
{
    std::string traffic;
    for (int i = 0; i < 8; ++i)
    {
        traffic += std::string(i ? ", " : "") + R"({"type": "rdma", "src": )" + std::to_string(i) +
                   R"(, "dst": 8, "bytes": "2MB"})";
    }
    return R"({"topology": {"type": "dumbbell", "left": 8, "right": 1}, "fabric": )" + fabric +
           R"(, "traffic": [)" + traffic + R"(], "duration": "100us"})";
}
} // namespace

TEST_CASE("fabric: scenario key fabric.ecnMarking selects the marking point", "[fabric]")
{
    CHECK(mlnettest::ScenarioParseError(IncastScenario(R"({"ecnMarking": "egress"})")) ==
          "scenario: fabric.ecnMarking = \"egress\": must be one of dequeue, enqueue");
    CHECK(mlnettest::ScenarioParseError(IncastScenario(R"({"ecnMarking": true})"))
              .find("scenario: fabric.ecnMarking = true: ") == 0);
    ScenarioResult enq = mlnettest::RunScenarioText(IncastScenario(R"({"ecnMarking": "enqueue"})"));
    ScenarioResult deq = mlnettest::RunScenarioText(IncastScenario(R"({"ecnMarking": "dequeue"})"));
    ScenarioResult def = mlnettest::RunScenarioText(IncastScenario("{}"));
    REQUIRE(enq.summary.flowsCompleted == 8);
    REQUIRE(deq.summary.flowsCompleted == 8);
    INFO("max queue enqueue " << enq.summary.maxQueueBytes << " B, dequeue "
                              << deq.summary.maxQueueBytes << " B");
    CHECK(deq.summary.maxQueueBytes < enq.summary.maxQueueBytes);
    CHECK(def.summary.maxQueueBytes == deq.summary.maxQueueBytes); // dequeue is the default
    CHECK(def.summary.ecnMarks == deq.summary.ecnMarks);
}
