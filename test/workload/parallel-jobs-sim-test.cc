/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Pipeline-parallel and tensor-parallel jobs: iteration times against their analytic bounds,
// dependency order of the executed pipeline ops, record consistency, input validation.

#include "common/rdma-scenario.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{

/// n hosts on one leaf switch, RDMA NICs with DCQCN (ACKs coalesced as in the other tests).
struct Cluster
{
    FabricTopology topo;
    std::vector<Ptr<RdmaNic>> nics;

    explicit Cluster(uint32_t n)
    {
        FabricTopologyHelper th;
        topo = th.BuildLeafSpine(1, 1, n);
        RdmaHelper rdma;
        rdma.SetCongestionControl("ns3::Dcqcn");
        rdma.SetNicAttribute("AckInterval", UintegerValue(16));
        nics = rdma.Install(topo.hosts);
    }
};

/// Payload goodput of a 100 Gbps host link, bytes/s.
double
Goodput()
{
    return mlnettest::MaxGoodput(100e9, 1000) / 8.0;
}

/// Every record: compute as given, end - start = compute + exposed comm, back-to-back.
void
CheckRecords(Ptr<TrainingJob> job, uint32_t iterations, Time compute)
{
    const auto& recs = job->GetIterationRecords();
    REQUIRE(recs.size() == iterations);
    REQUIRE(job->IsFinished());
    for (const auto& r : recs)
    {
        INFO("iteration " << r.iteration << ": " << r.Duration().GetMicroSeconds() << " us");
        REQUIRE(r.compute == compute);
        REQUIRE(r.compute + r.exposedComm == r.end - r.start);
        REQUIRE(r.exposedComm >= Time(0));
        REQUIRE(r.gpuIdle == r.exposedComm);
    }
    for (std::size_t i = 1; i < recs.size(); ++i)
    {
        REQUIRE(recs[i].start == recs[i - 1].end);
    }
}

/// The executed ops follow the schedule's lists and respect every cross-stage dependency.
void
CheckOpOrder(Ptr<PipelineParallelJob> job)
{
    PipelineSchedule sched = job->GetSchedule();
    const auto& t = job->GetLastOpTimings();
    const uint32_t S = sched.GetNStages();
    const uint32_t M = sched.GetNMicroBatches();
    REQUIRE(t.size() == S);
    // end time of (stage, forward?, mb)
    std::vector<std::vector<double>> fEnd(S, std::vector<double>(M, -1));
    std::vector<std::vector<double>> bEnd(S, std::vector<double>(M, -1));
    for (uint32_t s = 0; s < S; ++s)
    {
        REQUIRE(t[s].size() == sched.GetOps(s).size());
        for (std::size_t i = 0; i < t[s].size(); ++i)
        {
            REQUIRE(t[s][i].op == sched.GetOps(s)[i]);
            REQUIRE(t[s][i].end >= t[s][i].start);
            if (i > 0)
            {
                REQUIRE(t[s][i].start >= t[s][i - 1].end); // one op at a time
            }
            auto& e = t[s][i].op.type == PipelineOp::FORWARD ? fEnd : bEnd;
            e[s][t[s][i].op.microBatch] = t[s][i].end;
        }
    }
    for (uint32_t s = 0; s < S; ++s)
    {
        for (const auto& op : t[s])
        {
            const uint32_t m = op.op.microBatch;
            if (op.op.type == PipelineOp::FORWARD && s > 0)
            {
                REQUIRE(op.start > fEnd[s - 1][m]); // activations travelled
            }
            if (op.op.type == PipelineOp::BACKWARD && s + 1 < S)
            {
                REQUIRE(op.start > bEnd[s + 1][m]); // gradients travelled
            }
            if (op.op.type == PipelineOp::BACKWARD)
            {
                REQUIRE(op.start >= fEnd[s][m]);
            }
        }
    }
}

Ptr<PipelineParallelJob>
MakePipeline(const std::string& schedule,
             uint32_t M,
             Time tf,
             Time tb,
             uint64_t bytes,
             uint32_t iterations)
{
    Ptr<PipelineParallelJob> job = CreateObject<PipelineParallelJob>();
    job->SetAttribute("Schedule", StringValue(schedule));
    job->SetAttribute("MicroBatches", UintegerValue(M));
    job->SetAttribute("ForwardTime", TimeValue(tf));
    job->SetAttribute("BackwardTime", TimeValue(tb));
    job->SetAttribute("ActivationBytes", UintegerValue(bytes));
    job->SetAttribute("Iterations", UintegerValue(iterations));
    return job;
}

} // namespace

