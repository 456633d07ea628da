/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// FluidNetwork's "input-port" Sharing (FluidInputPortShare): a congested link shared as a packet
// switch without congestion control shares its egress port, equally among its input ports and
// recursively upstream. Hand-solved: the 3-to-1 dumbbell of test/fabric/input-port-share-test.cc
// (whose packet-level times it reproduces), an incast tree merging at two levels, a flow capped
// below its share, the owner's weights; the default "flow" mode unchanged; bad values refused.

#include "common/rdma-scenario.h"
#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
const double C = 1e6;       // bytes/s of every link
const uint64_t S = 1000000; // bytes per flow

/// Flows over hand-made paths from t = 0, each of S bytes; their drain times (s).
struct Incast
{
    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    std::vector<uint64_t> ids;
    std::vector<double> drained;

    /// Add `n` links (ids from 0, consecutive)
    void Links(uint32_t n)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            net->AddLink(C, Time(0));
        }
    }

    void Flow(const std::vector<uint32_t>& path)
    {
        FluidNetwork::FlowSpec s;
        s.path = path;
        s.bytes = S;
        const std::size_t i = drained.size();
        drained.push_back(-1);
        s.drained = FluidNetwork::FlowCallback(
            [this, i](uint64_t) { drained[i] = Simulator::Now().GetSeconds(); });
        ids.push_back(net->StartFlow(s));
    }

    /// \return the flows' rates at 1 ns (bytes/s), then runs to the end
    std::vector<double> Run()
    {
        std::vector<double> rates;
        Simulator::Schedule(NanoSeconds(1), [this, &rates]() {
            for (uint64_t id : ids)
            {
                rates.push_back(net->GetRate(id));
            }
        });
        Simulator::Run();
        Simulator::Destroy();
        return rates;
    }
};

/// The 3-to-1 dumbbell: flows 0 and 1 enter the right switch by the left switch's link, flow 2
/// by its own host's link; all three leave by host 3's link.
void
Dumbbell(Incast& n)
{
    n.Links(5); // 0, 1: hosts 0 and 1 up; 2: left -> right; 3: host 2 up; 4: host 3 down
    n.Flow({0, 2, 4});
    n.Flow({1, 2, 4});
    n.Flow({3, 4});
}

/// The incast tree: into d by a (flow 0) and b; into b by c (flows 1 and 2, each from its own
/// host) and by flow 3's host.
void
Tree(Incast& n)
{
    n.Links(8); // 0: d; 1: a; 2: b; 3: c; 4-7: the hosts of flows 0-3
    n.Flow({4, 1, 0});
    n.Flow({5, 3, 2, 0});
    n.Flow({6, 3, 2, 0});
    n.Flow({7, 2, 0});
}

void
CheckTimes(const std::vector<double>& got, const std::vector<double>& want)
{
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
    {
        INFO("flow " << i << " drained at " << got[i] << " s, expected " << want[i] << " s");
        CHECK(got[i] == Approx(want[i]).epsilon(1e-6));
    }
}
} // namespace

TEST_CASE("flow: input-port sharing of the 3-to-1 dumbbell", "[flow]")
{
    // Per input port: flow 2 gets C/2, flows 0 and 1 C/4 each (the left switch's link's half,
    // split between its two inputs); flow 2 drains at S/(C/2) = 2 s, then flows 0 and 1 get
    // C/2 each for their last S/2: 3 s. Per flow: C/3 each, all three at 3 s.
    Incast n;
    n.net->SetAttribute("Sharing", StringValue("input-port"));
    Dumbbell(n);
    const std::vector<double> rates = n.Run();
    REQUIRE(rates.size() == 3);
    CHECK(rates[0] == Approx(C / 4));
    CHECK(rates[1] == Approx(C / 4));
    CHECK(rates[2] == Approx(C / 2));
    CheckTimes(n.drained, {3.0, 3.0, 2.0});
    CHECK(n.net->GetSharing() == "input-port");
    CHECK(n.net->GetSharingUnconverged() == 0);
    CHECK(n.net->GetUnconvergedWarning().empty());

    Incast m;
    Dumbbell(m);
    const std::vector<double> fair = m.Run();
    for (double r : fair)
    {
        CHECK(r == Approx(C / 3));
    }
    CheckTimes(m.drained, {3.0, 3.0, 3.0});
    CHECK(m.net->GetSharing() == "flow");
    CHECK(m.net->GetSharingRounds() == 0);
}

