/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "unit-parser.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace ns3
{

const char* const UnitParser::RATE_SYNTAX =
    "must be a rate in [1bps, 1Pbps] like \"100Gbps\" (a number, then bps, b/s, Bps or B/s with "
    "an optional prefix k, M, G, T or Ki, Mi, Gi, Ti)";
const char* const UnitParser::TIME_SYNTAX =
    "must be a time like \"5ms\" (a number, then s, ms, us, ns, ps, min or h)";
const char* const UnitParser::BYTES_SYNTAX =
    "must be a byte count like \"4MB\" (a number, then B, KB, MB, GB, TB or KiB, MiB, GiB, TiB)";

namespace
{

bool
IsSpace(char c)
{
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

bool
IsDigit(char c)
{
    return c >= '0' && c <= '9';
}

/**
 * Split "  2.5e3 Gbps " into the number (2500) and the unit ("Gbps"). Hand-written rather than
 * a std::regex: libstdc++'s regex recurses per character and overflows the stack on long input.
 * \param text the text \param syntax the message for a malformed text
 * \return number and unit (empty if none)
 */
std::pair<double, std::string>
Split(const std::string& text, const char* syntax)
{
    const size_t n = text.size();
    size_t i = 0;
    while (i < n && IsSpace(text[i]))
    {
        ++i;
    }
    const size_t begin = i;
    size_t digits = 0;
    while (i < n && IsDigit(text[i]))
    {
        ++i;
        ++digits;
    }
    if (i < n && text[i] == '.')
    {
        ++i;
        while (i < n && IsDigit(text[i]))
        {
            ++i;
            ++digits;
        }
    }
    if (digits == 0)
    {
        throw std::invalid_argument(syntax);
    }
    if (i < n && (text[i] == 'e' || text[i] == 'E'))
    {
        size_t j = i + 1;
        if (j < n && (text[j] == '+' || text[j] == '-'))
        {
            ++j;
        }
        if (j < n && IsDigit(text[j]))
        {
            while (j < n && IsDigit(text[j]))
            {
                ++j;
            }
            i = j;
        }
    }
    const std::string number = text.substr(begin, i - begin);
    const double x = std::strtod(number.c_str(), nullptr); // the grammar above is strtod's
    if (!std::isfinite(x))
    {
        throw std::invalid_argument(syntax);
    }
    while (i < n && IsSpace(text[i]))
    {
        ++i;
    }
    size_t end = n;
    while (end > i && IsSpace(text[end - 1]))
    {
        --end;
    }
    return {x, text.substr(i, end - i)};
}

/// A multiplier from a table of (unit, factor), or 0 if the unit is not in it.
template <size_t N>
double
Factor(const std::pair<const char*, double> (&table)[N], const std::string& unit)
{
    for (const auto& u : table)
    {
        if (unit == u.first)
        {
            return u.second;
        }
    }
    return 0;
}

} // namespace

double
UnitParser::Number(const std::string& text)
{
    const auto [x, unit] = Split(text, "must be a finite decimal number");
    if (!unit.empty())
    {
        throw std::invalid_argument("must be a finite decimal number");
    }
    return x;
}

uint64_t
UnitParser::RateBps(const std::string& text)
{
    const auto [x, unit] = Split(text, RATE_SYNTAX);
    static const std::pair<const char*, double> prefixes[] = {
        {"", 1.0},
        {"k", 1e3},
        {"K", 1e3},
        {"M", 1e6},
        {"G", 1e9},
        {"T", 1e12},
        {"Ki", 1024.0},
        {"ki", 1024.0},
        {"Mi", 1024.0 * 1024},
        {"Gi", 1024.0 * 1024 * 1024},
        {"Ti", 1024.0 * 1024 * 1024 * 1024},
    };
    static const std::pair<const char*, double> units[] = {
        {"bps", 1.0},
        {"b/s", 1.0},
        {"Bps", 8.0},
        {"B/s", 8.0},
    };
    double bps = 0;
    for (const auto& u : units)
    {
        const std::string suffix = u.first;
        if (unit.size() >= suffix.size() &&
            unit.compare(unit.size() - suffix.size(), suffix.size(), suffix) == 0)
        {
            const double prefix = Factor(prefixes, unit.substr(0, unit.size() - suffix.size()));
            bps = x * prefix * u.second;
            break;
        }
    }
    bps = std::round(bps);
    if (!(bps >= MIN_RATE_BPS && bps <= MAX_RATE_BPS))
    {
        throw std::invalid_argument(RATE_SYNTAX);
    }
    return static_cast<uint64_t>(bps);
}

DataRate
UnitParser::Rate(const std::string& text)
{
    return DataRate(RateBps(text));
}

double
UnitParser::Seconds(const std::string& text)
{
    const auto [x, unit] = Split(text, TIME_SYNTAX);
    static const std::pair<const char*, double> units[] = {
        {"s", 1.0},
        {"ms", 1e-3},
        {"us", 1e-6},
        {"ns", 1e-9},
        {"ps", 1e-12},
        {"min", 60.0},
        {"h", 3600.0},
    };
    const double f = Factor(units, unit);
    const double sec = x * f;
    if (f == 0 || !(sec >= 0 && sec <= MAX_TIME_S))
    {
        throw std::invalid_argument(TIME_SYNTAX);
    }
    return sec;
}

Time
UnitParser::Duration(const std::string& text)
{
    return FromSeconds(Seconds(text));
}

uint64_t
UnitParser::Bytes(const std::string& text)
{
    const auto [x, unit] = Split(text, BYTES_SYNTAX);
    static const std::pair<const char*, double> units[] = {
        {"B", 1.0},
        {"KB", 1e3},
        {"MB", 1e6},
        {"GB", 1e9},
        {"TB", 1e12},
        {"KiB", 1024.0},
        {"MiB", 1024.0 * 1024},
        {"GiB", 1024.0 * 1024 * 1024},
        {"TiB", 1024.0 * 1024 * 1024 * 1024},
    };
    const double f = Factor(units, unit);
    const double bytes = std::round(x * f);
    if (f == 0 || !(bytes >= 0 && bytes <= 4.611686018427387904e18)) // 2^62
    {
        throw std::invalid_argument(BYTES_SYNTAX);
    }
    return static_cast<uint64_t>(bytes);
}

Time
UnitParser::FromSeconds(double sec)
{
    if (!std::isfinite(sec) || std::fabs(sec) > MAX_TIME_S)
    {
        throw std::invalid_argument(TIME_SYNTAX);
    }
    return NanoSeconds(static_cast<int64_t>(std::llround(sec * 1e9)));
}

std::string
UnitParser::FormatNumber(double v)
{
    std::ostringstream os;
    os << v;
    return os.str();
}

std::string
UnitParser::FormatTime(Time t)
{
    const int64_t ns = t.GetNanoSeconds();
    const std::pair<int64_t, const char*> units[] = {{1000000000, "s"},
                                                     {1000000, "ms"},
                                                     {1000, "us"}};
    for (const auto& u : units)
    {
        if (ns != 0 && (ns >= u.first || -ns >= u.first))
        {
            return FormatNumber(static_cast<double>(ns) / static_cast<double>(u.first)) + u.second;
        }
    }
    return std::to_string(ns) + "ns";
}

} // namespace ns3
