/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// doc/scenario.rst's naming table ("One naming: JSON, C++ and Python") against the code: per
// section, its JSON keys are exactly the keys the parser accepts (read from the parser's own
// "unknown key (accepted: ...)" message), and every Type::Attribute it names exists.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
/// One row of the table.
struct NamingRow
{
    std::string section; //!< "(top)", "topology", ...
    std::string json;    //!< the JSON key
    std::string cpp;     //!< the C++ name
    std::string python;  //!< the Python name
};

std::string
Unquote(const std::string& s)
{
    if (s.size() >= 4 && s.compare(0, 2, "``") == 0 && s.compare(s.size() - 2, 2, "``") == 0)
    {
        return s.substr(2, s.size() - 4);
    }
    return s;
}

/// The rows of the naming table in doc/scenario.rst.
std::vector<NamingRow>
ReadNamingTable()
{
    const std::string path = std::string(MLNET_SOURCE_ROOT) + "/doc/scenario.rst";
    std::ifstream in(path);
    REQUIRE(in.good());
    std::string line;
    while (std::getline(in, line) && line != "One naming: JSON, C++ and Python")
    {
    }
    REQUIRE(line == "One naming: JSON, C++ and Python");
    int borders = 0; // top border, header separator, bottom border
    std::vector<NamingRow> rows;
    const std::regex gap("\\s{2,}");
    while (borders < 3 && std::getline(in, line))
    {
        if (std::regex_match(line, std::regex("=+( +=+)+"))) // a border, not the underline
        {
            ++borders;
            continue;
        }
        if (borders != 2 || line.empty())
        {
            continue;
        }
        std::vector<std::string> cols(std::sregex_token_iterator(line.begin(), line.end(), gap, -1),
                                      std::sregex_token_iterator());
        REQUIRE(cols.size() == 4);
        rows.push_back({cols[0], Unquote(cols[1]), Unquote(cols[2]), Unquote(cols[3])});
    }
    REQUIRE(borders == 3);
    return rows;
}

/// \param text a scenario with one unknown key \return the keys the parser lists as accepted
std::set<std::string>
AcceptedKeys(const std::string& text)
{
    try
    {
        Scenario::ParseString(text);
    }
    catch (const std::invalid_argument& e)
    {
        const std::string msg = e.what();
        const std::string tag = "unknown key (accepted: ";
        const auto at = msg.find(tag);
        INFO(msg);
        REQUIRE(msg.find("zzzUnknown") != std::string::npos);
        REQUIRE(at != std::string::npos);
        std::string list = msg.substr(at + tag.size());
        list = list.substr(0, list.find(')'));
        std::set<std::string> keys;
        std::istringstream is(list);
        std::string k;
        while (std::getline(is, k, ','))
        {
            keys.insert(k.substr(k.find_first_not_of(' ')));
        }
        return keys;
    }
    FAIL("the parser accepted an unknown key: " << text);
    return {};
}

std::string
ScenarioText(const std::string& body)
{
    return "{" + body + (body.empty() ? "" : ", ") + "\"duration\": \"1ms\"}";
}
} // namespace

TEST_CASE("helper: the naming table of doc/scenario.rst matches the parser", "[helper]")
{
    std::map<std::string, std::set<std::string>> documented;
    for (const NamingRow& r : ReadNamingTable())
    {
        INFO("row " << r.section << " " << r.json);
        CHECK(documented[r.section].insert(r.json).second); // no key twice
        // A Type::Attribute of a type with a TypeId must be one of its attributes.
        std::smatch m;
        if (std::regex_match(r.cpp, m, std::regex("([A-Z]\\w*)::([A-Z]\\w*)")))
        {
            TypeId tid;
            if (TypeId::LookupByNameFailSafe("ns3::" + m[1].str(), &tid))
            {
                TypeId::AttributeInformation info;
                CHECK(tid.LookupAttributeByName(m[2].str(), &info));
            }
        }
    }
    std::map<std::string, std::set<std::string>> accepted;
    accepted["(top)"] = AcceptedKeys(ScenarioText("\"zzzUnknown\": 1"));
    for (const char* t :
         {"\"fat-tree\", \"k\": 4", "\"leaf-spine\"", "\"dumbbell\", \"left\": 1, \"right\": 1"})
    {
        for (const std::string& k : AcceptedKeys(ScenarioText(
                 std::string("\"topology\": {\"type\": ") + t + ", \"zzzUnknown\": 1}")))
        {
            accepted["topology"].insert(k);
        }
    }
    accepted["fabric"] = AcceptedKeys(ScenarioText("\"fabric\": {\"zzzUnknown\": 1}"));
    const std::string two = "\"topology\": {\"type\": \"dumbbell\", \"left\": 1, \"right\": 1}, ";
    accepted["rdma"] =
        AcceptedKeys(ScenarioText(two + "\"traffic\": [{\"type\": \"rdma\", \"src\": 0, "
                                        "\"dst\": 1, \"bytes\": 1000, \"zzzUnknown\": 1}]"));
    accepted["periodic-job"] = AcceptedKeys(
        ScenarioText(two + "\"traffic\": [{\"type\": \"periodic-job\", \"src\": 0, \"dst\": 1, "
                           "\"compute\": \"1us\", \"bytes\": 1000, \"iterations\": 1, "
                           "\"zzzUnknown\": 1}]"));
    accepted["aggregation"] = AcceptedKeys(ScenarioText("\"aggregation\": {\"zzzUnknown\": 1}"));
    accepted["host"] = AcceptedKeys(ScenarioText("\"host\": {\"zzzUnknown\": 1}"));
    accepted["scheduler"] =
        AcceptedKeys(ScenarioText("\"scheduler\": {\"policy\": \"fair\", \"zzzUnknown\": 1}"));
    // "ina-job": the keys a data-parallel job gains in mode "ina", and its hosts.
    const std::string job = "\"traffic\": [{\"type\": \"data-parallel-job\", \"hosts\": [0, 1], "
                            "\"model\": \"cifarnet\", \"iterations\": 1, \"zzzUnknown\": 1";
    const std::set<std::string> ring = AcceptedKeys(ScenarioText(job + "}]"));
    const std::set<std::string> ina =
        AcceptedKeys(ScenarioText("\"aggregation\": {}, " + job + ", \"mode\": \"ina\"}]"));
    accepted["ina-job"] = {"hosts"};
    for (const std::string& k : ina)
    {
        if (!ring.count(k))
        {
            accepted["ina-job"].insert(k);
        }
    }
    CHECK(ring.count("hosts") == 1);
    CHECK(accepted["ina-job"].size() > 1);
    CHECK(documented.size() == accepted.size());
    for (const auto& [section, keys] : accepted)
    {
        INFO("section " << section);
        CHECK(documented[section] == keys);
    }
}
