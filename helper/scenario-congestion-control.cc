/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-congestion-control.h"

#include "scenario-extension.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/dcqcn-profile.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/rdma-cc-catalog.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <limits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioCongestionControl");

namespace
{

/// The top-level "cc" section: the scenario's default (installs nothing).
class CcDefaultSpec : public TrafficSpec
{
  public:
    CongestionControlConfig cc;

    void Install(TrafficContext&) const override
    {
    }
};

/// Read one parameter's value in the form its attribute takes.
Ptr<AttributeValue>
ReadValue(ScenarioObject& block, const RdmaCcCatalog::Parameter& p, const TypeId& tid)
{
    TypeId::AttributeInformation info;
    tid.LookupAttributeByName(p.attribute, &info);
    // "DataRateValue", "ns3::TimeValue", ...: some checkers name their namespace, some not.
    std::string type = info.checker->GetValueTypeName();
    if (type.rfind("ns3::", 0) != 0)
    {
        type = "ns3::" + type;
    }
    const std::string& key = p.jsonKey;
    if (type == "ns3::DataRateValue")
    {
        return Create<DataRateValue>(block.Rate(key, std::nullopt));
    }
    if (type == "ns3::TimeValue")
    {
        return Create<TimeValue>(block.Duration(key, Time(0), Seconds(1000), std::nullopt));
    }
    if (type == "ns3::BooleanValue")
    {
        return Create<BooleanValue>(block.Bool(key, std::nullopt));
    }
    if (type == "ns3::UintegerValue")
    {
        const uint64_t hi = std::numeric_limits<uint64_t>::max();
        return Create<UintegerValue>(p.bytes ? block.Bytes(key, 0, hi, std::nullopt)
                                             : block.Uint(key, 0, hi, std::nullopt));
    }
    const double big = std::numeric_limits<double>::max();
    return Create<DoubleValue>(block.Double(key, -big, big, std::nullopt));
}

CongestionControlConfig
ParseSection(ScenarioObject& section, const ScenarioConfig&)
{
    return CongestionControlConfig::ParseObject(section, CongestionControlConfig());
}

ScenarioSectionRegistry::Registrar g_ccSection(
    "cc",
    [](ScenarioObject& section, const ScenarioConfig& cfg) {
        auto spec = std::make_shared<CcDefaultSpec>();
        spec->cc = ParseSection(section, cfg);
        return spec;
    },
    "variant");

} // namespace

std::string
CongestionControlConfig::TypeIdName() const
{
    return RdmaCcCatalog::TypeIdOf(variant);
}

CongestionControlConfig
CongestionControlConfig::ParseObject(ScenarioObject& block, const CongestionControlConfig& base)
{
    CongestionControlConfig out;
    out.variant = block.Choice("variant", RdmaCcCatalog::Variants(), base.variant);
    if (out.variant == base.variant)
    {
        out.attributes = base.attributes; // inherit the scenario default's parameters
    }
    const ns3::TypeId tid = ns3::TypeId::LookupByName(out.TypeIdName());
    ObjectFactory f;
    f.SetTypeId(tid);
    Ptr<RdmaCongestionOps> probe = f.Create<RdmaCongestionOps>();
    for (const RdmaCcCatalog::Parameter& p : RdmaCcCatalog::ParametersOf(tid.GetName()))
    {
        if (!block.Has(p.jsonKey))
        {
            block.Raw(p.jsonKey); // accepted, not set
            continue;
        }
        Ptr<AttributeValue> value = ReadValue(block, p, tid);
        TypeId::AttributeInformation info;
        tid.LookupAttributeByName(p.attribute, &info);
        if (!info.checker->Check(*value))
        {
            block.Fail(p.jsonKey,
                       "rejected by " + tid.GetName() + "::" + p.attribute + " (" + info.help +
                           ")");
        }
        try
        {
            probe->SetAttributeChecked(p.attribute, *value); // the setters' own range checks
        }
        catch (const std::invalid_argument& e)
        {
            block.Fail(p.jsonKey, e.what());
        }
        bool replaced = false;
        for (auto& kv : out.attributes)
        {
            if (kv.first == p.attribute)
            {
                kv.second = value;
                replaced = true;
            }
        }
        if (!replaced)
        {
            out.attributes.emplace_back(p.attribute, value);
        }
    }
    block.Finish();
    return out;
}

CongestionControlConfig
CongestionControlConfig::Parse(ScenarioObject& in,
                               const std::string& key,
                               const ScenarioConfig& cfg)
{
    const CongestionControlConfig& def = ScenarioDefault(cfg);
    const nlohmann::json& raw = in.Raw(key);
    if (raw.is_null())
    {
        return def;
    }
    if (raw.is_string())
    {
        CongestionControlConfig out;
        out.variant = in.Choice(key, RdmaCcCatalog::Variants(), std::nullopt);
        if (out.variant == def.variant)
        {
            out.attributes = def.attributes;
        }
        return out;
    }
    if (!raw.is_object())
    {
        in.Fail(
            key,
            "must be a variant name (" +
                [] {
                    std::string s;
                    for (const std::string& v : RdmaCcCatalog::Variants())
                    {
                        s += (s.empty() ? "" : ", ") + v;
                    }
                    return s;
                }() +
                ") or an object {\"variant\": ..., parameters}");
    }
    ScenarioObject block(raw, in.PathOf(key));
    return ParseObject(block, def);
}

const CongestionControlConfig&
CongestionControlConfig::ScenarioDefault(const ScenarioConfig& cfg)
{
    static const CongestionControlConfig builtin;
    for (const auto& spec : cfg.sections)
    {
        if (auto cc = std::dynamic_pointer_cast<const CcDefaultSpec>(spec))
        {
            return cc->cc;
        }
    }
    return builtin;
}

ObjectFactory
CongestionControlConfig::Factory(double aggressiveness) const
{
    ObjectFactory f;
    f.SetTypeId(TypeIdName());
    for (const auto& [name, value] : attributes)
    {
        f.Set(name, *value);
    }
    DcqcnProfile(aggressiveness).Configure(f); // scales the values above; a = 1: nothing
    return f;
}

CongestionControlRecord
CongestionControlConfig::Effective(const ObjectFactory& factory,
                                   const std::string& entry,
                                   const std::string& type,
                                   double aggressiveness)
{
    CongestionControlRecord r;
    r.entry = entry;
    r.type = type;
    r.typeId = factory.GetTypeId().GetName();
    r.aggressiveness = aggressiveness;
    Ptr<RdmaCongestionOps> probe = factory.Create<RdmaCongestionOps>();
    for (const RdmaCcCatalog::Parameter& p : RdmaCcCatalog::ParametersOf(r.typeId))
    {
        StringValue v;
        probe->GetAttribute(p.attribute, v);
        r.attributes.emplace_back(p.attribute, v.Get());
    }
    return r;
}

} // namespace ns3
