/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_TEST_UTILITIES_H
#define MLNET_TEST_UTILITIES_H

// Shared helpers for the mlnet Catch2 tests (small topologies, statistics).

#include "ns3/scenario-runner.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlnettest
{

/// Jain's fairness index of a set of rates: (sum x)^2 / (n * sum x^2).
double JainIndex(const std::vector<double>& x);

/// \return the message of the std::invalid_argument thrown while parsing a JSON scenario
/// text ("" if it parses)
std::string ScenarioParseError(const std::string& text);

/// \return the result of running a JSON scenario text
ns3::ScenarioResult RunScenarioText(const std::string& text);

} // namespace mlnettest

#endif
