/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FCT_SUMMARY_H
#define MLNET_FCT_SUMMARY_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief A streaming summary of flow completion times, overall and per flow-size bucket: count,
 * mean, min and max exactly, p50 and p99 from a log-binned histogram (no per-flow record).
 *
 * The FCTs are binned in kBinsPerDecade bins per decade from kMinSeconds to kMaxSeconds
 * (shorter and longer ones in the first and last bin); a percentile is the nearest-rank bin's
 * geometric centre, clamped to [min, max], so it is within half a bin (1.2 %) of the sample's
 * nearest-rank percentile. Memory is fixed (~50 kB) whatever the number of flows, and two
 * summaries merge by adding their bins. The size buckets are by payload bytes:
 * [0, 10 kB), [10 kB, 100 kB), [100 kB, 1 MB), [1 MB, 10 MB), [10 MB, ...).
 */
class FctSummary
{
  public:
    static constexpr uint32_t kBuckets = 5;         //!< size buckets (BucketOf)
    static constexpr uint32_t kBinsPerDecade = 100; //!< histogram resolution
    static constexpr double kMinSeconds = 1e-8;     //!< the first bin's lower edge
    static constexpr uint32_t kDecades = 10;        //!< so the last bin ends at 100 s

    /// The summary of one bucket (or of all flows).
    struct Stats
    {
        uint64_t n{0};  //!< flows
        double mean{0}; //!< mean FCT (s)
        double min{0};  //!< shortest FCT (s)
        double p50{0};  //!< median FCT (s), within half a bin
        double p99{0};  //!< 99th percentile FCT (s), within half a bin
        double max{0};  //!< longest FCT (s)
    };

    FctSummary();
    /**
     * Add one flow.
     * \param bytes its payload \param fct its completion time (s, >= 0)
     */
    void Add(uint64_t bytes, double fct);
    /// \param other a summary whose flows to add
    void Merge(const FctSummary& other);
    /// \param bucket a size bucket in [0, kBuckets), or kBuckets for all flows \return its stats
    /// \throws std::out_of_range for a bucket above kBuckets
    Stats Get(uint32_t bucket = kBuckets) const;
    /// \param bytes a payload \return its size bucket
    static uint32_t BucketOf(uint64_t bytes);
    /// \param bucket a size bucket or kBuckets \return its name ("<10KB", ..., ">=10MB", "all")
    static std::string BucketName(uint32_t bucket);

  private:
    struct Bucket
    {
        std::vector<uint64_t> bins;
        uint64_t n{0};
        double sum{0};
        double min{0};
        double max{0};
    };

    /// \param b a bucket \param q a quantile in (0, 1] \return its value (s)
    static double Quantile(const Bucket& b, double q);

    std::array<Bucket, kBuckets + 1> m_buckets; //!< the size buckets, then all flows
};

} // namespace ns3

#endif /* MLNET_FCT_SUMMARY_H */
