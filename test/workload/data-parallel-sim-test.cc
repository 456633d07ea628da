/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Data-parallel jobs: iteration records, parameter-server byte counts, tensor order.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace ns3;

namespace
{

/// A 4-layer model with measured times (us): 4 MB + 0 + 8 MB + 2 MB of FP32 gradients.
DnnModel
SmallModel()
{
    std::istringstream csv("name,parameters,forward_us,backward_us\n"
                           "conv1,1000000,100,200\n"
                           "pool,0,20,40\n"
                           "conv2,2000000,100,200\n"
                           "fc,500000,50,100\n");
    return DnnModel::FromCsv(csv, "small");
}

struct Cluster
{
    FabricTopology topo;
    std::vector<Ptr<RdmaNic>> nics;

    explicit Cluster(uint32_t n, uint32_t mtu = 1000)
    {
        FabricTopologyHelper th;
        topo = th.BuildLeafSpine(1, 1, n);
        RdmaHelper rdma;
        rdma.SetCongestionControl("ns3::Dcqcn");
        rdma.SetNicAttribute("AckInterval", UintegerValue(16));
        rdma.SetNicAttribute("Mtu", UintegerValue(mtu));
        nics = rdma.Install(topo.hosts);
    }
};

void
CheckRecords(Ptr<DataParallelJob> job, uint32_t iterations)
{
    const auto& recs = job->GetIterationRecords();
    REQUIRE(recs.size() == iterations);
    for (const auto& r : recs)
    {
        INFO("iteration " << r.iteration << " " << r.Duration().GetMicroSeconds() << " us");
        REQUIRE(r.Duration() >= job->GetComputeTime());
        REQUIRE(r.compute == job->GetComputeTime());
        REQUIRE(r.compute + r.exposedComm == r.end - r.start);
        REQUIRE(r.exposedComm >= Time(0));
        REQUIRE(r.gpuIdle == r.exposedComm);
    }
    for (std::size_t i = 1; i < recs.size(); ++i)
    {
        REQUIRE(recs[i].start == recs[i - 1].end);
    }
}

} // namespace

TEST_CASE("workload: parameter-server push/pull bytes match the model size", "[workload]")
{
    Cluster c(6); // 4 workers, 2 servers
    Ptr<DataParallelJob> job = CreateObject<DataParallelJob>();
    DnnModel m = SmallModel();
    job->SetModel(m, GpuProfile::V100());
    job->SetAttribute("Mode", StringValue("ParameterServer"));
    job->SetAttribute("Iterations", UintegerValue(3));
    job->SetWorkers({c.nics.begin(), c.nics.begin() + 4});
    job->SetServers({c.nics[4], c.nics[5]});
    Ptr<TensorOrderPolicy> p3 = CreateObject<P3TensorOrder>();
    job->SetTensorOrderPolicy(p3);
    job->Start();
    Simulator::Stop(Seconds(2));
    Simulator::Run();
    REQUIRE(job->IsFinished());
    uint64_t modelBytes = m.GetParameterBytes(4);
    REQUIRE(job->GetModelBytes() == modelBytes);
    REQUIRE(job->GetPushBytes() == 3 * 4 * modelBytes);
    REQUIRE(job->GetPullBytes() == 3 * 4 * modelBytes);
    uint64_t recorded = 0;
    for (const auto& r : job->GetMessageRecords())
    {
        recorded += r.bytes;
        REQUIRE(r.Fct() > Time(0));
    }
    REQUIRE(recorded == 2 * 3 * 4 * modelBytes);
    CheckRecords(job, 3);
    Simulator::Destroy();
}

TEST_CASE("workload: ring all-reduce data-parallel iterations are >= compute and consistent",
          "[workload]")
{
    Cluster c(4);
    Ptr<DataParallelJob> job = CreateObject<DataParallelJob>();
    job->SetModel(SmallModel(), GpuProfile::V100());
    job->SetAttribute("Iterations", UintegerValue(4));
    job->SetWorkers(c.nics);
    job->Start();
    Simulator::Stop(Seconds(2));
    Simulator::Run();
    REQUIRE(job->IsFinished());
    CheckRecords(job, 4);
    // 14 MB all-reduced over 4 x 100G: at least 2 x 3/4 x 14 MB / 92 Gb/s of communication,
    // partly hidden behind the backward pass
    REQUIRE(job->GetIterationRecords()[1].exposedComm > MicroSeconds(100));
    REQUIRE(job->GetJobRecord().Jct()
            == job->GetIterationRecords().back().end - job->GetIterationRecords().front().start);
    Simulator::Destroy();
}

TEST_CASE("workload: data-parallel job rejects bad configuration", "[workload]")
{
    Ptr<DataParallelJob> job = CreateObject<DataParallelJob>();
    REQUIRE_THROWS_AS(job->SetWorkers({}), std::invalid_argument);
    REQUIRE_THROWS_AS(job->SetModel(DnnModel("empty"), GpuProfile::V100()), std::invalid_argument);
    Simulator::Destroy();
}

TEST_CASE("workload: tensor fusion merges ready gradients into fewer and faster all-reduces",
          "[workload]")
{
    // ResNet-50's 161 tensors on 8 workers: one ring all-reduce per tensor pays 2(n-1) steps of
    // latency each; fusing what is ready into one buffer pays them once per buffer.
    std::vector<Time> iteration;
    for (uint64_t fusion : {uint64_t(0), uint64_t(64) << 20})
    {
        Cluster c(8, 4000);
        Ptr<DataParallelJob> job = CreateObject<DataParallelJob>();
        job->SetModel(ModelZoo::ResNet50(), GpuProfile::V100());
        job->SetAttribute("Iterations", UintegerValue(2));
        job->SetAttribute("RecordMessages", BooleanValue(false));
        job->SetAttribute("FusionBytes", UintegerValue(fusion));
        job->SetWorkers(c.nics);
        job->Start();
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        REQUIRE(job->IsFinished());
        CheckRecords(job, 2);
        iteration.push_back(job->GetMeanIterationTime(1));
        Simulator::Destroy();
    }
    INFO("per-tensor " << iteration[0].GetMicroSeconds() << " us, fused "
                       << iteration[1].GetMicroSeconds() << " us");
    REQUIRE(iteration[1] < iteration[0] * 0.9);
}
