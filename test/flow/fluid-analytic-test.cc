/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The analytic background model (BackgroundTraffic's Fluid "analytic",
// FluidAggregate::CompleteAnalytic): FCTs against processor sharing computed by hand, a flow
// alone on its links as one fluid flow, the bytes handed to the main network equal to the bytes
// drawn, flows reported at their completion times, the streaming FCT summary, and bad values
// rejected naming the parameter and range.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace ns3;

namespace
{
/// \return the ns of a drain of `seconds`, rounded up as the models round it
int64_t
CeilNs(double seconds)
{
    return int64_t(std::ceil(seconds * 1e9));
}

/// Eight hosts under two leaves (100 Gb/s, flow backend) with analytic web-search background
/// at load 0.3 between all of them (not started).
struct LeafSpine
{
    Ptr<FluidFabric> fabric;
    std::vector<Ptr<MessageTransport>> hosts;
    Ptr<BackgroundTraffic> bg;

    /// \param run RngRun \param interval the coupling interval \param stop the StopTime
    LeafSpine(uint32_t run, Time interval, Time stop)
    {
        RngSeedManager::SetRun(run);
        FabricTopology t = FabricTopologyHelper().BuildLeafSpine(2, 1, 4);
        fabric = FlowBackendHelper().Install(t);
        hosts = FlowBackendHelper::Transports(t, {0, 1, 2, 3, 4, 5, 6, 7});
        fabric->GetAggregate()->SetAttribute("Interval", TimeValue(interval));
        bg = CreateObject<BackgroundTraffic>();
        bg->SetAttribute("Fluid", StringValue("analytic"));
        bg->SetAttribute("Load", DoubleValue(0.3));
        bg->SetAttribute("StopTime", TimeValue(stop));
        bg->SetHosts(hosts, hosts);
        bg->AssignStreams(1);
    }
};
} // namespace

TEST_CASE("flow: analytic background FCTs are processor sharing on the path", "[flow]")
{
    // Two 1 GB/s links; l1 also carries a class-7 flow of the main network capped at 0.25 GB/s,
    // so the background (class 6) has A0 = 1 GB/s and A1 = 0.75 GB/s. Interval T = 1 ms.
    const double C = 1e9;
    Ptr<FluidNetwork> main = CreateObject<FluidNetwork>();
    const uint32_t l0 = main->AddLink(C, MicroSeconds(1));
    const uint32_t l1 = main->AddLink(C, Time(0));
    FluidNetwork::FlowSpec high;
    high.path = {l1};
    high.bytes = uint64_t(1e9);
    high.cls = 7;
    high.rateCap = 0.25e9;
    main->StartFlow(high);
    Ptr<FluidAggregate> agg = CreateObject<FluidAggregate>();
    agg->SetAttribute("Interval", TimeValue(MilliSeconds(1)));
    agg->Attach(main);
    std::vector<FluidAggregate::AnalyticFlow> flows(3);
    const std::vector<uint32_t> links = {l0, l1, l1, l0};
    flows[0].first = 0; // l0 -> l1, 1 MB
    flows[0].nPath = 2;
    flows[0].wire = 1e6;
    flows[0].cls = 6;
    flows[0].latency = MicroSeconds(5);
    flows[1].first = 2; // l1, 200 kB
    flows[1].nPath = 1;
    flows[1].wire = 2e5;
    flows[1].cls = 6;
    flows[2].first = 3; // l0 alone in class 3: only its own bytes there in its class
    flows[2].nPath = 1;
    flows[2].wire = 5e4;
    flows[2].cls = 3;
    Simulator::Schedule(MicroSeconds(1), [&]() { agg->CompleteAnalytic(flows, links); });
    Simulator::Stop(MicroSeconds(2));
    Simulator::Run();
    const double T = 1e-3;
    const double a1 = 0.75e9;
    // flow 0: rho0 = 0 (alone on l0), rho1 = 2e5 / (A1 T) = 0.2667; bottleneck A1
    const double rho1 = 2e5 / (a1 * T);
    const double d0 = 1e6 / a1 + 1e6 * rho1 / (a1 * (1 - rho1));
    CHECK(flows[0].fct.GetNanoSeconds() == CeilNs(d0) + 5000);
    // flow 1: rho1 = 1e6 / (A1 T) = 1.33, held at MaxUtilisation 0.95
    const double d1 = 2e5 / a1 + 2e5 * 0.95 / (a1 * 0.05);
    CHECK(flows[1].fct.GetNanoSeconds() == CeilNs(d1));
    // flow 2: class 3 is below the class-7 flow only on l1; on l0 it has the whole link
    CHECK(flows[2].fct.GetNanoSeconds() == CeilNs(5e4 / C));
    CHECK(agg->GetAnalyticFlows() == 3);
    CHECK(agg->GetAddedBytes() == Approx(1e6 + 1e6 + 2e5 + 5e4));
    Simulator::Destroy();
}

TEST_CASE("flow: an analytic background flow alone on its links completes as a fluid flow",
          "[flow]")
{
    auto build = [](Ptr<FluidNetwork> net) {
        net->AddLink(12.5e9, MicroSeconds(1));
        net->AddLink(5e9, MicroSeconds(2));
        net->AddLink(12.5e9, MicroSeconds(1));
    };
    const std::vector<uint32_t> path = {0, 1, 2};
    const uint64_t wire = 3333333;
    // the fluid flow
    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    build(net);
    FluidNetwork::FlowSpec s;
    s.path = path;
    s.bytes = wire;
    s.cls = 6;
    double completed = -1;
    s.completed =
        FluidNetwork::FlowCallback([&](uint64_t) { completed = Simulator::Now().GetSeconds(); });
    net->StartFlow(s);
    Simulator::Run();
    Simulator::Destroy();
    // the analytic one
    Ptr<FluidNetwork> main = CreateObject<FluidNetwork>();
    build(main);
    Ptr<FluidAggregate> agg = CreateObject<FluidAggregate>();
    agg->Attach(main);
    std::vector<FluidAggregate::AnalyticFlow> f(1);
    f[0].nPath = 3;
    f[0].wire = double(wire);
    f[0].cls = 6;
    f[0].latency = main->PathLatency(path);
    agg->CompleteAnalytic(f, path);
    INFO("fluid " << completed * 1e9 << " ns, analytic " << f[0].fct.GetNanoSeconds() << " ns");
    CHECK(f[0].fct.GetNanoSeconds() == std::llround(completed * 1e9));
    Simulator::Destroy();
}

TEST_CASE("flow: analytic background hands the main network the bytes it draws", "[flow]")
{
    // Eight hosts under two leaves (100 Gb/s); web-search flows at load 0.3 for 10 ms.
    LeafSpine ls(2, MicroSeconds(200), MilliSeconds(10));
    Ptr<FluidFabric> fabric = ls.fabric;
    std::vector<Ptr<MessageTransport>> h = ls.hosts;
    Ptr<FluidAggregate> agg = fabric->GetAggregate();
    Ptr<BackgroundTraffic> bg = ls.bg;
    bg->SetAttribute("PriorityClass", UintegerValue(6));
    bg->Start();
    Simulator::Run(); // ends once the last interval's bytes are carried
    REQUIRE(bg->GetFlowsStarted() > 100);
    REQUIRE(bg->GetFlowRecords().size() == bg->GetFlowsStarted());
    CHECK(agg->GetAnalyticFlows() == bg->GetFlowsStarted());
    CHECK(agg->GetFlows() == 0); // no fluid flow per background flow
    // The bytes drawn on the links: each flow's wire bytes on each link of its path and its
    // acknowledgements (84 B per 1082 B frame) on each link of the way back; same leaf: 2
    // links each way, other leaf: 4.
    Ptr<FluidTransport> tr = DynamicCast<FluidTransport>(h[0]);
    const double ackShare = 84.0 / double(tr->WireBytes(1000));
    double drawn = 0;
    uint64_t payload = 0;
    for (const MessageRecord& r : bg->GetFlowRecords())
    {
        const double hops = r.srcHost / 4 == r.dstHost / 4 ? 2 : 4;
        drawn += double(tr->WireBytes(r.bytes)) * hops * (1 + ackShare);
        payload += r.bytes;
        CHECK(r.Fct() > Time(0));
    }
    CHECK(payload == bg->GetOfferedBytes());
    CHECK(bg->GetCompletedBytes() == bg->GetOfferedBytes());
    CHECK(agg->GetAddedBytes() == Approx(drawn).epsilon(1e-12));
    // Handed in whole bytes per link and class: what is left is under 1 B per link.
    const double links = double(fabric->GetNetwork()->GetNLinks());
    CHECK(agg->GetHandedBytes() <= agg->GetAddedBytes());
    CHECK(agg->GetHandedBytes() > agg->GetAddedBytes() - links);
    // ... and carried by the main network's loads (its links' reserves).
    Ptr<FluidNetwork> net = fabric->GetNetwork();
    net->Advance();
    double carried = 0; // (the data in class 6, the acknowledgements in class 7)
    for (uint32_t l = 0; l < net->GetNLinks(); ++l)
    {
        carried += net->GetLinkReserveBytes(l, 6) + net->GetLinkReserveBytes(l, 7);
    }
    CHECK(carried == Approx(agg->GetHandedBytes()).epsilon(1e-12));
    CHECK(net->GetBytesDrained() == 0); // no flow in the main network
    // The summary has every flow.
    CHECK(bg->GetFctSummary().Get().n == bg->GetFlowsStarted());
    Simulator::Destroy();
}

TEST_CASE("flow: analytic background flows are reported at their completion times", "[flow]")
{
    // Web-search flows at load 0.3 on the eight hosts, stopped at 8 ms; the run is stopped at
    // 8.05 ms, while some flows are still in flight.
    LeafSpine ls(4, MicroSeconds(500), MilliSeconds(8));
    Ptr<BackgroundTraffic> bg = ls.bg;
    uint64_t reported = 0;
    uint64_t late = 0;
    Time last;
    bool ordered = true;
    bg->TraceConnectWithoutContext(
        "FlowDone",
        Callback<void, const MessageRecord&>([&](const MessageRecord& r) {
            ++reported;
            late += r.completed != Simulator::Now() ? 1 : 0;
            ordered = ordered && r.completed >= last;
            last = r.completed;
        }));
    bg->Start();
    const Time stop = MicroSeconds(8050);
    Simulator::Stop(stop);
    Simulator::Run();
    REQUIRE(bg->GetFlowsStarted() > 100);
    CHECK(reported == bg->GetFlowRecords().size());
    CHECK(late == 0);  // each at its completion time
    CHECK(ordered);    // in the order of completion
    uint64_t done = 0; // the flows completed by the stop are all reported, the others not
    for (const MessageRecord& r : bg->GetFlowRecords())
    {
        CHECK(r.completed <= stop);
        done += r.bytes;
    }
    CHECK(reported < bg->GetFlowsStarted());
    CHECK(bg->GetCompletedBytes() == done);
    Simulator::Destroy();
}

TEST_CASE("flow: FctSummary percentiles within half a bin, per size bucket", "[flow]")
{
    FctSummary s;
    // 1000 flows of 5 kB with FCTs 1..1000 us, 10 flows of 20 MB with 2..2.9 ms
    for (int i = 1; i <= 1000; ++i)
    {
        s.Add(5000, i * 1e-6);
    }
    for (int i = 0; i < 10; ++i)
    {
        s.Add(20000000, 2e-3 + i * 1e-4);
    }
    const double halfBin = std::pow(10.0, 0.5 / FctSummary::kBinsPerDecade) - 1;
    const FctSummary::Stats small = s.Get(FctSummary::BucketOf(5000));
    CHECK(small.n == 1000);
    CHECK(small.mean == Approx(500.5e-6).epsilon(1e-12));
    CHECK(std::abs(small.p50 - 500e-6) / 500e-6 <= halfBin);
    CHECK(std::abs(small.p99 - 990e-6) / 990e-6 <= halfBin);
    CHECK(small.min == Approx(1e-6));
    CHECK(small.max == Approx(1000e-6));
    const FctSummary::Stats large = s.Get(FctSummary::BucketOf(20000000));
    CHECK(large.n == 10);
    CHECK(std::abs(large.p50 - 2.4e-3) / 2.4e-3 <= halfBin);
    CHECK(s.Get().n == 1010);
    CHECK(FctSummary::BucketOf(9999) == 0);
    CHECK(FctSummary::BucketOf(10000) == 1);
    CHECK(FctSummary::BucketOf(uint64_t(1) << 40) == FctSummary::kBuckets - 1);
    CHECK(FctSummary::BucketName(FctSummary::kBuckets) == "all");
    FctSummary twice = s;
    twice.Merge(s);
    CHECK(twice.Get().n == 2020);
    CHECK(twice.Get().p99 == s.Get().p99);
    CHECK_THROWS_AS(s.Get(FctSummary::kBuckets + 1), std::out_of_range);
}

TEST_CASE("flow: analytic background's bad values are rejected naming the parameter", "[flow]")
{
    auto message = [](const std::function<void()>& f) {
        try
        {
            f();
        }
        catch (const std::invalid_argument& e)
        {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(BackgroundTraffic::ParseFluid("analytic") == BackgroundTraffic::ANALYTIC);
    CHECK(BackgroundTraffic::ParseFluid("per-flow") == BackgroundTraffic::PER_FLOW);
    CHECK(message([]() { BackgroundTraffic::ParseFluid("fluid"); }) ==
          "fluid background = \"fluid\": must be per-flow, aggregate or analytic");
    Ptr<FluidAggregate> agg = CreateObject<FluidAggregate>();
    CHECK_FALSE(agg->SetAttributeFailSafe("MaxUtilisation", DoubleValue(1.0)));
    CHECK_FALSE(agg->SetAttributeFailSafe("MaxUtilisation", DoubleValue(-0.1)));
    CHECK(agg->SetAttributeFailSafe("MaxUtilisation", DoubleValue(0.5)));
    CHECK_FALSE(agg->SetAttributeFailSafe("Interval", TimeValue(Time(0))));
    CHECK(message([agg]() { agg->AddLoad(0, 0, 1); }).find("not attached") != std::string::npos);
    Ptr<FluidNetwork> main = CreateObject<FluidNetwork>();
    main->AddLink(1e9, Time(0));
    agg->Attach(main);
    CHECK(message([agg]() { agg->AddLoad(3, 0, 1); }).find("link 3 (range [0, 1))") !=
          std::string::npos);
    CHECK(message([agg]() { agg->AddLoad(0, 8, 1); }).find("class 8 (range [0, 7])") !=
          std::string::npos);
    std::vector<FluidAggregate::AnalyticFlow> f(1);
    f[0].nPath = 1;
    f[0].wire = 100;
    f[0].cls = 9;
    CHECK(message([&]() { agg->CompleteAnalytic(f, {0}); }).find("class (range [0, 7])") !=
          std::string::npos);
    f[0].cls = 0;
    CHECK(message([&]() { agg->CompleteAnalytic(f, {5}); }).find("link 5 out of range") !=
          std::string::npos);
    f[0].wire = 0;
    CHECK(message([&]() { agg->CompleteAnalytic(f, {0}); }).find("wire bytes (> 0)") !=
          std::string::npos);
    Simulator::Destroy();
}
