/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// In-network aggregation at flow level (FluidAggregator, AggregationHelper::InstallFluidJob):
// hand-solved slice times on idle fabrics (line rate, a datapath bottleneck, two trees), bytes
// conserved on every link, the flow-level trees against the packet model's on a fat-tree, and
// a scenario at both backends.

#include "common/fluid-aggregation-fixture.h"
#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"
#include "ns3/network-module.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <utility>

using namespace ns3;
using namespace mlnettest;

namespace
{

/// A topology on the flow backend with aggregation points.
struct FluidAgg
{
    FabricTopology topo;
    AggregationHelper agg;
    Ptr<FluidFabric> fabric;

    FluidAgg(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf)
    {
        topo = FabricTopologyHelper().BuildLeafSpine(leaves, spines, hostsPerLeaf);
    }

    /// In-switch aggregation on every switch, then the fluid fabric.
    void InstallInSwitch()
    {
        agg.InstallInSwitch(topo.switches);
        fabric = FlowBackendHelper().Install(topo);
    }

    NodeContainer Hosts(const std::vector<uint32_t>& idx) const
    {
        return HostsOf(topo, idx);
    }
};

/// Post one slice and run. \return when it was done (seconds)
double
RunSlice(Ptr<FluidAggregator> job, uint64_t bytes)
{
    double done = -1;
    job->Aggregate(0, bytes, 3, Callback<void>([&done]() {
                       done = Simulator::Now().GetSeconds();
                   }));
    Simulator::Run();
    return done;
}
} // namespace

TEST_CASE("flow: in-network aggregation, one tree of 4 workers on an idle fabric at line rate",
          "[flow][aggregation]")
{
    // One leaf, one spine, in-switch aggregation: the leaf sums the 4 workers, the spine is
    // the root; every edge crosses one link, so the tree moves at line rate.
    FluidAgg s(1, 1, 4);
    s.InstallInSwitch();
    Ptr<FluidAggregator> job = s.agg.InstallFluidJob(s.Hosts({0, 1, 2, 3}), 1, 1, s.fabric);
    const uint64_t elements = 1000000;
    const double done = RunSlice(job, elements * 4);
    // drain at line rate, then two hops up and two down (delay + one frame each), less the
    // bottleneck's frame, which is in the drain
    const double expected = WireOf(elements) / kB + 4 * (kD + kFrame / kB) - kFrame / kB;
    CHECK(done == Approx(expected).margin(2e-9));
    CHECK(job->GetSlicesDone() == 1);
    REQUIRE(job->GetTrees().size() == 1);
    CHECK(job->GetTrees()[0].points == 2);
    Simulator::Destroy();
}

TEST_CASE("flow: in-network aggregation, a slow datapath is the tree's bottleneck",
          "[flow][aggregation]")
{
    // The same tree with adder trees of 4 lanes at 300 MHz on the switches: 1.2e9 elements/s,
    // and the leaf sums 4 children per chunk: the tree moves at 1.2e9 x 1110 / (4 x 256) B/s.
    FluidAgg s(1, 1, 4);
    s.agg.SetTimingModel("ns3::AdderTreeTimingModel");
    s.agg.SetTimingAttribute("Lanes", UintegerValue(4));
    s.agg.SetTimingAttribute("ClockFrequency", DoubleValue(300e6));
    s.agg.SetTimingAttribute("TreeDepth", UintegerValue(12));
    s.InstallInSwitch();
    Ptr<FluidAggregator> job = s.agg.InstallFluidJob(s.Hosts({0, 1, 2, 3}), 1, 1, s.fabric);
    const uint64_t elements = 1000000;
    const double done = RunSlice(job, elements * 4);
    const double rate = 1.2e9 * kFrame / (4 * 256);
    const double occupancy = 256 / 1.2e9; // one chunk on the adders (the slowest hop)
    const double pipeline = 40e-9;        // 12 cycles at 300 MHz
    const double expected =
        WireOf(elements) / rate + 4 * (kD + kFrame / kB) + 2 * (pipeline + occupancy) - occupancy;
    CHECK(done == Approx(expected).margin(2e-9));
    // the leaf's service link carries 4 x 256 elements per chunk: at its capacity
    Ptr<FluidNetwork> net = s.fabric->GetNetwork();
    net->Advance();
    const FluidAggregator::TreeSpec& t = job->GetTrees()[0];
    double maxService = 0;
    for (std::size_t i = 0; i < t.path.size(); ++i)
    {
        if (t.edges[i] == 0)
        {
            maxService = std::max(maxService, t.coef[i]);
        }
    }
    CHECK(maxService == Approx(4 * 256 / kFrame));
    Simulator::Destroy();
}

