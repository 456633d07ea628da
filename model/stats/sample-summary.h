/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_SAMPLE_SUMMARY_H
#define MLNET_SAMPLE_SUMMARY_H

#include <cstddef>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Mean and percentiles of a sample (e.g. per-iteration times after warm-up).
 *
 * Percentiles use the nearest-rank definition: p-th percentile = the ceil(p/100 x n)-th
 * smallest value, so p50 and p99 are values of the sample.
 */
struct SampleSummary
{
    std::size_t n{0}; //!< sample size
    double mean{0};   //!< mean
    double min{0};    //!< smallest value
    double p50{0};    //!< median (nearest rank)
    double p99{0};    //!< 99th percentile (nearest rank)
    double max{0};    //!< largest value

    /// \param v the sample (may be empty: all fields 0) \return its summary
    static SampleSummary Of(std::vector<double> v);
    /// \param v a sorted, non-empty sample \param p percentile in [0, 100] \return nearest rank
    static double Percentile(const std::vector<double>& v, double p);
};

} // namespace ns3

#endif /* MLNET_SAMPLE_SUMMARY_H */
