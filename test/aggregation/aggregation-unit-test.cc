/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// In-network aggregation: the pure parts (header, element arithmetic, adder-tree timing, slot
// state machine, congestion control, engine configuration), without a simulation.

#include "ns3/core-module.h"
#include "ns3/ipv4-header.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

using namespace ns3;

namespace
{
AggTreeSpec
Spec(uint16_t fanIn, uint32_t slots, bool root)
{
    AggTreeSpec s;
    s.jobId = 7;
    s.treeId = 1;
    s.fanIn = fanIn;
    s.slots = slots;
    s.root = root;
    s.subtreeWorkers = fanIn;
    s.jobWorkers = fanIn;
    return s;
}

std::vector<uint32_t>
Words(std::vector<float> x)
{
    return AggregationValues::FromFloats(x, AggElementType::FP32);
}
} // namespace

TEST_CASE("aggregation: header serializes, deserializes and prints every field", "[aggregation]")
{
    AggregationHeader h;
    h.type = AggregationHeader::RESULT;
    h.flags = AggregationHeader::ECN_OR | AggregationHeader::VALUES;
    h.elementType = AggElementType::INT32;
    h.scaleExponent = -5;
    h.jobId = 0xbeef;
    h.treeId = 0x1234;
    h.seq = 0xdeadbeef;
    h.sender = 513;
    h.fanIn = 1024;
    h.elements = 256;
    Ptr<Packet> p = Create<Packet>(h.PayloadBytes());
    p->AddHeader(h);
    REQUIRE(p->GetSize() == AggregationHeader::kSize + 1024);
    AggregationHeader g;
    p->RemoveHeader(g);
    REQUIRE(g.type == h.type);
    REQUIRE(g.flags == h.flags);
    REQUIRE(g.elementType == h.elementType);
    REQUIRE(g.scaleExponent == -5);
    REQUIRE(g.jobId == 0xbeef);
    REQUIRE(g.treeId == 0x1234);
    REQUIRE(g.seq == 0xdeadbeef);
    REQUIRE(g.sender == 513);
    REQUIRE(g.fanIn == 1024);
    REQUIRE(g.elements == 256);
    REQUIRE(g.GetEcnOr());
    std::ostringstream os;
    g.Print(os);
    REQUIRE(os.str().find("AGG-RESULT job 48879 tree 4660 seq 3735928559") != std::string::npos);
    REQUIRE(os.str().find("ECN-OR") != std::string::npos);
    REQUIRE(os.str().find("256xint32") != std::string::npos);
}

TEST_CASE("aggregation: the header stack is a UDP datagram that carries values", "[aggregation]")
{
    AggregationStackHeader h;
    h.src = Ipv4Address("10.0.0.1");
    h.dst = Ipv4Address("172.16.0.9");
    h.dscp = 3;
    h.ecn = 2;
    h.sport = 50001;
    h.agg.jobId = 4;
    h.agg.seq = 99;
    h.agg.elements = 3;
    std::vector<uint32_t> w = Words({1.5f, -2.25f, 1e-3f});
    Ptr<Packet> p = AggregationStackHeader::Build(h, &w);
    REQUIRE(p->GetSize() == 48 + 12);
    // Ordinary IPv4/UDP for the fabric.
    FlowKey key;
    REQUIRE(key.Parse(*p));
    REQUIRE(key.protocol == 17);
    REQUIRE(key.dport == AggregationHeader::kUdpPort);
    REQUIRE(key.sport == 50001);
    REQUIRE(key.dscp == 3);
    REQUIRE(key.ecn == 2);
    Ipv4Header ip;
    p->PeekHeader(ip);
    REQUIRE(ip.GetPayloadSize() == 8 + 20 + 12);
    AggregationStackHeader g;
    REQUIRE(AggregationStackHeader::Peek(*p, g));
    REQUIRE(g.dst == h.dst);
    REQUIRE(g.agg.seq == 99);
    REQUIRE((g.agg.flags & AggregationHeader::VALUES));
    REQUIRE(AggregationStackHeader::ReadValues(*p, g) == w);
    // Size-only: virtual payload, same size, no values.
    Ptr<Packet> q = AggregationStackHeader::Build(h, nullptr);
    REQUIRE(q->GetSize() == p->GetSize());
    REQUIRE(AggregationStackHeader::Peek(*q, g));
    REQUIRE(AggregationStackHeader::ReadValues(*q, g).empty());
    // Not an aggregation packet.
    RoceV2Header r;
    Ptr<Packet> roce = Create<Packet>(100);
    roce->AddHeader(r);
    REQUIRE_FALSE(AggregationStackHeader::Peek(*roce, g));
}

