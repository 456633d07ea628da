/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-values.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace ns3
{

namespace
{
uint32_t
FloatBits(float x)
{
    uint32_t b;
    std::memcpy(&b, &x, 4);
    return b;
}

float
BitsFloat(uint32_t b)
{
    float x;
    std::memcpy(&x, &b, 4);
    return x;
}
} // namespace

uint16_t
AggregationValues::FloatToHalf(float x)
{
    uint32_t f = FloatBits(x);
    uint16_t sign = uint16_t((f >> 16) & 0x8000u);
    uint32_t exp = (f >> 23) & 0xffu;
    uint32_t mant = f & 0x7fffffu;
    if (exp == 0xff)
    {
        return uint16_t(sign | 0x7c00u | (mant ? 0x200u : 0u)); // inf or NaN
    }
    int e = int(exp) - 127 + 15;
    if (e >= 0x1f)
    {
        return uint16_t(sign | 0x7c00u); // overflow: infinity
    }
    if (e <= 0)
    {
        // Subnormal half (or zero): shift the full mantissa, round to nearest even.
        if (e < -10)
        {
            return sign;
        }
        mant |= 0x800000u;
        uint32_t shift = uint32_t(14 - e);
        uint32_t half = mant >> shift;
        uint32_t rem = mant & ((1u << shift) - 1);
        uint32_t mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1u)))
        {
            ++half;
        }
        return uint16_t(sign | half);
    }
    uint32_t half = (uint32_t(e) << 10) | (mant >> 13);
    uint32_t rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (half & 1u)))
    {
        ++half; // may carry into the exponent, up to infinity: correct
    }
    return uint16_t(sign | half);
}

float
AggregationValues::HalfToFloat(uint16_t h)
{
    uint32_t sign = uint32_t(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0)
    {
        float v = std::ldexp(float(mant), -24);
        return sign ? -v : v;
    }
    if (exp == 0x1f)
    {
        return BitsFloat(sign | 0x7f800000u | (mant << 13));
    }
    return BitsFloat(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

int32_t
AggregationValues::Quantise(float x, int e)
{
    double q = std::nearbyint(std::ldexp(double(x), e));
    if (q >= double(std::numeric_limits<int32_t>::max()))
    {
        return std::numeric_limits<int32_t>::max();
    }
    if (q <= double(std::numeric_limits<int32_t>::min()))
    {
        return std::numeric_limits<int32_t>::min();
    }
    return int32_t(q);
}

float
AggregationValues::Dequantise(int32_t q, int e)
{
    return float(std::ldexp(double(q), -e));
}

std::vector<uint32_t>
AggregationValues::FromFloats(const std::vector<float>& x, AggElementType type, int e)
{
    std::vector<uint32_t> w(x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
    {
        switch (type)
        {
        case AggElementType::FP32:
            w[i] = FloatBits(x[i]);
            break;
        case AggElementType::FP16:
            w[i] = FloatToHalf(x[i]);
            break;
        case AggElementType::INT32:
            w[i] = uint32_t(Quantise(x[i], e));
            break;
        }
    }
    return w;
}

std::vector<float>
AggregationValues::ToFloats(const std::vector<uint32_t>& w, AggElementType type, int e)
{
    std::vector<float> x(w.size());
    for (std::size_t i = 0; i < w.size(); ++i)
    {
        switch (type)
        {
        case AggElementType::FP32:
            x[i] = BitsFloat(w[i]);
            break;
        case AggElementType::FP16:
            x[i] = HalfToFloat(uint16_t(w[i]));
            break;
        case AggElementType::INT32:
            x[i] = Dequantise(int32_t(w[i]), e);
            break;
        }
    }
    return x;
}

uint32_t
AggregationValues::Add(std::vector<uint32_t>& acc,
                       const std::vector<uint32_t>& add,
                       AggElementType type)
{
    uint32_t overflows = 0;
    const std::size_t n = std::min(acc.size(), add.size());
    for (std::size_t i = 0; i < n; ++i)
    {
        switch (type)
        {
        case AggElementType::FP32:
            acc[i] = FloatBits(BitsFloat(acc[i]) + BitsFloat(add[i]));
            break;
        case AggElementType::FP16:
            acc[i] = FloatToHalf(HalfToFloat(uint16_t(acc[i])) + HalfToFloat(uint16_t(add[i])));
            break;
        case AggElementType::INT32: {
            int64_t s = int64_t(int32_t(acc[i])) + int64_t(int32_t(add[i]));
            if (s > std::numeric_limits<int32_t>::max() || s < std::numeric_limits<int32_t>::min())
            {
                ++overflows;
            }
            acc[i] = uint32_t(acc[i] + add[i]); // wraps like the switch ALU
            break;
        }
        }
    }
    return overflows;
}

void
AggregationValues::Encode(const std::vector<uint32_t>& w, AggElementType type, uint8_t* out)
{
    if (type == AggElementType::FP16)
    {
        for (std::size_t i = 0; i < w.size(); ++i)
        {
            out[2 * i] = uint8_t(w[i] >> 8);
            out[2 * i + 1] = uint8_t(w[i]);
        }
        return;
    }
    for (std::size_t i = 0; i < w.size(); ++i)
    {
        out[4 * i] = uint8_t(w[i] >> 24);
        out[4 * i + 1] = uint8_t(w[i] >> 16);
        out[4 * i + 2] = uint8_t(w[i] >> 8);
        out[4 * i + 3] = uint8_t(w[i]);
    }
}

std::vector<uint32_t>
AggregationValues::Decode(const uint8_t* in, uint32_t n, AggElementType type)
{
    std::vector<uint32_t> w(n);
    if (type == AggElementType::FP16)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            w[i] = (uint32_t(in[2 * i]) << 8) | in[2 * i + 1];
        }
        return w;
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        w[i] = (uint32_t(in[4 * i]) << 24) | (uint32_t(in[4 * i + 1]) << 16) |
               (uint32_t(in[4 * i + 2]) << 8) | in[4 * i + 3];
    }
    return w;
}

} // namespace ns3
