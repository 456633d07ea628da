/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_PY_CONVERT_H
#define MLNET_PY_CONVERT_H

// Validated conversions of Python arguments shared by every part of the `mlnet` module.
// ns-3's own parsers abort the process on bad input; these throw std::invalid_argument
// (ValueError in Python) with a message naming the argument and what it accepts.

#include "ns3/input-limits.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <pybind11/pybind11.h>
#include <string>

namespace mlnetpy
{

/**
 * Parse a rate string (ns3::UnitParser, the parser of the JSON scenarios too: "100Gbps",
 * "40Mb/s", "1.5e9bps", "10GiBps") or a number (bit/s) into bit/s.
 * \param v the Python value \param what the argument name for messages
 * \return bit/s in [1, 1e15]
 */
double ParseRate(const pybind11::handle& v, const std::string& what);

/**
 * Parse a time string (ns3::UnitParser: "1us", "10ms", "2.5 ns") or a number (seconds) into
 * seconds.
 * \param v the Python value \param what the argument name for messages
 * \return seconds in [0, 1e6]
 */
double ParseTime(const pybind11::handle& v, const std::string& what);

/**
 * A decimal number (ns3::UnitParser::Number); std::invalid_argument (ValueError) if malformed
 * or out of range.
 * \param s the text \param what the argument name for messages
 * \return the number
 */
double ToDouble(const std::string& s, const std::string& what);

/**
 * \param sec seconds
 * \return the ns-3 time, rounded to the nearest nanosecond
 */
ns3::Time ToTime(double sec);

/**
 * A Python int in [lo, hi] (bools rejected).
 * \param v the Python value \param what the argument name \param lo smallest \param hi largest
 * \return the value
 */
uint64_t CheckedUint(const pybind11::handle& v, const std::string& what, uint64_t lo, uint64_t hi);

/**
 * A Python int in a range of the shared table ns3::InputLimits.
 * \param v the Python value \param what the argument name \param limit the range
 * \return the value
 */
uint64_t CheckedUint(const pybind11::handle& v,
                     const std::string& what,
                     const ns3::UintLimit& limit);

/**
 * Check a number against a range of the shared table ns3::InputLimits (NaN rejected).
 * \param x the value \param what the argument name \param limit the range
 * \return x
 */
double CheckedReal(double x, const std::string& what, const ns3::RealLimit& limit);

/**
 * ns-3 has one global simulator, and it is not thread-safe. Python calls that run it release
 * the GIL meanwhile, so another Python thread could reach it during a run: every entry point
 * that uses the simulator calls CheckIdle() first (under the GIL), and the ones that run it
 * hold a Running object for the duration of the run. A call from another thread during a run
 * then raises RuntimeError instead of corrupting the simulator. Also records which Python
 * object owns the simulator (a live mlnet.Simulation), so other entry points refuse to
 * destroy it.
 */
class SimulatorGuard
{
  public:
    /**
     * Throw std::runtime_error (RuntimeError) if a run is in progress in another thread.
     * \param what the Python call, for the message
     */
    static void CheckIdle(const std::string& what);
    /**
     * CheckIdle(), and also refuse if a live mlnet.Simulation owns the simulator.
     * \param what the Python call, for the message
     */
    static void CheckFree(const std::string& what);
    /// \param owner the object that now owns the simulator (nullptr: none)
    static void SetOwner(const void* owner);
    /// \return the object that owns the simulator (nullptr: none)
    static const void* Owner();

    /// Marks the simulator running while it exists (construct it before releasing the GIL).
    class Running
    {
      public:
        /// \param what the Python call; CheckIdle() first
        explicit Running(const std::string& what);
        ~Running();
        Running(const Running&) = delete;
        Running& operator=(const Running&) = delete;
    };
};

} // namespace mlnetpy

#endif /* MLNET_PY_CONVERT_H */
