/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Training jobs posting their messages through a flow scheduler (Echelon, MADD, CadentFlow).

#include "common/rdma-scenario.h"

#include "ns3/boolean.h"
#include "ns3/flow-policy-factory.h"
#include "ns3/rdma-flow-scheduler.h"

#include <catch2/catch.hpp>
#include <map>
#include <sstream>

using namespace ns3;
using mlnettest::RdmaDumbbell;

namespace
{

/// Outcome of the pipeline-against-bulk run.
struct PipelineRun
{
    std::vector<ScheduledFlowRecord> records;
    double maxTardiness{0}; //!< s, over every flow
    Time iteration;
};

/// A 2-stage GPipe job on hosts 0 -> 1 (forward 100 us per micro-batch, 1 MB activations, 4
/// micro-batches) while host 0 also sends a 4 MB flow of another job to host 2 from t = 0, all
/// through one scheduler running `policy`.
PipelineRun
PipelineAgainstBulk(const std::string& policy,
                    Time forward = MicroSeconds(100),
                    uint64_t bulkBytes = 4000000,
                    Time declaredStage = Time(0),
                    bool correct = true)
{
    RdmaDumbbell d(2, 1);
    Ptr<RdmaFlowScheduler> s = CreateObject<RdmaFlowScheduler>();
    Ptr<FlowSchedulingPolicy> p = CreateFlowSchedulingPolicy(policy);
    if (policy == "echelon")
    {
        p->SetAttribute("CorrectEstimates", BooleanValue(correct));
    }
    s->SetPolicy(p);
    s->Install(d.nics);
    PipelineRun out;
    s->TraceConnectWithoutContext("FlowDone",
                                  MakeCallback(+[](PipelineRun* o, const ScheduledFlowRecord& r) {
                                      o->records.push_back(r);
                                  }).Bind(&out));
    Ptr<PipelineParallelJob> job = CreateObject<PipelineParallelJob>();
    job->SetAttribute("JobId", UintegerValue(1));
    job->SetAttribute("Schedule", StringValue("GPipe"));
    job->SetAttribute("MicroBatches", UintegerValue(4));
    job->SetAttribute("ForwardTime", TimeValue(forward));
    job->SetAttribute("DeclaredStageTime", TimeValue(declaredStage));
    job->SetAttribute("BackwardTime", TimeValue(MicroSeconds(200)));
    job->SetAttribute("ActivationBytes", UintegerValue(1000000));
    job->SetAttribute("Iterations", UintegerValue(1));
    job->SetStages({d.nics[0], d.nics[1]});
    job->Start();
    FlowGroupSpec bulk;
    bulk.id = RdmaFlowScheduler::MakeGroupId(2, 0, 0);
    bulk.job = 2;
    bulk.expectedFlows = 1;
    s->DeclareGroup(bulk);
    FlowDeclaration f;
    f.job = 2;
    f.group = bulk.id;
    f.bytes = bulkBytes;
    s->Post(d.nics[0],
            d.nics[2],
            f,
            RdmaFlowScheduler::MessageCallback(),
            RdmaFlowScheduler::MessageCallback());
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    REQUIRE(job->IsFinished());
    out.iteration = job->GetIterationRecords().at(0).Duration();
    out.maxTardiness = -1;
    for (const auto& r : out.records)
    {
        out.maxTardiness = std::max(out.maxTardiness, r.Tardiness().GetSeconds());
    }
    Simulator::Destroy();
    return out;
}

/// The activations (stage 0 -> 1) of a run, by index.
std::map<uint32_t, ScheduledFlowRecord>
Activations(const PipelineRun& r)
{
    std::map<uint32_t, ScheduledFlowRecord> a;
    const uint64_t group = RdmaFlowScheduler::MakeGroupId(1, 0, 0);
    for (const auto& x : r.records)
    {
        if (x.decl.group == group)
        {
            a[x.decl.index] = x;
        }
    }
    return a;
}

} // namespace

