/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "tx-time-accumulator.h"

#include <stdexcept>

namespace
{
/// 128-bit products of bits x time steps; __extension__ keeps -Wpedantic quiet (ns-3 in-tree
/// builds compile modules with -Wpedantic, and --enable-werror would turn it into an error).
__extension__ typedef unsigned __int128 Uint128;
} // namespace

namespace ns3
{

void
TxTimeAccumulator::CheckRate(uint64_t rateBps)
{
    if (rateBps == 0)
    {
        throw std::invalid_argument("TxTimeAccumulator: rate must be > 0 bit/s");
    }
}

TxTimeAccumulator::Split
TxTimeAccumulator::Divide(uint64_t bits, uint64_t rateBps)
{
    CheckRate(rateBps);
    // Time steps per second at the current resolution (1e9 for ns, 1e12 for ps): the exact
    // duration is bits x stepsPerSecond / rate steps. 128-bit so that no resolution overflows.
    const auto stepsPerSecond = static_cast<Uint128>(Seconds(1).GetTimeStep());
    const Uint128 num = static_cast<Uint128>(bits) * stepsPerSecond;
    Split s;
    s.bits = bits;
    s.steps = static_cast<uint64_t>(num / rateBps);
    s.rem = static_cast<uint64_t>(num % rateBps);
    return s;
}

const TxTimeAccumulator::Split&
TxTimeAccumulator::Miss(uint64_t bits) const
{
    m_memo[1] = m_memo[0];
    m_memo[0] = Divide(bits, m_rate);
    return m_memo[0];
}

void
TxTimeAccumulator::Rescale(uint64_t rateBps)
{
    CheckRate(rateBps);
    // carry < m_rate, so the product fits in 128 bits; a fresh accumulator carries 0.
    m_carry = static_cast<uint64_t>(static_cast<Uint128>(m_carry) * rateBps / m_rate);
    m_rate = rateBps;
    m_memo[0] = Split();
    m_memo[1] = Split();
}

Time
TxTimeAccumulator::Peek(uint64_t bits, uint64_t rateBps) const
{
    if (rateBps == m_rate)
    {
        return TimeStep(Lookup(bits).steps);
    }
    return TimeStep(Divide(bits, rateBps).steps);
}

void
TxTimeAccumulator::Reset()
{
    m_carry = 0;
}

uint64_t
TxTimeAccumulator::GetCarry() const
{
    return m_carry;
}

} // namespace ns3
