/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The aggregate background model of the flow backend (FluidAggregate, "fluid": "aggregate"):
// the FluidNetwork calls it uses (capacity changes, added bytes, a link's share), M/G/1
// processor sharing on an idle link, bytes conserved between the two networks, and a flow and
// a ring beside background streams at rate r taking S' / (B - r).

#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace ns3;

namespace
{
/// Run until `t` and \return the drain time (s) of `id`, recorded by its drained callback.
FluidNetwork::FlowCallback
Record(double* at)
{
    return FluidNetwork::FlowCallback([at](uint64_t) { *at = Simulator::Now().GetSeconds(); });
}
} // namespace

TEST_CASE("flow: FluidNetwork link capacity changes, added bytes and a link's share", "[flow]")
{
    // A 1000 B flow on a 1000 B/s link, changed at 0.5 s: \return when it drained (s)
    auto drainWith = [](const std::function<void(Ptr<FluidNetwork>, uint32_t, uint64_t)>& change,
                        double* carried) {
        Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
        const uint32_t l = net->AddLink(1000, Time(0));
        FluidNetwork::FlowSpec s;
        s.path = {l};
        s.bytes = 1000;
        double at = -1;
        s.drained = Record(&at);
        const uint64_t id = net->StartFlow(s);
        Simulator::Schedule(Seconds(0.5), [net, l, id, change]() { change(net, l, id); });
        Simulator::Run();
        *carried = net->GetLinkBytes(l);
        // The unloaded latency keeps the capacity the link was made with.
        CHECK(net->PathLatency({l}) == Time(0));
        CHECK_THROWS_AS(net->SetLinkCapacity(l, 0), std::invalid_argument);
        CHECK_THROWS_AS(net->AddBytes(id, 1), std::invalid_argument); // no longer draining
        Simulator::Destroy();
        return at;
    };
    double carried = 0;
    // Half the bytes at 1000 B/s, the other half at 500 B/s: drained at 1.5 s.
    CHECK(
        drainWith([](Ptr<FluidNetwork> net, uint32_t l, uint64_t) { net->SetLinkCapacity(l, 500); },
                  &carried) == Approx(1.5).epsilon(1e-9));
    CHECK(carried == Approx(1000));
    // 500 more bytes at 0.5 s: 1500 B at 1000 B/s.
    CHECK(drainWith([](Ptr<FluidNetwork> net, uint32_t, uint64_t id) { net->AddBytes(id, 500); },
                    &carried) == Approx(1.5).epsilon(1e-9));
    CHECK(carried == Approx(1500));
    {
        // A 1000 B/s link: a class-6 flow capped at 300, class-3 flows A (bottlenecked here:
        // 600) and B (capped at 100), a class-1 flow (starved).
        Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
        const uint32_t l = net->AddLink(1000, Time(0));
        FluidNetwork::FlowSpec s;
        s.path = {l};
        s.bytes = 1000000;
        s.cls = 6;
        s.rateCap = 300;
        const uint64_t hi = net->StartFlow(s);
        s.cls = 3;
        s.rateCap = 0;
        const uint64_t a = net->StartFlow(s);
        s.rateCap = 100;
        net->StartFlow(s);
        s.cls = 1;
        s.rateCap = 0;
        net->StartFlow(s);
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        REQUIRE(net->GetRate(a) == Approx(600));
        // Class 3 of weight 1: (1000 - 300 - 100) shared with A: 300; of weight 3: 450.
        CHECK(net->GetLinkShare(l, 3, 1, {}) == Approx(300));
        CHECK(net->GetLinkShare(l, 3, 3, {}) == Approx(450));
        // Class 6: the capped class-6 flow keeps its 300; counted as absent, the whole link.
        CHECK(net->GetLinkShare(l, 6, 1, {}) == Approx(700));
        CHECK(net->GetLinkShare(l, 6, 1, {hi}) == Approx(1000));
        CHECK(net->GetLinkShare(l, 7, 1, {}) == Approx(1000));
        CHECK_THROWS_AS(net->GetLinkShare(l, 8, 1, {}), std::invalid_argument);
        Simulator::Destroy();
    }
}