TEST_CASE("aggregation: FP16 and INT32 element arithmetic", "[aggregation]")
{
    for (float x : {0.0f, 1.0f, -2.5f, 65504.0f, 6.103515625e-05f, 5.960464477539063e-08f})
    {
        REQUIRE(AggregationValues::HalfToFloat(AggregationValues::FloatToHalf(x)) == x);
    }
    REQUIRE(std::isinf(AggregationValues::HalfToFloat(AggregationValues::FloatToHalf(1e6f))));
    // Round to nearest even: 1 + 2^-11 is halfway between 1 and 1 + 2^-10.
    REQUIRE(AggregationValues::HalfToFloat(AggregationValues::FloatToHalf(1.0f + 0.00048828125f)) ==
            1.0f);
    std::vector<uint32_t> a = AggregationValues::FromFloats({1.5f, 2.0f}, AggElementType::FP16);
    std::vector<uint32_t> b = AggregationValues::FromFloats({0.25f, -3.0f}, AggElementType::FP16);
    REQUIRE(AggregationValues::Add(a, b, AggElementType::FP16) == 0);
    REQUIRE(AggregationValues::ToFloats(a, AggElementType::FP16) ==
            std::vector<float>{1.75f, -1.0f});
    // INT32: quantisation error at most half a step per value.
    const int e = 10;
    std::vector<float> x{0.1234f, -7.77f, 3.0f};
    std::vector<float> y =
        AggregationValues::ToFloats(AggregationValues::FromFloats(x, AggElementType::INT32, e),
                                    AggElementType::INT32,
                                    e);
    for (std::size_t i = 0; i < x.size(); ++i)
    {
        REQUIRE(std::fabs(y[i] - x[i]) <= 0.5 / 1024 + 1e-7);
    }
    std::vector<uint32_t> big{uint32_t(INT32_MAX)};
    std::vector<uint32_t> one{1};
    REQUIRE(AggregationValues::Add(big, one, AggElementType::INT32) == 1);
    // Wire encoding is network byte order.
    uint8_t buf[4];
    AggregationValues::Encode({0x3fc00000u}, AggElementType::FP32, buf);
    REQUIRE((buf[0] == 0x3f && buf[1] == 0xc0 && buf[2] == 0 && buf[3] == 0));
    REQUIRE(AggregationValues::Decode(buf, 1, AggElementType::FP32)[0] == 0x3fc00000u);
}

TEST_CASE("aggregation: adder-tree throughput is lanes x clock x element size", "[aggregation]")
{
    for (uint32_t lanes : {1u, 8u, 16u, 32u})
    {
        for (double clock : {200e6, 322e6, 500e6})
        {
            Ptr<AdderTreeTimingModel> m = CreateObject<AdderTreeTimingModel>();
            m->SetAttribute("Lanes", UintegerValue(lanes));
            m->SetAttribute("ClockFrequency", DoubleValue(clock));
            m->SetAttribute("TreeDepth", UintegerValue(12));
            // Offer far more than it can take: 10000 packets of 256 elements at time 0.
            Time start;
            Time done;
            const uint32_t n = 10000;
            for (uint32_t i = 0; i < n; ++i)
            {
                done = m->Schedule(Time(0), 256, start);
            }
            double busy = (done - m->GetLatency()).GetSeconds();
            double measured = n * 256.0 * 4 / busy; // bytes per second
            double expected = lanes * clock * 4;
            INFO("lanes " << lanes << " clock " << clock << " measured " << measured);
            REQUIRE(measured == Approx(expected).epsilon(0.01));
            REQUIRE(m->GetByteRate() == Approx(expected));
            REQUIRE(start > Time(0)); // the last packet waited in the input buffer
        }
    }
    // An idle datapath: the sum is ready after occupancy + latency (16 lanes, 250 MHz:
    // 256 elements = 16 cycles, + 12 cycles of latency = 112 ns).
    Ptr<AdderTreeTimingModel> m = CreateObject<AdderTreeTimingModel>();
    m->SetAttribute("ClockFrequency", DoubleValue(250e6));
    Time start;
    REQUIRE(m->Schedule(MicroSeconds(1), 256, start) == MicroSeconds(1) + NanoSeconds(112));
    REQUIRE(start == MicroSeconds(1));
    // Line rate: 1 KiB of FP32 in a 1102-byte frame at 100 Gb/s needs 256 / 88.2 ns =
    // 2.9 G elements/s: 16 lanes at 250 MHz keep up, 8 do not.
    REQUIRE(m->KeepsLineRate(100e9, 256, 1102));
    m->SetAttribute("Lanes", UintegerValue(8));
    REQUIRE_FALSE(m->KeepsLineRate(100e9, 256, 1102));
}

