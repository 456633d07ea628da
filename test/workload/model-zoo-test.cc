/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/dnn-model.h"
#include "ns3/gpu-profile.h"
#include "ns3/layer-spec.h"
#include "ns3/model-zoo.h"

#include <catch2/catch.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/// The message of the std::invalid_argument thrown by f (empty if none).
template <typename F>
std::string
InvalidArgumentMessage(F f)
{
    try
    {
        f();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

bool
Contains(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("workload: vgg16 parameter count is 138,357,544", "[workload]")
{
    CHECK(ModelZoo::Vgg16().GetParameterCount() == 138357544ULL);
}

TEST_CASE("workload: vgg19 parameter count is 143,667,240", "[workload]")
{
    CHECK(ModelZoo::Vgg19().GetParameterCount() == 143667240ULL);
}

TEST_CASE("workload: alexnet (torchvision) parameter count is 61,100,840", "[workload]")
{
    CHECK(ModelZoo::AlexNet().GetParameterCount() == 61100840ULL);
}

TEST_CASE("workload: resnet50 parameter count is 25,557,032", "[workload]")
{
    CHECK(ModelZoo::ResNet50().GetParameterCount() == 25557032ULL);
}

TEST_CASE("workload: resnet152 parameter count is 60,192,808", "[workload]")
{
    CHECK(ModelZoo::ResNet152().GetParameterCount() == 60192808ULL);
}

TEST_CASE("workload: inception_v3 without aux parameter count is 23,834,568", "[workload]")
{
    // torchvision publishes 27,161,264 with the auxiliary classifier (3,326,696 parameters)
    CHECK(ModelZoo::InceptionV3().GetParameterCount() == 23834568ULL);
    CHECK(ModelZoo::InceptionV3().GetParameterCount() + 3326696ULL == 27161264ULL);
}

TEST_CASE("workload: googlenet without aux parameter count is 6,624,904", "[workload]")
{
    CHECK(ModelZoo::GoogLeNet().GetParameterCount() == 6624904ULL);
}

TEST_CASE("workload: gpt2 family parameter counts match the published totals", "[workload]")
{
    CHECK(ModelZoo::Gpt2Small().GetParameterCount() == 124439808ULL);
    CHECK(ModelZoo::Get("gpt2-medium").GetParameterCount() == 354823168ULL);
    CHECK(ModelZoo::Get("gpt2-large").GetParameterCount() == 774030080ULL);
    CHECK(ModelZoo::Get("gpt2-xl").GetParameterCount() == 1557611200ULL);
}

TEST_CASE("workload: transformer parameters follow embedding + L(12h^2 + 13h) + 2h", "[workload]")
{
    for (uint32_t layers : {1U, 4U, 24U})
    {
        for (uint32_t hidden : {64U, 512U, 2048U})
        {
            TransformerConfig c;
            c.layers = layers;
            c.hidden = hidden;
            c.heads = 8;
            c.vocab = 32000;
            c.seqLen = 2048;
            const uint64_t h = hidden;
            const uint64_t expected = 32000 * h + 2048 * h + layers * (12 * h * h + 13 * h) + 2 * h;
            CHECK(ModelZoo::Transformer(c).GetParameterCount() == expected);
            CHECK(ModelZoo::TransformerParameterCount(layers, hidden, 8, 32000, 2048) == expected);
            c.tiedEmbedding = false;
            CHECK(ModelZoo::Transformer(c).GetParameterCount() == expected + 32000 * h);
        }
    }
    // forward FLOPs ~ 2 x non-embedding parameters x tokens + attention (Kaplan et al. 2020)
    const DnnModel g = ModelZoo::Gpt2Small();
    const double nonEmb = 12.0 * (12.0 * 768 * 768 + 13 * 768);
    const double approx =
        2.0 * nonEmb * 1024 + 2.0 * 12 * 1024 * 1024 * 768 * 2 + 2.0 * 768 * 50257 * 1024;
    CHECK(g.GetForwardFlops() == Approx(approx).epsilon(0.02));
}

TEST_CASE("workload: transformer shape is validated", "[workload]")
{
    TransformerConfig c;
    c.heads = 7; // 768 % 7 != 0
    const std::string msg = InvalidArgumentMessage([&] { ModelZoo::Transformer(c); });
    CHECK(Contains(msg, "heads"));
    CHECK(Contains(msg, "must divide hidden"));
    c = TransformerConfig{};
    c.layers = 0;
    CHECK(Contains(InvalidArgumentMessage([&] { ModelZoo::Transformer(c); }), "layers"));
}

TEST_CASE("workload: every zoo model can be fetched by name", "[workload]")
{
    for (const auto& n : ModelZoo::Names())
    {
        const DnnModel m = ModelZoo::Get(n);
        CHECK(m.GetName() == n);
        CHECK(m.GetParameterCount() > 0);
        CHECK(m.GetForwardFlops() > 0);
    }
    CHECK(Contains(InvalidArgumentMessage([] { ModelZoo::Get("lenet"); }), "vgg16"));
}

TEST_CASE("workload: vgg16 costs ~15.5 G multiply-adds per 224x224 image", "[workload]")
{
    // Convention: MAC = multiply-accumulate = 2 FLOPs. The "15.5 GFLOPs" usually quoted for
    // VGG-16 counts MACs: 15,346,630,656 (conv) + 123,633,664 (fc).
    const DnnModel m = ModelZoo::Vgg16();
    CHECK(m.GetForwardMacs() == Approx(15470264320.0));
    CHECK(m.GetForwardFlops() > 2 * m.GetForwardMacs());
    CHECK(m.GetForwardFlops() < 2.01 * m.GetForwardMacs());
    // other sanity values (G MACs): ResNet-50 ~4.1, AlexNet ~0.71, Inception-v3 ~5.7
    CHECK(ModelZoo::ResNet50().GetForwardMacs() / 1e9 == Approx(4.09).epsilon(0.02));
    CHECK(ModelZoo::AlexNet().GetForwardMacs() / 1e9 == Approx(0.714).epsilon(0.02));
    CHECK(ModelZoo::InceptionV3().GetForwardMacs() / 1e9 == Approx(5.71).epsilon(0.03));
}

TEST_CASE("workload: conv2d builder computes shape, parameters and FLOPs exactly", "[workload]")
{
    const LayerSpec c = LayerSpec::Conv2d("c", 3, 64, 11, 4, 2, true, 224, 224);
    CHECK(c.outHeight == 55);
    CHECK(c.outWidth == 55);
    CHECK(c.parameters == 64ULL * 3 * 11 * 11 + 64);
    CHECK(c.forwardMacs == Approx(64.0 * 3 * 11 * 11 * 55 * 55));
    CHECK(c.outputElements == 64ULL * 55 * 55);
    const LayerSpec l = LayerSpec::Linear("fc", 4096, 1000);
    CHECK(l.parameters == 4097000ULL);
    CHECK(l.forwardFlops == Approx(2.0 * 4096 * 1000 + 1000));
    CHECK(LayerSpec::BatchNorm2d("bn", 64, 56, 56).parameters == 128);
    CHECK(ConvOutputSize(112, 3, 2, 0, true) == 56);
    CHECK(ConvOutputSize(112, 3, 2, 0, false) == 55);
    CHECK(
        Contains(InvalidArgumentMessage([] { LayerSpec::Conv2d("x", 0, 1, 3, 1, 1, true, 8, 8); }),
                 "in = 0"));
    CHECK(
        Contains(InvalidArgumentMessage([] { LayerSpec::Conv2d("x", 1, 1, 9, 1, 0, true, 4, 4); }),
                 "kernel size"));
}

TEST_CASE("workload: per-layer CSV table is parsed", "[workload]")
{
    std::istringstream in("# measured on one V100, batch 32\n"
                          "name, parameters, forward_us, backward_us\r\n"
                          "conv1, 1728, 120.5, 250\n"
                          "\n"
                          "fc,4097000,80,160.25\n");
    const DnnModel m = DnnModel::FromCsv(in, "mine");
    REQUIRE(m.GetNLayers() == 2);
    CHECK(m.GetName() == "mine");
    CHECK(m.GetParameterCount() == 1728 + 4097000);
    CHECK(m.GetLayer(0).name == "conv1");
    CHECK(m.GetLayer(0).measuredForwardSeconds == Approx(120.5e-6));
    CHECK(m.GetLayer(1).measuredBackwardSeconds == Approx(160.25e-6));
    CHECK(m.HasMeasuredTimes());
    // measured times are used as-is by the GPU profile, whatever the batch size
    const auto t = GpuProfile::V100().GetLayerTimings(m, 64);
    CHECK(t[0].forwardSeconds == Approx(120.5e-6));
    CHECK(t[1].backwardSeconds == Approx(160.25e-6));

    std::istringstream noHeader("a,10,1,2\n");
    CHECK(DnnModel::FromCsv(noHeader).GetParameterCount() == 10);
}

TEST_CASE("workload: bad per-layer CSV input names the line and the column", "[workload]")
{
    auto parse = [](const std::string& text) {
        return InvalidArgumentMessage([&] {
            std::istringstream in(text);
            DnnModel::FromCsv(in);
        });
    };
    std::string msg = parse("name,parameters,forward_us,backward_us\nc1,12,1,2\nc2,-5,1,2\n");
    CHECK(Contains(msg, "line 3"));
    CHECK(Contains(msg, "'parameters'"));
    msg = parse("c1,12,abc,2\n");
    CHECK(Contains(msg, "line 1"));
    CHECK(Contains(msg, "'forward_us'"));
    msg = parse("c1,12,1,-2\n");
    CHECK(Contains(msg, "'backward_us'"));
    CHECK(Contains(msg, ">= 0"));
    msg = parse("c1,12,1\n");
    CHECK(Contains(msg, "line 1"));
    CHECK(Contains(msg, "'backward_us'"));
    msg = parse("c1,12,1,2\n,5,1,2\n");
    CHECK(Contains(msg, "line 2"));
    CHECK(Contains(msg, "'name'"));
    msg = parse("c1,12,1,2,9\n");
    CHECK(Contains(msg, "expected 4"));
    msg = parse("# only a comment\n");
    CHECK(Contains(msg, "no layer rows"));
    msg = parse("c1,1.5,1,2\n");
    CHECK(Contains(msg, "'parameters'"));
}

TEST_CASE("workload: gpu profile turns FLOPs x batch into times", "[workload]")
{
    const GpuProfile v100 = GpuProfile::V100();
    CHECK(v100.GetPeakFlops() == Approx(125e12));
    const LayerSpec big = LayerSpec::Linear("fc", 4096, 4096, true, 1);
    const LayerTiming t1 = v100.GetLayerTiming(big, 1024);
    const LayerTiming t2 = v100.GetLayerTiming(big, 2048);
    CHECK(t1.forwardSeconds == Approx(big.forwardFlops * 1024 / (125e12 * 0.4)));
    CHECK(t2.forwardSeconds == Approx(2 * t1.forwardSeconds));
    CHECK(t1.backwardSeconds == Approx(2 * t1.forwardSeconds));
    // memory-bound layer: batch norm is limited by bandwidth
    const LayerSpec bn = LayerSpec::BatchNorm2d("bn", 64, 112, 112);
    const LayerTiming tb = v100.GetLayerTiming(bn, 32);
    CHECK(tb.forwardSeconds == Approx((128.0 + 64.0 * 112 * 112 * 32) * 2 / 900e9));
    // faster GPUs are faster
    const DnnModel r50 = ModelZoo::ResNet50();
    CHECK(GpuProfile::H100().GetForwardTime(r50, 64) < GpuProfile::A100().GetForwardTime(r50, 64));
    CHECK(GpuProfile::A100().GetForwardTime(r50, 64) < v100.GetForwardTime(r50, 64));
    CHECK(v100.GetLayerTimings(r50, 64).size() == r50.GetNLayers());
    CHECK(Contains(InvalidArgumentMessage([] { GpuProfile("x", 1e12, 1.5); }), "efficiency"));
    CHECK(Contains(InvalidArgumentMessage([] { GpuProfile("x", -1); }), "peakFlops"));
    CHECK(Contains(InvalidArgumentMessage([&] { v100.GetLayerTiming(big, 0); }), "batchSize"));
    CHECK(Contains(InvalidArgumentMessage([] { GpuProfile::Get("K80"); }), "V100"));
}

TEST_CASE("workload: calibrated gpu profiles reproduce the published step time they cite",
          "[workload]")
{
    // NVIDIA DeepLearningExamples, PyTorch ResNet-50 v1.5, 1 GPU (pytorch-21.03 container):
    // V100 16 GB 1,200 images/s AMP at batch 256 and 367 FP32 at batch 112; A100 80 GB 2,470
    // AMP and 938 TF32 at batch 256. Tolerance: 0.5% of the published step.
    struct Published
    {
        const char* name;
        uint32_t batch;
        double imagesPerSecond;
    };

    const DnnModel r50 = ModelZoo::ResNet50();
    for (const Published& p : {Published{"v100-amp", 256, 1200.0},
                               Published{"v100-fp32", 112, 367.0},
                               Published{"a100-amp", 256, 2470.0},
                               Published{"a100-tf32", 256, 938.0}})
    {
        INFO(p.name);
        const GpuProfile g = GpuProfile::Get(p.name);
        const double step = g.GetForwardTime(r50, p.batch) + g.GetBackwardTime(r50, p.batch);
        const double published = p.batch / p.imagesPerSecond;
        CHECK(step == Approx(published).epsilon(0.005));
        CHECK(g.GetCalibration().StepSeconds() == Approx(published).epsilon(1e-9));
        CHECK(g.GetCalibration().batchSize == p.batch);
        CHECK(Contains(g.GetCalibration().source, "DeepLearningExamples"));
        CHECK(g.GetEfficiency() > 0.05);
        CHECK(g.GetEfficiency() <= 1.0);
    }
    // the raw roofline preset (efficiency 0.4) is faster than the measured V100 step: at batch
    // 32 it gives 18.1 ms, the calibrated mixed-precision profile 26.7 ms (32 / 1200 images/s)
    const double raw =
        GpuProfile::V100().GetForwardTime(r50, 32) + GpuProfile::V100().GetBackwardTime(r50, 32);
    const GpuProfile amp = GpuProfile::Get("V100-AMP");
    const double cal = amp.GetForwardTime(r50, 32) + amp.GetBackwardTime(r50, 32);
    CHECK(raw < 0.019);
    CHECK(cal == Approx(32.0 / 1200.0).epsilon(0.01));
    // mixed precision is faster than FP32 on the same GPU, A100 faster than V100
    const GpuProfile fp32 = GpuProfile::Get("v100-fp32");
    CHECK(fp32.GetForwardTime(r50, 64) > 2.5 * amp.GetForwardTime(r50, 64));
    CHECK(GpuProfile::Get("a100-amp").GetForwardTime(r50, 64) < amp.GetForwardTime(r50, 64));
    // calibration of a user's own measurement, and its range
    GpuProfile mine = GpuProfile::V100();
    mine.Calibrate(r50, 64, 0.1, "my lab");
    CHECK(mine.GetForwardTime(r50, 64) + mine.GetBackwardTime(r50, 64) ==
          Approx(0.1).epsilon(1e-6));
    CHECK(mine.GetCalibration().source == "my lab");
    CHECK(Contains(InvalidArgumentMessage([&] { mine.Calibrate(r50, 64, 1e-6); }), "stepSeconds"));
    CHECK(Contains(InvalidArgumentMessage([] { GpuProfile::Get("v100-int4"); }), "v100-amp"));
    CHECK(GpuProfile::Names().size() == 7);
}
