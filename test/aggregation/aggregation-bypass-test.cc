/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The PANAMA device's two output paths (PassThroughPath): a pass-through frame and a backlog of
// aggregation results on one port, and a backlog of each, against the analytical departure
// times; and the idle-network bound of ring all-reduce against in-network aggregation.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"
#include "ns3/network-module.h"

#include <catch2/catch.hpp>
#include <stdexcept>

using namespace ns3;

namespace
{

/// When each frame started on the device's switch-side port, and how large it was.
struct Departure
{
    Time at;
    uint32_t bytes;
};

/**
 * A device between two ports (10 Gb/s, 1 us links), root of one tree whose `fanIn` children
 * sit on the switch side. At t = 0 the children's contributions to one chunk arrive on the
 * switch side (the root multicasts `fanIn` results back out of that port); at t = 1 ns
 * `passFrames` pass-through datagrams of `passBytes` arrive on the link side, bound for the
 * switch side.
 */
std::vector<Departure>
Run(AggregationDevice::PassThroughPath path,
    uint16_t fanIn,
    uint32_t passBytes,
    AggregationDeviceStats& stats,
    uint32_t passFrames = 1)
{
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> d = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    auto port = [](Ptr<Node> n) {
        Ptr<FabricNetDevice> p = CreateObject<FabricNetDevice>();
        p->SetAttribute("DataRate", DataRateValue(DataRate("10Gbps")));
        n->AddDevice(p);
        return p;
    };
    Ptr<FabricNetDevice> pa = port(a);
    Ptr<FabricNetDevice> ds = port(d);
    Ptr<FabricNetDevice> dl = port(d);
    Ptr<FabricNetDevice> pb = port(b);
    for (auto [x, y] : {std::make_pair(pa, ds), std::make_pair(dl, pb)})
    {
        Ptr<FabricChannel> ch = CreateObject<FabricChannel>();
        ch->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
        x->Attach(ch);
        y->Attach(ch);
    }
    Ptr<AggregationDevice> dev = CreateObject<AggregationDevice>();
    dev->SetAttribute("PassThroughPath", EnumValue(path));
    Ptr<AggregationEngine> e = CreateObject<AggregationEngine>();
    e->SetAttribute("TimingModel", PointerValue(CreateObject<LineRateTimingModel>()));
    e->SetAddress(Ipv4Address("172.16.0.9"));
    dev->SetEngine(e);
    d->AggregateObject(dev);
    dev->SetPorts(ds, dl);
    AggTreeConfig c;
    c.spec.jobId = 7;
    c.spec.treeId = 0;
    c.spec.fanIn = fanIn;
    c.spec.slots = 4;
    c.spec.root = true;
    c.spec.subtreeWorkers = fanIn;
    c.spec.jobWorkers = fanIn;
    for (uint16_t i = 0; i < fanIn; ++i)
    {
        c.children.push_back(Ipv4Address(0x0a000001 + i));
        c.childrenOnLinkSide.push_back(false);
    }
    e->AddTree(c);

    std::vector<Departure> out;
    ds->TraceConnectWithoutContext("PhyTxBegin",
                                   Callback<void, Ptr<const Packet>>([&out](Ptr<const Packet> p) {
                                       out.push_back({Simulator::Now(), p->GetSize()});
                                   }));
    AggregationStackHeader h;
    h.dst = e->GetAddress();
    h.ecn = 2;
    h.agg.jobId = 7;
    h.agg.treeId = 0;
    h.agg.seq = 0;
    h.agg.elements = 256;
    for (uint16_t i = 0; i < fanIn; ++i)
    {
        h.src = c.children[i];
        h.agg.sender = i;
        Ptr<Packet> p = AggregationStackHeader::Build(h, nullptr);
        Simulator::Schedule(Time(0),
                            &FabricNetDevice::Receive,
                            ds,
                            p,
                            FabricNetDevice::kEtherTypeIpv4);
    }
    // Not for the device (another destination): passes through, link side to switch side.
    AggregationStackHeader other = h;
    other.src = Ipv4Address("10.1.0.1");
    other.dst = Ipv4Address("10.0.0.99");
    other.agg.elements = (passBytes - AggregationStackHeader::kSize) / 4;
    for (uint32_t i = 0; i < passFrames; ++i)
    {
        Simulator::Schedule(NanoSeconds(1),
                            &FabricNetDevice::Receive,
                            dl,
                            AggregationStackHeader::Build(other, nullptr),
                            FabricNetDevice::kEtherTypeIpv4);
    }
    Simulator::Run();
    stats = dev->GetStats();
    Simulator::Destroy();
    return out;
}

} // namespace

