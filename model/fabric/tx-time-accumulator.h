/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_TX_TIME_ACCUMULATOR_H
#define MLNET_TX_TIME_ACCUMULATOR_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Exact serialisation times on the simulator's time grid: converts "bits at a bit rate"
 * into time steps, rounding each duration down and carrying the remainder (an exact integer
 * fraction of a time step) into the next one.
 *
 * A 1066-byte frame at 400 Gb/s lasts 21.32 ns; with ns-3's default nanosecond resolution a
 * plain conversion rounds it to 21 ns and the link carries 406 Gb/s. With the carry, n
 * back-to-back frames end at exactly floor(n x 21.32 ns): the long-run rate is the nominal one
 * at every rate and every time resolution, with no global Time::SetResolution call, and each
 * frame ends within one time step of its exact end.
 *
 * The per-call cost is an addition and a comparison: quotient and remainder of the last two
 * frame sizes at the current rate are memoised (the divisions happen only when the frame size
 * or the rate changes), in one cache line with the carry. When the rate changes the carried
 * fraction is rescaled to the new rate.
 */
class TxTimeAccumulator
{
  public:
    /**
     * Duration of the next transmission, carrying the remainder into the following one.
     * \param bits bits to transmit
     * \param rateBps rate in bit/s, > 0
     * \return the duration, rounded down or up to the time resolution so that the sum over
     *         consecutive calls is the exact sum rounded down
     * \throws std::invalid_argument if rateBps is 0
     */
    Time Next(uint64_t bits, uint64_t rateBps)
    {
        if (rateBps != m_rate)
        {
            Rescale(rateBps);
        }
        const Split& s = Lookup(bits);
        m_carry += s.rem; // both < rate, so no overflow below 2^63 bit/s
        // Branch-free: whether the carry wraps follows no pattern a predictor learns.
        const uint64_t wrap = m_carry >= rateBps;
        m_carry -= wrap * rateBps;
        return TimeStep(s.steps + wrap);
    }

    /**
     * Duration of a transmission rounded down to the time resolution, without carry (the
     * accumulator is not advanced).
     * \param bits bits to transmit \param rateBps rate in bit/s, > 0
     * \return the duration
     * \throws std::invalid_argument if rateBps is 0
     */
    Time Peek(uint64_t bits, uint64_t rateBps) const;

    /// Forget the carried remainder (the next transmission starts on the time grid).
    void Reset();

    /// \return the carried remainder in units of 1/rate of a time step (for tests)
    uint64_t GetCarry() const;

  private:
    /// Quotient (whole time steps) and remainder (in 1/rate time steps) of bits x steps/s / rate.
    struct Split
    {
        uint64_t bits{0};
        uint64_t steps{0};
        uint64_t rem{0};
    };

    /**
     * \param bits bits \param rateBps rate in bit/s
     * \return their split \throws std::invalid_argument if rateBps is 0
     */
    static Split Divide(uint64_t bits, uint64_t rateBps);

    /// \param bits bits at m_rate \return their split, from the memo if there
    const Split& Lookup(uint64_t bits) const
    {
        // The entry is chosen without a branch (a port alternating data and ACK frames would
        // mispredict a search); only a miss branches.
        const Split& s = m_memo[m_memo[1].bits == bits];
        if (s.bits == bits)
        {
            return s;
        }
        return Miss(bits);
    }

    /// \param bits bits at m_rate \return their split, now the memo's first entry
    const Split& Miss(uint64_t bits) const;
    /// \param rateBps the new rate: rescale the carry, empty the memo
    /// \throws std::invalid_argument if rateBps is 0
    void Rescale(uint64_t rateBps);
    /// \param rateBps a rate \throws std::invalid_argument if it is 0
    static void CheckRate(uint64_t rateBps);

    /// m_rate before the first call: no caller's rate (0 is rejected, 2^64 - 1 bit/s is not a
    /// link), so the first call rescales, and a rate of 0 is rejected there.
    static constexpr uint64_t kNoRate = ~uint64_t(0);

    // One cache line (a device reads it per frame).
    uint64_t m_rate{kNoRate}; //!< rate of the carry and of the memo
    uint64_t m_carry{0};      //!< carried fraction of a time step, in 1/m_rate units
    mutable Split m_memo[2];  //!< the two most recent frame sizes at m_rate, newest first; an
                              //!< empty entry is the split of 0 bits, which is right
};

} // namespace ns3

#endif /* MLNET_TX_TIME_ACCUMULATOR_H */