TEST_CASE("workload: compute-bound pipeline iteration is (M + S - 1)(tf + tb) for GPipe and 1F1B",
          "[workload]")
{
    const uint32_t S = 4;
    const uint32_t M = 8;
    const Time tf = MicroSeconds(100);
    const Time tb = MicroSeconds(200);
    const double analytic = (M + S - 1) * (tf + tb).GetSeconds();
    for (std::string schedule : {"GPipe", "1F1B"})
    {
        INFO("schedule " << schedule);
        Cluster c(S);
        // tiny activations: the network is negligible against the compute
        Ptr<PipelineParallelJob> job = MakePipeline(schedule, M, tf, tb, 1000, 3);
        job->SetStages(c.nics);
        job->Start();
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        CheckRecords(job, 3, (tf + tb) * int64_t(M));
        // the schedule's own zero-communication makespan is the same bound
        REQUIRE(job->GetSchedule().GetMakespan(tf.GetSeconds(), tb.GetSeconds()) ==
                Approx(analytic).epsilon(1e-9));
        for (const auto& r : job->GetIterationRecords())
        {
            double t = r.Duration().GetSeconds();
            INFO("iteration " << r.iteration << ": " << t * 1e6 << " us, analytic "
                              << analytic * 1e6 << " us");
            REQUIRE(t >= analytic);
            REQUIRE(t <= 1.05 * analytic);
        }
        CheckOpOrder(job);
        // 2(S-1) messages per micro-batch, each acknowledged and recorded
        const auto& msgs = job->GetMessageRecords();
        REQUIRE(msgs.size() == 3 * 2 * (S - 1) * M);
        for (const auto& m : msgs)
        {
            REQUIRE(m.bytes == 1000);
            REQUIRE((m.dstHost == m.srcHost + 1 || m.srcHost == m.dstHost + 1));
            REQUIRE(m.completed > m.posted);
        }
        Simulator::Destroy();
    }
}

TEST_CASE("workload: a one-stage pipeline is pure compute", "[workload]")
{
    Cluster c(2);
    Ptr<PipelineParallelJob> job =
        MakePipeline("1F1B", 5, MicroSeconds(30), MicroSeconds(70), 1000, 2);
    job->SetStages({c.nics[0]});
    job->Start();
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    CheckRecords(job, 2, MicroSeconds(500));
    for (const auto& r : job->GetIterationRecords())
    {
        REQUIRE(r.Duration() == MicroSeconds(500));
    }
    REQUIRE(job->GetMessageRecords().empty());
    Simulator::Destroy();
}

TEST_CASE("workload: a pipeline without compute is communication-bound", "[workload]")
{
    const uint32_t S = 4;
    const uint32_t M = 4;
    const uint64_t A = 1000000;
    const double x = A / Goodput(); // one activation transfer on an idle link
    for (std::string schedule : {"GPipe", "1F1B"})
    {
        INFO("schedule " << schedule);
        Cluster c(S);
        Ptr<PipelineParallelJob> job = MakePipeline(schedule, M, Time(0), Time(0), A, 2);
        job->SetStages(c.nics);
        job->Start();
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        CheckRecords(job, 2, Time(0));
        for (const auto& r : job->GetIterationRecords())
        {
            double t = r.Duration().GetSeconds();
            INFO("iteration " << r.iteration << ": " << t * 1e6 << " us, transfer " << x * 1e6
                              << " us, dependency bound "
                              << job->GetSchedule().GetMakespan(0, 0, x) * 1e6 << " us");
            REQUIRE(r.exposedComm == r.end - r.start);
            // micro-batch 0 crosses S-1 links forward and S-1 links back
            REQUIRE(t >= (S - 1) * x);
            REQUIRE(t >= 2 * (S - 1) * x);
            // the schedule's dependency chains with every hop taking at least one transfer
            REQUIRE(t >= job->GetSchedule().GetMakespan(0, 0, x));
            // a middle stage sends M activations and M gradients through its one host link
            REQUIRE(t >= 2 * M * x);
            // some message is always in flight: at most all 2 (S-1) M transfers one by one
            REQUIRE(t <= 1.1 * 2 * (S - 1) * M * x + 100e-6);
        }
        CheckOpOrder(job);
        Simulator::Destroy();
    }
}

TEST_CASE("workload: tensor-parallel iteration is compute plus 2L ring all-reduces", "[workload]")
{
    const uint32_t n = 4;
    const uint32_t L = 3;
    const uint64_t bytes = 1000000;
    const Time tf = MicroSeconds(50);
    const Time tb = MicroSeconds(100);
    Cluster c(n);
    Ptr<TensorParallelJob> job = CreateObject<TensorParallelJob>();
    job->SetAttribute("Layers", UintegerValue(L));
    job->SetAttribute("ForwardTime", TimeValue(tf));
    job->SetAttribute("BackwardTime", TimeValue(tb));
    job->SetAttribute("AllReduceBytes", UintegerValue(bytes));
    job->SetAttribute("Iterations", UintegerValue(2));
    job->SetGroup(c.nics);
    job->Start();
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    const Time compute = (tf + tb) * int64_t(L);
    REQUIRE(job->GetComputeTime() == compute);
    CheckRecords(job, 2, compute);
    const double ar = 2.0 * (n - 1) / n * bytes / Goodput(); // ring all-reduce lower bound
    const double latency = 2.0 * (n - 1) * 3e-6 + 10e-6;     // as in the collective test
    const double lower = compute.GetSeconds() + 2 * L * ar;
    const double upper = compute.GetSeconds() + 2 * L * 1.05 * (ar + latency);
    for (const auto& r : job->GetIterationRecords())
    {
        double t = r.Duration().GetSeconds();
        INFO("iteration " << r.iteration << ": " << t * 1e6 << " us, lower bound " << lower * 1e6
                          << " us, upper " << upper * 1e6 << " us");
        REQUIRE(t >= lower);
        REQUIRE(t <= upper);
    }
    REQUIRE(job->GetAllReduce()->GetCompletedInvocations() == 2 * 2 * L);
    const auto& msgs = job->GetMessageRecords();
    REQUIRE(msgs.size() == 2 * 2 * L * n);
    for (const auto& m : msgs)
    {
        REQUIRE(m.bytes == 2 * (n - 1) * bytes / n);
        REQUIRE(m.dstHost == (m.srcHost + 1) % n);
    }
    Simulator::Destroy();
}

