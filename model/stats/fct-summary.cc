/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fct-summary.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

namespace
{
constexpr uint32_t kBins = FctSummary::kBinsPerDecade * FctSummary::kDecades;
} // namespace

FctSummary::FctSummary()
{
    for (Bucket& b : m_buckets)
    {
        b.bins.assign(kBins, 0);
    }
}

uint32_t
FctSummary::BucketOf(uint64_t bytes)
{
    uint32_t b = 0;
    for (uint64_t edge = 10000; b + 1 < kBuckets && bytes >= edge; edge *= 10)
    {
        ++b;
    }
    return b;
}

std::string
FctSummary::BucketName(uint32_t bucket)
{
    static const char* names[kBuckets + 1] =
        {"<10KB", "10KB-100KB", "100KB-1MB", "1MB-10MB", ">=10MB", "all"};
    if (bucket > kBuckets)
    {
        throw std::out_of_range("FctSummary::BucketName: bucket " + std::to_string(bucket) +
                                " out of range [0, " + std::to_string(kBuckets) + "]");
    }
    return names[bucket];
}

void
FctSummary::Add(uint64_t bytes, double fct)
{
    const double x = std::max(fct, 0.0);
    const double pos = std::log10(std::max(x, kMinSeconds) / kMinSeconds) * kBinsPerDecade;
    const uint32_t bin = uint32_t(std::min(pos, double(kBins - 1)));
    for (Bucket* b : {&m_buckets[BucketOf(bytes)], &m_buckets[kBuckets]})
    {
        ++b->bins[bin];
        b->min = b->n ? std::min(b->min, x) : x;
        b->max = b->n ? std::max(b->max, x) : x;
        b->sum += x;
        ++b->n;
    }
}

void
FctSummary::Merge(const FctSummary& other)
{
    for (uint32_t i = 0; i <= kBuckets; ++i)
    {
        Bucket& b = m_buckets[i];
        const Bucket& o = other.m_buckets[i];
        if (o.n == 0)
        {
            continue;
        }
        for (uint32_t k = 0; k < kBins; ++k)
        {
            b.bins[k] += o.bins[k];
        }
        b.min = b.n ? std::min(b.min, o.min) : o.min;
        b.max = b.n ? std::max(b.max, o.max) : o.max;
        b.sum += o.sum;
        b.n += o.n;
    }
}

double
FctSummary::Quantile(const Bucket& b, double q)
{
    // nearest rank: the ceil(q n)-th smallest
    const uint64_t rank = std::max<uint64_t>(1, uint64_t(std::ceil(q * double(b.n))));
    uint64_t seen = 0;
    for (uint32_t k = 0; k < kBins; ++k)
    {
        seen += b.bins[k];
        if (seen >= rank)
        {
            const double centre = kMinSeconds * std::pow(10.0, (k + 0.5) / kBinsPerDecade);
            return std::min(b.max, std::max(b.min, centre));
        }
    }
    return b.max;
}

FctSummary::Stats
FctSummary::Get(uint32_t bucket) const
{
    if (bucket > kBuckets)
    {
        throw std::out_of_range("FctSummary::Get: bucket " + std::to_string(bucket) +
                                " out of range [0, " + std::to_string(kBuckets) + "]");
    }
    const Bucket& b = m_buckets[bucket];
    Stats s;
    s.n = b.n;
    if (b.n == 0)
    {
        return s;
    }
    s.mean = b.sum / double(b.n);
    s.min = b.min;
    s.max = b.max;
    s.p50 = Quantile(b, 0.5);
    s.p99 = Quantile(b, 0.99);
    return s;
}

} // namespace ns3
