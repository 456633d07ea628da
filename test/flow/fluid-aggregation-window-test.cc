/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The slot pool of an in-network aggregation tree as a window at flow level
// (FluidAggregator::TreeSpec::windowRate, AggregationHelper::InstallFluidJob): a pool below the
// tree's bandwidth-delay product holds the tree at slots x chunk frame / round trip
// (hand-computed), one above it leaves the link rate, and the window-limited tree agrees with
// the packet model's fixed-window workers.

#include "common/fluid-aggregation-fixture.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"
#include "ns3/network-module.h"

#include <catch2/catch.hpp>

using namespace ns3;
using namespace mlnettest;

namespace
{
// One leaf, one spine, in-switch aggregation: up host -> leaf -> spine, down the same way;
// each hop one delay and one frame.
constexpr double kRoundTrip = 4 * (kD + kFrame / kB);
constexpr uint64_t kElements = 1000000; // 3907 chunks

/// Post one slice of kElements, run and clean up. \return when it was done (s)
double
RunSlice(Ptr<GradientAggregator> job)
{
    double done = -1;
    job->Aggregate(0, kElements * 4, 3, Callback<void>([&done]() {
                       done = Simulator::Now().GetSeconds();
                   }));
    Simulator::Run();
    Simulator::Destroy();
    return done;
}

/// The slice on one tree of 4 workers at flow level. \return when it was done (s)
double
FluidSlice(uint32_t slots, FluidAggregator::TreeSpec& tree)
{
    FabricTopology topo = FabricTopologyHelper().BuildLeafSpine(1, 1, 4);
    AggregationHelper agg;
    agg.InstallInSwitch(topo.switches);
    Ptr<FluidFabric> fabric = FlowBackendHelper().Install(topo);
    Ptr<FluidAggregator> job =
        agg.InstallFluidJob(HostsOf(topo, {0, 1, 2, 3}), 1, 1, fabric, slots);
    tree = job->GetTrees().at(0);
    return RunSlice(job);
}

/// The same slice at packet level, the workers' window fixed at the slot pool. \return s
double
PacketSlice(uint32_t slots)
{
    FabricTopology topo = FabricTopologyHelper().BuildLeafSpine(1, 1, 4);
    AggregationHelper agg;
    agg.SetCongestionControl("ns3::AggregationFixedWindow");
    agg.InstallInSwitch(topo.switches);
    return RunSlice(agg.InstallJob(HostsOf(topo, {0, 1, 2, 3}), 1, 1, slots));
}
} // namespace

TEST_CASE("flow: an aggregation tree whose slot pool is below its bandwidth-delay product runs "
          "at the window rate",
          "[flow][aggregation]")
{
    // 16 slots x 1110 B per 4.355 us round trip: 4.08 GB/s, a third of the links' 12.5 GB/s
    // (the bandwidth-delay product is 12.5e9 x 4.355e-6 / 1110 = 49 chunks).
    const uint32_t slots = 16;
    FluidAggregator::TreeSpec tree;
    const double done = FluidSlice(slots, tree);
    const double window = slots * kFrame / kRoundTrip;
    REQUIRE(window < kB);
    CHECK(tree.slots == slots);
    CHECK(tree.roundTrip.GetSeconds() == Approx(kRoundTrip).margin(1e-9)); // whole ns
    CHECK(tree.windowRate == Approx(window).epsilon(1e-9));
    // drained at the window rate, then delivered one round trip less the drain's frame later
    const double expected = WireOf(kElements) / window + kRoundTrip - kFrame / kB;
    CHECK(done == Approx(expected).margin(2e-9));
}

TEST_CASE("flow: an aggregation tree whose slot pool is above its bandwidth-delay product runs "
          "at the link rate",
          "[flow][aggregation]")
{
    const uint32_t slots = 64; // 16.3 GB/s of window against 12.5 GB/s of link
    FluidAggregator::TreeSpec tree;
    const double done = FluidSlice(slots, tree);
    CHECK(tree.windowRate == Approx(slots * kFrame / kRoundTrip).epsilon(1e-9));
    REQUIRE(tree.windowRate > kB);
    const double expected = WireOf(kElements) / kB + kRoundTrip - kFrame / kB;
    CHECK(done == Approx(expected).margin(2e-9));
}

TEST_CASE("flow: a window-limited aggregation tree agrees with the packet model's fixed window",
          "[flow][aggregation]")
{
    for (uint32_t slots : {8u, 16u, 32u})
    {
        FluidAggregator::TreeSpec tree;
        const double fluid = FluidSlice(slots, tree);
        const double packet = PacketSlice(slots);
        INFO("slots " << slots << ": flow " << fluid << " s, packet " << packet << " s");
        CHECK(fluid == Approx(packet).epsilon(0.02));
    }
}
