/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// A ring collective in a few fluid flows (FluidTransport::RingGranularity "Group": one fluid
// group at a common rate; "Phased": phases of one flow per member): max-min with groups on
// hand-solved links (random groups: fluid-network-test.cc), a ring on an idle fabric against
// 2(n-1)/n S/B plus the latency terms at all granularities, the coarse and the per-message
// rings side by side (idle fat-tree, sub-chunks, shared links), conservation of bytes, the
// scenario key; and the flow level's port-classes rows and classes.inUse.

#include "common/fluid-rates.h"
#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace ns3;

namespace
{
using Spec = FluidNetwork::FlowSpec;

Spec
Flow(std::vector<uint32_t> path,
     std::vector<double> coef = {},
     uint8_t cls = 3,
     double weight = 1,
     double cap = 0)
{
    Spec s;
    s.path = std::move(path);
    s.pathCoef = std::move(coef);
    s.bytes = 1000000000000ull; // nothing finishes during the checks
    s.cls = cls;
    s.weight = weight;
    s.rateCap = cap;
    return s;
}

/// Start the flows at t = 0 on links of the given capacities; \return their rates at 1 us.
std::vector<double>
Rates(const std::vector<double>& capacities, const std::vector<Spec>& specs)
{
    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    for (double c : capacities)
    {
        net->AddLink(c, Time(0));
    }
    return mlnettest::FluidRatesAt(net, specs, MicroSeconds(1));
}

/// A fat-tree (k = 4) or the 2-leaf, 1-spine fabric of four hosts per leaf, flow backend.
FabricTopology
Build(bool fatTree, const std::string& granularity)
{
    RngSeedManager::SetRun(1);
    FabricTopologyHelper helper;
    FabricTopology t = fatTree ? helper.BuildFatTree(4) : helper.BuildLeafSpine(2, 1, 4);
    FlowBackendHelper flow;
    flow.SetTransportAttribute("RingGranularity", StringValue(granularity));
    flow.Install(t);
    return t;
}

/// A ring all-reduce of S bytes over the hosts, started at 0 (SubChunks p).
Ptr<RingAllReduce>
StartRing(const FabricTopology& t, const std::vector<uint32_t>& hosts, uint64_t S, uint32_t p = 1)
{
    Ptr<RingAllReduce> ar = CreateObject<RingAllReduce>();
    ar->SetAttribute("SubChunks", UintegerValue(p));
    ar->SetGroup(FlowBackendHelper::Transports(t, hosts));
    ar->Start(S);
    return ar;
}

/// Run one ring all-reduce; \return its duration (s). Destroys the simulation.
double
RingDuration(bool fatTree,
             const std::string& granularity,
             const std::vector<uint32_t>& hosts,
             uint64_t S,
             uint32_t p = 1)
{
    FabricTopology t = Build(fatTree, granularity);
    Ptr<RingAllReduce> ar = StartRing(t, hosts, S, p);
    Simulator::Run();
    REQUIRE(ar->GetCompletedInvocations() == 1);
    const double d = ar->GetLastDuration().GetSeconds();
    Simulator::Destroy();
    return d;
}

const std::vector<uint32_t> kAcrossPods = {0, 2, 5, 7, 8, 10, 13, 15};
} // namespace