TEST_CASE("aggregation: bad hardware parameters are rejected with a clear error", "[aggregation]")
{
    REQUIRE_NOTHROW(AdderTreeTimingModel::Validate(300e6, 16, 12));
    auto msg = [](double c, uint32_t l, uint32_t d) {
        try
        {
            AdderTreeTimingModel::Validate(c, l, d);
        }
        catch (const std::invalid_argument& e)
        {
            return std::string(e.what());
        }
        return std::string();
    };
    REQUIRE(msg(300e6, 0, 12).find("lanes = 0 is out of range [1, 65536]") != std::string::npos);
    REQUIRE(msg(0, 16, 12).find("clock = 0 Hz is out of range") != std::string::npos);
    REQUIRE(msg(300e6, 16, 5000).find("tree depth") != std::string::npos);
    // Buffers: a job needs one slot (2 versions x one packet) per tree.
    Ptr<AggregationEngine> e = CreateObject<AggregationEngine>();
    e->SetName("dev");
    e->SetAttribute("BufferBytesPerJob", UintegerValue(1000));
    AggTreeConfig c;
    c.spec = Spec(2, 1, true);
    c.children = {Ipv4Address("10.0.0.1"), Ipv4Address("10.0.0.2")};
    c.childrenOnLinkSide = {false, false};
    REQUIRE_THROWS_WITH(e->AddTree(c), Catch::Contains("smaller than one slot"));
    e->SetAttribute("BufferBytesPerJob", UintegerValue(4096));
    c.spec.slots = 4;
    REQUIRE_THROWS_WITH(e->AddTree(c), Catch::Contains("needs 8192 B of aggregation buffer"));
    c.spec.slots = 2;
    REQUIRE_NOTHROW(e->AddTree(c));
    REQUIRE_THROWS_WITH(e->AddTree(c), Catch::Contains("installed already"));
    // Job limit.
    e->SetAttribute("MaxJobs", UintegerValue(2));
    c.spec.jobId = 8;
    REQUIRE_NOTHROW(e->AddTree(c));
    c.spec.jobId = 9;
    REQUIRE_THROWS_WITH(e->AddTree(c), Catch::Contains("MaxJobs = 2"));
    REQUIRE(e->GetNJobs() == 2);
}

TEST_CASE("aggregation: a slot sums every child once and answers duplicates", "[aggregation]")
{
    using A = AggregationContext::Action;
    AggregationContext root(Spec(3, 4, true));
    auto v = [](float a) { return Words({a, 2 * a}); };
    std::vector<uint32_t> v0 = v(1.0f), v1 = v(0.5f), v2 = v(-4.0f);
    REQUIRE(root.OnContribution(0, 0, false, 2, 1, &v0).action == A::NONE);
    REQUIRE(root.OnContribution(0, 0, false, 2, 1, &v0).action == A::NONE); // dup, collecting
    REQUIRE(root.OnContribution(2, 0, false, 2, 1, &v2).action == A::NONE);
    AggregationContext::Outcome o = root.OnContribution(1, 0, false, 2, 1, &v1);
    REQUIRE(o.action == A::MULTICAST_DOWN);
    REQUIRE(AggregationValues::ToFloats(o.slot->acc, AggElementType::FP32) ==
            std::vector<float>{-2.5f, -5.0f});
    REQUIRE(o.slot->fanInSum == 3);
    REQUIRE(root.GetDuplicates() == 1);
    // A duplicate after completion gets the result back (the child lost it).
    REQUIRE(root.OnContribution(2, 0, false, 2, 1, &v2).action == A::UNICAST_DOWN);
    // Chunk 4 uses slot 0 version 1; chunk 8 slot 0 version 0 again, replacing chunk 0.
    REQUIRE(root.OnContribution(0, 4, false, 2, 1, &v0).action == A::NONE);
    REQUIRE(root.Find(0) != nullptr);
    REQUIRE(root.OnContribution(0, 8, false, 2, 1, &v0).action == A::NONE);
    REQUIRE(root.Find(0) == nullptr);
    // Anything for chunk 0 now is stale.
    REQUIRE(root.OnContribution(1, 0, false, 2, 1, &v1).action == A::STALE);
    REQUIRE(root.GetStale() == 1);
    REQUIRE_THROWS_AS(root.OnContribution(3, 8, false, 2, 1, &v1), std::invalid_argument);

    // A non-root point sends its partial sum up, resends it on duplicates while waiting, and
    // multicasts the result from its parent once.
    AggregationContext mid(Spec(2, 4, false));
    REQUIRE(mid.OnContribution(0, 5, false, 2, 1, &v0).action == A::NONE);
    o = mid.OnContribution(1, 5, false, 2, 1, &v1);
    REQUIRE(o.action == A::SEND_UP);
    REQUIRE(AggregationValues::ToFloats(o.slot->acc, AggElementType::FP32) ==
            std::vector<float>{1.5f, 3.0f});
    REQUIRE(mid.OnContribution(1, 5, false, 2, 1, &v1).action == A::RESEND_UP);
    std::vector<uint32_t> sum = Words({9.0f, 18.0f});
    o = mid.OnResult(5, false, &sum);
    REQUIRE(o.action == A::MULTICAST_DOWN);
    REQUIRE(o.slot->acc == sum);
    REQUIRE(mid.OnResult(5, false, &sum).action == A::NONE);
    REQUIRE(mid.OnContribution(0, 5, false, 2, 1, &v0).action == A::UNICAST_DOWN);
    REQUIRE(mid.OnResult(6, false, &sum).action == A::STALE);
}

