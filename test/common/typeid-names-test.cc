/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// mlnet keeps ns-3's flat TypeId names (ns3::FabricSwitch, ...; doc/architecture.rst, "TypeId
// names"). ns-3 3.37 as Debian builds it does not refuse a second registration of a name (the
// check is an NS_ASSERT, compiled out): the second type would be registered and every lookup by
// name would find the first. This case finds such a clash between any two types linked into the
// test program (mlnet's and those of the ns-3 modules it links).

#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>

using namespace ns3;

TEST_CASE("common: no two registered TypeIds share a name", "[common]")
{
    // mlnet's types are registered (the library is linked and its statics ran)
    TypeId found;
    REQUIRE(TypeId::LookupByNameFailSafe("ns3::FabricNetDevice", &found));
    REQUIRE(TypeId::LookupByNameFailSafe("ns3::RdmaNic", &found));
    std::map<std::string, uint32_t> count;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        ++count[TypeId::GetRegistered(i).GetName()];
    }
    REQUIRE(count.size() > 100);
    for (const auto& [name, n] : count)
    {
        INFO("TypeId name: " << name);
        CHECK(n == 1);
    }
}
