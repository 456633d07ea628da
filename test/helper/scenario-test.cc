/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Scenario parsing (documented errors) and small scenario runs.
#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>

using namespace ns3;

TEST_CASE("helper: scenario syntax stub", "[helper]")
{
    ScenarioConfig c = Scenario::Default();
    REQUIRE(c.topology.NumHosts() == 16);
}
