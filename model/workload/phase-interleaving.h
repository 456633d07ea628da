/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MLNET_PHASE_INTERLEAVING_H
#define MLNET_PHASE_INTERLEAVING_H

#include "ns3/job-records.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief How the communication phases of jobs sharing a bottleneck overlap, iteration by
 * iteration: the measure of "interleaving" of Rajasekaran et al. (HotNets 2022, MLTCP).
 *
 * Input: per job, its communication phases in order (one per iteration; for a PeriodicJob the
 * message's posted and completed times). A pure class (no simulator), so the example and the
 * tests compute the same numbers.
 *  - Overlap(j, k): fraction of job j's k-th communication phase during which at least one other
 *    job communicates, in [0, 1].
 *  - Phase(j, k): where job j's communication starts within job 0's k-th cycle, in [0, 1):
 *    (s_j - s_0k) / (s_0(k+1) - s_0k) with s_0k the k-th start of job 0 and s_j the first start
 *    of job j in [s_0k, s_0(k+1)); NaN if job j has none there. 0 = in phase.
 *  - IterationsToInterleave(series, x, m): the first iteration k from which the overlap stays
 *    <= x on average over m iterations (mean of series[k .. k+m-1] <= x); -1 if there is none.
 *    The mean, not every value, so that one jittered iteration that grazes the other job's
 *    phase does not reset the count.
 */
class PhaseInterleaving
{
  public:
    /// A communication phase [start, end] in seconds.
    struct Interval
    {
        double start{0}; //!< start (s)
        double end{0};   //!< end (s), >= start
    };

    /**
     * \param jobs per job, its communication phases in time order
     * \throws std::invalid_argument if fewer than 2 jobs, or an interval ends before it starts
     *         or starts before the previous one
     */
    explicit PhaseInterleaving(std::vector<std::vector<Interval>> jobs);

    /**
     * \param messages per job, its message records in time order (posted .. completed)
     * \return the phases of those messages
     */
    static PhaseInterleaving FromMessages(const std::vector<std::vector<MessageRecord>>& messages);

    /// \return the number of jobs
    std::size_t GetJobs() const;
    /// \param j job \return its number of communication phases
    std::size_t GetPhases(std::size_t j) const;
    /// \param j job \param k phase index \return the phase
    Interval GetInterval(std::size_t j, std::size_t k) const;

    /// \param j job \param k phase index \return overlapped fraction of that phase, in [0, 1]
    double Overlap(std::size_t j, std::size_t k) const;
    /// \param j job \return Overlap(j, k) for every k
    std::vector<double> OverlapSeries(std::size_t j) const;
    /// \return per k (up to the fewest phases of any job), the largest Overlap(j, k) over jobs
    std::vector<double> MaxOverlapSeries() const;
    /// \param j job (>= 1) \param k cycle of job 0 (< its phases - 1) \return phase of j, or NaN
    double Phase(std::size_t j, std::size_t k) const;

    /**
     * \param overlap a per-iteration overlap series
     * \param threshold x, in [0, 1]
     * \param window m >= 1
     * \return the first k with mean(overlap[k .. k+m-1]) <= x, or -1
     * \throws std::invalid_argument if x or m is out of range
     */
    static int64_t IterationsToInterleave(const std::vector<double>& overlap,
                                          double threshold,
                                          uint32_t window);

  private:
    /// union of every job's phases but job j's, merged and sorted
    std::vector<Interval> OthersUnion(std::size_t j) const;

    std::vector<std::vector<Interval>> m_jobs;
    std::vector<std::vector<double>> m_overlap; //!< Overlap(j, k), computed once
};

} // namespace ns3

#endif /* MLNET_PHASE_INTERLEAVING_H */
