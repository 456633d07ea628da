/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: the JSON scenario parser. Any text must give a ScenarioConfig or
// std::invalid_argument (the documented one-line error); any other exception, abort or memory
// error is a bug.

#include "ns3/scenario.h"

#include <cstdint>
#include <stdexcept>
#include <string>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string text(reinterpret_cast<const char*>(data), size);
    try
    {
        ns3::Scenario::ParseString(text);
    }
    catch (const std::invalid_argument&)
    {
    }
    return 0;
}
