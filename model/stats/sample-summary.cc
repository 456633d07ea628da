/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "sample-summary.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace ns3
{

double
SampleSummary::Percentile(const std::vector<double>& v, double p)
{
    if (v.empty() || !(p >= 0 && p <= 100))
    {
        throw std::invalid_argument("Percentile: needs a non-empty sample and p in [0, 100]");
    }
    std::size_t rank = static_cast<std::size_t>(std::ceil(p / 100.0 * v.size()));
    return v[std::max<std::size_t>(rank, 1) - 1];
}

SampleSummary
SampleSummary::Of(std::vector<double> v)
{
    SampleSummary s;
    s.n = v.size();
    if (v.empty())
    {
        return s;
    }
    std::sort(v.begin(), v.end());
    s.mean = std::accumulate(v.begin(), v.end(), 0.0) / v.size();
    s.min = v.front();
    s.max = v.back();
    s.p50 = Percentile(v, 50);
    s.p99 = Percentile(v, 99);
    return s;
}

} // namespace ns3