TEST_CASE("flow: in-network aggregation, two trees stripe the chunks and share the host links, "
          "bytes are conserved",
          "[flow][aggregation]")
{
    // 2 leaves x 2 hosts, 2 spines: tree t rooted at spine t; both trees cross every host link.
    FluidAgg s(2, 2, 2);
    s.InstallInSwitch();
    Ptr<FluidAggregator> job = s.agg.InstallFluidJob(s.Hosts({0, 1, 2, 3}), 1, 2, s.fabric);
    const uint64_t elements = 1000000; // 3907 chunks: 1954 on tree 0 (the partial last one too)
    const double done = RunSlice(job, elements * 4);
    const double wire1 = 1953 * kFrame;
    const double wire0 = 1953 * kFrame + 64 * 4 + 86;
    REQUIRE(job->GetWireBytesPerTree().size() == 2);
    CHECK(double(job->GetWireBytesPerTree()[0]) == wire0);
    CHECK(double(job->GetWireBytesPerTree()[1]) == wire1);
    // Both at half the host links until tree 1 ends, then tree 0 alone at line rate.
    const double drain0 = wire1 / (kB / 2) + (wire0 - wire1) / kB;
    const double expected = drain0 + 4 * (kD + kFrame / kB) - kFrame / kB;
    CHECK(done == Approx(expected).margin(3e-9));
    // The roots differ, and every link carries (its edges of each tree) x (the tree's bytes).
    const auto& trees = job->GetTrees();
    Ptr<FluidNetwork> net = s.fabric->GetNetwork();
    net->Advance();
    std::map<uint32_t, double> expectedBytes;
    for (uint32_t t = 0; t < 2; ++t)
    {
        for (std::size_t i = 0; i < trees[t].path.size(); ++i)
        {
            expectedBytes[trees[t].path[i]] += trees[t].coef[i] * (t == 0 ? wire0 : wire1);
        }
    }
    double total = 0;
    for (uint32_t l = 0; l < net->GetNLinks(); ++l)
    {
        const double e = expectedBytes.count(l) ? expectedBytes[l] : 0.0;
        CHECK(net->GetLinkBytes(l) == Approx(e).margin(1e-6));
        total += net->GetLinkBytes(l);
    }
    // 4 host uplinks + 4 host downlinks carry every byte of both trees; the leaf-spine links
    // one tree each: 2 leaves x (up + down) per tree
    CHECK(total == Approx(8 * (wire0 + wire1) + 4 * wire0 + 4 * wire1));
    Simulator::Destroy();
}

namespace
{
/// frames sent per (node id, device index), for every fabric port of the simulation
using FrameCount = std::map<std::pair<uint32_t, uint32_t>, uint64_t>;

/// A k=4 fat-tree with PANAMA's devices (edge and aggregation uplinks, every core port).
FabricTopology
PanamaFatTree(AggregationHelper& agg)
{
    FabricTopology t = FabricTopologyHelper().BuildFatTree(4);
    agg.InstallDevices(t.edge, "up");
    agg.InstallDevices(t.agg, "up");
    agg.InstallDevices(t.core, "all");
    return t;
}

NodeContainer
Pick(const FabricTopology& t, const std::vector<uint32_t>& idx)
{
    NodeContainer c;
    for (uint32_t i : idx)
    {
        c.Add(t.hosts.Get(i));
    }
    return c;
}
} // namespace

