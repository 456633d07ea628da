/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario.h"
#include "unit-parser.h"

#include "ns3/log.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioObject");

namespace
{

const nlohmann::json&
EmptyObject()
{
    static const nlohmann::json empty = nlohmann::json::object();
    return empty;
}

const nlohmann::json&
EmptyArray()
{
    static const nlohmann::json empty = nlohmann::json::array();
    return empty;
}

/// The value as it appears in a message: compact JSON, shortened if long.
std::string
Show(const nlohmann::json& v)
{
    std::string s = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

std::string
Join(const std::vector<std::string>& v)
{
    std::string s;
    for (const std::string& x : v)
    {
        s += (s.empty() ? "" : ", ") + x;
    }
    return s;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// ScenarioObject

ScenarioObject::ScenarioObject(const nlohmann::json& j, std::string path)
    : m_json(j),
      m_path(std::move(path))
{
    if (!j.is_object())
    {
        Fail(m_path.empty() ? "(top level)" : m_path, j, "must be a JSON object {...}");
    }
}

bool
ScenarioObject::Has(const std::string& key) const
{
    return m_json.contains(key);
}

std::string
ScenarioObject::PathOf(const std::string& key) const
{
    return m_path.empty() ? key : m_path + "." + key;
}

const std::string&
ScenarioObject::Path() const
{
    return m_path;
}

const nlohmann::json*
ScenarioObject::Find(const std::string& key)
{
    if (std::find(m_known.begin(), m_known.end(), key) == m_known.end())
    {
        m_known.push_back(key);
    }
    auto it = m_json.find(key);
    return it == m_json.end() ? nullptr : &*it;
}

void
ScenarioObject::Fail(const std::string& key, const std::string& what) const
{
    auto it = m_json.find(key);
    Fail(PathOf(key), it == m_json.end() ? nlohmann::json() : *it, what);
}

void
ScenarioObject::Fail(const std::string& path, const nlohmann::json& value, const std::string& what)
{
    throw std::invalid_argument("scenario: " + path + " = " + Show(value) + ": " + what);
}

namespace
{
/// Throw "scenario: <path>: missing; <what>" for an absent required key.
[[noreturn]] void
Missing(const std::string& path, const std::string& what)
{
    throw std::invalid_argument("scenario: " + path + ": missing; " + what);
}
} // namespace

std::string
ScenarioObject::String(const std::string& key, std::optional<std::string> def)
{
    const nlohmann::json* v = Find(key);
    const std::string what = "must be a string";
    if (!v)
    {
        return def ? *def : (Missing(PathOf(key), what), std::string());
    }
    if (!v->is_string())
    {
        Fail(key, what);
    }
    return v->get<std::string>();
}

std::string
ScenarioObject::Choice(const std::string& key,
                       const std::vector<std::string>& accepted,
                       std::optional<std::string> def)
{
    const nlohmann::json* v = Find(key);
    const std::string what = "must be one of " + Join(accepted);
    if (!v)
    {
        return def ? *def : (Missing(PathOf(key), what), std::string());
    }
    if (!v->is_string() ||
        std::find(accepted.begin(), accepted.end(), v->get<std::string>()) == accepted.end())
    {
        Fail(key, what);
    }
    return v->get<std::string>();
}

uint64_t
ScenarioObject::Uint(const std::string& key, uint64_t lo, uint64_t hi, std::optional<uint64_t> def)
{
    const nlohmann::json* v = Find(key);
    const std::string what =
        "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    if (!v)
    {
        return def ? *def : (Missing(PathOf(key), what), 0);
    }
    if (!v->is_number_unsigned())
    {
        Fail(key, what);
    }
    const uint64_t x = v->get<uint64_t>();
    if (x < lo || x > hi)
    {
        Fail(key, what);
    }
    return x;
}

double
ScenarioObject::Double(const std::string& key, double lo, double hi, std::optional<double> def)
{
    const nlohmann::json* v = Find(key);
    const std::string what = "must be a number in [" + UnitParser::FormatNumber(lo) + ", " +
                             UnitParser::FormatNumber(hi) + "]";
    if (!v)
    {
        return def ? *def : (Missing(PathOf(key), what), 0.0);
    }
    if (!v->is_number() || !(v->get<double>() >= lo && v->get<double>() <= hi))
    {
        Fail(key, what);
    }
    return v->get<double>();
}

bool
ScenarioObject::Bool(const std::string& key, std::optional<bool> def)
{
    const nlohmann::json* v = Find(key);
    const std::string what = "must be true or false";
    if (!v)
    {
        return def ? *def : (Missing(PathOf(key), what), false);
    }
    if (!v->is_boolean())
    {
        Fail(key, what);
    }
    return v->get<bool>();
}

DataRate
ScenarioObject::Rate(const std::string& key, std::optional<std::string> def)
{
    const nlohmann::json* v = Find(key);
    if (!v)
    {
        if (!def)
        {
            Missing(PathOf(key), UnitParser::RATE_SYNTAX);
        }
        return UnitParser::Rate(*def);
    }
    if (!v->is_string())
    {
        Fail(key, UnitParser::RATE_SYNTAX);
    }
    try
    {
        return UnitParser::Rate(v->get<std::string>());
    }
    catch (const std::invalid_argument& e)
    {
        Fail(key, e.what());
    }
}

Time
ScenarioObject::Duration(const std::string& key, Time lo, Time hi, std::optional<std::string> def)
{
    const nlohmann::json* v = Find(key);
    const std::string range = std::string(UnitParser::TIME_SYNTAX) + " in [" +
                              UnitParser::FormatTime(lo) + ", " + UnitParser::FormatTime(hi) + "]";
    if (!v)
    {
        if (!def)
        {
            Missing(PathOf(key), range);
        }
        return UnitParser::Duration(*def);
    }
    Time t;
    try
    {
        t = UnitParser::Duration(v->is_string() ? v->get<std::string>() : std::string());
    }
    catch (const std::invalid_argument&)
    {
        Fail(key, range);
    }
    if (t < lo || t > hi)
    {
        Fail(key, range);
    }
    return t;
}

uint64_t
ScenarioObject::Bytes(const std::string& key, uint64_t lo, uint64_t hi, std::optional<uint64_t> def)
{
    const nlohmann::json* v = Find(key);
    const std::string what = "must be a byte count in [" + std::to_string(lo) + ", " +
                             std::to_string(hi) +
                             "] (an integer, or a string like \"4MB\"; units B, KB, MB, GB, "
                             "TB, KiB, MiB, GiB, TiB)";
    if (!v)
    {
        return def ? *def : (Missing(PathOf(key), what), 0);
    }
    uint64_t x = 0;
    if (v->is_number_unsigned())
    {
        x = v->get<uint64_t>();
    }
    else if (v->is_string())
    {
        try
        {
            x = UnitParser::Bytes(v->get<std::string>());
        }
        catch (const std::invalid_argument&)
        {
            Fail(key, what);
        }
    }
    else
    {
        Fail(key, what);
    }
    if (x < lo || x > hi)
    {
        Fail(key, what);
    }
    return x;
}

ScenarioObject
ScenarioObject::Object(const std::string& key)
{
    const nlohmann::json* v = Find(key);
    return ScenarioObject(v ? *v : EmptyObject(), PathOf(key));
}

const nlohmann::json&
ScenarioObject::Array(const std::string& key)
{
    const nlohmann::json* v = Find(key);
    if (!v)
    {
        return EmptyArray();
    }
    if (!v->is_array())
    {
        Fail(key, "must be a JSON array [...]");
    }
    return *v;
}

const nlohmann::json&
ScenarioObject::Raw(const std::string& key)
{
    static const nlohmann::json null;
    const nlohmann::json* v = Find(key);
    return v ? *v : null;
}

void
ScenarioObject::Finish() const
{
    for (auto it = m_json.begin(); it != m_json.end(); ++it)
    {
        if (std::find(m_known.begin(), m_known.end(), it.key()) == m_known.end())
        {
            throw std::invalid_argument("scenario: " + PathOf(it.key()) +
                                        ": unknown key (accepted: " + Join(m_known) + ")");
        }
    }
}

} // namespace ns3
