/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// RDMA transport behaviour in small simulations: line rate, fairness, loss recovery, knobs.

#include "common/rdma-scenario.h"
#include "common/test-utilities.h"

#include <catch2/catch.hpp>

using namespace ns3;
using mlnettest::RdmaDumbbell;

TEST_CASE("rdma: one flow alone reaches at least 95% of the achievable goodput", "[rdma]")
{
    RdmaDumbbell d(1, 1);
    Ptr<RdmaQueuePair> qp = d.Connect(0, 1);
    const uint64_t bytes = 20000000;
    Time done;
    qp->PostSend(bytes, RdmaQueuePair::CompletionCallback([&done](uint64_t, uint64_t) {
                     done = Simulator::Now();
                 }));
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    REQUIRE(done > Time(0));
    double goodput = bytes * 8.0 / done.GetSeconds();
    double bound = mlnettest::MaxGoodput(100e9, 1000);
    INFO("goodput " << goodput / 1e9 << " Gb/s, bound " << bound / 1e9);
    REQUIRE(goodput >= 0.95 * bound);
    REQUIRE(goodput <= bound * 1.001);
    REQUIRE(d.nics[1]->GetBytesReceived() == bytes);
    REQUIRE(qp->GetRetransmittedPackets() == 0);
    Simulator::Destroy();
}

TEST_CASE("rdma: message completions arrive in order with exact byte counts", "[rdma]")
{
    RdmaDumbbell d(1, 1);
    Ptr<RdmaQueuePair> qp = d.Connect(0, 1);
    std::vector<std::pair<uint64_t, uint64_t>> done;
    std::vector<uint64_t> received;
    d.nics[1]->SetReceiveCallback(RdmaNic::ReceiveCallback(
        [&received](Ipv4Address, uint32_t, uint64_t b) { received.push_back(b); }));
    RdmaQueuePair::CompletionCallback cb(
        [&done](uint64_t id, uint64_t b) { done.emplace_back(id, b); });
    for (uint64_t b : {1ull, 999ull, 1000ull, 1001ull, 123456ull})
    {
        qp->PostSend(b, cb);
    }
    REQUIRE_THROWS_AS(qp->PostSend(0), std::invalid_argument);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    REQUIRE(done.size() == 5);
    REQUIRE(received == std::vector<uint64_t>{1, 999, 1000, 1001, 123456});
    for (uint64_t i = 0; i < 5; ++i)
    {
        REQUIRE(done[i].first == i);
        REQUIRE(done[i].second == received[i]);
    }
    Simulator::Destroy();
}

TEST_CASE("rdma: hundreds of queued messages, some posted from completions, complete in order",
          "[rdma]")
{
    // Exercises the queue pair's message FIFO: many messages outstanding at once, completed
    // one by one (the head advances and the storage is compacted), and new ones appended from
    // inside a completion callback.
    RdmaDumbbell d(1, 1);
    Ptr<RdmaQueuePair> qp = d.Connect(0, 1);
    std::vector<uint64_t> received;
    d.nics[1]->SetReceiveCallback(RdmaNic::ReceiveCallback(
        [&received](Ipv4Address, uint32_t, uint64_t b) { received.push_back(b); }));
    std::vector<uint64_t> posted;
    std::vector<std::pair<uint64_t, uint64_t>> done;
    auto size = [](uint64_t i) {
        return 1 + (i * 7919) % 5000; // 1 .. 5000 bytes: one to five packets
    };
    RdmaQueuePair::CompletionCallback cb;
    cb = RdmaQueuePair::CompletionCallback([&](uint64_t id, uint64_t b) {
        done.emplace_back(id, b);
        if (id % 3 == 0 && posted.size() < 300)
        {
            posted.push_back(size(posted.size()));
            qp->PostSend(posted.back(), cb);
        }
    });
    for (uint64_t i = 0; i < 200; ++i)
    {
        posted.push_back(size(i));
        qp->PostSend(posted.back(), cb);
    }
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    REQUIRE(posted.size() == 300);
    REQUIRE(done.size() == posted.size());
    REQUIRE(received == posted);
    uint64_t bytes = 0;
    for (uint64_t i = 0; i < done.size(); ++i)
    {
        REQUIRE(done[i].first == i);
        REQUIRE(done[i].second == posted[i]);
        bytes += posted[i];
    }
    CHECK(qp->GetBytesAcked() == bytes);
    CHECK_FALSE(qp->IsBusy());
    Simulator::Destroy();
}