TEST_CASE("flow: aggregate background on an idle link is M/G/1 processor sharing, bytes "
          "conserved",
          "[flow]")
{
    // One 1 GB/s link without delay; Poisson arrivals at load rho = 0.5, sizes from a CDF with
    // 90 % of flows under 10 kB and 10 % of 10 kB - 5 MB. M/G/1-PS: mean sojourn
    // E[S] / (C (1 - rho)), whatever the size distribution (FIFO would give 3.7x that).
    RngSeedManager::SetRun(3);
    const double C = 1e9;
    const double rho = 0.5;
    const FlowSizeCdf cdf({{0, 0}, {10000, 0.9}, {5000000, 1}});
    const double lambda = rho * C / cdf.GetMean();
    Ptr<FluidNetwork> main = CreateObject<FluidNetwork>();
    const uint32_t l = main->AddLink(C, Time(0));
    Ptr<FluidAggregate> agg = CreateObject<FluidAggregate>();
    agg->Attach(main);
    Ptr<ExponentialRandomVariable> gap = CreateObject<ExponentialRandomVariable>();
    gap->SetAttribute("Mean", DoubleValue(1 / lambda));
    gap->SetStream(1);
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(2);
    const uint32_t flows = 40000;
    uint32_t started = 0;
    uint32_t delivered = 0;
    double fctSum = 0;
    double bytesSum = 0;
    uint64_t offered = 0;
    std::function<void()> arrive = [&]() {
        FluidNetwork::FlowSpec s;
        s.path = {l};
        s.bytes = cdf.Sample(u->GetValue());
        offered += s.bytes;
        const Time t0 = Simulator::Now();
        s.delivered = FluidNetwork::FlowCallback([&, t0](uint64_t) {
            ++delivered;
            fctSum += (Simulator::Now() - t0).GetSeconds();
        });
        agg->StartFlow(s);
        if (++started < flows)
        {
            Simulator::Schedule(Seconds(gap->GetValue()), arrive);
        }
    };
    Simulator::Schedule(Seconds(gap->GetValue()), arrive);
    Simulator::Run(); // ends on its own: no event is left once the background is done
    const double end = Simulator::Now().GetSeconds();
    main->Advance();
    bytesSum = main->GetLinkBytes(l);
    REQUIRE(delivered == flows);
    const double mean = fctSum / flows;
    const double ps = cdf.GetMean() / (C * (1 - rho));
    INFO("mean FCT " << mean * 1e6 << " us, M/G/1-PS " << ps * 1e6 << " us over " << flows
                     << " flows, " << agg->GetIntervals() << " intervals");
    CHECK(std::abs(mean - ps) / ps < 0.05);
    // Bytes: every byte carried in the background network, and the same bytes carried by the
    // main network's load flows one interval later.
    CHECK(agg->GetNetwork()->GetLinkBytes(l) == Approx(double(offered)).epsilon(1e-12));
    CHECK(bytesSum == Approx(double(offered)).epsilon(1e-9));
    CHECK(agg->GetFlows() == flows);
    CHECK(end < double(flows) / lambda * 1.5);
    Simulator::Destroy();
}

namespace
{
/// Four hosts under each leaf of a 2-leaf, 1-spine fabric (100 Gb/s, 1 us links) and a
/// fluid transport on each host.
std::vector<Ptr<MessageTransport>>
FluidLeafSpine()
{
    RngSeedManager::SetRun(1);
    FabricTopology t = FabricTopologyHelper().BuildLeafSpine(2, 1, 4);
    FlowBackendHelper().Install(t);
    return FlowBackendHelper::Transports(t, {0, 1, 2, 3, 4, 5, 6, 7});
}

/// A background stream: one long message from `src` to `dst`, class 6, at most `rate`, in the
/// aggregate model. \return the connection
Ptr<MessageConnection>
Stream(Ptr<MessageTransport> src, Ptr<MessageTransport> dst, DataRate rate)
{
    Ptr<MessageConnection> c = src->Open(dst, 6);
    c->SetAttribute("Aggregate", BooleanValue(true));
    c->SetMaxRate(rate);
    c->PostSend(uint64_t(1) << 30);
    return c;
}
} // namespace

TEST_CASE("flow: a flow and a ring beside aggregate streams at rate r take S' / (B - r)", "[flow]")
{
    const double B = 100e9 / 8;
    const double r = B / 5;
    const DataRate rate(uint64_t(r * 8));
    const double latency = 2e-6 + 87e-9; // host -> leaf -> host: two delays, one frame
    const double ack = 2e-6 + 13e-9;     // the acknowledgement back: two delays, two frames
    {
        // One message of S from host 0 to host 1 while host 0 streams to host 4 at r.
        std::vector<Ptr<MessageTransport>> h = FluidLeafSpine();
        Ptr<MessageConnection> bg = Stream(h[0], h[4], rate);
        Ptr<MessageConnection> c = h[0]->Open(h[1], 3);
        const uint64_t S = 10000000;
        double done = -1;
        Simulator::Schedule(MilliSeconds(1), [&]() {
            c->PostSend(S, MessageConnection::CompletionCallback([&](uint64_t, uint64_t) {
                            done = Simulator::Now().GetSeconds() - 1e-3;
                        }));
        });
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        const double wire = double(DynamicCast<FluidTransport>(h[0])->WireBytes(S));
        const double expected = wire / (B - r) + latency + ack;
        INFO("flow " << done * 1e6 << " us, analytical " << expected * 1e6 << " us");
        CHECK(std::abs(done - expected) / expected < 1e-4);
        Simulator::Destroy();
    }
    {
        // A ring of the four hosts of leaf 0, each also streaming at r to a host of leaf 1:
        // every member's uplink has B - r for its data and its predecessor's acknowledgements.
        std::vector<Ptr<MessageTransport>> h = FluidLeafSpine();
        for (uint32_t i = 0; i < 4; ++i)
        {
            Stream(h[i], h[4 + i], rate);
        }
        const uint32_t n = 4;
        const uint64_t S = 4000000;
        Ptr<RingAllReduce> ar = CreateObject<RingAllReduce>();
        ar->SetGroup(std::vector<Ptr<MessageTransport>>(h.begin(), h.begin() + n));
        uint32_t done = 0;
        Simulator::Schedule(MilliSeconds(1), [&]() {
            ar->Start(S, Collective::ParticipantCallback(), Collective::DoneCallback([&done]() {
                          ++done;
                      }));
        });
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        REQUIRE(done == 1);
        const double measured = ar->GetLastDuration().GetSeconds();
        const double goodput = (B - r) * 1000.0 / 1166.0;
        const double expected = 2.0 * (n - 1) / n * S / goodput + 2.0 * (n - 1) * latency + ack;
        INFO("ring " << measured * 1e6 << " us, analytical " << expected * 1e6 << " us");
        CHECK(std::abs(measured - expected) / expected < 1e-4);
        Simulator::Destroy();
    }
}

