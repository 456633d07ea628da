/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "layer-spec.h"

#include <stdexcept>

namespace ns3
{

namespace
{

void
RequireAtLeast(uint64_t value, uint64_t min, const std::string& param, const std::string& layer)
{
    if (value < min)
    {
        throw std::invalid_argument("layer '" + layer + "': " + param + " = " +
                                    std::to_string(value) +
                                    " is out of range (must be >= " + std::to_string(min) + ")");
    }
}

} // namespace

std::string
LayerKindName(LayerKind kind)
{
    switch (kind)
    {
    case LayerKind::Conv:
        return "conv";
    case LayerKind::Linear:
        return "fc";
    case LayerKind::BatchNorm:
        return "bn";
    case LayerKind::LayerNorm:
        return "ln";
    case LayerKind::Embedding:
        return "embedding";
    case LayerKind::Attention:
        return "attention";
    case LayerKind::Pool:
        return "pool";
    case LayerKind::Activation:
        return "activation";
    case LayerKind::Custom:
        return "custom";
    }
    return "custom";
}

bool
LayerSpec::HasMeasuredTimes() const
{
    return measuredForwardSeconds >= 0.0 && measuredBackwardSeconds >= 0.0;
}

uint32_t
ConvOutputSize(uint32_t in, uint32_t k, uint32_t stride, uint32_t pad, bool ceilMode)
{
    if (stride == 0)
    {
        throw std::invalid_argument("stride = 0 is out of range (must be >= 1)");
    }
    const uint64_t padded = static_cast<uint64_t>(in) + 2ULL * pad;
    if (k == 0 || k > padded)
    {
        throw std::invalid_argument(
            "kernel size = " + std::to_string(k) +
            " is out of range (must be in [1, input + 2 x pad = " + std::to_string(padded) + "])");
    }
    uint64_t span = padded - k;
    uint64_t out = (ceilMode ? (span + stride - 1) / stride : span / stride) + 1;
    // PyTorch: with ceil_mode the last window must start inside the input or left padding
    if (ceilMode && (out - 1) * stride >= static_cast<uint64_t>(in) + pad)
    {
        --out;
    }
    return static_cast<uint32_t>(out);
}

LayerSpec
LayerSpec::Conv2d(const std::string& name,
                  uint32_t in,
                  uint32_t out,
                  uint32_t k,
                  uint32_t stride,
                  uint32_t pad,
                  bool bias,
                  uint32_t inH,
                  uint32_t inW)
{
    return Conv2dRect(name, in, out, k, k, stride, stride, pad, pad, bias, inH, inW);
}

LayerSpec
LayerSpec::Conv2dRect(const std::string& name,
                      uint32_t in,
                      uint32_t out,
                      uint32_t kH,
                      uint32_t kW,
                      uint32_t strideH,
                      uint32_t strideW,
                      uint32_t padH,
                      uint32_t padW,
                      bool bias,
                      uint32_t inH,
                      uint32_t inW)
{
    RequireAtLeast(in, 1, "in", name);
    RequireAtLeast(out, 1, "out", name);
    RequireAtLeast(kH, 1, "kernel height", name);
    RequireAtLeast(kW, 1, "kernel width", name);
    RequireAtLeast(strideH, 1, "stride", name);
    RequireAtLeast(strideW, 1, "stride", name);
    RequireAtLeast(inH, 1, "inH", name);
    RequireAtLeast(inW, 1, "inW", name);
    LayerSpec l;
    l.name = name;
    l.kind = LayerKind::Conv;
    l.outChannels = out;
    l.outHeight = ConvOutputSize(inH, kH, strideH, padH);
    l.outWidth = ConvOutputSize(inW, kW, strideW, padW);
    const uint64_t weights = static_cast<uint64_t>(out) * in * kH * kW;
    l.parameters = weights + (bias ? out : 0);
    l.outputElements = static_cast<uint64_t>(out) * l.outHeight * l.outWidth;
    l.forwardMacs = static_cast<double>(weights) * l.outHeight * l.outWidth;
    l.forwardFlops = 2.0 * l.forwardMacs + (bias ? static_cast<double>(l.outputElements) : 0.0);
    return l;
}

LayerSpec
LayerSpec::DepthwiseConv2d(const std::string& name,
                           uint32_t channels,
                           uint32_t k,
                           uint32_t stride,
                           uint32_t pad,
                           bool bias,
                           uint32_t inH,
                           uint32_t inW)
{
    RequireAtLeast(channels, 1, "channels", name);
    RequireAtLeast(k, 1, "kernel size", name);
    RequireAtLeast(stride, 1, "stride", name);
    RequireAtLeast(inH, 1, "inH", name);
    RequireAtLeast(inW, 1, "inW", name);
    LayerSpec l;
    l.name = name;
    l.kind = LayerKind::Conv;
    l.outChannels = channels;
    l.outHeight = ConvOutputSize(inH, k, stride, pad);
    l.outWidth = ConvOutputSize(inW, k, stride, pad);
    const uint64_t weights = static_cast<uint64_t>(channels) * k * k;
    l.parameters = weights + (bias ? channels : 0);
    l.outputElements = static_cast<uint64_t>(channels) * l.outHeight * l.outWidth;
    l.forwardMacs = static_cast<double>(weights) * l.outHeight * l.outWidth;
    l.forwardFlops = 2.0 * l.forwardMacs + (bias ? static_cast<double>(l.outputElements) : 0.0);
    return l;
}

LayerSpec
LayerSpec::Linear(const std::string& name, uint32_t in, uint32_t out, bool bias, uint32_t tokens)
{
    RequireAtLeast(in, 1, "in", name);
    RequireAtLeast(out, 1, "out", name);
    RequireAtLeast(tokens, 1, "tokens", name);
    LayerSpec l;
    l.name = name;
    l.kind = LayerKind::Linear;
    const uint64_t weights = static_cast<uint64_t>(in) * out;
    l.parameters = weights + (bias ? out : 0);
    l.outputElements = static_cast<uint64_t>(out) * tokens;
    l.forwardMacs = static_cast<double>(weights) * tokens;
    l.forwardFlops = 2.0 * l.forwardMacs + (bias ? static_cast<double>(l.outputElements) : 0.0);
    return l;
}

LayerSpec
LayerSpec::BatchNorm2d(const std::string& name, uint32_t channels, uint32_t h, uint32_t w)
{
    RequireAtLeast(channels, 1, "channels", name);
    RequireAtLeast(h, 1, "h", name);
    RequireAtLeast(w, 1, "w", name);
    LayerSpec l;
    l.name = name;
    l.kind = LayerKind::BatchNorm;
    l.parameters = 2ULL * channels;
    l.outChannels = channels;
    l.outHeight = h;
    l.outWidth = w;
    l.outputElements = static_cast<uint64_t>(channels) * h * w;
    l.forwardFlops = 2.0 * l.outputElements;
    return l;
}

LayerSpec
LayerSpec::LayerNorm(const std::string& name, uint32_t hidden, uint32_t tokens)
{
    RequireAtLeast(hidden, 1, "hidden", name);
    RequireAtLeast(tokens, 1, "tokens", name);
    LayerSpec l;
    l.name = name;
    l.kind = LayerKind::LayerNorm;
    l.parameters = 2ULL * hidden;
    l.outputElements = static_cast<uint64_t>(hidden) * tokens;
    l.forwardFlops = 5.0 * l.outputElements;
    return l;
}

LayerSpec
LayerSpec::Embedding(const std::string& name, uint32_t rows, uint32_t dim, uint32_t tokens)
{
    RequireAtLeast(rows, 1, "rows", name);
    RequireAtLeast(dim, 1, "dim", name);
    RequireAtLeast(tokens, 1, "tokens", name);
    LayerSpec l;
    l.name = name;
    l.kind = LayerKind::Embedding;
    l.parameters = static_cast<uint64_t>(rows) * dim;
    l.outputElements = static_cast<uint64_t>(dim) * tokens;
    l.forwardFlops = 0.0; // a gather: memory bound, no arithmetic
    return l;
}

LayerSpec
LayerSpec::Pool2d(const std::string& name,
                  uint32_t channels,
                  uint32_t k,
                  uint32_t stride,
                  uint32_t pad,
                  uint32_t inH,
                  uint32_t inW,
                  bool ceilMode)
{
    RequireAtLeast(channels, 1, "channels", name);
    RequireAtLeast(k, 1, "kernel size", name);
    RequireAtLeast(stride, 1, "stride", name);
    RequireAtLeast(inH, 1, "inH", name);
    RequireAtLeast(inW, 1, "inW", name);
    LayerSpec l;
    l.name = name;
    l.kind = LayerKind::Pool;
    l.outChannels = channels;
    l.outHeight = ConvOutputSize(inH, k, stride, pad, ceilMode);
    l.outWidth = ConvOutputSize(inW, k, stride, pad, ceilMode);
    l.outputElements = static_cast<uint64_t>(channels) * l.outHeight * l.outWidth;
    l.forwardFlops = static_cast<double>(l.outputElements) * k * k;
    return l;
}

LayerSpec
LayerSpec::AdaptiveAvgPool2d(const std::string& name,
                             uint32_t channels,
                             uint32_t inH,
                             uint32_t inW,
                             uint32_t outH,
                             uint32_t outW)
{
    RequireAtLeast(channels, 1, "channels", name);
    RequireAtLeast(outH, 1, "outH", name);
    RequireAtLeast(outW, 1, "outW", name);
    RequireAtLeast(inH, 1, "inH", name);
    RequireAtLeast(inW, 1, "inW", name);
    LayerSpec l;
    l.name = name;
    l.kind = LayerKind::Pool;
    l.outChannels = channels;
    l.outHeight = outH;
    l.outWidth = outW;
    l.outputElements = static_cast<uint64_t>(channels) * outH * outW;
    l.forwardFlops = static_cast<double>(channels) * inH * inW; // every input summed once
    return l;
}

LayerSpec
LayerSpec::Attention(const std::string& name, uint32_t seqLen, uint32_t hidden, uint32_t heads)
{
    RequireAtLeast(seqLen, 1, "seqLen", name);
    RequireAtLeast(hidden, 1, "hidden", name);
    RequireAtLeast(heads, 1, "heads", name);
    if (hidden % heads != 0)
    {
        throw std::invalid_argument(
            "layer '" + name + "': heads = " + std::to_string(heads) +
            " is out of range (must divide hidden = " + std::to_string(hidden) + ")");
    }
    LayerSpec l;
    l.name = name;
    l.kind = LayerKind::Attention;
    const double s = seqLen;
    l.forwardMacs = 2.0 * s * s * hidden; // QK^T and scores x V, all heads together
    l.forwardFlops = 2.0 * l.forwardMacs + 5.0 * s * s * heads;
    l.outputElements = static_cast<uint64_t>(seqLen) * hidden;
    return l;
}

LayerSpec
LayerSpec::Custom(const std::string& name,
                  uint64_t parameters,
                  double forwardFlops,
                  uint64_t outputElements)
{
    if (!(forwardFlops >= 0.0))
    {
        throw std::invalid_argument("layer '" + name +
                                    "': forwardFlops is out of range (must be >= 0)");
    }
    LayerSpec l;
    l.name = name;
    l.kind = LayerKind::Custom;
    l.parameters = parameters;
    l.forwardFlops = forwardFlops;
    l.outputElements = outputElements;
    return l;
}

} // namespace ns3