TEST_CASE("rdma: dcqcn flows converge to the fair share with a bounded queue", "[rdma]")
{
    const uint32_t n = 4;
    RdmaDumbbell d(n, 1);
    std::vector<Ptr<RdmaQueuePair>> qps;
    for (uint32_t i = 0; i < n; ++i)
    {
        qps.push_back(d.Connect(i, n));
        qps.back()->PostSend(1000000000);
    }
    // From a simultaneous start (incast), paper-default DCQCN cuts every flow hard and
    // recovers additively (R_AI = 40 Mb/s per 55 us): it reaches the fair share after ~33 ms.
    // Bytes sent per QP at 35 ms and 50 ms give the rates over the converged window.
    std::vector<uint64_t> at35(n);
    Simulator::Schedule(MilliSeconds(35), [&]() {
        for (uint32_t i = 0; i < n; ++i)
        {
            at35[i] = qps[i]->GetCcState().bytesSent;
        }
    });
    Ptr<FabricSwitch> left = d.topo.edge.Get(0)->GetObject<FabricSwitch>();
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    std::vector<double> rates;
    double sum = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        double r = (qps[i]->GetCcState().bytesSent - at35[i]) * 8.0 / 0.015;
        rates.push_back(r);
        sum += r;
        REQUIRE(qps[i]->GetCnpsReceived() > 0);
    }
    double fair = mlnettest::MaxGoodput(100e9, 1000) / n;
    double jain = mlnettest::JainIndex(rates);
    INFO("Jain " << jain << " total " << sum / 1e9 << " Gb/s");
    REQUIRE(jain >= 0.95);
    for (double r : rates)
    {
        INFO("rate " << r / 1e9 << " Gb/s, fair share " << fair / 1e9);
        REQUIRE(std::abs(r - fair) <= 0.10 * fair);
    }
    // Queue bounded: the bottleneck (left switch towards the right one) stays within Kmax
    // after the initial incast burst, which PFC absorbs.
    uint32_t port = left->GetRoute(d.topo.HostAddress(n)).at(0);
    uint64_t maxQ = left->GetPortStats(port).maxQueueBytes;
    INFO("max queue " << maxQ);
    REQUIRE(maxQ < 3 * 1600000);
    REQUIRE(d.DroppedBytes() == 0);
    Simulator::Destroy();
}

TEST_CASE("rdma: go-back-N delivers every byte exactly once under loss", "[rdma]")
{
    RdmaDumbbell d(8, 1, false, 600 * 1024, "ns3::RdmaFixedRate");
    // A 1 ms timeout (the default, 67.1 ms, is a real NIC's): the messages' tail drops, which
    // no later packet reports by a NAK, are recovered by several timeouts within the 100 ms.
    for (uint32_t i = 0; i < 8; ++i)
    {
        d.nics[i]->SetAttribute("RetransmitTimeout", TimeValue(MilliSeconds(1)));
    }
    std::vector<Ptr<RdmaQueuePair>> qps;
    uint32_t completed = 0;
    RdmaQueuePair::CompletionCallback cb([&completed](uint64_t, uint64_t) { completed++; });
    for (uint32_t i = 0; i < 8; ++i)
    {
        qps.push_back(d.Connect(i, 8));
        for (int m = 0; m < 4; ++m)
        {
            qps.back()->PostSend(250000, cb);
        }
    }
    Simulator::Stop(MilliSeconds(100));
    Simulator::Run();
    REQUIRE(d.DroppedBytes() > 0);
    uint64_t retx = 0;
    for (auto& qp : qps)
    {
        retx += qp->GetRetransmittedPackets();
        REQUIRE(qp->GetBytesAcked() == 1000000);
    }
    REQUIRE(retx > 0);
    REQUIRE(completed == 32);
    REQUIRE(d.nics[8]->GetBytesReceived() == 8 * 1000000);
    Simulator::Destroy();
}

