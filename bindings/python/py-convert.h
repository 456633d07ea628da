/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_PY_CONVERT_H
#define MLNET_PY_CONVERT_H

// Validated conversions of Python arguments shared by every part of the `mlnet` module.
// ns-3's own parsers abort the process on bad input; these throw std::invalid_argument
// (ValueError in Python) with a message naming the argument and what it accepts.

#include "ns3/nstime.h"

#include <cstdint>
#include <pybind11/pybind11.h>
#include <string>

namespace mlnetpy
{

/**
 * Parse "100Gbps", "40Mb/s", "1.5e9bps", "10GBps" or a number (bit/s) into bit/s.
 * \param v the Python value \param what the argument name for messages
 * \return bit/s in [1, 1e15]
 */
double ParseRate(const pybind11::handle& v, const std::string& what);

/**
 * Parse "1us", "10ms", "2.5 ns" or a number (seconds) into seconds.
 * \param v the Python value \param what the argument name for messages
 * \return seconds in [0, 1e6]
 */
double ParseTime(const pybind11::handle& v, const std::string& what);

/**
 * std::stod that reports overflow as std::invalid_argument (ValueError), not out_of_range.
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

} // namespace mlnetpy

#endif /* MLNET_PY_CONVERT_H */