TEST_CASE("flow: the flow-level trees are the packet model's (k=4 fat-tree, PANAMA's devices, "
          "4 trees)",
          "[flow][aggregation]")
{
    const std::vector<uint32_t> workers{0, 5, 10, 15, 3};
    const uint64_t elements = 100000; // 391 chunks over 4 trees
    const uint32_t T = 4;
    // Packet level: frames every port sent for one slice on an idle fabric.
    FrameCount packet;
    double packetDone = -1;
    {
        AggregationHelper agg;
        FabricTopology t = PanamaFatTree(agg);
        Ptr<InNetworkAggregator> job = agg.InstallJob(Pick(t, workers), 7, T);
        job->Aggregate(0, elements * 4, 3, Callback<void>([&packetDone]() {
                           packetDone = Simulator::Now().GetSeconds();
                       }));
        Simulator::Run();
        for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
        {
            Ptr<Node> node = NodeList::GetNode(n);
            for (uint32_t i = 0; i < node->GetNDevices(); ++i)
            {
                Ptr<FabricNetDevice> d = DynamicCast<FabricNetDevice>(node->GetDevice(i));
                if (d && d->GetTxPackets() > 0)
                {
                    packet[{n, i}] = d->GetTxPackets();
                }
            }
        }
        Simulator::Destroy();
    }
    // Flow level: (edges of tree t on the link) x (chunks of tree t), per link's device.
    FrameCount fluid;
    double fluidDone = -1;
    {
        AggregationHelper agg;
        FabricTopology t = PanamaFatTree(agg);
        Ptr<FluidFabric> fabric = FlowBackendHelper().Install(t);
        Ptr<FluidAggregator> job = agg.InstallFluidJob(Pick(t, workers), 7, T, fabric);
        for (uint32_t tree = 0; tree < T; ++tree)
        {
            const auto& spec = job->GetTrees()[tree];
            const uint64_t chunks = AggregationWorker::ChunksOnTree(0, 391, T, tree);
            for (std::size_t i = 0; i < spec.path.size(); ++i)
            {
                if (spec.edges[i] == 0)
                {
                    continue; // a service link
                }
                Ptr<FabricNetDevice> d = fabric->GetDevice(spec.path[i]);
                fluid[{d->GetNode()->GetId(), d->GetIfIndex()}] += spec.edges[i] * chunks;
            }
        }
        fluidDone = RunSlice(job, elements * 4);
        Simulator::Destroy();
    }
    CHECK(fluid.size() > 20);
    CHECK(fluid == packet);
    // and on this idle fabric the slice takes the same time (the packet model's DCQCN
    // workers start at line rate; its trees' windows are not the limit here)
    CHECK(fluidDone == Approx(packetDone).epsilon(0.02));
}

TEST_CASE("flow: a scenario with in-network aggregation runs at flow level, within 5% of the "
          "packet backend",
          "[flow][aggregation]")
{
    auto text = [](const std::string& backend) {
        return R"({"topology": {"type": "fat-tree", "k": 4}, "duration": "1us", "drain": "1s",
                   "backend": ")" +
               backend + R"(",
                   "aggregation": {"placement": "devices", "lanes": 16, "clockMHz": 300},
                   "traffic": [{"type": "data-parallel-job", "hosts": [0, 5, 10, 15],
                                "mode": "ina", "model": "googlenet", "gpu": "a100",
                                "batch": 8, "iterations": 3, "trees": 4}]})";
    };
    auto mean = [](const ScenarioResult& r) {
        double sum = 0;
        uint32_t n = 0;
        for (const IterationRecord& it : r.iterations)
        {
            if (it.iteration > 0)
            {
                sum += it.Duration().GetSeconds();
                ++n;
            }
        }
        return n ? sum / n : 0.0;
    };
    const ScenarioResult flow = mlnettest::RunScenarioText(text("flow"));
    const ScenarioResult packet = mlnettest::RunScenarioText(text("packet"));
    CHECK(flow.summary.backend == "flow");
    REQUIRE(flow.iterations.size() == 3);
    CHECK(flow.summary.drained);
    CHECK(mean(flow) == Approx(mean(packet)).epsilon(0.05));
}
