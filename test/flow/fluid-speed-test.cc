/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// What the flow backend's speed-ups for cluster-scale background traffic rely on (see
// doc/flow-backend.rst, "Speed"): a link's version counter changes with everything its share
// reads (the aggregate model's capacity cache), the cached capacity follows the main network
// between background events (rates against hand-solved cases), the cached reverse links,
// a connection's message queue (order and bytes), and the background's destination draw.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <map>

using namespace ns3;

TEST_CASE("flow: a link's version changes with everything its share reads", "[flow]")
{
    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    const uint32_t l = net->AddLink(1000, Time(0));
    const uint32_t other = net->AddLink(1000, Time(0));
    uint64_t v = net->GetLinkVersion(l);
    auto changed = [&]() {
        const uint64_t now = net->GetLinkVersion(l);
        const bool c = now != v;
        v = now;
        return c;
    };
    FluidNetwork::FlowSpec s;
    s.path = {l};
    s.bytes = 1000;
    s.cls = 3;
    const uint64_t a = net->StartFlow(s);
    CHECK(changed()); // a flow joined
    s.path = {other};
    net->StartFlow(s);
    CHECK_FALSE(changed()); // another link's flow
    Simulator::Stop(Seconds(0.1));
    Simulator::Run();
    CHECK(changed()); // the recomputation set the rates
    // The share's terms: A (bottlenecked here) shares with the class; nothing above.
    double free = -1;
    double sharing = -1;
    net->GetLinkShareTerms(l, 3, {}, free, sharing);
    CHECK(free == Approx(1000));
    CHECK(sharing == Approx(1));
    CHECK(net->GetLinkShare(l, 3, 2, {}) == free * 2 / (2 + sharing));
    net->GetLinkShareTerms(l, 1, {}, free, sharing);
    CHECK(free == Approx(0)); // class 1 is below A's
    CHECK(sharing == 0);
    net->GetLinkShareTerms(l, 3, {a}, free, sharing);
    CHECK(free == Approx(1000));
    CHECK(sharing == 0);
    net->SetRateCap(a, 400);
    CHECK(changed()); // touched
    Simulator::Stop(Seconds(0.1));
    Simulator::Run();
    CHECK(changed());
    net->GetLinkShareTerms(l, 3, {}, free, sharing);
    CHECK(free == Approx(600)); // A is capped now: it uses 400
    CHECK(sharing == 0);
    net->SetLinkCapacity(l, 1000);
    CHECK_FALSE(changed()); // the same capacity
    net->SetLinkCapacity(l, 2000);
    CHECK(changed());
    Simulator::Run(); // A drains
    CHECK(changed());
    CHECK_THROWS_AS(net->GetLinkVersion(7), std::invalid_argument);
    CHECK_THROWS_AS(net->GetLinkShareTerms(l, 8, {}, free, sharing), std::invalid_argument);
    Simulator::Destroy();
}

TEST_CASE("flow: the background capacity follows the main network between background events",
          "[flow]")
{
    // A 1000 B/s link. A main class-7 flow capped at 400 B/s; background flow A (class 3) at
    // 0.5 s: 600 B/s. At 0.6 s the main flow's cap drops to 200; background flow B at 0.7 s:
    // the link has 800 B/s for the background, 400 each (a stale capacity would give 300).
    // The coupling interval (1 s from the first background flow) does not end in between.
    Ptr<FluidNetwork> main = CreateObject<FluidNetwork>();
    const uint32_t l = main->AddLink(1000, Time(0));
    Ptr<FluidAggregate> agg = CreateObject<FluidAggregate>();
    agg->SetAttribute("Interval", TimeValue(Seconds(1)));
    agg->Attach(main);
    // 1 MB on the link in a class, with a rate cap (0: none)
    auto onLink = [l](uint8_t cls, double cap) {
        FluidNetwork::FlowSpec f;
        f.path = {l};
        f.bytes = 1000000;
        f.cls = cls;
        f.rateCap = cap;
        return f;
    };
    const uint64_t m = main->StartFlow(onLink(7, 400));
    const FluidNetwork::FlowSpec s = onLink(3, 0); // the background flows
    uint64_t a = 0;
    uint64_t b = 0;
    double rateA1 = -1;
    double rateA2 = -1;
    double rateB = -1;
    Simulator::Schedule(Seconds(0.5), [&]() { a = agg->StartFlow(s); });
    Simulator::Schedule(Seconds(0.55), [&]() { rateA1 = agg->GetNetwork()->GetRate(a); });
    Simulator::Schedule(Seconds(0.6), [&]() { main->SetRateCap(m, 200); });
    Simulator::Schedule(Seconds(0.7), [&]() { b = agg->StartFlow(s); });
    Simulator::Schedule(Seconds(0.75), [&]() {
        rateA2 = agg->GetNetwork()->GetRate(a);
        rateB = agg->GetNetwork()->GetRate(b);
    });
    Simulator::Stop(Seconds(0.8));
    Simulator::Run();
    CHECK(rateA1 == Approx(600));
    CHECK(rateA2 == Approx(400));
    CHECK(rateB == Approx(400));
    Simulator::Destroy();
}

