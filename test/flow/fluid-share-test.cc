/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// What a newcomer gets of a link (FluidNetwork::GetLinkShareTerms, read by the aggregate and
// analytic background models): max-min against hand-solved cases where the link's flows are
// bottlenecked elsewhere, at a tie (a lone flow at line rate on every link of its path) or
// above the newcomer's level, and an analytic background flow behind such a flow.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace ns3;

namespace
{
/// One flow of class 3 over two links of the same capacity (it runs at line rate on both)
struct LoneFlow
{
    Ptr<FluidNetwork> net;
    uint32_t l0;
    uint32_t l1;
};

LoneFlow
LoneFlowOverTwoLinks(double capacity, uint64_t bytes)
{
    LoneFlow f;
    f.net = CreateObject<FluidNetwork>();
    f.l0 = f.net->AddLink(capacity, Time(0));
    f.l1 = f.net->AddLink(capacity, Time(0));
    FluidNetwork::FlowSpec s;
    s.path = {f.l0, f.l1};
    s.bytes = bytes;
    s.cls = 3;
    f.net->StartFlow(s);
    return f;
}
} // namespace

TEST_CASE("flow: a newcomer shares a link whose flows are bottlenecked at a tie elsewhere",
          "[flow]")
{
    // One flow over two links of 1000 B/s: it runs at 1000 on both, and its last filling names
    // one of them. A newcomer on either link gets 500 (max-min cuts the flow to 500).
    const LoneFlow f = LoneFlowOverTwoLinks(1000, 1000000);
    Simulator::Stop(Seconds(0.1));
    Simulator::Run();
    for (uint32_t l : {f.l0, f.l1})
    {
        double free = -1;
        double sharing = -1;
        f.net->GetLinkShareTerms(l, 3, {}, free, sharing);
        CHECK(free == Approx(1000));
        CHECK(sharing == Approx(1));
        CHECK(f.net->GetLinkShare(l, 3, 1, {}) == Approx(500));
    }
    Simulator::Destroy();
}

TEST_CASE("flow: a newcomer cuts a flow bottlenecked elsewhere above its level", "[flow]")
{
    // A crosses x (600 B/s) and l (1000 B/s): 600, bottlenecked at x. B crosses l alone: 400,
    // bottlenecked at l. A newcomer on l: max-min of A, B and it on l gives 1000 / 3 each
    // (below A's 600 at x); a newcomer of class 3 on x gets 300.
    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    const uint32_t x = net->AddLink(600, Time(0));
    const uint32_t l = net->AddLink(1000, Time(0));
    FluidNetwork::FlowSpec a;
    a.path = {x, l};
    a.bytes = 1000000;
    a.cls = 3;
    net->StartFlow(a);
    FluidNetwork::FlowSpec b = a;
    b.path = {l};
    net->StartFlow(b);
    Simulator::Stop(Seconds(0.1));
    Simulator::Run();
    CHECK(net->GetLinkShare(l, 3, 1, {}) == Approx(1000.0 / 3));
    CHECK(net->GetLinkShare(x, 3, 1, {}) == Approx(300));
    // a flow below the newcomer's level keeps its rate: a newcomer on l in class 3 with A
    // capped at 100 gets (1000 - 100) / 2 (B cut to the same level)
    Simulator::Destroy();
    Ptr<FluidNetwork> capped = CreateObject<FluidNetwork>();
    const uint32_t y = capped->AddLink(1000, Time(0));
    a.path = {y};
    a.rateCap = 100;
    capped->StartFlow(a);
    b.path = {y};
    capped->StartFlow(b);
    Simulator::Stop(Seconds(0.1));
    Simulator::Run();
    CHECK(capped->GetLinkShare(y, 3, 1, {}) == Approx(450));
    Simulator::Destroy();
}

TEST_CASE("flow: an analytic background flow behind a lone line-rate flow gets its fair share",
          "[flow]")
{
    // A main flow of class 3 runs at line rate C over l0 and l1. A background flow of 1 MB in
    // the same class on l1 alone (nothing else of the background in the interval) completes as
    // a flow at C / 2: 2 MB / C (before, l1 was the main flow's link at a tie, left no free
    // capacity, and the background flow took 1e9 times its drain).
    const double C = 1e9;
    const LoneFlow main = LoneFlowOverTwoLinks(C, uint64_t(1e9));
    Ptr<FluidAggregate> agg = CreateObject<FluidAggregate>();
    agg->SetAttribute("Interval", TimeValue(MilliSeconds(1)));
    agg->Attach(main.net);
    std::vector<FluidAggregate::AnalyticFlow> flows(1);
    const std::vector<uint32_t> links = {main.l1};
    flows[0].first = 0;
    flows[0].nPath = 1;
    flows[0].wire = 1e6;
    flows[0].cls = 3;
    Simulator::Schedule(MicroSeconds(1), [&]() { agg->CompleteAnalytic(flows, links); });
    Simulator::Stop(MicroSeconds(2));
    Simulator::Run();
    CHECK(flows[0].fct.GetNanoSeconds() == int64_t(std::ceil(1e6 / (C / 2) * 1e9)));
    Simulator::Destroy();
}
