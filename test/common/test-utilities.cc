/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "test-utilities.h"

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

} // namespace mlnettest