namespace
{
/// A 2-leaf, 1-spine fabric with 4 hosts per leaf (100 Gb/s, 1 us links) at flow level.
/// \param fabric the fluid fabric (out) \return a transport per host
std::vector<Ptr<MessageTransport>>
LeafSpine(Ptr<FluidFabric>* fabric)
{
    RngSeedManager::SetRun(1);
    FabricTopology t = FabricTopologyHelper().BuildLeafSpine(2, 1, 4);
    *fabric = FlowBackendHelper().Install(t);
    return FlowBackendHelper::Transports(t, {0, 1, 2, 3, 4, 5, 6, 7});
}
} // namespace

TEST_CASE("flow: the cached reverse links are the peer devices' links", "[flow]")
{
    Ptr<FluidFabric> fabric;
    LeafSpine(&fabric);
    const uint32_t n = fabric->GetNetwork()->GetNLinks();
    REQUIRE(n == 2 * (8 + 2)); // 8 host cables, 2 leaf-spine cables, both directions
    for (uint32_t l = 0; l < n; ++l)
    {
        const int64_t back = fabric->GetLink(fabric->GetDevice(l)->GetPeer());
        CHECK(fabric->GetReverseLink(l) == back);
        REQUIRE(back >= 0);
        CHECK(fabric->GetReverseLink(uint32_t(back)) == int64_t(l));
    }
    CHECK_THROWS_AS(fabric->GetReverseLink(n), std::out_of_range);
    Simulator::Destroy();
}

TEST_CASE("flow: 300 messages queued on one connection complete in order, back to back", "[flow]")
{
    // Host 0 -> host 1 (same leaf): the messages drain back to back at the line rate B, so
    // the last completes at (sum of their wire bytes) / B + path latency + acknowledgement.
    Ptr<FluidFabric> fabric;
    std::vector<Ptr<MessageTransport>> h = LeafSpine(&fabric);
    Ptr<FluidTransport> src = DynamicCast<FluidTransport>(h[0]);
    Ptr<MessageConnection> c = h[0]->Open(h[1], 3);
    std::vector<uint64_t> order;
    uint64_t posted = 0;
    uint64_t wire = 0;
    double last = -1;
    for (uint32_t i = 0; i < 300; ++i)
    {
        const uint64_t bytes = 1000 + 137 * i;
        posted += bytes;
        wire += src->WireBytes(bytes);
        c->PostSend(bytes, MessageConnection::CompletionCallback([&](uint64_t id, uint64_t) {
                        order.push_back(id);
                        last = Simulator::Now().GetSeconds();
                    }));
    }
    Simulator::Run();
    REQUIRE(order.size() == 300);
    for (uint32_t i = 0; i < 300; ++i)
    {
        CHECK(order[i] == i);
    }
    CHECK(c->GetBytesAcked() == posted);
    CHECK(c->GetBytesSent() == posted);
    CHECK(DynamicCast<FluidTransport>(h[1])->GetBytesReceived() == posted);
    const double B = 100e9 / 8;
    const double latency = 2e-6 + 87e-9; // host -> leaf -> host: two delays, one frame
    const double ack = 2e-6 + 13e-9;     // the acknowledgement back: two delays, two frames
    // The acknowledgements load each link's other direction: the data keeps B. Each drain
    // ends at the ns step at or after its exact time: at most 1 ns late per message.
    const double expected = double(wire) / B + latency + ack;
    CHECK(last >= expected - 1e-10);
    CHECK(last <= expected + 300e-9);
    Simulator::Destroy();
}

TEST_CASE("flow: background flows go uniformly to the destinations other than the source", "[flow]")
{
    Ptr<FluidFabric> fabric;
    std::vector<Ptr<MessageTransport>> h = LeafSpine(&fabric);
    // Destinations list host 0 twice: its flows go to indices 1, 3 and 4 (hosts 1, 2, 3),
    // a third each; host 5's own list is only itself: it sends nothing.
    Ptr<BackgroundTraffic> bg = CreateObject<BackgroundTraffic>();
    bg->SetAttribute("Load", DoubleValue(0.9));
    bg->SetAttribute("StopTime", TimeValue(MilliSeconds(100)));
    bg->SetHosts(std::vector<Ptr<MessageTransport>>{h[0]},
                 std::vector<Ptr<MessageTransport>>{h[0], h[1], h[0], h[2], h[3]});
    bg->AssignStreams(10);
    bg->Start();
    Ptr<BackgroundTraffic> alone = CreateObject<BackgroundTraffic>();
    alone->SetHosts(std::vector<Ptr<MessageTransport>>{h[5], h[6]},
                    std::vector<Ptr<MessageTransport>>{h[5]});
    alone->SetAttribute("StopTime", TimeValue(MilliSeconds(20)));
    alone->AssignStreams(20);
    alone->Start();
    Simulator::Run();
    std::map<uint32_t, uint32_t> to;
    for (const MessageRecord& r : bg->GetFlowRecords())
    {
        ++to[r.dstHost];
    }
    const double n = double(bg->GetFlowRecords().size());
    INFO(n << " flows: " << to[1] << " / " << to[3] << " / " << to[4]);
    REQUIRE(n > 300);
    CHECK(to.count(0) == 0);
    CHECK(to.count(2) == 0);
    for (uint32_t d : {1u, 3u, 4u})
    {
        // binomial(n, 1/3): within 4 standard deviations
        CHECK(std::abs(to[d] - n / 3) < 4 * std::sqrt(n * 2 / 9));
    }
    for (const MessageRecord& r : alone->GetFlowRecords())
    {
        CHECK(r.srcHost == 1); // host 6 -> host 5 only
    }
    CHECK(alone->GetFlowsStarted() > 0);
    Simulator::Destroy();
}