TEST_CASE("aggregation: the result carries the OR of its inputs' ECN marks", "[aggregation]")
{
    using A = AggregationContext::Action;
    for (uint16_t marked = 0; marked <= 3; ++marked)
    {
        AggregationContext root(Spec(3, 2, true));
        AggregationContext::Outcome o;
        for (uint16_t c = 0; c < 3; ++c)
        {
            o = root.OnContribution(c, 0, c == marked, 256, 1, nullptr);
        }
        REQUIRE(o.action == A::MULTICAST_DOWN);
        REQUIRE(o.slot->resultEcn == (marked < 3)); // marked == 3: no input marked
    }
    // Marks picked up on the way down are ORed in at the next point.
    AggregationContext mid(Spec(2, 2, false));
    mid.OnContribution(0, 0, false, 256, 1, nullptr);
    REQUIRE(mid.OnContribution(1, 0, false, 256, 1, nullptr).slot->ecn == false);
    REQUIRE(mid.OnResult(0, true, nullptr).slot->resultEcn);
}

TEST_CASE("aggregation: congestion control reacts to marked results", "[aggregation]")
{
    AggregationCcState s;
    s.maxWindow = 100;
    s.lineRate = 100e9;
    Ptr<AggregationDctcp> d = CreateObject<AggregationDctcp>();
    d->Init(s, Time(0));
    REQUIRE(s.Window() == 100); // starts at the slot pool: line rate
    for (int i = 0; i < 100; ++i)
    {
        d->OnResult(s, true, Time(0)); // a window of marked results
    }
    REQUIRE(s.cwnd == Approx(50.0)); // alpha starts at 1: halve
    for (int round = 0; round < 80; ++round)
    {
        for (uint32_t i = 0, w = s.Window(); i < w; ++i)
        {
            d->OnResult(s, false, Time(0));
        }
    }
    REQUIRE(d->GetAlpha() < 0.05);
    REQUIRE(s.Window() == 100); // grows back, capped at the pool
    d->OnTimeout(s, Time(0));
    REQUIRE(s.Window() == 50);

    AggregationCcState r;
    r.maxWindow = 64;
    r.lineRate = 100e9;
    Ptr<AggregationDcqcn> q = CreateObject<AggregationDcqcn>();
    q->Init(r, Time(0));
    REQUIRE(r.rate == 100e9);
    q->OnResult(r, true, MicroSeconds(1));
    REQUIRE(r.rate == Approx(50e9));       // DCQCN's first cut with alpha = 1
    q->OnResult(r, true, MicroSeconds(2)); // within the CNP interval: ignored
    REQUIRE(r.rate == Approx(50e9));
    q->OnResult(r, false, MicroSeconds(3));
    REQUIRE(r.Window() == 64);

    AggregationCcState f;
    f.maxWindow = 32;
    Ptr<AggregationFixedWindow> fw = CreateObject<AggregationFixedWindow>();
    fw->Init(f, Time(0));
    fw->OnResult(f, true, Time(0));
    REQUIRE(f.Window() == 32);
    REQUIRE(f.marked == 1);
}

