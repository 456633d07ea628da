/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "model-zoo.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace ns3
{

// ---------------------------------------------------------------------------------------------
// Model zoo

namespace
{

/// Tracks the activation shape while appending layers of a CNN.
class CnnBuilder
{
  public:
    CnnBuilder(DnnModel& m, uint32_t c, uint32_t h, uint32_t w)
        : m_model(m),
          m_c(c),
          m_h(h),
          m_w(w)
    {
    }

    /// BatchNorm layers from now on: with scale (gamma and beta) or beta only (TF-slim's
    /// default for Inception).
    void SetBnScale(bool scale)
    {
        m_bnScale = scale;
    }

    /// depthwise conv (no bias) + BatchNorm, as MobileNet-v2's
    void DepthwiseBn(const std::string& n, uint32_t k, uint32_t s, uint32_t p)
    {
        Add(LayerSpec::DepthwiseConv2d(n, m_c, k, s, p, false, m_h, m_w));
        Bn(n + ".bn");
    }

    void Conv(const std::string& n, uint32_t out, uint32_t k, uint32_t s, uint32_t p, bool bias)
    {
        Add(LayerSpec::Conv2d(n, m_c, out, k, s, p, bias, m_h, m_w));
    }

    void ConvRect(const std::string& n,
                  uint32_t out,
                  uint32_t kh,
                  uint32_t kw,
                  uint32_t s,
                  uint32_t ph,
                  uint32_t pw,
                  bool bias)
    {
        Add(LayerSpec::Conv2dRect(n, m_c, out, kh, kw, s, s, ph, pw, bias, m_h, m_w));
    }

    /// conv (no bias) + BatchNorm, as torchvision's BasicConv2d / ResNet convs
    void ConvBn(const std::string& n, uint32_t out, uint32_t k, uint32_t s, uint32_t p)
    {
        Conv(n, out, k, s, p, false);
        Bn(n + ".bn");
    }

    void ConvBnRect(const std::string& n,
                    uint32_t out,
                    uint32_t kh,
                    uint32_t kw,
                    uint32_t s,
                    uint32_t ph,
                    uint32_t pw)
    {
        ConvRect(n, out, kh, kw, s, ph, pw, false);
        Bn(n + ".bn");
    }

    void Bn(const std::string& n)
    {
        LayerSpec bn = LayerSpec::BatchNorm2d(n, m_c, m_h, m_w);
        if (!m_bnScale)
        {
            bn.parameters = m_c; // beta only
        }
        Add(bn);
    }

    void Pool(const std::string& n, uint32_t k, uint32_t s, uint32_t p, bool ceil = false)
    {
        Add(LayerSpec::Pool2d(n, m_c, k, s, p, m_h, m_w, ceil));
    }

    void AdaptivePool(const std::string& n, uint32_t oh, uint32_t ow)
    {
        Add(LayerSpec::AdaptiveAvgPool2d(n, m_c, m_h, m_w, oh, ow));
    }

    void Fc(const std::string& n, uint32_t out)
    {
        const uint32_t in = m_c * m_h * m_w;
        m_model.AddLayer(LayerSpec::Linear(n, in, out, true));
        m_c = out;
        m_h = 1;
        m_w = 1;
    }

    /// Set the shape (after a concatenation or to start a branch).
    void SetShape(uint32_t c, uint32_t h, uint32_t w)
    {
        m_c = c;
        m_h = h;
        m_w = w;
    }

    uint32_t C() const
    {
        return m_c;
    }

    uint32_t H() const
    {
        return m_h;
    }

    uint32_t W() const
    {
        return m_w;
    }

  private:
    void Add(const LayerSpec& l)
    {
        m_model.AddLayer(l);
        m_c = l.outChannels;
        m_h = l.outHeight;
        m_w = l.outWidth;
    }

    DnnModel& m_model;
    uint32_t m_c;
    uint32_t m_h;
    uint32_t m_w;
    bool m_bnScale{true};
};

DnnModel
Vgg(const std::string& name, const std::vector<int>& cfg)
{
    DnnModel m(name);
    CnnBuilder b(m, 3, 224, 224);
    int block = 1;
    int conv = 1;
    for (int v : cfg)
    {
        if (v == 0)
        {
            b.Pool("pool" + std::to_string(block), 2, 2, 0);
            ++block;
            conv = 1;
        }
        else
        {
            b.Conv("conv" + std::to_string(block) + "_" + std::to_string(conv++),
                   static_cast<uint32_t>(v),
                   3,
                   1,
                   1,
                   true);
        }
    }
    b.AdaptivePool("avgpool", 7, 7);
    b.Fc("fc6", 4096);
    b.Fc("fc7", 4096);
    b.Fc("fc8", 1000);
    return m;
}

DnnModel
ResNet(const std::string& name, const std::vector<uint32_t>& blocks)
{
    DnnModel m(name);
    CnnBuilder b(m, 3, 224, 224);
    b.ConvBn("conv1", 64, 7, 2, 3);
    b.Pool("maxpool", 3, 2, 1);
    const uint32_t widths[] = {64, 128, 256, 512};
    for (std::size_t stage = 0; stage < blocks.size(); ++stage)
    {
        const uint32_t width = widths[stage];
        for (uint32_t i = 0; i < blocks[stage]; ++i)
        {
            const std::string p =
                "layer" + std::to_string(stage + 1) + "." + std::to_string(i) + ".";
            const uint32_t stride = (i == 0 && stage > 0) ? 2 : 1;
            const uint32_t inC = b.C();
            const uint32_t inH = b.H();
            const uint32_t inW = b.W();
            b.ConvBn(p + "conv1", width, 1, 1, 0);
            b.ConvBn(p + "conv2", width, 3, stride, 1);
            b.ConvBn(p + "conv3", width * 4, 1, 1, 0);
            if (i == 0)
            {
                const uint32_t c = b.C();
                const uint32_t h = b.H();
                const uint32_t w = b.W();
                b.SetShape(inC, inH, inW);
                b.ConvBn(p + "downsample", width * 4, 1, stride, 0);
                b.SetShape(c, h, w);
            }
        }
    }
    b.AdaptivePool("avgpool", 1, 1);
    b.Fc("fc", 1000);
    return m;
}

/// TF-slim ResNet v2 (pre-activation); units per block, stride in each block's last unit but
/// the last block's.
DnnModel
ResNetV2(const std::string& name, const std::vector<uint32_t>& blocks)
{
    DnnModel m(name);
    CnnBuilder b(m, 3, 224, 224);
    b.Conv("conv1", 64, 7, 2, 3, true); // no BatchNorm on the root of v2
    b.Pool("pool1", 3, 2, 1);
    const uint32_t widths[] = {64, 128, 256, 512};
    for (std::size_t stage = 0; stage < blocks.size(); ++stage)
    {
        const uint32_t width = widths[stage];
        const uint32_t depth = width * 4;
        for (uint32_t i = 0; i < blocks[stage]; ++i)
        {
            const std::string p =
                "block" + std::to_string(stage + 1) + ".unit_" + std::to_string(i + 1) + ".";
            const uint32_t stride = (i + 1 == blocks[stage] && stage + 1 < blocks.size()) ? 2 : 1;
            const uint32_t inC = b.C();
            const uint32_t inH = b.H();
            const uint32_t inW = b.W();
            b.Bn(p + "preact");
            if (inC != depth)
            {
                b.Conv(p + "shortcut", depth, 1, stride, 0, true);
                b.SetShape(inC, inH, inW);
            }
            b.ConvBn(p + "conv1", width, 1, 1, 0);
            b.ConvBn(p + "conv2", width, 3, stride, 1);
            b.Conv(p + "conv3", depth, 1, 1, 0, true);
        }
    }
    b.Bn("postnorm");
    b.AdaptivePool("pool5", 1, 1);
    b.Fc("logits", 1000);
    return m;
}

/// torchvision / Keras MobileNet-v2, width 1.0.
DnnModel
MobileNetV2Model()
{
    DnnModel m("mobilenet_v2");
    CnnBuilder b(m, 3, 224, 224);
    b.ConvBn("features.0", 32, 3, 2, 1);
    // expansion t, output channels c, repeats n, first stride s
    const uint32_t settings[7][4] = {{1, 16, 1, 1},
                                     {6, 24, 2, 2},
                                     {6, 32, 3, 2},
                                     {6, 64, 4, 2},
                                     {6, 96, 3, 1},
                                     {6, 160, 3, 2},
                                     {6, 320, 1, 1}};
    uint32_t index = 1;
    for (const auto& st : settings)
    {
        for (uint32_t i = 0; i < st[2]; ++i, ++index)
        {
            const std::string p = "features." + std::to_string(index) + ".";
            const uint32_t hidden = b.C() * st[0];
            if (st[0] != 1)
            {
                b.ConvBn(p + "expand", hidden, 1, 1, 0);
            }
            b.DepthwiseBn(p + "depthwise", 3, i == 0 ? st[3] : 1, 1);
            b.ConvBn(p + "project", st[1], 1, 1, 0);
        }
    }
    b.ConvBn("features.18", 1280, 1, 1, 0);
    b.AdaptivePool("avgpool", 1, 1);
    b.Fc("classifier", 1000);
    return m;
}

/// torchvision GoogLeNet Inception block (the "5x5" branch uses a 3x3 kernel).
void
GoogLeNetInception(CnnBuilder& b,
                   const std::string& n,
                   uint32_t c1,
                   uint32_t c3r,
                   uint32_t c3,
                   uint32_t c5r,
                   uint32_t c5,
                   uint32_t pp)
{
    const uint32_t in = b.C();
    const uint32_t h = b.H();
    const uint32_t w = b.W();
    b.ConvBn(n + ".branch1", c1, 1, 1, 0);
    b.SetShape(in, h, w);
    b.ConvBn(n + ".branch2.0", c3r, 1, 1, 0);
    b.ConvBn(n + ".branch2.1", c3, 3, 1, 1);
    b.SetShape(in, h, w);
    b.ConvBn(n + ".branch3.0", c5r, 1, 1, 0);
    b.ConvBn(n + ".branch3.1", c5, 3, 1, 1);
    b.SetShape(in, h, w);
    b.Pool(n + ".branch4.pool", 3, 1, 1, true);
    b.ConvBn(n + ".branch4.1", pp, 1, 1, 0);
    b.SetShape(c1 + c3 + c5 + pp, h, w);
}

void
InceptionA(CnnBuilder& b, const std::string& n, uint32_t poolFeatures)
{
    const uint32_t in = b.C();
    const uint32_t h = b.H();
    const uint32_t w = b.W();
    b.ConvBn(n + ".branch1x1", 64, 1, 1, 0);
    b.SetShape(in, h, w);
    b.ConvBn(n + ".branch5x5_1", 48, 1, 1, 0);
    b.ConvBn(n + ".branch5x5_2", 64, 5, 1, 2);
    b.SetShape(in, h, w);
    b.ConvBn(n + ".branch3x3dbl_1", 64, 1, 1, 0);
    b.ConvBn(n + ".branch3x3dbl_2", 96, 3, 1, 1);
    b.ConvBn(n + ".branch3x3dbl_3", 96, 3, 1, 1);
    b.SetShape(in, h, w);
    b.Pool(n + ".branch_pool.avg", 3, 1, 1);
    b.ConvBn(n + ".branch_pool", poolFeatures, 1, 1, 0);
    b.SetShape(64 + 64 + 96 + poolFeatures, h, w);
}

void
InceptionB(CnnBuilder& b, const std::string& n)
{
    const uint32_t in = b.C();
    const uint32_t h = b.H();
    const uint32_t w = b.W();
    b.ConvBn(n + ".branch3x3", 384, 3, 2, 0);
    const uint32_t oh = b.H();
    const uint32_t ow = b.W();
    b.SetShape(in, h, w);
    b.ConvBn(n + ".branch3x3dbl_1", 64, 1, 1, 0);
    b.ConvBn(n + ".branch3x3dbl_2", 96, 3, 1, 1);
    b.ConvBn(n + ".branch3x3dbl_3", 96, 3, 2, 0);
    b.SetShape(in, h, w);
    b.Pool(n + ".branch_pool", 3, 2, 0);
    b.SetShape(384 + 96 + in, oh, ow);
}

void
InceptionC(CnnBuilder& b, const std::string& n, uint32_t c7)
{
    const uint32_t in = b.C();
    const uint32_t h = b.H();
    const uint32_t w = b.W();
    b.ConvBn(n + ".branch1x1", 192, 1, 1, 0);
    b.SetShape(in, h, w);
    b.ConvBn(n + ".branch7x7_1", c7, 1, 1, 0);
    b.ConvBnRect(n + ".branch7x7_2", c7, 1, 7, 1, 0, 3);
    b.ConvBnRect(n + ".branch7x7_3", 192, 7, 1, 1, 3, 0);
    b.SetShape(in, h, w);
    b.ConvBn(n + ".branch7x7dbl_1", c7, 1, 1, 0);
    b.ConvBnRect(n + ".branch7x7dbl_2", c7, 7, 1, 1, 3, 0);
    b.ConvBnRect(n + ".branch7x7dbl_3", c7, 1, 7, 1, 0, 3);
    b.ConvBnRect(n + ".branch7x7dbl_4", c7, 7, 1, 1, 3, 0);
    b.ConvBnRect(n + ".branch7x7dbl_5", 192, 1, 7, 1, 0, 3);
    b.SetShape(in, h, w);
    b.Pool(n + ".branch_pool.avg", 3, 1, 1);
    b.ConvBn(n + ".branch_pool", 192, 1, 1, 0);
    b.SetShape(768, h, w);
}

void
InceptionD(CnnBuilder& b, const std::string& n)
{
    const uint32_t in = b.C();
    const uint32_t h = b.H();
    const uint32_t w = b.W();
    b.ConvBn(n + ".branch3x3_1", 192, 1, 1, 0);
    b.ConvBn(n + ".branch3x3_2", 320, 3, 2, 0);
    const uint32_t oh = b.H();
    const uint32_t ow = b.W();
    b.SetShape(in, h, w);
    b.ConvBn(n + ".branch7x7x3_1", 192, 1, 1, 0);
    b.ConvBnRect(n + ".branch7x7x3_2", 192, 1, 7, 1, 0, 3);
    b.ConvBnRect(n + ".branch7x7x3_3", 192, 7, 1, 1, 3, 0);
    b.ConvBn(n + ".branch7x7x3_4", 192, 3, 2, 0);
    b.SetShape(in, h, w);
    b.Pool(n + ".branch_pool", 3, 2, 0);
    b.SetShape(320 + 192 + in, oh, ow);
}

void
InceptionE(CnnBuilder& b, const std::string& n)
{
    const uint32_t in = b.C();
    const uint32_t h = b.H();
    const uint32_t w = b.W();
    b.ConvBn(n + ".branch1x1", 320, 1, 1, 0);
    b.SetShape(in, h, w);
    b.ConvBn(n + ".branch3x3_1", 384, 1, 1, 0);
    b.ConvBnRect(n + ".branch3x3_2a", 384, 1, 3, 1, 0, 1);
    b.SetShape(384, h, w);
    b.ConvBnRect(n + ".branch3x3_2b", 384, 3, 1, 1, 1, 0);
    b.SetShape(in, h, w);
    b.ConvBn(n + ".branch3x3dbl_1", 448, 1, 1, 0);
    b.ConvBn(n + ".branch3x3dbl_2", 384, 3, 1, 1);
    b.ConvBnRect(n + ".branch3x3dbl_3a", 384, 1, 3, 1, 0, 1);
    b.SetShape(384, h, w);
    b.ConvBnRect(n + ".branch3x3dbl_3b", 384, 3, 1, 1, 1, 0);
    b.SetShape(in, h, w);
    b.Pool(n + ".branch_pool.avg", 3, 1, 1);
    b.ConvBn(n + ".branch_pool", 192, 1, 1, 0);
    b.SetShape(320 + 768 + 768 + 192, h, w);
}

void
RequireTransformer(uint64_t v, uint64_t min, const std::string& what)
{
    if (v < min)
    {
        throw std::invalid_argument("transformer " + what + " = " + std::to_string(v) +
                                    " is out of range (must be >= " + std::to_string(min) + ")");
    }
}

DnnModel
GoogLeNetModel(const std::string& name, bool bnScale)
{
    DnnModel m(name);
    CnnBuilder b(m, 3, 224, 224);
    b.SetBnScale(bnScale);
    b.ConvBn("conv1", 64, 7, 2, 3);
    b.Pool("maxpool1", 3, 2, 0, true);
    b.ConvBn("conv2", 64, 1, 1, 0);
    b.ConvBn("conv3", 192, 3, 1, 1);
    b.Pool("maxpool2", 3, 2, 0, true);
    GoogLeNetInception(b, "inception3a", 64, 96, 128, 16, 32, 32);
    GoogLeNetInception(b, "inception3b", 128, 128, 192, 32, 96, 64);
    b.Pool("maxpool3", 3, 2, 0, true);
    GoogLeNetInception(b, "inception4a", 192, 96, 208, 16, 48, 64);
    GoogLeNetInception(b, "inception4b", 160, 112, 224, 24, 64, 64);
    GoogLeNetInception(b, "inception4c", 128, 128, 256, 24, 64, 64);
    GoogLeNetInception(b, "inception4d", 112, 144, 288, 32, 64, 64);
    GoogLeNetInception(b, "inception4e", 256, 160, 320, 32, 128, 128);
    b.Pool("maxpool4", 2, 2, 0, true);
    GoogLeNetInception(b, "inception5a", 256, 160, 320, 32, 128, 128);
    GoogLeNetInception(b, "inception5b", 384, 192, 384, 48, 128, 128);
    b.AdaptivePool("avgpool", 1, 1);
    b.Fc("fc", 1000);
    return m;
}

} // namespace

DnnModel
ModelZoo::Vgg16()
{
    return Vgg("vgg16",
               {64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0, 512, 512, 512, 0});
}

DnnModel
ModelZoo::Vgg19()
{
    return Vgg("vgg19", {64,  64,  0,   128, 128, 0,   256, 256, 256, 256, 0,
                         512, 512, 512, 512, 0,   512, 512, 512, 512, 0});
}

DnnModel
ModelZoo::AlexNet()
{
    DnnModel m("alexnet");
    CnnBuilder b(m, 3, 224, 224);
    b.Conv("conv1", 64, 11, 4, 2, true);
    b.Pool("pool1", 3, 2, 0);
    b.Conv("conv2", 192, 5, 1, 2, true);
    b.Pool("pool2", 3, 2, 0);
    b.Conv("conv3", 384, 3, 1, 1, true);
    b.Conv("conv4", 256, 3, 1, 1, true);
    b.Conv("conv5", 256, 3, 1, 1, true);
    b.Pool("pool5", 3, 2, 0);
    b.AdaptivePool("avgpool", 6, 6);
    b.Fc("fc6", 4096);
    b.Fc("fc7", 4096);
    b.Fc("fc8", 1000);
    return m;
}

DnnModel
ModelZoo::ResNet50()
{
    return ResNet("resnet50", {3, 4, 6, 3});
}

DnnModel
ModelZoo::ResNet152()
{
    return ResNet("resnet152", {3, 8, 36, 3});
}

DnnModel
ModelZoo::InceptionV3()
{
    DnnModel m("inception_v3");
    CnnBuilder b(m, 3, 299, 299);
    b.ConvBn("Conv2d_1a_3x3", 32, 3, 2, 0);
    b.ConvBn("Conv2d_2a_3x3", 32, 3, 1, 0);
    b.ConvBn("Conv2d_2b_3x3", 64, 3, 1, 1);
    b.Pool("maxpool1", 3, 2, 0);
    b.ConvBn("Conv2d_3b_1x1", 80, 1, 1, 0);
    b.ConvBn("Conv2d_4a_3x3", 192, 3, 1, 0);
    b.Pool("maxpool2", 3, 2, 0);
    InceptionA(b, "Mixed_5b", 32);
    InceptionA(b, "Mixed_5c", 64);
    InceptionA(b, "Mixed_5d", 64);
    InceptionB(b, "Mixed_6a");
    InceptionC(b, "Mixed_6b", 128);
    InceptionC(b, "Mixed_6c", 160);
    InceptionC(b, "Mixed_6d", 160);
    InceptionC(b, "Mixed_6e", 192);
    InceptionD(b, "Mixed_7a");
    InceptionE(b, "Mixed_7b");
    InceptionE(b, "Mixed_7c");
    b.AdaptivePool("avgpool", 1, 1);
    b.Fc("fc", 1000);
    return m;
}

DnnModel
ModelZoo::GoogLeNet()
{
    return GoogLeNetModel("googlenet", true);
}

DnnModel
ModelZoo::InceptionV1()
{
    return GoogLeNetModel("inception_v1", false);
}

DnnModel
ModelZoo::CifarNet()
{
    DnnModel m("cifarnet");
    CnnBuilder b(m, 3, 32, 32);
    b.Conv("conv1", 64, 5, 1, 2, true);
    b.Pool("pool1", 3, 2, 1);
    b.Conv("conv2", 64, 5, 1, 2, true);
    b.Pool("pool2", 3, 2, 1);
    b.Fc("fc3", 384);
    b.Fc("fc4", 192);
    b.Fc("logits", 10);
    return m;
}

DnnModel
ModelZoo::MobileNetV2()
{
    return MobileNetV2Model();
}

DnnModel
ModelZoo::ResNetV1_200()
{
    return ResNet("resnet_v1_200", {3, 24, 36, 3});
}

DnnModel
ModelZoo::ResNetV2_101()
{
    return ResNetV2("resnet_v2_101", {3, 4, 23, 3});
}

DnnModel
ModelZoo::ResNetV2_152()
{
    return ResNetV2("resnet_v2_152", {3, 8, 36, 3});
}

DnnModel
ModelZoo::Transformer(const TransformerConfig& cfg)
{
    RequireTransformer(cfg.layers, 1, "layers");
    RequireTransformer(cfg.hidden, 1, "hidden");
    RequireTransformer(cfg.heads, 1, "heads");
    RequireTransformer(cfg.vocab, 1, "vocab");
    RequireTransformer(cfg.seqLen, 1, "seqLen");
    RequireTransformer(cfg.mlpRatio, 1, "mlpRatio");
    if (cfg.hidden % cfg.heads != 0)
    {
        throw std::invalid_argument(
            "transformer heads = " + std::to_string(cfg.heads) +
            " is out of range (must divide hidden = " + std::to_string(cfg.hidden) + ")");
    }
    const uint32_t h = cfg.hidden;
    const uint32_t s = cfg.seqLen;
    DnnModel m("gpt-l" + std::to_string(cfg.layers) + "-h" + std::to_string(h));
    m.AddLayer(LayerSpec::Embedding("wte", cfg.vocab, h, s));
    m.AddLayer(LayerSpec::Embedding("wpe", s, h, s));
    for (uint32_t i = 0; i < cfg.layers; ++i)
    {
        const std::string p = "h." + std::to_string(i) + ".";
        m.AddLayer(LayerSpec::LayerNorm(p + "ln_1", h, s));
        m.AddLayer(LayerSpec::Linear(p + "attn.qkv", h, 3 * h, true, s));
        m.AddLayer(LayerSpec::Attention(p + "attn.core", s, h, cfg.heads));
        m.AddLayer(LayerSpec::Linear(p + "attn.proj", h, h, true, s));
        m.AddLayer(LayerSpec::LayerNorm(p + "ln_2", h, s));
        m.AddLayer(LayerSpec::Linear(p + "mlp.fc", h, cfg.mlpRatio * h, true, s));
        m.AddLayer(LayerSpec::Linear(p + "mlp.proj", cfg.mlpRatio * h, h, true, s));
    }
    m.AddLayer(LayerSpec::LayerNorm("ln_f", h, s));
    LayerSpec head = LayerSpec::Linear("lm_head", h, cfg.vocab, false, s);
    if (cfg.tiedEmbedding)
    {
        head.parameters = 0; // shares wte: the compute remains, the parameters are counted once
    }
    m.AddLayer(head);
    return m;
}

DnnModel
ModelZoo::Gpt2Small()
{
    DnnModel m = Transformer(TransformerConfig{});
    m.SetName("gpt2");
    return m;
}

uint64_t
ModelZoo::TransformerParameterCount(uint32_t layers,
                                    uint32_t hidden,
                                    uint32_t heads,
                                    uint32_t vocab,
                                    uint32_t seqLen)
{
    const uint64_t h = hidden;
    return static_cast<uint64_t>(vocab) * h + static_cast<uint64_t>(seqLen) * h +
           layers * (12 * h * h + 13 * h) + 2 * h;
}

std::vector<std::string>
ModelZoo::Names()
{
    return {"vgg16",
            "vgg19",
            "alexnet",
            "resnet50",
            "resnet152",
            "inception_v3",
            "googlenet",
            "gpt2",
            "gpt2-medium",
            "gpt2-large",
            "gpt2-xl",
            "cifarnet",
            "mobilenet_v2",
            "inception_v1",
            "resnet_v1_200",
            "resnet_v2_101",
            "resnet_v2_152"};
}

DnnModel
ModelZoo::Get(const std::string& name)
{
    auto gpt = [&name](uint32_t layers, uint32_t hidden, uint32_t heads) {
        TransformerConfig c;
        c.layers = layers;
        c.hidden = hidden;
        c.heads = heads;
        DnnModel m = Transformer(c);
        m.SetName(name);
        return m;
    };
    if (name == "vgg16")
    {
        return Vgg16();
    }
    if (name == "vgg19")
    {
        return Vgg19();
    }
    if (name == "alexnet")
    {
        return AlexNet();
    }
    if (name == "resnet50")
    {
        return ResNet50();
    }
    if (name == "resnet152")
    {
        return ResNet152();
    }
    if (name == "inception_v3")
    {
        return InceptionV3();
    }
    if (name == "googlenet")
    {
        return GoogLeNet();
    }
    if (name == "cifarnet")
    {
        return CifarNet();
    }
    if (name == "mobilenet_v2")
    {
        return MobileNetV2();
    }
    if (name == "inception_v1")
    {
        return InceptionV1();
    }
    if (name == "resnet_v1_200")
    {
        return ResNetV1_200();
    }
    if (name == "resnet_v2_101")
    {
        return ResNetV2_101();
    }
    if (name == "resnet_v2_152")
    {
        return ResNetV2_152();
    }
    if (name == "gpt2")
    {
        return gpt(12, 768, 12);
    }
    if (name == "gpt2-medium")
    {
        return gpt(24, 1024, 16);
    }
    if (name == "gpt2-large")
    {
        return gpt(36, 1280, 20);
    }
    if (name == "gpt2-xl")
    {
        return gpt(48, 1600, 25);
    }
    std::string all;
    for (const auto& n : Names())
    {
        all += (all.empty() ? "" : ", ") + n;
    }
    throw std::invalid_argument("model name '" + name + "' is not in the zoo (accepted: " + all +
                                ")");
}

} // namespace ns3