TEST_CASE("aggregation: a pass-through frame bypasses the device's backlog of results, or "
          "waits behind it in a shared FIFO",
          "[aggregation]")
{
    const uint16_t fanIn = 8;
    const uint32_t result = AggregationStackHeader::kSize + 256 * 4; // 1072 B datagram
    const uint32_t pass = AggregationStackHeader::kSize + 16 * 4;    // 112 B datagram
    // Wire time of a result at 10 Gb/s: (1072 + 38 B of Ethernet framing) x 8 / 10^10 s.
    const Time tr = NanoSeconds((result + 38) * 8 / 10);
    REQUIRE(tr == NanoSeconds(888));
    for (auto path : {AggregationDevice::BYPASS, AggregationDevice::SHARED_FIFO})
    {
        INFO((path == AggregationDevice::BYPASS ? "Bypass" : "SharedFifo"));
        AggregationDeviceStats st;
        std::vector<Departure> out = Run(path, fanIn, pass, st);
        REQUIRE(st.results == fanIn);
        REQUIRE(st.passThrough[1] == 1);
        REQUIRE(out.size() == fanIn + 1u);
        // The first result leaves at once (the port was idle); the pass-through frame arrives
        // 1 ns later, with fanIn - 1 results still waiting.
        REQUIRE(out[0].at == Time(0));
        REQUIRE(out[0].bytes == result);
        std::size_t k = 0;
        while (k < out.size() && out[k].bytes != pass)
        {
            ++k;
        }
        REQUIRE(k < out.size());
        const Time wait = out[k].at - NanoSeconds(1);
        if (path == AggregationDevice::BYPASS)
        {
            // Bypass: it waits only for the frame on the wire (non-preemptive), then goes
            // ahead of the 7 waiting results.
            REQUIRE(k == 1);
            REQUIRE(out[k].at == tr);
            REQUIRE(wait == tr - NanoSeconds(1));
            REQUIRE(st.maxResultBytes == (fanIn - 1u) * result);
        }
        else
        {
            // Shared FIFO: behind every result queued before it, fanIn x tr.
            REQUIRE(k == fanIn);
            REQUIRE(out[k].at == fanIn * tr);
            REQUIRE(wait == fanIn * tr - NanoSeconds(1));
            REQUIRE(st.maxResultBytes == 0);
        }
        // Either way the port stays busy back to back and every result leaves.
        for (std::size_t i = 1; i < out.size(); ++i)
        {
            Time prev = out[i - 1].bytes == result ? tr : NanoSeconds((pass + 38) * 8 / 10);
            REQUIRE(out[i].at - out[i - 1].at == prev);
        }
    }
}

TEST_CASE("aggregation: a backlog of pass-through frames does not starve the device's "
          "results (Bypass takes the two in turn)",
          "[aggregation]")
{
    // The cause of the 136 ms PANAMA iteration at k=4, load 0.05, seed 1 (doc/aggregation.rst):
    // a 1.1 GB background flow crossed the root device's port at line rate, in the direction
    // of its results; with pass-through frames always first, the results waited for the flow
    // (up to 15 ms) and the tree was clocked by its workers' 0.5 ms retransmission timer.
    const uint16_t fanIn = 8;
    const uint32_t passFrames = 40;                                  // a longer backlog
    const uint32_t result = AggregationStackHeader::kSize + 256 * 4; // 1072 B datagram
    const uint32_t pass = AggregationStackHeader::kSize + 296 * 4;   // 1232 B datagram
    const Time tr = NanoSeconds((result + 38) * 8 / 10);             // on the wire at 10 Gb/s
    const Time tp = NanoSeconds((pass + 38) * 8 / 10);
    REQUIRE(tr == NanoSeconds(888));
    REQUIRE(tp == NanoSeconds(1016));
    AggregationDeviceStats st;
    std::vector<Departure> out = Run(AggregationDevice::BYPASS, fanIn, pass, st, passFrames);
    REQUIRE(st.results == fanIn);
    REQUIRE(st.passThrough[1] == passFrames);
    REQUIRE(out.size() == fanIn + passFrames);
    std::vector<std::size_t> results;
    for (std::size_t i = 0; i < out.size(); ++i)
    {
        REQUIRE((out[i].bytes == result || out[i].bytes == pass));
        if (out[i].bytes == result)
        {
            results.push_back(i);
        }
        if (i > 0)
        {
            // Back to back: the mux never idles while either path has a frame.
            REQUIRE(out[i].at - out[i - 1].at == (out[i - 1].bytes == result ? tr : tp));
        }
    }
    // The first result leaves at once (idle port); then the mux alternates while both wait:
    // result i is departure 2i and leaves at i (tr + tp), the last at 7 x 1904 ns = 13.3 us,
    // not behind the 40 pass-through frames (strict priority: 40 x 1016 ns + 888 ns later).
    REQUIRE(results.size() == fanIn);
    for (uint16_t i = 0; i < fanIn; ++i)
    {
        REQUIRE(results[i] == 2u * i);
        REQUIRE(out[results[i]].at == i * (tr + tp));
    }
    // And a pass-through frame still waits for at most one result (plus the frame on the
    // wire): the first leaves after the first result.
    REQUIRE(out[1].bytes == pass);
    REQUIRE(out[1].at == tr);
}