TEST_CASE("aggregation: an engine's result packets carry ECN_OR exactly when an input was CE",
          "[aggregation]")
{
    // Packets through the engine as a device sees them: three contributions (IPv4 + UDP +
    // aggregation header, real values), one of them CE-marked in its IP header or carrying a
    // partial sum's ECN_OR flag, or none; the root multicasts one result per child.
    for (int marked = -1; marked < 3; ++marked)
    {
        for (bool viaFlag : {false, true})
        {
            Ptr<AggregationEngine> e = CreateObject<AggregationEngine>();
            e->SetAttribute("TimingModel", PointerValue(CreateObject<LineRateTimingModel>()));
            e->SetAddress(Ipv4Address("172.16.0.9"));
            AggTreeConfig c;
            c.spec = Spec(3, 4, true);
            c.children = {Ipv4Address("10.0.0.1"),
                          Ipv4Address("10.0.0.2"),
                          Ipv4Address("10.0.0.3")};
            c.childrenOnLinkSide = {false, false, true};
            e->AddTree(c);
            std::vector<Ptr<Packet>> out;
            e->SetEmitCallback(
                AggregationEngine::EmitCallback([&out](Ptr<Packet> p, bool) { out.push_back(p); }));
            for (uint16_t child = 0; child < 3; ++child)
            {
                AggregationStackHeader h;
                h.src = c.children[child];
                h.dst = e->GetAddress();
                h.ecn = 2;
                h.agg.jobId = c.spec.jobId;
                h.agg.treeId = c.spec.treeId;
                h.agg.seq = 0;
                h.agg.sender = child;
                h.agg.elements = 2;
                if (child == marked)
                {
                    if (viaFlag)
                    {
                        h.agg.SetEcnOr(true);
                    }
                    else
                    {
                        h.ecn = 3; // CE set by a switch on the way
                    }
                }
                std::vector<uint32_t> v = Words({float(child), 1.0f});
                Ptr<Packet> p = AggregationStackHeader::Build(h, &v);
                AggregationStackHeader parsed;
                REQUIRE(AggregationStackHeader::Peek(*p, parsed));
                e->Receive(p, parsed, false);
            }
            INFO("marked input " << marked << (viaFlag ? " (ECN_OR flag)" : " (CE)"));
            REQUIRE(out.size() == 3);
            for (const auto& p : out)
            {
                AggregationStackHeader h;
                REQUIRE(AggregationStackHeader::Peek(*p, h));
                REQUIRE(h.agg.type == AggregationHeader::RESULT);
                REQUIRE(h.agg.GetEcnOr() == (marked >= 0));
                REQUIRE(h.ecn == 2); // a fresh packet: the mark travels in the flag
                REQUIRE(AggregationValues::ToFloats(AggregationStackHeader::ReadValues(*p, h),
                                                    AggElementType::FP32) ==
                        std::vector<float>{3.0f, 3.0f});
            }
            e->Dispose();
        }
    }
}

TEST_CASE("aggregation: engines and devices made without the helper own their parts",
          "[aggregation]")
{
    // Each engine needs its own datapath clock: a timing model shared by default would make
    // every device wait for the others' adders.
    Ptr<AggregationEngine> a = CreateObject<AggregationEngine>();
    Ptr<AggregationEngine> b = CreateObject<AggregationEngine>();
    REQUIRE(a->GetTimingModel());
    REQUIRE(b->GetTimingModel());
    REQUIRE(a->GetTimingModel() != b->GetTimingModel());
    Time start;
    REQUIRE(a->GetTimingModel()->Schedule(Time(0), 256, start) > Time(0));
    REQUIRE(b->GetTimingModel()->Schedule(Time(0), 256, start) ==
            CreateObject<AdderTreeTimingModel>()->Schedule(Time(0), 256, start));
    Ptr<AggregationDevice> d1 = CreateObject<AggregationDevice>();
    Ptr<AggregationDevice> d2 = CreateObject<AggregationDevice>();
    REQUIRE(d1->GetEngine());
    REQUIRE(d1->GetEngine() != d2->GetEngine());
    REQUIRE(d1->GetEngine()->GetTimingModel() != d2->GetEngine()->GetTimingModel());
    for (Ptr<Object> o : {Ptr<Object>(a), Ptr<Object>(b), Ptr<Object>(d1), Ptr<Object>(d2)})
    {
        o->Dispose();
    }
}
