/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "phase-interleaving.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PhaseInterleaving");

PhaseInterleaving::PhaseInterleaving(std::vector<std::vector<Interval>> jobs)
    : m_jobs(std::move(jobs))
{
    NS_LOG_FUNCTION(this);
    if (m_jobs.size() < 2)
    {
        throw std::invalid_argument("PhaseInterleaving: needs at least 2 jobs, got " +
                                    std::to_string(m_jobs.size()));
    }
    for (std::size_t j = 0; j < m_jobs.size(); ++j)
    {
        for (std::size_t k = 0; k < m_jobs[j].size(); ++k)
        {
            const Interval& iv = m_jobs[j][k];
            if (!(iv.end >= iv.start) || (k > 0 && iv.start < m_jobs[j][k - 1].start))
            {
                throw std::invalid_argument("PhaseInterleaving: job " + std::to_string(j) +
                                            " phase " + std::to_string(k) +
                                            " ends before it starts or is out of order");
            }
        }
    }
    m_overlap.resize(m_jobs.size());
    for (std::size_t j = 0; j < m_jobs.size(); ++j)
    {
        const std::vector<Interval> others = OthersUnion(j);
        std::size_t lo = 0; // first union interval that can still overlap
        for (const Interval& iv : m_jobs[j])
        {
            while (lo < others.size() && others[lo].end <= iv.start)
            {
                ++lo;
            }
            double both = 0;
            for (std::size_t u = lo; u < others.size() && others[u].start < iv.end; ++u)
            {
                both += std::min(iv.end, others[u].end) - std::max(iv.start, others[u].start);
            }
            double len = iv.end - iv.start;
            m_overlap[j].push_back(len > 0 ? std::min(1.0, std::max(0.0, both / len)) : 0.0);
        }
    }
}

PhaseInterleaving
PhaseInterleaving::FromMessages(const std::vector<std::vector<MessageRecord>>& messages)
{
    NS_LOG_FUNCTION_NOARGS();
    std::vector<std::vector<Interval>> jobs(messages.size());
    for (std::size_t j = 0; j < messages.size(); ++j)
    {
        for (const MessageRecord& m : messages[j])
        {
            jobs[j].push_back({m.posted.GetSeconds(), m.completed.GetSeconds()});
        }
    }
    return PhaseInterleaving(std::move(jobs));
}

std::vector<PhaseInterleaving::Interval>
PhaseInterleaving::OthersUnion(std::size_t j) const
{
    NS_LOG_FUNCTION(this);
    std::vector<Interval> all;
    for (std::size_t l = 0; l < m_jobs.size(); ++l)
    {
        if (l != j)
        {
            all.insert(all.end(), m_jobs[l].begin(), m_jobs[l].end());
        }
    }
    std::sort(all.begin(), all.end(), [](const Interval& a, const Interval& b) {
        return a.start < b.start;
    });
    std::vector<Interval> merged;
    for (const Interval& iv : all)
    {
        if (!merged.empty() && iv.start <= merged.back().end)
        {
            merged.back().end = std::max(merged.back().end, iv.end);
        }
        else
        {
            merged.push_back(iv);
        }
    }
    return merged;
}

std::size_t
PhaseInterleaving::GetJobs() const
{
    return m_jobs.size();
}

std::size_t
PhaseInterleaving::GetPhases(std::size_t j) const
{
    return m_jobs.at(j).size();
}

PhaseInterleaving::Interval
PhaseInterleaving::GetInterval(std::size_t j, std::size_t k) const
{
    return m_jobs.at(j).at(k);
}

double
PhaseInterleaving::Overlap(std::size_t j, std::size_t k) const
{
    NS_LOG_FUNCTION(this);
    return m_overlap.at(j).at(k);
}

std::vector<double>
PhaseInterleaving::OverlapSeries(std::size_t j) const
{
    NS_LOG_FUNCTION(this);
    return m_overlap.at(j);
}

std::vector<double>
PhaseInterleaving::MaxOverlapSeries() const
{
    NS_LOG_FUNCTION(this);
    std::size_t n = m_overlap[0].size();
    for (const auto& s : m_overlap)
    {
        n = std::min(n, s.size());
    }
    std::vector<double> out(n, 0.0);
    for (const auto& s : m_overlap)
    {
        for (std::size_t k = 0; k < n; ++k)
        {
            out[k] = std::max(out[k], s[k]);
        }
    }
    return out;
}

double
PhaseInterleaving::Phase(std::size_t j, std::size_t k) const
{
    NS_LOG_FUNCTION(this);
    if (j == 0 || j >= m_jobs.size() || k + 1 >= m_jobs[0].size())
    {
        throw std::out_of_range("PhaseInterleaving::Phase: job " + std::to_string(j) + " cycle " +
                                std::to_string(k) + " out of range");
    }
    double s0 = m_jobs[0][k].start;
    double s1 = m_jobs[0][k + 1].start;
    const auto& jobs = m_jobs[j];
    auto it = std::lower_bound(jobs.begin(), jobs.end(), s0, [](const Interval& iv, double t) {
        return iv.start < t;
    });
    if (it == jobs.end() || it->start >= s1 || s1 <= s0)
    {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return (it->start - s0) / (s1 - s0);
}

int64_t
PhaseInterleaving::IterationsToInterleave(const std::vector<double>& overlap,
                                          double threshold,
                                          uint32_t window)
{
    NS_LOG_FUNCTION(threshold << window);
    if (!(threshold >= 0.0 && threshold <= 1.0))
    {
        throw std::invalid_argument("IterationsToInterleave: threshold " +
                                    std::to_string(threshold) + " is out of range [0, 1]");
    }
    if (window < 1)
    {
        throw std::invalid_argument("IterationsToInterleave: window must be >= 1");
    }
    double sum = 0; // sum of overlap[k - window + 1 .. k]
    for (std::size_t k = 0; k < overlap.size(); ++k)
    {
        sum += overlap[k];
        if (k + 1 < window)
        {
            continue;
        }
        if (k + 1 > window)
        {
            sum -= overlap[k - window];
        }
        if (sum <= threshold * window + 1e-12)
        {
            return static_cast<int64_t>(k + 1 - window);
        }
    }
    return -1;
}

} // namespace ns3