TEST_CASE("aggregation: the idle-network bound of ring all-reduce vs in-network aggregation",
          "[aggregation]")
{
    SyncBoundInput in;
    in.gradientBytes = 100e6; // 800 Mbit
    in.linkBps = 100e9;       // 8 ms at line rate
    in.workers = 4;           // ring: 2 x 3 / 4 = 1.5 x the gradient, 12 ms
    // No compute: the ratio of the bytes, 2(n-1)/n, with or without overlap.
    SyncBound b = RingVsAggregationBound(in);
    REQUIRE(b.aggCommS == Approx(8e-3));
    REQUIRE(b.ringCommS == Approx(12e-3));
    REQUIRE(b.speedup == Approx(1.5));
    REQUIRE(b.speedupSerial == Approx(1.5));
    REQUIRE(b.speedupOverlap == Approx(1.5));
    // Compute: forward 5 ms, backward 10 ms. No overlap: (15 + 12) / (15 + 8) = 27 / 23;
    // backward overlapping: (5 + max(10, 12)) / (5 + max(10, 8)) = 17 / 15.
    in.forwardS = 5e-3;
    in.backwardS = 10e-3;
    b = RingVsAggregationBound(in);
    REQUIRE(b.ringSerialS == Approx(27e-3));
    REQUIRE(b.aggSerialS == Approx(23e-3));
    REQUIRE(b.speedupSerial == Approx(27.0 / 23));
    REQUIRE(b.ringOverlapS == Approx(17e-3));
    REQUIRE(b.aggOverlapS == Approx(15e-3));
    REQUIRE(b.speedupOverlap == Approx(17.0 / 15));
    REQUIRE(b.speedup == Approx(27.0 / 23));
    // A backward longer than both transfers hides them: no gain with overlap.
    in.backwardS = 20e-3;
    REQUIRE(RingVsAggregationBound(in).speedupOverlap == Approx(1.0));
    // A period of 25 ms caps both overlapped schemes (17, 15 -> 25) and the serial aggregation
    // (23 -> 25): ring 27 / 25 serial, 1 overlapped.
    in.backwardS = 10e-3;
    in.minPeriodS = 25e-3;
    b = RingVsAggregationBound(in);
    REQUIRE(b.speedupOverlap == Approx(1.0));
    REQUIRE(b.speedupSerial == Approx(27.0 / 25));
    REQUIRE(b.speedup == Approx(27.0 / 25));
    // Many workers: 2(n-1)/n -> 2; payload fractions scale each transfer.
    in = SyncBoundInput();
    in.gradientBytes = 1e6;
    in.linkBps = 1e9;
    in.workers = 1000;
    REQUIRE(RingVsAggregationBound(in).speedup == Approx(2.0 * 999 / 1000));
    in.ringPayloadFraction = 0.5;
    REQUIRE(RingVsAggregationBound(in).speedup == Approx(4.0 * 999 / 1000));
    // Bad input names the field.
    in.workers = 1;
    REQUIRE_THROWS_WITH(RingVsAggregationBound(in), Catch::Contains("workers"));
    in.workers = 4;
    in.linkBps = 0;
    REQUIRE_THROWS_WITH(RingVsAggregationBound(in), Catch::Contains("linkBps"));
    in.linkBps = 1e9;
    in.aggPayloadFraction = 1.5;
    REQUIRE_THROWS_WITH(RingVsAggregationBound(in), Catch::Contains("aggPayloadFraction"));
}
