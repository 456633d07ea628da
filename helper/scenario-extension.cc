/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-extension.h"

#include <map>
#include <stdexcept>

namespace ns3
{

namespace
{
std::map<std::string, ScenarioSectionRegistry::ParseFunction>&
Sections()
{
    static std::map<std::string, ScenarioSectionRegistry::ParseFunction> m;
    return m;
}

std::map<std::string, std::string>&
Shorthands()
{
    static std::map<std::string, std::string> m;
    return m;
}

std::map<std::string, GradientAggregatorRegistry::ParseFunction>&
ModeMap()
{
    static std::map<std::string, GradientAggregatorRegistry::ParseFunction> m;
    return m;
}

template <class M>
std::vector<std::string>
KeysOf(const M& m)
{
    std::vector<std::string> k;
    for (const auto& kv : m)
    {
        k.push_back(kv.first);
    }
    return k;
}
} // namespace

void
ScenarioSectionRegistry::Register(const std::string& key,
                                  ParseFunction parse,
                                  const std::string& shorthand)
{
    if (!Sections().emplace(key, std::move(parse)).second)
    {
        throw std::logic_error("ScenarioSectionRegistry: \"" + key + "\" registered twice");
    }
    if (!shorthand.empty())
    {
        Shorthands()[key] = shorthand;
    }
}

std::string
ScenarioSectionRegistry::ShorthandOf(const std::string& key)
{
    auto it = Shorthands().find(key);
    return it == Shorthands().end() ? std::string() : it->second;
}

std::vector<std::string>
ScenarioSectionRegistry::Keys()
{
    return KeysOf(Sections());
}

const ScenarioSectionRegistry::ParseFunction*
ScenarioSectionRegistry::Find(const std::string& key)
{
    auto it = Sections().find(key);
    return it == Sections().end() ? nullptr : &it->second;
}

std::shared_ptr<const TrafficSpec>
ScenarioSectionRegistry::Parse(const std::string& key,
                               const nlohmann::json& value,
                               const ScenarioConfig& cfg)
{
    const ParseFunction* parse = Find(key);
    if (parse == nullptr)
    {
        throw std::logic_error("ScenarioSectionRegistry: no section \"" + key + "\"");
    }
    // A section with a string form ("cc": "dcqcn") reads it as {shorthand: string}.
    const std::string shorthand = ShorthandOf(key);
    nlohmann::json expanded;
    if (!shorthand.empty() && value.is_string())
    {
        expanded[shorthand] = value;
    }
    else if (!shorthand.empty() && !value.is_object())
    {
        ScenarioObject::Fail(key,
                             value,
                             "must be a string (the " + shorthand + ") or a JSON object {...}");
    }
    ScenarioObject section(expanded.is_null() ? value : expanded, key);
    std::shared_ptr<const TrafficSpec> spec = (*parse)(section, cfg);
    section.Finish();
    return spec;
}

void
GradientAggregatorRegistry::Register(const std::string& mode, ParseFunction parse)
{
    if (!ModeMap().emplace(mode, std::move(parse)).second)
    {
        throw std::logic_error("GradientAggregatorRegistry: \"" + mode + "\" registered twice");
    }
}

std::vector<std::string>
GradientAggregatorRegistry::Modes()
{
    return KeysOf(ModeMap());
}

const GradientAggregatorRegistry::ParseFunction*
GradientAggregatorRegistry::Find(const std::string& mode)
{
    auto it = ModeMap().find(mode);
    return it == ModeMap().end() ? nullptr : &it->second;
}

} // namespace ns3