TEST_CASE("workload: parallel jobs reject bad inputs", "[workload]")
{
    Cluster c(3);
    Ptr<PipelineParallelJob> pp = CreateObject<PipelineParallelJob>();
    CHECK_THROWS_WITH(pp->Validate(), Catch::Contains("SetStages"));
    CHECK_THROWS_WITH(pp->SetStages({}), Catch::Contains("stages must be in [1, 4096]"));
    CHECK_THROWS_AS(pp->SetStages({c.nics[0], nullptr}), std::invalid_argument);
    CHECK_THROWS_WITH(pp->SetStages({c.nics[0], c.nics[1], c.nics[0]}),
                      Catch::Contains("distinct"));
    pp->SetStages(c.nics);
    REQUIRE(pp->GetNStages() == 3);
    pp->Validate();
    pp->SetAttribute("MicroBatches", UintegerValue(0));
    CHECK_THROWS_WITH(pp->Validate(), Catch::Contains("MicroBatches must be in [1, 65536]"));
    pp->SetAttribute("MicroBatches", UintegerValue(4));
    pp->SetAttribute("ForwardTime", TimeValue(MicroSeconds(-1)));
    CHECK_THROWS_WITH(pp->Validate(), Catch::Contains("ForwardTime must be >= 0"));
    pp->SetAttribute("ForwardTime", TimeValue(MicroSeconds(1)));
    pp->SetAttribute("BackwardTime", TimeValue(MicroSeconds(-1)));
    CHECK_THROWS_WITH(pp->Validate(), Catch::Contains("BackwardTime must be >= 0"));
    pp->SetAttribute("BackwardTime", TimeValue(MicroSeconds(1)));
    pp->SetAttribute("ActivationBytes", UintegerValue(0));
    CHECK_THROWS_WITH(pp->Validate(), Catch::Contains("ActivationBytes must be >= 1"));
    pp->SetAttribute("ActivationBytes", UintegerValue(10));
    // the class is checked by its attribute's checker (TrainingJob::PriorityClass, 0..6)
    CHECK_FALSE(pp->SetAttributeFailSafe("PriorityClass", UintegerValue(7)));
    pp->SetAttribute("PriorityClass", UintegerValue(3));
    CHECK_NOTHROW(pp->Validate());

    Ptr<TensorParallelJob> tp = CreateObject<TensorParallelJob>();
    CHECK_THROWS_WITH(tp->Validate(), Catch::Contains("SetGroup"));
    CHECK_THROWS_WITH(tp->SetGroup({c.nics[0]}),
                      Catch::Contains("group size must be in [2, 4096]"));
    CHECK_THROWS_AS(tp->SetGroup({c.nics[0], nullptr}), std::invalid_argument);
    CHECK_THROWS_WITH(tp->SetGroup({c.nics[1], c.nics[1]}), Catch::Contains("distinct"));
    tp->SetGroup(c.nics);
    REQUIRE(tp->GetGroupSize() == 3);
    tp->Validate();
    tp->SetAttribute("Layers", UintegerValue(0));
    CHECK_THROWS_WITH(tp->Validate(), Catch::Contains("Layers must be in [1, 1000000]"));
    tp->SetAttribute("Layers", UintegerValue(2));
    tp->SetAttribute("AllReduceBytes", UintegerValue(2));
    CHECK_THROWS_WITH(tp->Validate(), Catch::Contains("AllReduceBytes must be >= the group size"));
    tp->SetAttribute("AllReduceBytes", UintegerValue(3000));
    tp->SetAttribute("ForwardTime", TimeValue(MicroSeconds(-5)));
    CHECK_THROWS_WITH(tp->Validate(), Catch::Contains("ForwardTime must be >= 0"));
    tp->SetAttribute("ForwardTime", TimeValue(MicroSeconds(5)));
    tp->SetAttribute("SubChunks", UintegerValue(0));
    CHECK_THROWS_WITH(tp->Validate(), Catch::Contains("SubChunks must be in [1, 1024]"));
    tp->SetAttribute("SubChunks", UintegerValue(1));
    CHECK_NOTHROW(tp->Validate());
    Simulator::Destroy();
}
