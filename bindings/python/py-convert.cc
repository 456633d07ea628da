/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "py-convert.h"

#include "ns3/unit-parser.h"

#include <cmath>
#include <sstream>
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
    if (py::isinstance<py::str>(v))
    {
        const std::string s = v.cast<std::string>();
        try
        {
            return static_cast<double>(UnitParser::RateBps(s));
        }
        catch (const std::invalid_argument& e)
        {
            throw std::invalid_argument(what + " = '" + s + "': " + e.what());
        }
    }
    if (py::isinstance<py::bool_>(v) ||
        !(py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v)))
    {
        throw std::invalid_argument(what + ": expected a rate string like '100Gbps' or a number "
                                           "of bit/s");
    }
    const double bps = std::round(v.cast<double>());
    if (!(bps >= UnitParser::MIN_RATE_BPS && bps <= UnitParser::MAX_RATE_BPS))
    {
        throw std::invalid_argument(what + " = " + std::string(py::str(v)) + ": " +
                                    UnitParser::RATE_SYNTAX);
    }
    return bps;
}

/// Parse "1us", "10ms", "2.5 ns" or a number (seconds) into seconds.
double
ParseTime(const py::handle& v, const std::string& what)
{
    double sec = 0;
    if (py::isinstance<py::str>(v))
    {
        const std::string s = v.cast<std::string>();
        try
        {
            sec = UnitParser::Seconds(s);
        }
        catch (const std::invalid_argument& e)
        {
            throw std::invalid_argument(what + " = '" + s + "': " + e.what());
        }
    }
    else if (py::isinstance<py::bool_>(v) ||
             !(py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v)))
    {
        throw std::invalid_argument(what + ": expected a time string like '1us' or a number "
                                           "of seconds");
    }
    else
    {
        sec = v.cast<double>();
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
        return UnitParser::Number(s);
    }
    catch (const std::invalid_argument&)
    {
        throw std::invalid_argument(what + ": '" + s + "' is not a finite decimal number");
    }
}

Time
ToTime(double sec)
{
    return UnitParser::FromSeconds(sec);
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
        throw std::invalid_argument(what + " = " + std::string(py::str(v)) + " is out of range [" +
                                    std::to_string(lo) + ", " + std::to_string(hi) + "]");
    }
    return i.cast<uint64_t>();
}

uint64_t
CheckedUint(const py::handle& v, const std::string& what, const UintLimit& limit)
{
    return CheckedUint(v, what, limit.lo, limit.hi);
}

double
CheckedReal(double x, const std::string& what, const RealLimit& limit)
{
    return InputLimits::Check(x, what, limit);
}

namespace
{
// Read and written only with the GIL held, so no further locking is needed.
bool g_running = false;
std::string g_runningWhat;
const void* g_owner = nullptr;
} // namespace

void
SimulatorGuard::CheckIdle(const std::string& what)
{
    if (g_running)
    {
        throw std::runtime_error(
            what + ": the simulation is running in another thread (in " + g_runningWhat +
            "); ns-3 has one global simulator that is not thread-safe: wait until that call "
            "returns (see 'Threads' in doc/python.rst)");
    }
}

void
SimulatorGuard::CheckFree(const std::string& what)
{
    CheckIdle(what);
    if (g_owner != nullptr)
    {
        throw std::invalid_argument(what + " needs the simulator: close the live "
                                           "mlnet.Simulation first");
    }
}

void
SimulatorGuard::SetOwner(const void* owner)
{
    g_owner = owner;
}

const void*
SimulatorGuard::Owner()
{
    return g_owner;
}

SimulatorGuard::Running::Running(const std::string& what)
{
    CheckIdle(what);
    g_running = true;
    g_runningWhat = what;
}

SimulatorGuard::Running::~Running()
{
    g_running = false;
}

} // namespace mlnetpy
