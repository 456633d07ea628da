/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The aggregation trees' congestion control at flow level: under DCQCN at flow level
// (FluidDcqcn) each tree of a job whose packet workers run ns3::AggregationDcqcn is one owner
// with the packet workers' reaction point (doc/flow-backend.rst, *The trees' congestion
// control at flow level*). A tree alone at line rate is never cut; a tree beside an RDMA flow
// on one link shares it as two DCQCN senders do (fair on average); the other window controls
// keep their max-min rates.

#include "common/fluid-aggregation-fixture.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"
#include "ns3/network-module.h"

#include <catch2/catch.hpp>
#include <stdexcept>

using namespace ns3;
using namespace mlnettest;

namespace
{
/// A leaf-spine on the flow backend with in-switch aggregation and DCQCN at flow level.
struct Setup
{
    FabricTopology topo;
    AggregationHelper agg;
    Ptr<FluidFabric> fabric;
    Ptr<FluidDcqcn> cc;

    Setup(uint32_t leaves, uint32_t hostsPerLeaf, const std::string& aggCc)
    {
        topo = FabricTopologyHelper().BuildLeafSpine(leaves, 1, hostsPerLeaf);
        agg.SetCongestionControl(aggCc);
        agg.InstallInSwitch(topo.switches);
        fabric = FlowBackendHelper().Install(topo);
        cc = FlowBackendHelper::InstallDcqcn(fabric, ObjectFactory("ns3::Dcqcn"));
        REQUIRE(cc);
    }

    NodeContainer Hosts(const std::vector<uint32_t>& idx) const
    {
        return HostsOf(topo, idx);
    }
};
} // namespace

TEST_CASE("flow: a tree whose workers run AggregationDcqcn is a DCQCN owner at flow level, "
          "never cut alone at line rate",
          "[flow][aggregation][dcqcn]")
{
    // One leaf of 4 hosts under one spine: the leaf sums the 4 workers, the spine is the root;
    // every edge crosses one link, so the tree moves at line rate and no queue builds.
    Setup s(1, 4, "ns3::AggregationDcqcn");
    Ptr<FluidAggregator> job = s.agg.InstallFluidJob(s.Hosts({0, 1, 2, 3}), 1, 1, s.fabric);
    CHECK(job->HasCongestionControl());
    const uint64_t elements = 1000000;
    double done = -1;
    job->Aggregate(0, elements * 4, 3, Callback<void>([&done]() {
                       done = Simulator::Now().GetSeconds();
                   }));
    Simulator::Run();
    // as without DCQCN: drained at line rate, two hops up and two down
    CHECK(done ==
          Approx(WireOf(elements) / kB + 4 * (kD + kFrame / kB) - kFrame / kB).margin(2e-9));
    const void* owner = &job->GetTrees()[0];
    Ptr<RdmaCongestionOps> ops = s.cc->GetOps(owner);
    REQUIRE(ops);
    CHECK(ops->GetInstanceTypeId().GetName() == "ns3::Dcqcn");
    CHECK(s.cc->GetNOwners() == 1);
    CHECK(s.cc->GetCnps() == 0);
    CHECK(s.cc->GetState(owner).rate == Approx(100e9));
    Simulator::Destroy();
}

TEST_CASE("flow: the window controls (AggregationDctcp, AggregationFixedWindow) keep the trees' "
          "max-min rates under DCQCN at flow level",
          "[flow][aggregation][dcqcn]")
{
    for (const char* aggCc : {"ns3::AggregationFixedWindow", "ns3::AggregationDctcp"})
    {
        Setup s(1, 4, aggCc);
        Ptr<FluidAggregator> job = s.agg.InstallFluidJob(s.Hosts({0, 1, 2, 3}), 1, 1, s.fabric);
        CHECK_FALSE(job->HasCongestionControl());
        bool done = false;
        job->Aggregate(0, 4000000, 3, Callback<void>([&done]() { done = true; }));
        Simulator::Run();
        CHECK(done);
        CHECK(s.cc->GetNOwners() == 0);
        Simulator::Destroy();
    }
}

TEST_CASE("flow: a tree beside an RDMA flow on one link shares it as two DCQCN senders, the "
          "tree cut by CNPs",
          "[flow][aggregation][dcqcn]")
{
    // Two leaves of 2 hosts under one spine, aggregation in the switches. The tree of hosts 0
    // and 2 is rooted at the spine (the leaves have one child each: skipped). An RDMA flow
    // from host 1 to host 3 shares leaf 0's uplink with host 0's contributions and the spine's
    // port to leaf 1 with the results to host 2. Max-min gives each half the link; DCQCN is fair
    // on average: the tree is cut (CNPs), and takes between 35 and 65 % of the link while both
    // send.
    Setup s(2, 2, "ns3::AggregationDcqcn");
    Ptr<FluidAggregator> job = s.agg.InstallFluidJob(s.Hosts({0, 2}), 1, 1, s.fabric);
    REQUIRE(job->HasCongestionControl());
    std::vector<Ptr<MessageTransport>> tr = FlowBackendHelper::Transports(s.topo, {1, 3});
    Ptr<MessageConnection> c = tr[0]->Open(tr[1], 3);
    const uint64_t bytes = 40000000;
    double treeDone = -1;
    double rdmaDone = -1;
    job->Aggregate(0, bytes, 3, Callback<void>([&treeDone]() {
                       treeDone = Simulator::Now().GetSeconds();
                   }));
    c->PostSend(4 * bytes, MessageConnection::CompletionCallback([&rdmaDone](uint64_t, uint64_t) {
                    rdmaDone = Simulator::Now().GetSeconds();
                }));
    Simulator::Run();
    REQUIRE(treeDone > 0);
    REQUIRE(rdmaDone > treeDone); // the RDMA flow has 4x the bytes: it sends on after the tree
    const void* owner = &job->GetTrees()[0];
    REQUIRE(s.cc->GetOps(owner));
    CHECK(s.cc->GetNOwners() == 2);
    // the tree's wire bytes per worker over its time: its share of the link while both sent
    const double wire = double(job->GetWireBytesPerTree()[0]);
    const double share = wire / treeDone / kB;
    CHECK(share > 0.35);
    CHECK(share < 0.65);
    CHECK(s.cc->GetCnps() > 0);
    Simulator::Destroy();
}

TEST_CASE("flow: FluidAggregator::SetCongestionControl rejects a line rate out of range",
          "[flow][aggregation][dcqcn]")
{
    Ptr<FluidAggregator> job = CreateObject<FluidAggregator>();
    CHECK_THROWS_AS(job->SetCongestionControl(ObjectFactory("ns3::Dcqcn"), 0.0),
                    std::invalid_argument);
    CHECK_THROWS_AS(job->SetCongestionControl(ObjectFactory("ns3::Dcqcn"), -1.0),
                    std::invalid_argument);
    CHECK_FALSE(job->HasCongestionControl());
}
