/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The TF-slim models of the CadentFlow evaluation and the per-iteration DAG of a model.

#include "ns3/dnn-model.h"
#include "ns3/iteration-dag.h"
#include "ns3/model-zoo.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace ns3;

namespace
{

/// Channels of all BatchNorm layers: each has a moving mean and variance per channel.
uint64_t
BatchNormChannels(const DnnModel& m)
{
    uint64_t c = 0;
    for (const auto& l : m.GetLayers())
    {
        if (l.kind == LayerKind::BatchNorm)
        {
            c += l.outChannels;
        }
    }
    return c;
}

} // namespace

TEST_CASE("workload: TF-slim models have the published parameter counts", "[workload]")
{
    // trainable parameters, TF-slim model table (1000 classes; CifarNet 10)
    CHECK(ModelZoo::CifarNet().GetParameterCount() == 1756426ULL);
    CHECK(ModelZoo::MobileNetV2().GetParameterCount() == 3504872ULL);
    CHECK(ModelZoo::InceptionV1().GetParameterCount() == 6617624ULL);
    CHECK(ModelZoo::ResNetV1_200().GetParameterCount() == 64673832ULL);
    CHECK(ModelZoo::ResNetV2_101().GetParameterCount() == 44577896ULL);
    CHECK(ModelZoo::ResNetV2_152().GetParameterCount() == 60236904ULL);
}

TEST_CASE("workload: with BatchNorm moving statistics the counts match Keras and TF-slim's tests",
          "[workload]")
{
    auto withStats = [](const DnnModel& m) {
        return m.GetParameterCount() + 2 * BatchNormChannels(m);
    };
    // Keras applications table: MobileNetV2 3,538,984; ResNet101V2 44,675,560; ResNet152V2
    // 60,380,648 (total params, moving mean and variance included)
    CHECK(withStats(ModelZoo::MobileNetV2()) == 3538984ULL);
    CHECK(withStats(ModelZoo::ResNetV2_101()) == 44675560ULL);
    CHECK(withStats(ModelZoo::ResNetV2_152()) == 60380648ULL);
    // TF-slim inception_v1_test: the base up to Mixed_5c has 5,607,184 model variables
    DnnModel v1 = ModelZoo::InceptionV1();
    const uint64_t logits = 1024ULL * 1000 + 1000;
    CHECK(withStats(v1) - logits == 5607184ULL);
}

TEST_CASE("workload: the new models are in the zoo by name", "[workload]")
{
    for (std::string n : {"cifarnet",
                          "mobilenet_v2",
                          "inception_v1",
                          "resnet_v1_200",
                          "resnet_v2_101",
                          "resnet_v2_152"})
    {
        CHECK(ModelZoo::Get(n).GetName() == n);
        const auto names = ModelZoo::Names();
        CHECK(std::find(names.begin(), names.end(), n) != names.end());
    }
    // MobileNet-v2's depthwise 3x3 of 32 channels: 288 weights, 32 x 3 x 3 x 112 x 112 MACs
    LayerSpec dw = LayerSpec::DepthwiseConv2d("dw", 32, 3, 1, 1, false, 112, 112);
    CHECK(dw.parameters == 288);
    CHECK(dw.forwardMacs == Approx(288.0 * 112 * 112));
    CHECK(dw.outHeight == 112);
    CHECK_THROWS_AS(LayerSpec::DepthwiseConv2d("dw", 0, 3, 1, 1, false, 8, 8),
                    std::invalid_argument);
}

TEST_CASE("workload: a model's iteration DAG reads each parameter tensor in layer order",
          "[workload]")
{
    // A: 250 params, forward 0.5 s; B: no params, 0.25 s; C: 250 params, 0.5 s; backward 1 s
    // each. At 1000 B/s the 1000-byte tensors arrive at 1 and 2 s: forward A 1-1.5, B 1.5-1.75,
    // C 2-2.5, backward to 5.5 s. Deadlines (as late as possible): A 5.5 - 4.25 = 1.25 s,
    // C 5.5 - 3.5 = 2 s; best CCT 2 s, tolerable 2 s: ratio 1.
    std::istringstream csv("name,parameters,forward_us,backward_us\n"
                           "A,250,500000,1000000\n"
                           "B,0,250000,1000000\n"
                           "C,250,500000,1000000\n");
    DnnModel m = DnnModel::FromCsv(csv, "abc");
    ComputeDag g = IterationDag::Build(m, GpuProfile::V100(), 1);
    REQUIRE(g.GetTensors().size() == 2);
    REQUIRE(g.GetOps().size() == 6);
    CHECK(g.GetTensors()[0].bytes == 1000);
    CHECK(g.GetOps()[0].name == "fwd.A");
    CHECK(g.GetOps()[3].name == "bwd.C");
    CHECK(g.GetOps()[2].reads == std::vector<uint32_t>{1});
    DagSchedule s = g.IdealSchedule(1000);
    CHECK(s.makespan == Approx(5.5));
    CHECK(s.deadline[0] == Approx(1.25));
    CHECK(s.deadline[1] == Approx(2.0));
    CHECK(s.FlexibilityRatio() == Approx(1.0));
    CHECK(g.ConsumptionOrder() == std::vector<uint32_t>{0, 1});
    // a real model: every parameterised layer is a tensor, read in order
    ComputeDag r = IterationDag::Build(ModelZoo::ResNetV2_101(), GpuProfile::V100(), 32);
    CHECK(r.GetTensors().size() == ModelZoo::ResNetV2_101().GetParameterizedLayers().size());
    auto order = r.ConsumptionOrder();
    for (uint32_t t = 0; t < order.size(); ++t)
    {
        CHECK(order[t] == t);
    }
}