TEST_CASE("scheduled jobs: Echelon keeps a pipeline's staggered order and beats coflow "
          "scheduling on maximum tardiness",
          "[flow-scheduler]")
{
    // Fluid expectation (1 MB = 86.6 us at 100 Gb/s): micro-batches released at 100, 200, 300,
    // 400 us with D_i = release + 86.6 us; the 4 MB flow has D = 346 us. Echelon (EDD) lets
    // micro-batches 0 and 1 preempt the bulk flow, then finishes the bulk flow before 2 and 3:
    // max tardiness ~220 us. MADD serves the smaller coflow first every time, so the bulk flow
    // ends last at ~693 us: ~347 us late.
    PipelineRun e = PipelineAgainstBulk("echelon");
    PipelineRun c = PipelineAgainstBulk("madd");
    PipelineRun f = PipelineAgainstBulk("fair");
    REQUIRE(e.records.size() == 4 + 4 + 1); // activations, gradients, bulk
    auto act = Activations(e);
    REQUIRE(act.size() == 4);
    for (uint32_t i = 1; i < 4; ++i)
    {
        CHECK(act[i - 1].received < act[i].received);
        // ideal finish times staggered by the forward time (100 us)
        CHECK((act[i].idealFinish - act[i - 1].idealFinish).GetMicroSeconds() ==
              Approx(100).margin(1));
    }
    INFO("max tardiness: echelon " << e.maxTardiness * 1e6 << " us, madd " << c.maxTardiness * 1e6
                                   << " us, fair " << f.maxTardiness * 1e6 << " us");
    CHECK(e.maxTardiness <= c.maxTardiness);
    CHECK(e.maxTardiness * 1e6 == Approx(220).epsilon(0.15));
    CHECK(c.maxTardiness * 1e6 == Approx(347).epsilon(0.15));
}

TEST_CASE("scheduled jobs: Echelon recovers from a wrong stage-time estimate at packet level",
          "[flow-scheduler]")
{
    // Micro-batches every 200 us (1 MB: 87 us each) against a 10 MB flow of another job (ideal
    // finish 866 us). Declared right, each micro-batch preempts the big flow when it is released.
    // Declared 20 times too long (4 ms) and not corrected, micro-batches 1-3 look due far in the
    // future and wait behind the big flow; corrected from the releases, the run is as if the
    // estimate were right.
    PipelineRun right = PipelineAgainstBulk("echelon", MicroSeconds(200), 10000000);
    PipelineRun fixed =
        PipelineAgainstBulk("echelon", MicroSeconds(200), 10000000, MilliSeconds(4), true);
    PipelineRun wrong =
        PipelineAgainstBulk("echelon", MicroSeconds(200), 10000000, MilliSeconds(4), false);
    INFO("max tardiness: right " << right.maxTardiness * 1e6 << " us, corrected "
                                 << fixed.maxTardiness * 1e6 << " us, uncorrected "
                                 << wrong.maxTardiness * 1e6 << " us");
    CHECK(fixed.maxTardiness <= 1.1 * right.maxTardiness + 5e-6);
    CHECK(wrong.maxTardiness > 1.5 * right.maxTardiness);
}

TEST_CASE("scheduled jobs: a parameter-server job declares every push and pull", "[flow-scheduler]")
{
    std::istringstream csv("name,parameters,forward_us,backward_us\n"
                           "conv1,100000,50,100\n"
                           "conv2,400000,50,100\n"
                           "fc,200000,20,40\n");
    DnnModel model = DnnModel::FromCsv(csv, "tiny");
    for (std::string policy :
         {"fair", "madd", "echelon", "cadentflow-priority", "cadentflow-deadline"})
    {
        RdmaDumbbell d(3, 2);
        Ptr<RdmaFlowScheduler> s = CreateObject<RdmaFlowScheduler>();
        s->SetPolicy(CreateFlowSchedulingPolicy(policy));
        s->Install(d.nics);
        uint32_t done = 0;
        s->TraceConnectWithoutContext(
            "FlowDone",
            MakeCallback(+[](uint32_t* n, const ScheduledFlowRecord&) { ++*n; }).Bind(&done));
        Ptr<DataParallelJob> job = CreateObject<DataParallelJob>();
        job->SetModel(model, GpuProfile::V100());
        job->SetAttribute("Mode", StringValue("ParameterServer"));
        job->SetAttribute("Iterations", UintegerValue(3));
        job->SetWorkers({d.nics[0], d.nics[1], d.nics[2]});
        job->SetServers({d.nics[3], d.nics[4]});
        job->Start();
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        INFO(policy);
        REQUIRE(job->IsFinished());
        // 3 tensors x 3 workers, pushed and pulled, 3 iterations
        CHECK(s->GetPostedFlows() == 3 * 3 * 2 * 3);
        CHECK(done == 3 * 3 * 2 * 3);
        CHECK(job->GetPushBytes() == 3 * 3 * 700000 * 4);
        CHECK(job->GetPullBytes() == 3 * 3 * 700000 * 4);
        Simulator::Destroy();
    }
}