TEST_CASE("flow: a fluid group takes its multiplicity of every link and freezes at its first "
          "full one",
          "[flow]")
{
    // Links A = 0 (10 GB/s), B = 1 (10 GB/s), C = 2 (6 GB/s). Group G crosses A twice and B
    // once; f1 crosses A, f2 crosses B and C. Filling at level T: A carries 3T (full at
    // T = 10/3), B 2T (5), C T (6). A saturates first: G and f1 freeze at 10/3 (G takes 20/3
    // of A). f2 rises alone to C's 6, and B is left with 10 - 10/3 - 6 = 2/3 unused: a ring's
    // fast links idle while its slowest transfer sets the pace.
    std::vector<double> r =
        Rates({10e9, 10e9, 6e9}, {Flow({0, 1}, {2, 1}), Flow({0}), Flow({1, 2})});
    CHECK(r[0] == Approx(10e9 / 3));
    CHECK(r[1] == Approx(10e9 / 3));
    CHECK(r[2] == Approx(6e9));

    // Strict priority: a class-5 group of 3 members on a 12 GB/s link takes it all (4 each),
    // a class-3 flow there gets nothing; with the group capped at 2 GB/s the flow gets 6.
    r = Rates({12e9}, {Flow({0}, {3}, 5), Flow({0})});
    CHECK(r[0] == Approx(4e9));
    CHECK(r[1] == Approx(0).margin(1));
    r = Rates({12e9}, {Flow({0}, {3}, 5, 1, 2e9), Flow({0})});
    CHECK(r[0] == Approx(2e9));
    CHECK(r[1] == Approx(6e9));

    // Weights: a group of weight 2 crossing a 10 GB/s link twice against a flow of weight 1:
    // 2 x 2T + T = 10, T = 2: the group 4 per member (8 in all), the flow 2.
    r = Rates({10e9}, {Flow({0}, {2}, 3, 2), Flow({0})});
    CHECK(r[0] == Approx(4e9));
    CHECK(r[1] == Approx(2e9));

    // A member's acknowledgements as a fraction: 1 + 84/1082 on a link shared with one flow.
    const double share = 1 + 84.0 / 1082;
    r = Rates({10e9}, {Flow({0}, {share}), Flow({0})});
    CHECK(r[0] == Approx(10e9 / (1 + share)));
    CHECK(r[1] == Approx(10e9 / (1 + share)));

    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    net->AddLink(1e9, Time(0));
    net->AddLink(1e9, Time(0));
    CHECK_THROWS_WITH(net->StartFlow(Flow({0, 1}, {1})), Catch::Contains("pathCoef has 1"));
    CHECK_THROWS_WITH(net->StartFlow(Flow({0}, {0})), Catch::Contains("pathCoef entry"));
    Simulator::Destroy();
}

TEST_CASE("flow: a ring on an idle fabric is 2(n-1)/n S/B plus the latency terms at both "
          "granularities",
          "[flow]")
{
    // Four hosts under one leaf, S = 4 MB (chunks of 1000 full packets). Per member and step:
    // the chunk's drain at the host link's rate, of which every 1000 B of data take 1166 B
    // (1082 B of frame and the predecessor's 84 B acknowledgement), plus the unloaded latency
    // of host -> leaf -> host (2 x 1 us + one 1082 B frame's store-and-forward, 87 ns); the
    // last message completes one acknowledgement later (2 x 1 us + 2 x 6.72 ns).
    const uint32_t n = 4;
    const uint64_t S = 4000000;
    const double goodput = 100e9 / 8 * 1000.0 / 1166.0;
    const double expected =
        2.0 * (n - 1) / n * S / goodput + 2.0 * (n - 1) * (2e-6 + 87e-9) + (2e-6 + 13e-9);
    const double message = RingDuration(false, "Message", {0, 1, 2, 3}, S);
    const double group = RingDuration(false, "Group", {0, 1, 2, 3}, S);
    const double phased = RingDuration(false, "Phased", {0, 1, 2, 3}, S);
    INFO("analytical " << expected * 1e6 << " us, message " << message * 1e6 << " us, group "
                       << group * 1e6 << " us, phased (6 phases: one per step) " << phased * 1e6
                       << " us");
    // Every message's drain is rounded up to the ns (one per step); the group's drain once,
    // the phased ring's once per phase.
    CHECK(message >= expected - 1e-12);
    CHECK(message <= expected + 2.0 * (n - 1) * 1e-9 + 1e-12);
    CHECK(group >= expected - 1e-12);
    CHECK(group <= expected + 1e-9 + 1e-12);
    CHECK(phased >= expected - 1e-12);
    CHECK(phased <= expected + 2.0 * (n - 1) * 1e-9 + 1e-12);
}

TEST_CASE("flow: grouped and per-message rings agree on an idle fat-tree, with sub-chunks",
          "[flow]")
{
    // Eight hosts across the pods of a k=4 fat-tree: the members' paths are 2, 4 and 6 hops,
    // so the per-step latencies differ; the group adds the chain of steps that ends at each
    // rank, as the messages' dependencies do. With 4 sub-chunks per chunk the pipelining
    // hides each step's latency behind the next sub-chunks' drain.
    for (uint32_t p : {1u, 4u})
    {
        for (uint64_t S : {uint64_t(8000000), uint64_t(800000), uint64_t(8000003)})
        {
            const double message = RingDuration(true, "Message", kAcrossPods, S, p);
            for (const char* granularity : {"Group", "Phased"})
            {
                const double coarse = RingDuration(true, granularity, kAcrossPods, S, p);
                INFO("S " << S << " B, " << p << " sub-chunks: message " << message * 1e6 << " us, "
                          << granularity << " " << coarse * 1e6 << " us");
                // rounding: one ns per message's drain (2(n-1) p of them); with members' path
                // latencies differing (2, 4, 6 hops) the coarse modes' chain of step latencies
                // ends up to 0.57 us (0.04 %) later than the messages' (measured; its cause is
                // not found yet: doc/flow-backend.rst), hence 1 us
                CHECK(std::abs(message - coarse) <= 2.0 * 7 * p * 1e-9 + 1e-6);
            }
        }
    }
}