TEST_CASE("flow: the fluid key of rdma entries and BackgroundTraffic's Fluid attribute", "[flow]")
{
    auto text = [](const std::string& backend, const std::string& fluid) {
        // max-min rates ("fluidCc": "none"): the aggregate model has no congestion control
        std::string t = R"({"topology": {"type": "fat-tree", "k": 4}, "duration": "1ms",
                           "drain": "1s", "fluidCc": "none", "backend": ")" +
                        backend + R"(", "traffic": [)";
        for (int i = 0; i < 8; ++i)
        {
            t += std::string(i ? "," : "") + R"({"type": "rdma", "src": )" + std::to_string(i) +
                 R"(, "dst": )" + std::to_string(15 - i) + R"(, "bytes": "200KB", "start": ")" +
                 std::to_string(10 * i) + R"(us", "fluid": ")" + fluid + R"("})";
        }
        return t + "]}";
    };
    // The same flows per flow and in aggregate: all complete; on this fat-tree they cross
    // disjoint host links (each at line rate either way), so the FCTs agree within the
    // interval's lag (the background network has the links to itself here).
    ScenarioResult per = mlnettest::RunScenarioText(text("flow", "per-flow"));
    ScenarioResult agg = mlnettest::RunScenarioText(text("flow", "aggregate"));
    ScenarioResult pkt = mlnettest::RunScenarioText(text("packet", "aggregate"));
    REQUIRE(per.flows.size() == 8);
    REQUIRE(agg.flows.size() == 8);
    REQUIRE(pkt.flows.size() == 8); // ignored at packet level
    for (size_t i = 0; i < 8; ++i)
    {
        CHECK(agg.flows[i].Completed());
        CHECK(agg.flows[i].deliveredBytes == 200000);
        CHECK(std::abs(agg.flows[i].FctNs() - per.flows[i].FctNs()) <= 2);
    }
    CHECK(mlnettest::ScenarioParseError(text("flow", "fluid"))
              .find("traffic[0].fluid = \"fluid\": must be one of") != std::string::npos);

    // BackgroundTraffic: its connections take the attribute at flow level.
    RngSeedManager::SetRun(1);
    FabricTopology t = FabricTopologyHelper().BuildFatTree(4);
    FlowBackendHelper flow;
    Ptr<FluidFabric> fabric = flow.Install(t);
    std::vector<Ptr<MessageTransport>> all =
        FlowBackendHelper::Transports(t, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
    Ptr<BackgroundTraffic> bg = CreateObject<BackgroundTraffic>();
    bg->SetAttribute("Fluid", StringValue("aggregate"));
    bg->SetAttribute("Load", DoubleValue(0.3));
    bg->SetAttribute("StopTime", TimeValue(MilliSeconds(2)));
    bg->SetHosts(all, all);
    bg->AssignStreams(1);
    bg->Start();
    Simulator::Run();
    CHECK(bg->GetFlowsStarted() > 50);
    CHECK(bg->GetFlowRecords().size() == bg->GetFlowsStarted());
    CHECK(bg->GetCompletedBytes() == bg->GetOfferedBytes());
    CHECK(fabric->GetAggregate()->GetFlows() == bg->GetFlowsStarted());
    // the loads: the main network's links carry what was handed over, as reserves (the data in
    // class 3, the acknowledgements in class 7)
    double carried = 0;
    for (uint32_t l = 0; l < fabric->GetNetwork()->GetNLinks(); ++l)
    {
        carried += fabric->GetNetwork()->GetLinkReserveBytes(l, 3) +
                   fabric->GetNetwork()->GetLinkReserveBytes(l, 7);
    }
    CHECK(carried > 0);
    CHECK(carried == Approx(fabric->GetAggregate()->GetHandedBytes()).epsilon(1e-12));
    Simulator::Destroy();
}
