/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The analytic background's acknowledgements (FluidAggregate::CompleteAnalytic), handed to the
// main network in class 7: served before the main flows, at most at the rate the
// acknowledgements of data at line rate take (reverseShare x the link's capacity), every byte
// carried. Handed at the rate of their backlog (a flow's acknowledgements at once), they took a
// whole link ahead of the main flows for as long as they lasted.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace ns3;

namespace
{
/// Links `fwd` and `back` (its reverse), 1 GB/s each, a FluidAggregate (interval 100 us) and one
/// analytic flow of `wire` bytes in class `cls` on fwd, its acknowledgements (84 / 1082 of it)
/// on back, not completed yet.
struct AckPair
{
    static constexpr double kCapacity = 1e9;
    Ptr<FluidNetwork> main = CreateObject<FluidNetwork>();
    uint32_t fwd = main->AddLink(kCapacity, Time(0));
    uint32_t back = main->AddLink(kCapacity, Time(0));
    Ptr<FluidAggregate> agg = CreateObject<FluidAggregate>();
    std::vector<FluidAggregate::AnalyticFlow> flows = std::vector<FluidAggregate::AnalyticFlow>(1);
    std::vector<uint32_t> links = {fwd, back};

    /// \param wire the flow's wire bytes \param cls its class
    AckPair(double wire, uint8_t cls)
    {
        agg->SetAttribute("Interval", TimeValue(MicroSeconds(100)));
        agg->Attach(main);
        flows[0].nPath = 1;
        flows[0].nReverse = 1;
        flows[0].wire = wire;
        flows[0].reverseShare = 84.0 / 1082.0;
        flows[0].cls = cls;
    }

    /// Complete the flow (hand its bytes to the aggregate) now.
    void Complete()
    {
        agg->CompleteAnalytic(flows, links);
    }
};
} // namespace

TEST_CASE("flow: the analytic background's acknowledgements take at most reverseShare of a link",
          "[flow]")
{
    // Links 0 (forward) and 1 (its reverse), 1 GB/s each; a long class-3 main flow on link 1.
    // At 1 us one analytic flow of W = 10 MB on link 0 in class 3, its acknowledgements (W x s,
    // s = 84 / 1082) on link 1. Interval T = 100 us: the first at 101 us hands them over.
    const double C = AckPair::kCapacity;
    const double W = 1e7;
    const double s = 84.0 / 1082.0;
    const double acks = std::floor(W * s); // whole bytes, as handed
    AckPair p(W, 3);
    Ptr<FluidNetwork> main = p.main;
    const uint32_t back = p.back;
    FluidNetwork::FlowSpec spec;
    spec.path = {back};
    spec.bytes = uint64_t(C); // 1 s: beyond the acknowledgements
    spec.cls = 3;
    const uint64_t id = main->StartFlow(spec);
    Simulator::Schedule(MicroSeconds(1), [&p]() { p.Complete(); });

    // (time, the main flow's rate, the acknowledgements' reserve and grant, their bytes)
    struct Probe
    {
        double t;
        double rate{0};
        double reserve{0};
        double granted{0};
        double bytes{0};
    };

    std::vector<Probe> probes = {{50e-6}, {150e-6}, {1e-3}, {5e-3}, {9.9e-3}, {10.3e-3}, {20e-3}};
    for (Probe& q : probes)
    {
        Simulator::Schedule(Seconds(q.t), [&main, &q, id, back]() {
            q.rate = main->GetRate(id);
            q.reserve = main->GetLinkReserve(back, 7);
            q.granted = main->GetLinkReserveRate(back, 7);
            q.bytes = main->GetLinkReserveBytes(back, 7);
        });
    }
    Simulator::Stop(MilliSeconds(25));
    Simulator::Run();
    // Before the first interval: nothing handed, the main flow has the link.
    CHECK(probes[0].rate == Approx(C).epsilon(1e-12));
    CHECK(probes[0].reserve == 0);
    // From 101 us the acknowledgements drain at s x C (their backlog would ask for
    // acks / T = 7.8 C) for acks / (s C) = W / C = 10 ms; the main flow gets the rest, exactly.
    for (std::size_t i = 1; i <= 4; ++i)
    {
        INFO("t = " << probes[i].t);
        CHECK(probes[i].reserve == Approx(s * C).epsilon(1e-12));
        CHECK(probes[i].granted == Approx(s * C).epsilon(1e-12));
        CHECK(probes[i].rate == Approx(C * (1 - s)).epsilon(1e-12));
        CHECK(probes[i].rate + probes[i].granted == Approx(C).epsilon(1e-12));
        CHECK(probes[i].bytes == Approx(s * C * (probes[i].t - 101e-6)).epsilon(1e-9));
    }
    // Drained by 101 us + 10 ms + one interval (the last one's remainder): every byte carried,
    // the main flow back at the link's rate.
    for (std::size_t i = 5; i <= 6; ++i)
    {
        INFO("t = " << probes[i].t);
        CHECK(probes[i].reserve == 0);
        CHECK(probes[i].rate == Approx(C).epsilon(1e-12));
        CHECK(probes[i].bytes == Approx(acks).epsilon(1e-9));
    }
    CHECK(p.agg->GetHandedBytes() == Approx(std::floor(W) + acks).epsilon(1e-12));
    Simulator::Destroy();
}

TEST_CASE("flow: the analytic background's class-7 data is not held to the acknowledgements' share",
          "[flow]")
{
    // An analytic flow in class 7 (data and acknowledgements in the same class): its data on its
    // path is handed at the rate of its backlog, as every class's.
    const double W = 1e6;
    AckPair p(W, 7);
    Ptr<FluidNetwork> main = p.main;
    const uint32_t fwd = p.fwd;
    p.Complete();
    double reserve = -1;
    double granted = -1;
    Simulator::Schedule(MicroSeconds(150), [&]() {
        reserve = main->GetLinkReserve(fwd, 7);
        granted = main->GetLinkReserveRate(fwd, 7);
    });
    Simulator::Stop(MicroSeconds(200));
    Simulator::Run();
    CHECK(reserve == Approx(W / 100e-6).epsilon(1e-12));         // its backlog over one interval
    CHECK(granted == Approx(AckPair::kCapacity).epsilon(1e-12)); // the whole link, alone on it
    Simulator::Destroy();
}
