/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "py-convert.h"

#include <cmath>
#include <map>
#include <regex>
#include <stdexcept>

namespace py = pybind11;
using namespace ns3;

namespace mlnetpy
{

// ---------------------------------------------------------------------------------------------
// Validated parsing of rates and times (ns-3's own parsers abort on bad input)
// ---------------------------------------------------------------------------------------------

/// Parse "100Gbps", "40Mb/s", "1.5e9bps", "10GBps" or a number (bit/s) into bit/s.
double
ParseRate(const py::handle& v, const std::string& what)
{
    if (py::isinstance<py::bool_>(v))
    {
        throw std::invalid_argument(what + ": expected a rate like '100Gbps', got a bool");
    }
    double bps = 0;
    if (py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v))
    {
        bps = v.cast<double>();
    }
    else if (py::isinstance<py::str>(v))
    {
        std::string s = v.cast<std::string>();
        static const std::regex re(
            R"(^\s*((?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)\s*([kKMGT]?)(i?)(bps|b/s|Bps|B/s)\s*$)");
        std::smatch m;
        if (!std::regex_match(s, m, re))
        {
            throw std::invalid_argument(what + ": bad rate '" + s
                                        + "' (expected a number and a unit such as '100Gbps', "
                                          "'40Mb/s', '1.5e9bps', '10GBps')");
        }
        double x = ToDouble(m[1].str(), what);
        std::string prefix = m[2].str();
        bool binary = !m[3].str().empty();
        if (binary && prefix.empty())
        {
            throw std::invalid_argument(what + ": bad rate '" + s + "' ('i' needs a prefix)");
        }
        double base = binary ? 1024.0 : 1000.0;
        int power = 0;
        if (prefix == "k" || prefix == "K")
        {
            power = 1;
        }
        else if (prefix == "M")
        {
            power = 2;
        }
        else if (prefix == "G")
        {
            power = 3;
        }
        else if (prefix == "T")
        {
            power = 4;
        }
        bps = x * std::pow(base, power);
        const std::string unit = m[4].str();
        if (unit == "Bps" || unit == "B/s")
        {
            bps *= 8;
        }
    }
    else
    {
        throw std::invalid_argument(what
                                    + ": expected a rate string like '100Gbps' or a number "
                                      "of bit/s");
    }
    if (!std::isfinite(bps) || bps < 1 || bps > 1e15)
    {
        throw std::invalid_argument(what + ": rate out of range (1 bit/s .. 1 Pbit/s)");
    }
    return bps;
}

/// Parse "1us", "10ms", "2.5 ns" or a number (seconds) into seconds.
double
ParseTime(const py::handle& v, const std::string& what)
{
    if (py::isinstance<py::bool_>(v))
    {
        throw std::invalid_argument(what + ": expected a time like '1us', got a bool");
    }
    double sec = 0;
    if (py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v))
    {
        sec = v.cast<double>();
    }
    else if (py::isinstance<py::str>(v))
    {
        std::string s = v.cast<std::string>();
        static const std::regex re(
            R"(^\s*((?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)\s*(s|ms|us|ns|ps|min|h)\s*$)");
        std::smatch m;
        if (!std::regex_match(s, m, re))
        {
            throw std::invalid_argument(what + ": bad time '" + s
                                        + "' (expected a number and a unit: s, ms, us, ns, ps, "
                                          "min, h; e.g. '1us', '10ms')");
        }
        static const std::map<std::string, double> factor{
            {"s", 1.0},    {"ms", 1e-3},  {"us", 1e-6}, {"ns", 1e-9},
            {"ps", 1e-12}, {"min", 60.0}, {"h", 3600.0}};
        sec = ToDouble(m[1].str(), what) * factor.at(m[2].str());
    }
    else
    {
        throw std::invalid_argument(what
                                    + ": expected a time string like '1us' or a number "
                                      "of seconds");
    }
    if (!std::isfinite(sec) || sec < 0 || sec > 1e6)
    {
        throw std::invalid_argument(what + ": time out of range (0 .. 1e6 s)");
    }
    return sec;
}

/// std::stod that reports overflow as std::invalid_argument (ValueError), not out_of_range.
double
ToDouble(const std::string& s, const std::string& what)
{
    try
    {
        return std::stod(s);
    }
    catch (const std::exception&)
    {
        throw std::invalid_argument(what + ": number '" + s + "' out of range");
    }
}

Time
ToTime(double sec)
{
    return NanoSeconds(static_cast<int64_t>(std::llround(sec * 1e9)));
}

uint64_t
CheckedUint(const py::handle& v, const std::string& what, uint64_t lo, uint64_t hi)
{
    if (py::isinstance<py::bool_>(v) || !py::isinstance<py::int_>(v))
    {
        throw std::invalid_argument(what + ": expected an integer");
    }
    // Python ints may be negative or huge: compare as Python objects first.
    py::int_ i = py::reinterpret_borrow<py::int_>(v);
    if (i < py::int_(lo) || i > py::int_(hi))
    {
        throw std::invalid_argument(what + " = " + std::string(py::str(v)) + " is out of range ["
                                    + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    }
    return i.cast<uint64_t>();
}

} // namespace mlnetpy
