/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-cc-catalog.h"

#include "ns3/type-id.h"

#include <stdexcept>
#include <utility>

namespace ns3
{

namespace
{
const std::vector<std::pair<std::string, std::string>>&
VariantTable()
{
    static const std::vector<std::pair<std::string, std::string>> v{
        {"dcqcn", "ns3::Dcqcn"},
        {"dcqcn-vendor", "ns3::DcqcnVendor"},
        {"fixed", "ns3::RdmaFixedRate"},
    };
    return v;
}
} // namespace

const std::vector<RdmaCcCatalog::Parameter>&
RdmaCcCatalog::Parameters()
{
    static const std::vector<Parameter> p{
        {"g", "g", "G", false},
        {"initialAlpha", "initial_alpha", "InitialAlpha", false},
        {"alphaTimer", "alpha_timer", "AlphaTimer", false},
        {"rateIncreaseTimer", "rate_increase_timer", "RateIncreaseTimer", false},
        {"fastRecoveryStages", "fast_recovery_stages", "FastRecoveryStages", false},
        {"rateAi", "rate_ai", "RateAI", false},
        {"rateHai", "rate_hai", "RateHAI", false},
        {"minRate", "min_rate", "MinRate", false},
        {"byteCounter", "byte_counter", "ByteCounter", true},
        {"clampTargetRate", "clamp_target_rate", "ClampTargetRate", false},
        {"rateDecreaseInterval", "rate_decrease_interval", "RateDecreaseInterval", false},
        {"rateOnFirstCnp", "rate_on_first_cnp", "RateOnFirstCnp", false},
        {"iterGainSlope", "iter_gain_slope", "IterGainSlope", false},
        {"iterGainIntercept", "iter_gain_intercept", "IterGainIntercept", false},
        {"rate", "rate", "Rate", false},
    };
    return p;
}

std::vector<std::string>
RdmaCcCatalog::Variants()
{
    std::vector<std::string> names;
    for (const auto& v : VariantTable())
    {
        names.push_back(v.first);
    }
    return names;
}

std::string
RdmaCcCatalog::TypeIdOf(const std::string& variant)
{
    std::string accepted;
    for (const auto& v : VariantTable())
    {
        if (v.first == variant)
        {
            return v.second;
        }
        accepted += (accepted.empty() ? "" : ", ") + v.first;
    }
    throw std::invalid_argument("congestion control '" + variant +
                                "': unknown (accepted: " + accepted + ")");
}

std::string
RdmaCcCatalog::VariantOf(const std::string& typeId)
{
    for (const auto& v : VariantTable())
    {
        if (v.second == typeId)
        {
            return v.first;
        }
    }
    return "";
}

const RdmaCcCatalog::Parameter*
RdmaCcCatalog::Find(const std::string& key)
{
    if (key == "timer")
    {
        return Find("RateIncreaseTimer"); // the Python bindings' short form
    }
    for (const Parameter& p : Parameters())
    {
        if (p.jsonKey == key || p.pythonKey == key || p.attribute == key)
        {
            return &p;
        }
    }
    return nullptr;
}

std::vector<RdmaCcCatalog::Parameter>
RdmaCcCatalog::ParametersOf(const std::string& typeId)
{
    const TypeId tid = TypeId::LookupByName(typeId);
    std::vector<Parameter> out;
    for (const Parameter& p : Parameters())
    {
        TypeId::AttributeInformation info;
        if (tid.LookupAttributeByName(p.attribute, &info))
        {
            out.push_back(p);
        }
    }
    return out;
}

} // namespace ns3