TEST_CASE("rdma: a more aggressive dcqcn profile takes more bandwidth", "[rdma]")
{
    RdmaDumbbell d(2, 1);
    ObjectFactory aggressive = RdmaHelper().GetCongestionControl();
    DcqcnProfile(4.0).Configure(aggressive);
    Ptr<RdmaQueuePair> normal = d.Connect(0, 2);
    Ptr<RdmaQueuePair> greedy = d.Connect(1, 2, &aggressive);
    normal->PostSend(1000000000);
    greedy->PostSend(1000000000);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    uint64_t a = normal->GetCcState().bytesSent;
    uint64_t b = greedy->GetCcState().bytesSent;
    INFO("default " << a << " aggressive " << b);
    REQUIRE(b > a * 1.1);
    Simulator::Destroy();
}

TEST_CASE("rdma: the NIC serves a higher priority class first", "[rdma]")
{
    RdmaDumbbell d(1, 1, true, 32u * 1024 * 1024, "ns3::RdmaFixedRate");
    Ptr<RdmaQueuePair> low = d.nics[0]->Connect(d.nics[1], 3);
    Ptr<RdmaQueuePair> high = d.nics[0]->Connect(d.nics[1], 6);
    Time lowDone;
    Time highDone;
    low->PostSend(2000000, RdmaQueuePair::CompletionCallback([&lowDone](uint64_t, uint64_t) {
                      lowDone = Simulator::Now();
                  }));
    high->PostSend(2000000, RdmaQueuePair::CompletionCallback([&highDone](uint64_t, uint64_t) {
                       highDone = Simulator::Now();
                   }));
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    // The high class goes first at line rate (2 MB in ~173 us), the low class after it.
    double alone = 2000000 * 8.0 / mlnettest::MaxGoodput(100e9, 1000);
    REQUIRE(highDone > Time(0));
    REQUIRE(lowDone > highDone);
    REQUIRE(highDone.GetSeconds() < alone * 1.05 + 10e-6);
    REQUIRE(lowDone.GetSeconds() > 2 * alone * 0.95);
    Simulator::Destroy();
}

TEST_CASE("rdma: a queue pair is released after the simulation (no retransmission-timer cycle)",
          "[rdma]")
{
    // The retransmission timer's event holds a reference to its queue pair; after a message
    // completes the timer is cancelled but its EventId keeps the event. Disposal must let go of
    // it, or the pair and everything it holds leak (found by LeakSanitizer).
    Ptr<RdmaQueuePair> qp;
    {
        RdmaDumbbell d(1, 1);
        qp = d.Connect(0, 1);
        uint64_t completed = 0;
        qp->PostSend(100000,
                     RdmaQueuePair::CompletionCallback(
                         [&completed](uint64_t, uint64_t bytes) { completed += bytes; }));
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        REQUIRE(completed == 100000);
        Simulator::Destroy(); // disposes the nodes, their NICs and the NICs' queue pairs
    }
    REQUIRE(qp->GetReferenceCount() == 1); // only this test's pointer is left
}

namespace
{
/// A user's algorithm derived from Dcqcn without its own Fork(): Dcqcn's would copy only the
/// Dcqcn part, so the NIC must create each instance with the factory.
class ForkLessDcqcn : public Dcqcn
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("mlnettest::ForkLessDcqcn")
                                .SetParent<Dcqcn>()
                                .SetGroupName("MlnetTest")
                                .AddConstructor<ForkLessDcqcn>();
        return tid;
    }
};
} // namespace