TEST_CASE("flow: grouped and per-message rings agree where rings and flows share links", "[flow]")
{
    // Two rings of four on a k=4 fat-tree whose members interleave across pods (so their
    // paths share aggregation and core links under ECMP), and two 20 MB flows into members'
    // host links (hosts 2 and 9, from hosts 1 and 14), all started at once. The ring
    // durations and the flows' completions agree within 2 % between the granularities.
    auto run = [](const std::string& granularity) {
        FabricTopology t = Build(true, granularity);
        Ptr<RingAllReduce> a = StartRing(t, {0, 4, 9, 13}, 16000000);
        Ptr<RingAllReduce> b = StartRing(t, {2, 6, 11, 12}, 16000000);
        std::vector<Ptr<MessageTransport>> tr = FlowBackendHelper::Transports(t, {1, 2, 14, 9});
        std::vector<double> done;
        for (uint32_t k = 0; k < 2; ++k)
        {
            tr[2 * k]
                ->Open(tr[2 * k + 1], 3)
                ->PostSend(20000000,
                           MessageConnection::CompletionCallback([&done](uint64_t, uint64_t) {
                               done.push_back(Simulator::Now().GetSeconds());
                           }));
        }
        Simulator::Run();
        REQUIRE(done.size() == 2);
        std::sort(done.begin(), done.end());
        std::vector<double> out = {a->GetLastDuration().GetSeconds(),
                                   b->GetLastDuration().GetSeconds(),
                                   done[0],
                                   done[1]};
        Simulator::Destroy();
        return out;
    };
    const std::vector<double> message = run("Message");
    for (const char* granularity : {"Group", "Phased"})
    {
        const std::vector<double> coarse = run(granularity);
        for (size_t i = 0; i < message.size(); ++i)
        {
            INFO("ring a, ring b, flow 1, flow 2 [" << i << "]: message " << message[i] * 1e6
                                                    << " us, " << granularity << " "
                                                    << coarse[i] * 1e6 << " us");
            CHECK(std::abs(coarse[i] - message[i]) / message[i] < 0.02);
        }
    }
}

TEST_CASE("flow: a grouped ring moves and delivers the per-message ring's bytes", "[flow]")
{
    // S divisible by n: every member sends 2(n-1)/n S in whole packets either way, so every
    // link carries the same bytes, and every connection delivers 2(n-1)/n S.
    const uint64_t S = 8000000;
    const uint32_t n = uint32_t(kAcrossPods.size());
    auto run = [&](const std::string& granularity) {
        FabricTopology t = Build(true, granularity);
        Ptr<RingAllReduce> ar = StartRing(t, kAcrossPods, S);
        Simulator::Run();
        REQUIRE(ar->GetCompletedInvocations() == 1);
        std::vector<Ptr<MessageTransport>> tr = FlowBackendHelper::Transports(t, kAcrossPods);
        for (uint32_t i = 0; i < n; ++i)
        {
            Ptr<FluidTransport> f = DynamicCast<FluidTransport>(tr[i]);
            Ptr<FluidConnection> c = f->GetConnection(0);
            REQUIRE(c);
            CHECK(c->GetBytesDelivered() == 2 * (n - 1) * S / n);
            CHECK(c->GetBytesAcked() == c->GetBytesPosted());
            CHECK(!c->IsBusy());
            CHECK(f->GetBytesReceived() == 2 * (n - 1) * S / n);
        }
        Ptr<FluidNetwork> net = DynamicCast<FluidTransport>(tr[0])->GetFabric()->GetNetwork();
        net->Advance();
        std::vector<double> bytes;
        for (uint32_t l = 0; l < net->GetNLinks(); ++l)
        {
            bytes.push_back(net->GetLinkBytes(l));
        }
        Simulator::Destroy();
        return bytes;
    };
    const std::vector<double> message = run("Message");
    double total = 0;
    for (const char* granularity : {"Group", "Phased"})
    {
        const std::vector<double> coarse = run(granularity);
        REQUIRE(message.size() == coarse.size());
        total = 0;
        for (size_t l = 0; l < message.size(); ++l)
        {
            INFO(granularity << ", link " << l);
            CHECK(coarse[l] == Approx(message[l]).epsilon(1e-9).margin(1e-3));
            total += message[l];
        }
    }
    CHECK(total > 2.0 * (n - 1) * S / n * n * 2); // every member crosses >= 2 links
}

