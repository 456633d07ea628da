/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "test-utilities.h"

#include "ns3/scenario.h"

#include <stdexcept>

namespace mlnettest
{

double
JainIndex(const std::vector<double>& x)
{
    double s = 0;
    double s2 = 0;
    for (double v : x)
    {
        s += v;
        s2 += v * v;
    }
    return (x.empty() || s2 == 0) ? 0.0 : s * s / (x.size() * s2);
}

std::string
ScenarioParseError(const std::string& text)
{
    try
    {
        ns3::Scenario::ParseString(text, "test.json");
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

ns3::ScenarioResult
RunScenarioText(const std::string& text)
{
    ns3::ScenarioRunner runner(ns3::Scenario::ParseString(text, "test.json"));
    return runner.Run();
}

} // namespace mlnettest
