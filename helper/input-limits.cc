/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "input-limits.h"

#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace ns3
{

RealLimit
InputLimits::OfAttribute(TypeId tid, const std::string& attribute)
{
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(attribute, &info))
    {
        throw std::logic_error("InputLimits: " + tid.GetName() + " has no attribute " + attribute);
    }
    // "<type> <lo>:<hi>", e.g. "uint64_t 65536:17179869184"
    const std::string s = info.checker->GetUnderlyingTypeInformation();
    const auto space = s.find(' ');
    const auto colon = s.find(':', space == std::string::npos ? 0 : space);
    if (space != std::string::npos && colon != std::string::npos)
    {
        const std::string lo = s.substr(space + 1, colon - space - 1);
        const std::string hi = s.substr(colon + 1);
        char* end1 = nullptr;
        char* end2 = nullptr;
        const double a = std::strtod(lo.c_str(), &end1);
        const double b = std::strtod(hi.c_str(), &end2);
        if (!lo.empty() && !hi.empty() && *end1 == '\0' && *end2 == '\0')
        {
            return {a, b};
        }
    }
    return {0.0, std::numeric_limits<double>::max()};
}

UintLimit
InputLimits::UintOfAttribute(TypeId tid, const std::string& attribute)
{
    const RealLimit r = OfAttribute(tid, attribute);
    const uint64_t hi =
        r.hi >= 1.8e19 ? std::numeric_limits<uint64_t>::max() : static_cast<uint64_t>(r.hi);
    return {r.lo <= 0 ? 0 : static_cast<uint64_t>(r.lo), hi};
}

uint64_t
InputLimits::Check(uint64_t v, const std::string& what, const UintLimit& limit)
{
    if (v < limit.lo || v > limit.hi)
    {
        throw std::invalid_argument(what + " = " + std::to_string(v) + " is out of range [" +
                                    std::to_string(limit.lo) + ", " + std::to_string(limit.hi) +
                                    "]");
    }
    return v;
}

double
InputLimits::Check(double x, const std::string& what, const RealLimit& limit)
{
    if (!(x >= limit.lo && x <= limit.hi))
    {
        std::ostringstream os;
        os << what << " = " << x << " is out of range [" << limit.lo << ", " << limit.hi << "]";
        throw std::invalid_argument(os.str());
    }
    return x;
}

} // namespace ns3