TEST_CASE("flow: input-port sharing of an incast tree merging at two levels", "[flow]")
{
    // d's inputs a and b get C/2 each; b's inputs c and host 3 C/4 each; c's C/4 is split
    // between hosts 1 and 2: rates C/2, C/8, C/8, C/4 (the shares of the packet switches of
    // ps4+2-googlenet-k4-fixed seed 2, doc/flow-backend.rst). Flow 0 drains at 2 s; then b alone
    // feeds d: flow 3 C/2 for its last S/2 (at 3 s), flows 1 and 2 C/4 each, then C/2 each
    // for their last S/2 (at 4 s). d is never idle: 4 S / C = 4 s in either mode.
    Incast n;
    n.net->SetSharing("input-port");
    Tree(n);
    const std::vector<double> rates = n.Run();
    REQUIRE(rates.size() == 4);
    CHECK(rates[0] == Approx(C / 2));
    CHECK(rates[1] == Approx(C / 8));
    CHECK(rates[2] == Approx(C / 8));
    CHECK(rates[3] == Approx(C / 4));
    CheckTimes(n.drained, {2.0, 4.0, 4.0, 3.0});

    Incast m;
    Tree(m);
    m.Run();
    CheckTimes(m.drained, {4.0, 4.0, 4.0, 4.0});
}

TEST_CASE("flow: input-port sharing leaves a capped flow's share to the others", "[flow]")
{
    // The dumbbell with flow 2 capped at C/10: the port's other input, the left switch's link,
    // takes the rest, 0.45 C per flow; flow 2 keeps its cap.
    Incast n;
    n.net->SetSharing("input-port");
    Dumbbell(n);
    Simulator::Schedule(NanoSeconds(0), [&n]() { n.net->SetRateCap(n.ids[2], C / 10); });
    const std::vector<double> rates = n.Run();
    REQUIRE(rates.size() == 3);
    CHECK(rates[0] == Approx(0.45 * C));
    CHECK(rates[1] == Approx(0.45 * C));
    CHECK(rates[2] == Approx(C / 10));
}

TEST_CASE("flow: input-port weights multiply the owner's weights", "[flow]")
{
    // The dumbbell with flow 0 of weight 3: its input-port weight 1/4 becomes 3/4 (flow 1 1/4,
    // flow 2 1/2): C/2, C/6, C/3. Back to the "flow" mode, the owner's weights alone: flow 0
    // 3C/5, flows 1 and 2 C/5.
    Incast n;
    n.net->SetSharing("input-port");
    Dumbbell(n);
    Simulator::Schedule(NanoSeconds(0), [&n]() { n.net->SetWeight(n.ids[0], 3); });
    std::vector<double> back;
    Simulator::Schedule(NanoSeconds(2), [&n]() { n.net->SetSharing("flow"); });
    Simulator::Schedule(NanoSeconds(3), [&n, &back]() {
        for (uint64_t id : n.ids)
        {
            back.push_back(n.net->GetRate(id));
        }
    });
    const std::vector<double> rates = n.Run();
    REQUIRE(rates.size() == 3);
    CHECK(rates[0] == Approx(C / 2));
    CHECK(rates[1] == Approx(C / 6));
    CHECK(rates[2] == Approx(C / 3));
    REQUIRE(back.size() == 3);
    CHECK(back[0] == Approx(3 * C / 5));
    CHECK(back[1] == Approx(C / 5));
    CHECK(back[2] == Approx(C / 5));
}