TEST_CASE("rdma: queue pairs get their own copies of the congestion control with its attributes",
          "[rdma]")
{
    // RdmaHelper::Install builds one instance; every queue pair forks it (RdmaCongestionOps::Fork).
    auto rateAi = [](const Ptr<RdmaQueuePair>& qp) {
        return DynamicCast<Dcqcn>(qp->GetCongestionOps())->GetRateAi().GetBitRate();
    };
    FabricTopologyHelper th;
    FabricTopology topo = th.BuildDumbbell(2, 1);
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::Dcqcn");
    rdma.SetCcAttribute("RateAI", DataRateValue(DataRate("123Mbps")));
    rdma.SetCcAttribute("ByteCounter", UintegerValue(4321));
    std::vector<Ptr<RdmaNic>> nics = rdma.Install(topo.hosts);
    Ptr<RdmaQueuePair> a = nics[0]->Connect(nics[2]);
    Ptr<RdmaQueuePair> b = nics[0]->Connect(nics[2]);
    Ptr<RdmaQueuePair> c = nics[1]->Connect(nics[2]);
    for (const auto& qp : {a, b, c})
    {
        CHECK(rateAi(qp) == 123000000);
        CHECK(DynamicCast<Dcqcn>(qp->GetCongestionOps())->GetByteCounter() == 4321);
    }
    CHECK(a->GetCongestionOps() != b->GetCongestionOps());
    CHECK(a->GetCongestionOps() != c->GetCongestionOps());
    // A copy is independent: changing one queue pair's algorithm leaves the others alone.
    DynamicCast<Dcqcn>(a->GetCongestionOps())->SetRateAi(DataRate("7Mbps"));
    CHECK(rateAi(a) == 7000000);
    CHECK(rateAi(b) == 123000000);
    CHECK(rateAi(nics[0]->Connect(nics[2])) == 123000000);
    // A NIC given a factory alone builds its own instance.
    ObjectFactory fixed("ns3::RdmaFixedRate");
    fixed.Set("Rate", DataRateValue(DataRate("10Gbps")));
    nics[1]->SetCongestionControl(fixed);
    Ptr<RdmaQueuePair> f = nics[1]->Connect(nics[2]);
    CHECK(DynamicCast<RdmaFixedRate>(f->GetCongestionOps())->GetRate() == DataRate("10Gbps"));
    CHECK(f->GetCongestionOps()->GetInstanceTypeId().GetName() == "ns3::RdmaFixedRate");
    nics[1]->SetCongestionControl(ObjectFactory("ns3::DcqcnVendor"));
    CHECK(nics[1]->Connect(nics[2])->GetCongestionOps()->GetInstanceTypeId().GetName() ==
          "ns3::DcqcnVendor");
    // A subclass without its own Fork() gets instances of its own class, from the factory.
    ObjectFactory forkLess;
    forkLess.SetTypeId(ForkLessDcqcn::GetTypeId());
    forkLess.Set("RateAI", DataRateValue(DataRate("55Mbps")));
    nics[1]->SetCongestionControl(forkLess);
    for (int i = 0; i < 2; ++i)
    {
        Ptr<RdmaCongestionOps> ops = nics[1]->Connect(nics[2])->GetCongestionOps();
        CHECK(DynamicCast<ForkLessDcqcn>(ops));
        CHECK(DynamicCast<Dcqcn>(ops)->GetRateAi() == DataRate("55Mbps"));
    }
    ObjectFactory wrong("ns3::FabricSwitch");
    nics[1]->SetCongestionControl(wrong);
    CHECK_THROWS_AS(nics[1]->Connect(nics[2]), std::invalid_argument);
    Simulator::Destroy();
}
