/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_UNIT_PARSER_H
#define MLNET_UNIT_PARSER_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The one parser of the quantities users type: rates, times and byte counts, shared by
 * the JSON scenario parser and the Python module so that both accept exactly the same strings.
 *
 * ns-3's own DataRate(std::string) and Time(std::string) abort the process on a string they do
 * not know (and DataRate knows the binary prefixes only in some spellings, e.g. "Gib/s" but not
 * "Gibps"); these functions compute the value themselves and never hand a string to ns-3. Each
 * throws std::invalid_argument whose message says what is accepted, written to follow
 * "<name> = <value>: " (e.g. "must be a rate in [1bps, 1Pbps] like ...").
 *
 * Grammar (whitespace allowed around the number and the unit):
 * - number: digits with an optional fraction and exponent ("100", "2.5", ".5", "1e9");
 * - rate: number, then an optional prefix (k or K = 1e3, M = 1e6, G = 1e9, T = 1e12; Ki or ki
 *   = 2^10, Mi = 2^20, Gi = 2^30, Ti = 2^40), then bps or b/s (bits) or Bps or B/s (bytes);
 *   the result, rounded to whole bit/s, must be in [1 bit/s, 1 Pbit/s];
 * - time: number, then s, ms, us, ns, ps, min or h; finite, >= 0, at most 1e9 s; rounded to
 *   the nanosecond;
 * - byte count: number, then B, KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers
 *   of 1024); rounded to whole bytes, at most 2^62.
 */
class UnitParser
{
  public:
    /// What Rate() accepts, for messages.
    static const char* const RATE_SYNTAX;
    /// What Duration() accepts, for messages.
    static const char* const TIME_SYNTAX;
    /// What Bytes() accepts, for messages.
    static const char* const BYTES_SYNTAX;

    static constexpr double MIN_RATE_BPS = 1.0;  //!< smallest rate (bit/s)
    static constexpr double MAX_RATE_BPS = 1e15; //!< largest rate (bit/s)
    static constexpr double MAX_TIME_S = 1e9;    //!< largest time (s)

    /**
     * \param text e.g. "100Gbps", "40 Mb/s", "1.5e9bps", "10GiB/s"
     * \return the rate in bit/s
     */
    static uint64_t RateBps(const std::string& text);
    /**
     * \param text as RateBps
     * \return the rate
     */
    static DataRate Rate(const std::string& text);
    /**
     * \param text e.g. "5ms", "2.5 us", "1e-6s"
     * \return the time in seconds
     */
    static double Seconds(const std::string& text);
    /**
     * \param text as Seconds
     * \return the time, rounded to the nanosecond
     */
    static Time Duration(const std::string& text);
    /**
     * \param text e.g. "4MB", "64 MiB", "1500B"
     * \return bytes
     */
    static uint64_t Bytes(const std::string& text);
    /**
     * A plain decimal number (the number part of the grammar above, nothing after it).
     * \param text the text
     * \return the number (finite)
     */
    static double Number(const std::string& text);

    /**
     * The shortest decimal form of a number, for messages ("0.2", "1e+06").
     * \param v the number
     * \return its text
     */
    static std::string FormatNumber(double v);
    /**
     * A time for messages in the largest unit that keeps it readable ("1ms", "2.5us", "0ns");
     * Duration() reads it back.
     * \param t the time
     * \return its text
     */
    static std::string FormatTime(Time t);

    /**
     * \param sec seconds (finite, |sec| <= MAX_TIME_S)
     * \return the ns-3 time, rounded to the nearest nanosecond
     */
    static Time FromSeconds(double sec);
};

} // namespace ns3

#endif /* MLNET_UNIT_PARSER_H */
