/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Parameter-server framework model of DataParallelJob (per-message overhead, server summation
// and update, server priority, per-channel ordering, co-located servers) and the tensor-order
// results it supports, each on a small model with a direction and a bound.

#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>

using namespace ns3;

namespace
{

/// A model from (parameters, forward us, backward us) per layer.
DnnModel
Model(const std::vector<std::tuple<uint64_t, double, double>>& layers)
{
    std::ostringstream csv;
    csv << "name,parameters,forward_us,backward_us\n";
    for (std::size_t i = 0; i < layers.size(); ++i)
    {
        csv << "l" << i << "," << std::get<0>(layers[i]) << "," << std::get<1>(layers[i]) << ","
            << std::get<2>(layers[i]) << "\n";
    }
    std::istringstream in(csv.str());
    return DnnModel::FromCsv(in, "test");
}

/// One parameter-server run's settings.
struct PsRun
{
    uint32_t workers{2};
    uint32_t servers{1}; //!< 0 = co-located
    std::string rate{"10Gbps"};
    uint32_t iterations{6};
    Time overhead{Time(0)};
    DataRate sumRate{DataRate(0)};
    DataRate updateRate{DataRate(0)};
    bool serverPriority{false};
    uint64_t window{0};
    bool record{false};
    std::string assignment{"RoundRobin"}; //!< DataParallelJob::ServerAssignment
    double imbalanceWarning{1.5};         //!< DataParallelJob::ServerImbalanceWarning
};

/// Result of a run.
struct PsResult
{
    double steady{0};  //!< mean iteration time after 2 warm-up iterations (s)
    double total{0};   //!< first start to last end (s)
    double compute{0}; //!< forward + backward (s)
    uint64_t pushBytes{0};
    uint64_t networkBytes{0}; //!< bytes of recorded (network) messages
    std::vector<MessageRecord> messages;
    std::vector<TransferSlice> plan;
    std::vector<uint64_t> serverBytes; //!< DataParallelJob::GetServerBytes
    std::string imbalance;             //!< DataParallelJob::GetServerImbalanceWarning
};

PsResult
RunPs(const DnnModel& m, Ptr<TensorOrderPolicy> policy, const PsRun& r)
{
    FabricTopologyHelper th;
    th.SetHostLinkRate(DataRate(r.rate));
    th.SetFabricLinkRate(DataRate(r.rate));
    FabricTopology topo = th.BuildLeafSpine(1, 1, r.workers + r.servers);
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::Dcqcn");
    rdma.SetNicAttribute("AckInterval", UintegerValue(16));
    rdma.SetNicAttribute("Mtu", UintegerValue(4000));
    auto nics = rdma.Install(topo.hosts);
    Ptr<DataParallelJob> job = CreateObject<DataParallelJob>();
    job->SetModel(m, GpuProfile::V100());
    job->SetAttribute("Mode", StringValue("ParameterServer"));
    job->SetAttribute("Iterations", UintegerValue(r.iterations));
    job->SetAttribute("MessageOverhead", TimeValue(r.overhead));
    job->SetAttribute("ServerSumRate", DataRateValue(r.sumRate));
    job->SetAttribute("ServerUpdateRate", DataRateValue(r.updateRate));
    job->SetAttribute("ServerPriority", BooleanValue(r.serverPriority));
    job->SetAttribute("MaxInflightBytes", UintegerValue(r.window));
    job->SetAttribute("RecordMessages", BooleanValue(r.record));
    job->SetAttribute("ServerAssignment", StringValue(r.assignment));
    job->SetAttribute("ServerImbalanceWarning", DoubleValue(r.imbalanceWarning));
    job->SetWorkers({nics.begin(), nics.begin() + r.workers});
    if (r.servers == 0)
    {
        job->SetAttribute("CoLocatedServers", BooleanValue(true));
    }
    else
    {
        job->SetServers({nics.begin() + r.workers, nics.end()});
    }
    job->SetTensorOrderPolicy(policy);
    job->Start();
    Simulator::Stop(Seconds(20));
    Simulator::Run();
    REQUIRE(job->IsFinished());
    PsResult out;
    const auto& recs = job->GetIterationRecords();
    out.steady = job->GetSteadyStateIterationTime(2).mean;
    out.total = (recs.back().end - recs.front().start).GetSeconds();
    out.compute = job->GetComputeTime().GetSeconds();
    out.pushBytes = job->GetPushBytes();
    out.messages = job->GetMessageRecords();
    for (const auto& msg : out.messages)
    {
        out.networkBytes += msg.bytes;
    }
    out.plan = job->GetPlan();
    out.serverBytes = job->GetServerBytes();
    out.imbalance = job->GetServerImbalanceWarning();
    Simulator::Destroy();
    return out;
}

Ptr<TensorOrderPolicy>
P3(uint64_t slice, bool priority)
{
    Ptr<P3TensorOrder> p = CreateObject<P3TensorOrder>();
    p->SetSliceSize(slice);
    p->SetPriority(priority);
    p->SetPriorityClasses(1); // ordered at the sender only, as P3 does
    return p;
}

} // namespace

TEST_CASE("workload: server summation, update and per-message overhead add their analytic cost",
          "[workload]")
{
    // one worker, one server, one 1M-parameter (4 MB) tensor
    const DnnModel m = Model({{1000000, 100, 200}});
    PsRun r;
    r.workers = 1;
    r.iterations = 2;
    const double base = RunPs(m, CreateObject<FifoTensorOrder>(), r).total;
    r.overhead = MicroSeconds(100);
    r.sumRate = DataRate("8Gbps");     // 4 MB in 4 ms
    r.updateRate = DataRate("16Gbps"); // 4 MB in 2 ms
    const double slow = RunPs(m, CreateObject<FifoTensorOrder>(), r).total;
    // each synchronisation (2: the first iteration's before the second forward, the last one's)
    // pays 4 messages' overhead (push send/receive, pull send/receive) + 4 ms + 2 ms
    CHECK(slow - base == Approx(2 * (4 * 100e-6 + 4e-3 + 2e-3)).margin(1e-6));
}

TEST_CASE("workload: with per-message overhead P3 throughput peaks at an interior slice size",
          "[workload]")
{
    // a large tensor produced early, a small input layer produced last: slices let the input
    // layer overtake the large tensor; tiny slices pay the per-message overhead many times
    const DnnModel m = Model({{100000, 400, 200}, {2000000, 2000, 100}, {50000, 100, 100}});
    PsRun r;
    r.overhead = MicroSeconds(20);
    r.window = 400000;
    r.serverPriority = true;
    std::map<uint64_t, double> steady;
    for (uint64_t slice : {2000, 50000, 0})
    {
        steady[slice] = RunPs(m, P3(slice, true), r).steady;
        INFO("slice " << slice << ": " << steady[slice] * 1e3 << " ms");
        CHECK(steady[slice] > 0);
    }
    // interior optimum, each side at least 5% slower
    CHECK(steady[2000] > 1.05 * steady[50000]);
    CHECK(steady[0] > 1.05 * steady[50000]);
    // the overhead is what makes the finest slices lose: it costs them more than the interior
    r.overhead = Time(0);
    const double fine0 = RunPs(m, P3(2000, true), r).steady;
    const double mid0 = RunPs(m, P3(50000, true), r).steady;
    INFO("no overhead: " << fine0 * 1e3 << " / " << mid0 * 1e3 << " ms");
    CHECK(steady[2000] - fine0 > 5 * (steady[50000] - mid0));
}

TEST_CASE("workload: priority alone helps when gradients queue at the sender", "[workload]")
{
    // four equal layers; the network is slower than the backward pass, so under a window the
    // gradients queue and the order decides which layer the next forward pass gets first
    const DnnModel fastBackward =
        Model({{250000, 4000, 100}, {250000, 4000, 100}, {250000, 4000, 100}, {250000, 4000, 100}});
    PsRun r;
    r.window = 1000000; // one whole tensor in flight
    const double fifo = RunPs(fastBackward, CreateObject<FifoTensorOrder>(), r).steady;
    const double prio = RunPs(fastBackward, P3(0, true), r).steady;
    INFO("FIFO " << fifo * 1e3 << " ms, priority alone " << prio * 1e3 << " ms");
    CHECK(prio < 0.85 * fifo);
    // when the backward pass is slower than the transfers nothing queues: no gain
    const DnnModel slowBackward = Model({{250000, 4000, 20000},
                                         {250000, 4000, 20000},
                                         {250000, 4000, 20000},
                                         {250000, 4000, 20000}});
    const double fifo2 = RunPs(slowBackward, CreateObject<FifoTensorOrder>(), r).steady;
    const double prio2 = RunPs(slowBackward, P3(0, true), r).steady;
    INFO("slow backward: FIFO " << fifo2 * 1e3 << " ms, priority alone " << prio2 * 1e3 << " ms");
    CHECK(prio2 == Approx(fifo2).epsilon(0.01));
}

TEST_CASE("workload: the server answers queued pulls in priority order with ServerPriority",
          "[workload]")
{
    // the server's summation is the bottleneck: slices queue at the server thread
    const DnnModel m = Model({{200000, 1000, 100}, {2000000, 1000, 100}, {200000, 1000, 100}});
    PsRun r;
    r.sumRate = DataRate("4Gbps");
    const double arrival = RunPs(m, P3(50000, true), r).steady;
    r.serverPriority = true;
    const double prio = RunPs(m, P3(50000, true), r).steady;
    INFO("arrival order " << arrival * 1e3 << " ms, priority order " << prio * 1e3 << " ms");
    CHECK(prio < 0.95 * arrival);
}

TEST_CASE("workload: tictac sends one transfer per channel in DAG consumption order", "[workload]")
{
    // backward is short: every tensor is ready while the first transfer is on the wire; sizes
    // tell the tensors apart (0.4, 0.8, 1.2, 1.6 MB)
    const DnnModel m =
        Model({{100000, 100, 10}, {200000, 100, 10}, {300000, 100, 10}, {400000, 100, 10}});
    PsRun r;
    r.workers = 1;
    r.iterations = 1;
    r.record = true;
    auto pushOrder = [&](Ptr<TensorOrderPolicy> p) {
        std::vector<uint64_t> order;
        auto res = RunPs(m, p, r);
        std::sort(
            res.messages.begin(),
            res.messages.end(),
            [](const MessageRecord& a, const MessageRecord& b) { return a.posted < b.posted; });
        for (const auto& msg : res.messages)
        {
            if (msg.srcHost == 0) // pushes: worker 0 to the server
            {
                order.push_back(msg.bytes / 400000);
            }
        }
        return order;
    };
    // (order of posting on the worker's channel to the server, which is the wire order: one
    // queue pair per channel and class sends its messages in order)
    // FIFO posts every tensor when produced: backward order on the wire
    CHECK(pushOrder(CreateObject<FifoTensorOrder>()) == std::vector<uint64_t>{4, 3, 2, 1});
    // TicTac: the last layer's (produced first) goes alone, then consumption order
    CHECK(pushOrder(CreateObject<TicTacTensorOrder>()) == std::vector<uint64_t>{4, 1, 2, 3});
}

TEST_CASE("workload: co-located servers keep the local shard off the network", "[workload]")
{
    const DnnModel m = Model({{300000, 100, 200}, {500000, 100, 200}, {700000, 100, 200}});
    PsRun r;
    r.workers = 3;
    r.servers = 0;
    r.iterations = 2;
    r.record = true;
    auto res = RunPs(m, P3(100000, true), r);
    uint64_t modelBytes = 4 * (300000 + 500000 + 700000);
    CHECK(res.pushBytes == 2 * 3 * modelBytes);
    // slice k goes to server (tensor + offset / size) % 3; a worker's push to its own host and
    // the pull back stay local: (W - 1) pushes and (W - 1) pulls per slice cross the network
    uint64_t expected = 0;
    for (const auto& s : res.plan)
    {
        expected += 2 * (3 - 1) * s.size * 4;
    }
    CHECK(res.networkBytes == 2 * expected);
    for (const auto& msg : res.messages)
    {
        CHECK(msg.srcHost != msg.dstHost + 3);
        CHECK(msg.dstHost != msg.srcHost + 3);
    }
}

TEST_CASE("workload: bad parameter-server framework settings are rejected", "[workload]")
{
    Ptr<DataParallelJob> job = CreateObject<DataParallelJob>();
    CHECK_FALSE(job->SetAttributeFailSafe("MessageOverhead", TimeValue(Seconds(2))));
    job->SetModel(Model({{1000, 10, 10}}), GpuProfile::V100());
    job->SetAttribute("Mode", StringValue("ParameterServer"));
    FabricTopologyHelper th;
    FabricTopology topo = th.BuildLeafSpine(1, 1, 3);
    RdmaHelper rdma;
    auto nics = rdma.Install(topo.hosts);
    job->SetWorkers({nics[0], nics[1]});
    CHECK_THROWS_WITH(job->Start(), Catch::Contains("CoLocatedServers"));
    job->SetServers({nics[2]});
    job->SetAttribute("CoLocatedServers", BooleanValue(true));
    CHECK_THROWS_WITH(job->Start(), Catch::Contains("SetServers"));
    Simulator::Destroy();
}

TEST_CASE("workload: BalancedBytes spreads the bytes round-robin puts on one server", "[workload]")
{
    // large tensors at even indices, small ones at odd: round-robin over 2 servers puts every
    // large tensor on server 0 (as GoogLeNet's layers do in ps4+2-googlenet-k4)
    const DnnModel m = Model({{1000000, 200, 200},
                              {1000, 200, 200},
                              {1000000, 200, 200},
                              {1000, 200, 200},
                              {1000000, 200, 200},
                              {1000, 200, 200}});
    PsRun r;
    r.servers = 2;
    r.record = true;
    const PsResult rr = RunPs(m, CreateObject<FifoTensorOrder>(), r);
    r.assignment = "BalancedBytes";
    const PsResult bal = RunPs(m, CreateObject<FifoTensorOrder>(), r);
    const uint64_t modelBytes = 4 * (3 * 1000000 + 3 * 1000);
    // per server, per worker and iteration; largest first, each on the server with the fewest
    // bytes so far: 4 MB -> 0, 4 MB -> 1, 4 MB -> 0, then the three 4 KB ones -> 1
    CHECK(rr.serverBytes == std::vector<uint64_t>{12000000, 12000});
    CHECK(bal.serverBytes == std::vector<uint64_t>{8000000, 4012000});
    // round-robin's busiest server: 12,000,000 of 12,012,000 bytes, 99.9 % (2.00x the even
    // 50 %, above 1.5): reported with what balanced placement gives it (8,000,000: 66.6 %,
    // 1.33x, below 1.5: not reported)
    CHECK_THAT(rr.imbalance,
               Catch::Contains("parameter server 0 receives 99.9 %") &&
                   Catch::Contains("12012000 pushed bytes over 2 servers") &&
                   Catch::Contains("2.00x an even share of 50.0 %") &&
                   Catch::Contains("\"balanced-bytes\" puts at most 66.6 %"));
    CHECK(bal.imbalance.empty());
    CHECK(DataParallelJob::ServerAssignmentFromName("balanced-bytes") ==
          DataParallelJob::BALANCED_BYTES);
    CHECK(DataParallelJob::ServerAssignmentFromName("round-robin") == DataParallelJob::ROUND_ROBIN);
    CHECK_THROWS_WITH(DataParallelJob::ServerAssignmentFromName("hash"),
                      Catch::Contains("serverAssignment") &&
                          Catch::Contains("round-robin or balanced-bytes"));
    // the same placement from the static rule the examples' bounds use
    std::vector<TransferSlice> whole(6);
    for (uint32_t t = 0; t < 6; ++t)
    {
        whole[t].tensorId = t;
        whole[t].size = t % 2 == 0 ? 1000000 : 1000;
    }
    CHECK(DataParallelJob::PlaceSlices(whole, 2, DataParallelJob::BALANCED_BYTES) ==
          std::vector<uint32_t>{0, 1, 1, 1, 0, 1});
    CHECK(DataParallelJob::PlaceSlices(whole, 2, DataParallelJob::ROUND_ROBIN) ==
          std::vector<uint32_t>{0, 1, 0, 1, 0, 1});
    CHECK_THROWS_WITH(DataParallelJob::PlaceSlices(whole, 0, DataParallelJob::ROUND_ROBIN),
                      Catch::Contains("servers") && Catch::Contains(">= 1"));
    for (const PsResult* res : {&rr, &bal})
    {
        CHECK(res->serverBytes[0] + res->serverBytes[1] == modelBytes);
        // every push reaches the server the placement names: bytes into host 2 (server 0) and
        // host 3 (server 1) per iteration and worker
        std::vector<uint64_t> into(2, 0);
        for (const auto& msg : res->messages)
        {
            if (msg.dstHost >= 2)
            {
                into[msg.dstHost - 2] += msg.bytes;
            }
        }
        CHECK(into[0] == res->serverBytes[0] * r.workers * r.iterations);
        CHECK(into[1] == res->serverBytes[1] * r.workers * r.iterations);
    }
    // the busiest server's downlink bounds the push phase: 2 workers x its bytes at 10 Gb/s
    INFO("round-robin " << rr.steady * 1e3 << " ms, balanced " << bal.steady * 1e3 << " ms");
    CHECK(rr.steady > 2 * 12000000 * 8 / 10e9);
    CHECK(bal.steady > 2 * 8000000 * 8 / 10e9);
    CHECK(bal.steady < 0.8 * rr.steady);
    // the threshold: 2.5 x 50 % is above round-robin's 99.9 %; at 1.0 the balanced 66.6 %
    // is reported as a placement already balanced
    r.record = false;
    r.assignment = "RoundRobin";
    r.imbalanceWarning = 2.5;
    CHECK(RunPs(m, CreateObject<FifoTensorOrder>(), r).imbalance.empty());
    r.assignment = "BalancedBytes";
    r.imbalanceWarning = 1.0;
    CHECK_THAT(RunPs(m, CreateObject<FifoTensorOrder>(), r).imbalance,
               Catch::Contains("66.6 %") && Catch::Contains("already balanced"));
}

TEST_CASE("workload: the framework keys of a parameter-server job run from a scenario",
          "[workload]")
{
    auto scenario = [](const std::string& job) {
        return R"({"topology": {"type": "leaf-spine", "leaves": 1, "spines": 1, "hostsPerLeaf": 4},
                   "traffic": [)" +
               job + R"(], "duration": "100us", "drain": "5s"})";
    };
    const std::string base = R"({"type": "data-parallel-job", "hosts": [0, 1, 2], "mode": "ps",
        "model": "googlenet", "gpu": "a100", "batch": 8, "policy": "p3-priority",
        "iterations": 2, "coLocated": true)";
    ScenarioResult ideal = mlnettest::RunScenarioText(scenario(base + "}"));
    ScenarioResult costly = mlnettest::RunScenarioText(
        scenario(base + R"(, "messageOverhead": "200us", "serverSumRate": "8Gbps",
                 "serverUpdateRate": "8Gbps", "serverPriority": true,
                 "outstandingPerChannel": 1})"));
    REQUIRE(ideal.iterations.size() == 2);
    REQUIRE(costly.iterations.size() == 2);
    // the framework costs only add time
    CHECK(costly.iterations[1].end > ideal.iterations[1].end);
    CHECK_THROWS_WITH(mlnettest::RunScenarioText(scenario(base + R"(, "servers": [3]})")),
                      Catch::Contains("servers"));
    CHECK_THROWS_WITH(mlnettest::RunScenarioText(scenario(base + R"(, "messageOverhead": "2s"})")),
                      Catch::Contains("messageOverhead"));
    ScenarioResult balanced =
        mlnettest::RunScenarioText(scenario(base + R"(, "serverAssignment": "balanced-bytes"})"));
    REQUIRE(balanced.iterations.size() == 2);
    // GoogLeNet over 3 co-located shards: round-robin's busiest shard in summary.json's
    // warnings, balanced placement's not
    auto imbalance = [](const ScenarioResult& res) {
        return std::count_if(
            res.summary.warnings.begin(),
            res.summary.warnings.end(),
            [](const std::string& w) { return w.find("parameter server") != std::string::npos; });
    };
    INFO(ideal.summary.warnings.size() << " warnings");
    CHECK(imbalance(ideal) == 1);
    CHECK(imbalance(balanced) == 0);
    CHECK_THROWS_WITH(
        mlnettest::RunScenarioText(scenario(base + R"(, "serverAssignment": "hash"})")),
        Catch::Contains("serverAssignment") && Catch::Contains("balanced-bytes"));
}

TEST_CASE("workload: bytescheduler's credit trades pipelining against preemption", "[workload]")
{
    // two servers: a credit of one partition leaves one server idle while the other works
    const DnnModel m = Model({{200000, 1000, 100}, {2000000, 1000, 100}, {200000, 1000, 100}});
    PsRun r;
    r.servers = 2;
    r.overhead = MicroSeconds(20);
    auto run = [&](uint64_t credit) {
        Ptr<ByteSchedulerTensorOrder> bs = CreateObject<ByteSchedulerTensorOrder>();
        bs->SetPartitionSize(100000);
        bs->SetCredit(credit);
        bs->SetPriorityClasses(1);
        return RunPs(m, bs, r).steady;
    };
    const double one = run(100000);
    const double eight = run(800000);
    INFO("credit 1 partition " << one * 1e3 << " ms, 8 partitions " << eight * 1e3 << " ms");
    CHECK(eight < 0.9 * one);
}
