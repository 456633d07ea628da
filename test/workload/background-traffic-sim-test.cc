/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Background traffic: flow-size CDFs and the offered / delivered load.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace ns3;

TEST_CASE("workload: flow-size CDFs parse, sample and reject bad input", "[workload]")
{
    FlowSizeCdf ws = FlowSizeCdf::WebSearch();
    FlowSizeCdf dm = FlowSizeCdf::DataMining();
    INFO("websearch mean " << ws.GetMean() << " datamining mean " << dm.GetMean());
    REQUIRE(ws.GetMean() > 1e6);
    REQUIRE(ws.GetMean() < 2e6);
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(7);
    double sum = 0;
    const int n = 400000;
    for (int i = 0; i < n; ++i)
    {
        sum += ws.Sample(u->GetValue());
    }
    REQUIRE(sum / n == Approx(ws.GetMean()).epsilon(0.03));
    std::istringstream user("# mine\n100 0.5\n\n300 1\n");
    FlowSizeCdf c = FlowSizeCdf::FromStream(user);
    REQUIRE(c.Sample(0.0) == 100);
    REQUIRE(c.Sample(0.75) == 200);
    REQUIRE(c.Sample(1.0) == 300);
    std::istringstream bad("100 0.5\n50 1\n");
    REQUIRE_THROWS_AS(FlowSizeCdf::FromStream(bad), std::invalid_argument);
    std::istringstream bad2("100 x\n");
    REQUIRE_THROWS_AS(FlowSizeCdf::FromStream(bad2), std::invalid_argument);
    REQUIRE_THROWS_AS(FlowSizeCdf::Get("nope"), std::invalid_argument);
}

TEST_CASE("workload: background flows reach the target load", "[workload]")
{
    FabricTopologyHelper th;
    th.SetHostLinkRate(DataRate("10Gbps"));
    th.SetFabricLinkRate(DataRate("40Gbps"));
    FabricTopology topo = th.BuildLeafSpine(2, 1, 2);
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::Dcqcn");
    auto nics = rdma.Install(topo.hosts);
    Ptr<BackgroundTraffic> bg = CreateObject<BackgroundTraffic>();
    bg->SetHosts(nics, nics);
    std::istringstream cdf("100000 1\n"); // fixed 100 KB flows
    bg->SetFlowSizeCdf(FlowSizeCdf::FromStream(cdf));
    const double load = 0.5;
    bg->SetAttribute("Load", DoubleValue(load));
    bg->SetAttribute("LinkRate", DataRateValue(DataRate("10Gbps")));
    const Time horizon = MilliSeconds(200);
    bg->SetAttribute("StopTime", TimeValue(horizon));
    bg->AssignStreams(11);
    bg->Start();
    Simulator::Stop(horizon + MilliSeconds(20));
    Simulator::Run();
    double target = load * 10e9 / 8 * horizon.GetSeconds() * nics.size();
    INFO("offered " << bg->GetOfferedBytes() << " completed " << bg->GetCompletedBytes()
                    << " target " << target << " flows " << bg->GetFlowsStarted());
    REQUIRE(double(bg->GetOfferedBytes()) == Approx(target).epsilon(0.05));
    REQUIRE(double(bg->GetCompletedBytes()) == Approx(target).epsilon(0.05));
    REQUIRE(bg->GetFlowRecords().size() == bg->GetFlowsStarted());
    for (const auto& r : bg->GetFlowRecords())
    {
        REQUIRE(r.srcHost != r.dstHost);
    }
    Simulator::Destroy();
}