TEST_CASE("flow: input-port sharing on the fabric's dumbbell matches the packet switch", "[flow]")
{
    // test/fabric/input-port-share-test.cc: three 2 MB messages to host 3 of a 2+2 dumbbell,
    // hosts 0 and 1 by the left switch's link. Packet level without congestion control (there):
    // host 2 at 349.2 us, hosts 0 and 1 at 524.4 us; per input port by hand 2 MB / (G/2) and
    // 3 x 2 MB / G (G the payload goodput of 100 Gb/s) plus the paths' latencies (1.2 %).
    const uint64_t bytes = 2000000;
    const double G = mlnettest::MaxGoodput(100e9, 1000) / 8;
    const double half = bytes / (G / 2);
    const double all = 3.0 * bytes / G;
    RngSeedManager::SetRun(1);
    FabricTopologyHelper helper;
    const FabricTopology t = helper.BuildDumbbell(2, 2);
    const std::vector<Ptr<MessageTransport>> hosts = mlnettest::FluidHosts(t, 4);
    DynamicCast<FluidTransport>(hosts[0])->GetFabric()->GetNetwork()->SetSharing("input-port");
    std::vector<double> done(3, -1);
    for (uint32_t i = 0; i < 3; ++i)
    {
        Ptr<MessageConnection> c = hosts[i]->Open(hosts[3], 3);
        c->PostSend(bytes, MessageConnection::CompletionCallback([&done, i](uint64_t, uint64_t) {
                        done[i] = Simulator::Now().GetSeconds();
                    }));
    }
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    Simulator::Destroy();
    INFO("flow completions " << done[0] * 1e6 << ", " << done[1] * 1e6 << ", " << done[2] * 1e6
                             << " us; per input port " << half * 1e6 << " and " << all * 1e6
                             << " us");
    CHECK(std::abs(done[2] - half) / half < 0.03);
    CHECK(std::abs(done[2] - 349.2e-6) / 349.2e-6 < 0.01);
    for (uint32_t i : {0u, 1u})
    {
        CHECK(std::abs(done[i] - all) / all < 0.03);
        CHECK(std::abs(done[i] - 524.4e-6) / 524.4e-6 < 0.01);
    }
}

