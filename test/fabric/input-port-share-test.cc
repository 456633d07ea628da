/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Without congestion control a congested switch port is shared among its input ports, not among
// the flows (the packet fabric's FIFO queues and PFC), while the flow backend gives every flow
// its max-min share: the cause of the flow backend's error on the parameter-server scenarios
// without DCQCN (doc/flow-backend.rst, *Without congestion control*). Three equal messages to
// host 3 of a dumbbell: hosts 0 and 1 enter the right switch through one port (the left switch's
// link), host 2 through its own.

#include "common/rdma-scenario.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{
const uint64_t kBytes = 2000000; // per message

/// Post one kBytes message from hosts 0, 1 and 2 to host 3 at t = 0. \return their completions (s)
std::vector<double>
RunThreeToOne(const std::vector<Ptr<MessageTransport>>& hosts)
{
    std::vector<double> done(3, -1);
    for (uint32_t i = 0; i < 3; ++i)
    {
        Ptr<MessageConnection> c = hosts[i]->Open(hosts[3], 3);
        c->PostSend(kBytes, MessageConnection::CompletionCallback([&done, i](uint64_t, uint64_t) {
                        done[i] = Simulator::Now().GetSeconds();
                    }));
    }
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    Simulator::Destroy();
    return done;
}

FabricTopology
Dumbbell()
{
    RngSeedManager::SetRun(1);
    FabricTopologyHelper helper;
    return helper.BuildDumbbell(2, 2);
}

/// The packet backend with line-rate senders ("cc": "fixed"), optionally each capped at `rate`.
std::vector<double>
PacketLevel(const std::string& rate = "0bps")
{
    FabricTopology t = Dumbbell();
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaFixedRate");
    rdma.SetCcAttribute("Rate", DataRateValue(DataRate(rate)));
    std::vector<Ptr<RdmaNic>> nics = rdma.Install(t.hosts);
    return RunThreeToOne(std::vector<Ptr<MessageTransport>>(nics.begin(), nics.end()));
}

/// The flow backend on the same topology.
std::vector<double>
FlowLevel()
{
    return RunThreeToOne(mlnettest::FluidHosts(Dumbbell(), 4));
}

// Host 3's link carries the 3 x 2 MB at the payload goodput G of 100 Gb/s (1000 B per 1082 B
// frame); the last message ends at 3 x 2 MB / G = 519.5 us in either share, as the link is
// never idle. Per flow (max-min) each message gets G/3 and all three end then. Per input port
// host 2 gets G/2 and ends at 2 MB / (G/2) = 346.3 us; hosts 0 and 1 get G/4 each until then
// and G/2 after. Tolerance: the paths' latencies and acknowledgements (4-6 us, 1.2 % of 519.5 us)
// and the start-up of the queues.
const double G = mlnettest::MaxGoodput(100e9, 1000) / 8; // bytes/s
const double kAll = 3.0 * kBytes / G;
const double kHalf = kBytes / (G / 2);
} // namespace

TEST_CASE("fabric: without congestion control a congested port is shared per input port",
          "[fabric]")
{
    const std::vector<double> p = PacketLevel();
    INFO("packet completions " << p[0] * 1e6 << ", " << p[1] * 1e6 << ", " << p[2] * 1e6
                               << " us; per input port " << kHalf * 1e6 << " and " << kAll * 1e6
                               << " us");
    CHECK(std::abs(p[2] - kHalf) / kHalf < 0.03);
    CHECK(std::abs(p[0] - kAll) / kAll < 0.03);
    CHECK(std::abs(p[1] - kAll) / kAll < 0.03);
}

TEST_CASE("flow: the fluid model shares the same port per flow (max-min)", "[flow]")
{
    const std::vector<double> f = FlowLevel();
    INFO("flow completions " << f[0] * 1e6 << ", " << f[1] * 1e6 << ", " << f[2] * 1e6
                             << " us; per flow " << kAll * 1e6 << " us");
    for (double x : f)
    {
        CHECK(std::abs(x - kAll) / kAll < 0.02);
    }
}

TEST_CASE("fabric: senders capped at their max-min share complete as at flow level", "[fabric]")
{
    // 100 Gb/s / 3 of wire each: no queue builds, and the packet times become the fluid ones.
    const std::vector<double> p = PacketLevel("33333333333bps");
    const std::vector<double> f = FlowLevel();
    for (uint32_t i = 0; i < 3; ++i)
    {
        INFO("message " << i << ": packet " << p[i] * 1e6 << " us, flow " << f[i] * 1e6 << " us");
        CHECK(std::abs(p[i] - f[i]) / f[i] < 0.01);
    }
}
