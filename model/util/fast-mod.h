/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FAST_MOD_H
#define MLNET_FAST_MOD_H

#include <cstdint>
#include <stdexcept>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief h % d for a fixed divisor d by two multiplications instead of a division (Lemire,
 * Kaser and Kurz, "Faster remainder by direct computation", 2019): exact for every 32-bit h
 * and every divisor d >= 1. A switch picks an ECMP port this way on every hop: the same port
 * as h % d, without the division's latency.
 */
class FastModulus
{
  public:
    FastModulus() = default;

    /// \param d the divisor, >= 1 \throws std::invalid_argument if d is 0
    explicit FastModulus(uint32_t d)
        : m_mul(d == 0 ? 0 : ~uint64_t(0) / d + 1), // 2^64 / d rounded up (0 when d is 1)
          m_d(d)
    {
        if (d == 0)
        {
            throw std::invalid_argument("FastModulus: the divisor must be >= 1");
        }
    }

    /// \param h a value \return h % d
    uint32_t Mod(uint32_t h) const
    {
        __extension__ typedef unsigned __int128 Uint128;
        const uint64_t low = m_mul * h;
        return uint32_t((Uint128(low) * m_d) >> 64);
    }

    /// \return the divisor
    uint32_t Divisor() const
    {
        return m_d;
    }

  private:
    uint64_t m_mul{0}; //!< 2^64 / d rounded up
    uint32_t m_d{1};   //!< the divisor
};

} // namespace ns3

#endif /* MLNET_FAST_MOD_H */
