/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The flow backend's transport: workloads talk to the same MessageTransport interface as at
// packet level; a ring all-reduce on an idle fabric takes 2(n-1)/n S/B plus the latency terms,
// exactly, and agrees with the packet backend.

#include "common/rdma-scenario.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>

using namespace ns3;
using mlnettest::FluidHosts;

namespace
{
/// Four hosts under one leaf of a 2-leaf, 1-spine fabric (100 Gb/s, 1 us links).
FabricTopology
Build()
{
    RngSeedManager::SetRun(1);
    FabricTopologyHelper helper;
    return helper.BuildLeafSpine(2, 1, 4);
}

/// Run one ring all-reduce of S bytes over the transports. \return its duration (s)
double
RunRing(const std::vector<Ptr<MessageTransport>>& group, uint64_t S)
{
    Ptr<RingAllReduce> ar = CreateObject<RingAllReduce>();
    ar->SetGroup(group);
    uint32_t done = 0;
    ar->Start(S, Collective::ParticipantCallback(), Collective::DoneCallback([&done]() {
                  ++done;
              }));
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    REQUIRE(done == 1);
    return ar->GetLastDuration().GetSeconds();
}
} // namespace

TEST_CASE("flow: a ring all-reduce at flow level is 2(n-1)/n S/B plus the latency terms", "[flow]")
{
    const uint32_t n = 4;
    const uint64_t S = 4000000; // chunks of 1,000,000 B: 1000 full packets each
    FabricTopology t = Build();
    std::vector<Ptr<MessageTransport>> group = FluidHosts(t, n);
    const double measured = RunRing(group, S);
    Simulator::Destroy();

    // B: 100 Gb/s of wire; each 1000 B packet costs 1000 + 44 + 38 = 1082 B of it, and every
    // host's uplink also carries its predecessor's acknowledgements, one 84 B frame per packet:
    // 1166 B of uplink per 1000 B of data.
    const double B = 100e9 / 8;
    const double goodput = B * 1000.0 / (1082.0 + 84.0);
    // Per step, the chunk's drain plus the unloaded latency of host -> leaf -> host: two 1 us
    // delays and one frame's store-and-forward at the leaf (1082 B at 100 Gb/s = 86.56 ns,
    // 87 ns at ns resolution). The last message completes one acknowledgement later: two 1 us
    // delays and two 84 B frames (2 x 6.72 ns).
    const double latency = 2e-6 + 87e-9;
    const double ack = 2e-6 + 13e-9;
    const double expected = 2.0 * (n - 1) / n * S / goodput + 2.0 * (n - 1) * latency + ack;
    INFO("flow level " << measured * 1e6 << " us, analytical " << expected * 1e6 << " us");
    // Each drain is rounded up to the next ns: at most one ns per step.
    CHECK(measured >= expected - 1e-12);
    CHECK(measured <= expected + 2.0 * (n - 1) * 1e-9 + 1e-12);
}

TEST_CASE("flow: ring all-reduce agrees with the packet backend on an idle fabric", "[flow]")
{
    const uint32_t n = 4;
    const uint64_t S = 4000000;
    FabricTopology t = Build();
    const double fluid = RunRing(FluidHosts(t, n), S);
    Simulator::Destroy();

    FabricTopology t2 = Build();
    RdmaHelper rdma;
    std::vector<Ptr<RdmaNic>> nics = rdma.Install(t2.hosts);
    nics.resize(n);
    const double packet = RunRing(std::vector<Ptr<MessageTransport>>(nics.begin(), nics.end()), S);
    Simulator::Destroy();
    INFO("flow " << fluid * 1e6 << " us, packet " << packet * 1e6 << " us");
    CHECK(std::abs(fluid - packet) / packet < 1e-3);
}

TEST_CASE("flow: connections take the packet backend's 5-tuples and paths", "[flow]")
{
    // The same sequence of Open/Connect calls gives the same UDP source ports in both backends.
    FabricTopology t = Build();
    std::vector<Ptr<MessageTransport>> fluid = FluidHosts(t, 4);
    RdmaHelper rdma;
    std::vector<Ptr<RdmaNic>> nics = rdma.Install(t.hosts);
    for (uint32_t k = 0; k < 12; ++k)
    {
        const uint32_t a = k % 4;
        const uint32_t b = (k * 3 + 1) % 4 == a ? (a + 1) % 4 : (k * 3 + 1) % 4;
        Ptr<FluidConnection> c = DynamicCast<FluidConnection>(fluid[a]->Open(fluid[b], 3));
        Ptr<RdmaQueuePair> qp = nics[a]->Connect(nics[b], 3);
        CHECK(c->GetQpn() == qp->GetQpn());
        CHECK(c->GetUdpSourcePort() == qp->GetUdpSourcePort());
        CHECK(c->GetPeer() == qp->GetPeer());
    }
    CHECK_THROWS_WITH(fluid[0]->Open(nics[1], 3), Catch::Contains("not a FluidTransport"));
    CHECK_THROWS_WITH(nics[0]->Open(fluid[1], 3), Catch::Contains("not an RdmaNic"));
    CHECK_THROWS_WITH(fluid[0]->Open(fluid[1], 8), Catch::Contains("class 8"));
    Simulator::Destroy();
}
