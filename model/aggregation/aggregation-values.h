/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_AGGREGATION_VALUES_H
#define MLNET_AGGREGATION_VALUES_H

#include "aggregation-header.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Element arithmetic of the aggregation datapath: wire encoding (network byte order) of
 * FP32, FP16 and INT32 elements, element-wise addition as the hardware does it, and the
 * fixed-point quantisation of SwitchML (x -> round(x * 2^e) as int32).
 *
 * Accumulators hold one 32-bit word per element: the binary32 bits for FP32, the binary16 bits
 * (low half) for FP16, the two's-complement value for INT32. FP16 addition converts both
 * operands to binary32, adds, and rounds back to binary16 (round to nearest even), as an FP16
 * adder does. INT32 addition wraps around like the switch ALU and reports the overflow.
 */
class AggregationValues
{
  public:
    /// \return binary16 bits of x (round to nearest even; overflow to infinity)
    static uint16_t FloatToHalf(float x);
    /// \return the binary32 value of binary16 bits h
    static float HalfToFloat(uint16_t h);

    /**
     * Quantise to int32 as SwitchML does: round(x * 2^e), saturated to the int32 range.
     * \param x value \param e scaling exponent
     * \return the fixed-point value
     */
    static int32_t Quantise(float x, int e);
    /// \return q * 2^-e as float
    static float Dequantise(int32_t q, int e);

    /**
     * Convert floats into accumulator words of a type.
     * \param x values \param type element type \param e scaling exponent (INT32)
     * \return one word per element
     */
    static std::vector<uint32_t> FromFloats(const std::vector<float>& x,
                                            AggElementType type,
                                            int e = 0);
    /// \return floats from accumulator words (inverse of FromFloats, up to rounding)
    static std::vector<float> ToFloats(const std::vector<uint32_t>& w,
                                       AggElementType type,
                                       int e = 0);

    /**
     * acc[i] += add[i] for every element, in the arithmetic of the type.
     * \param acc accumulator words \param add addend words (same size) \param type element type
     * \return number of INT32 overflows (0 for the floating-point types)
     */
    static uint32_t Add(std::vector<uint32_t>& acc,
                        const std::vector<uint32_t>& add,
                        AggElementType type);

    /**
     * Write words as wire bytes (network order, AggElementBytes(type) per element).
     * \param w words \param type element type \param out destination (w.size() * bytes)
     */
    static void Encode(const std::vector<uint32_t>& w, AggElementType type, uint8_t* out);
    /// \return words decoded from n elements of wire bytes
    static std::vector<uint32_t> Decode(const uint8_t* in, uint32_t n, AggElementType type);
};

} // namespace ns3

#endif /* MLNET_AGGREGATION_VALUES_H */
