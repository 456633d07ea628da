/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_TEST_UTILITIES_H
#define MLNET_TEST_UTILITIES_H

// Shared helpers for the mlnet Catch2 tests (small topologies, statistics).

#include <cstdint>
#include <vector>

namespace mlnettest
{

/// Jain's fairness index of a set of rates: (sum x)^2 / (n * sum x^2).
double JainIndex(const std::vector<double>& x);

} // namespace mlnettest

#endif