TEST_CASE("flow: the scenario key ringGranularity selects the ring's unit", "[flow]")
{
    auto text = [](const std::string& granularity) {
        return R"({"topology": {"type": "fat-tree", "k": 4}, "duration": "1us", "drain": "1s",
                   "backend": "flow", "ringGranularity": ")" +
               granularity + R"(", "traffic": [{"type": "data-parallel-job",
                   "hosts": [0, 2, 5, 7, 8, 10, 13, 15], "model": "googlenet", "gpu": "a100",
                   "batch": 8, "iterations": 3}]})";
    };
    CHECK(mlnettest::ScenarioParseError(text("ring")).find("ringGranularity") != std::string::npos);
    ScenarioResult message = mlnettest::RunScenarioText(text("message"));
    REQUIRE(message.iterations.size() == 3);
    for (const char* granularity : {"group", "phased"})
    {
        ScenarioResult coarse = mlnettest::RunScenarioText(text(granularity));
        REQUIRE(coarse.iterations.size() == 3);
        for (size_t i = 0; i < 3; ++i)
        {
            const double m = message.iterations[i].Duration().GetSeconds();
            const double c = coarse.iterations[i].Duration().GetSeconds();
            INFO("iteration " << i << ": message " << m * 1e3 << " ms, " << granularity << " "
                              << c * 1e3 << " ms");
            CHECK(std::abs(c - m) / m < 1e-3);
        }
    }
}

TEST_CASE("flow: port-classes rows and classes.inUse come from the fluid links", "[flow]")
{
    // Two RDMA messages in classes 3 and 5 from hosts 0 and 1 to host 15 of a k=4 fat-tree:
    // the switch port towards host 15 carried 1,044,000 IPv4 bytes of each class; their
    // acknowledgements are in class 7 (as the packet NIC's) on the ports back.
    ScenarioResult r = mlnettest::RunScenarioText(
        R"({"topology": {"type": "fat-tree", "k": 4}, "duration": "1us", "drain": "1s",
            "backend": "flow", "traffic": [
            {"type": "rdma", "src": 0, "dst": 15, "bytes": "1MB", "class": 3},
            {"type": "rdma", "src": 1, "dst": 15, "bytes": "1MB", "class": 5}]})");
    CHECK(r.summary.dataClasses == std::vector<uint32_t>{3, 5});
    std::map<uint32_t, uint64_t> toHost15;
    std::string port;
    for (const PortStatsRecord& p : r.ports)
    {
        if (p.peer == "host15")
        {
            port = p.node + ":" + std::to_string(p.port);
        }
    }
    REQUIRE(!r.portClasses.empty());
    uint64_t acks = 0;
    for (const PortClassRecord& c : r.portClasses)
    {
        CHECK(c.flowLevel);
        CHECK((c.cls == 3 || c.cls == 5 || c.cls == 7));
        acks += c.cls == 7 ? c.txBytes : 0;
        if (c.node + ":" + std::to_string(c.port) == port)
        {
            toHost15[c.cls] += c.txBytes;
        }
    }
    CHECK(toHost15[3] == 1044000);
    CHECK(toHost15[5] == 1044000);
    CHECK(acks > 0);
    std::ostringstream csv;
    PortClasses::WriteCsv(csv, r.portClasses);
    std::istringstream lines(csv.str());
    std::string line;
    std::getline(lines, line);
    CHECK(line == "node,port,class,txPackets,txBytes,pfcPauses,maxQueueBytes");
    while (std::getline(lines, line))
    {
        // node,port,class,,txBytes,, : the per-packet columns empty
        INFO(line);
        CHECK(std::count(line.begin(), line.end(), ',') == 6);
        CHECK(line.find(",,") != std::string::npos);
        CHECK(line.size() > 2);
        CHECK(line.substr(line.size() - 2) == ",,");
    }
}