TEST_CASE("flow: the Sharing attribute and the fluidSharing scenario key", "[flow]")
{
    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    CHECK(net->GetSharing() == "flow");
    CHECK(FluidNetwork::SharingModes() == std::vector<std::string>{"flow", "input-port"});
    try
    {
        net->SetSharing("port");
        FAIL("no exception");
    }
    catch (const std::invalid_argument& e)
    {
        const std::string m = e.what();
        CHECK(m.find("Sharing") != std::string::npos);
        CHECK(m.find("input-port") != std::string::npos);
        CHECK(m.find("\"port\"") != std::string::npos);
    }
    CHECK(net->GetSharing() == "flow");

    // Three 2 MB messages to host 3 of the dumbbell, as above, through a scenario file: per
    // input port by default with line-rate senders ("cc": "fixed"), else per flow.
    auto text = [](const std::string& extra) {
        return R"({"topology": {"type": "dumbbell", "left": 2, "right": 2}, "duration": "1us",
                   "backend": "flow", )" +
               extra + R"("traffic": [{"type": "rdma", "src": 0, "dst": 3, "bytes": "2MB"},
                          {"type": "rdma", "src": 1, "dst": 3, "bytes": "2MB"},
                          {"type": "rdma", "src": 2, "dst": 3, "bytes": "2MB"}]})";
    };
    const std::string fixed = R"("cc": "fixed", )";
    const ScenarioResult port =
        mlnettest::RunScenarioText(text(fixed + R"("fluidSharing": "input-port", )"));
    const ScenarioResult flow =
        mlnettest::RunScenarioText(text(fixed + R"("fluidSharing": "flow", )"));
    const ScenarioResult fixedDefault = mlnettest::RunScenarioText(text(fixed));
    // the scenario's default cc (DCQCN), its rates max-min ("fluidCc": "none") to compare
    const std::string maxMin = R"("fluidCc": "none", )";
    const ScenarioResult dcqcnDefault = mlnettest::RunScenarioText(text(maxMin));
    const ScenarioResult dcqcnPort =
        mlnettest::RunScenarioText(text(maxMin + R"("fluidSharing": "input-port", )"));
    for (const ScenarioResult* r : {&port, &flow, &fixedDefault, &dcqcnDefault, &dcqcnPort})
    {
        REQUIRE(r->flows.size() == 3);
    }
    for (uint32_t i = 0; i < 3; ++i)
    {
        CHECK(fixedDefault.flows[i].completedNs == port.flows[i].completedNs);
        CHECK(dcqcnDefault.flows[i].completedNs == flow.flows[i].completedNs);
        CHECK(dcqcnPort.flows[i].completedNs == port.flows[i].completedNs);
    }
    INFO("input-port: " << port.flows[0].completedNs << ", " << port.flows[1].completedNs << ", "
                        << port.flows[2].completedNs << " ns; flow: " << flow.flows[0].completedNs
                        << ", " << flow.flows[1].completedNs << ", " << flow.flows[2].completedNs
                        << " ns");
    CHECK(port.flows[2].completedNs < 0.7 * port.flows[0].completedNs);
    CHECK(flow.flows[2].completedNs == Approx(flow.flows[0].completedNs).epsilon(0.01));
    CHECK(port.flows[0].completedNs == Approx(flow.flows[0].completedNs).epsilon(0.01));
    // The attribute's default set by the user (--ns3::FluidNetwork::Sharing=flow), even to its
    // own value, is not overridden by the "cc": "fixed" default; the key still wins.
    TypeId::AttributeInformation info;
    REQUIRE(FluidNetwork::GetTypeId().LookupAttributeByName("Sharing", &info));
    Config::SetDefault("ns3::FluidNetwork::Sharing", StringValue("flow"));
    const ScenarioResult fixedUserFlow = mlnettest::RunScenarioText(text(fixed));
    const ScenarioResult fixedUserKey =
        mlnettest::RunScenarioText(text(fixed + R"("fluidSharing": "input-port", )"));
    for (std::size_t i = 0; i < FluidNetwork::GetTypeId().GetAttributeN(); ++i)
    {
        if (FluidNetwork::GetTypeId().GetAttribute(i).name == "Sharing")
        {
            FluidNetwork::GetTypeId().SetAttributeInitialValue(i, info.originalInitialValue);
        }
    }
    REQUIRE(fixedUserFlow.flows.size() == 3);
    REQUIRE(fixedUserKey.flows.size() == 3);
    for (uint32_t i = 0; i < 3; ++i)
    {
        CHECK(fixedUserFlow.flows[i].completedNs == flow.flows[i].completedNs);
        CHECK(fixedUserKey.flows[i].completedNs == port.flows[i].completedNs);
    }
    CHECK(mlnettest::RunScenarioText(text(fixed)).flows[2].completedNs ==
          port.flows[2].completedNs); // restored: the "cc": "fixed" default again
    CHECK(mlnettest::ScenarioParseError(
              text(R"("fluidSharing": {"mode": "input-port", "maxRounds": 4}, )")) == "");
    const std::string bad = mlnettest::ScenarioParseError(text(R"("fluidSharing": "port", )"));
    CHECK(bad.find("fluidSharing") != std::string::npos);
    CHECK(bad.find("input-port") != std::string::npos);
    CHECK(mlnettest::ScenarioParseError(text(R"("fluidSharing": {"maxRounds": 0}, )"))
              .find("maxRounds") != std::string::npos);
}
