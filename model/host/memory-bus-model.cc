/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "memory-bus-model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{

MemoryBusModel::MemoryBusModel(double bandwidth,
                               double idleLatency,
                               double queueingScale,
                               double maxUtilisation)
    : m_bandwidth(bandwidth),
      m_idle(idleLatency),
      m_scale(queueingScale),
      m_maxUtil(maxUtilisation)
{
    if (!(bandwidth > 0) || !std::isfinite(bandwidth))
    {
        throw std::invalid_argument("MemoryBusModel: bandwidth " + std::to_string(bandwidth) +
                                    " bit/s must be positive and finite");
    }
    if (!(idleLatency > 0) || idleLatency > 1e-3)
    {
        throw std::invalid_argument("MemoryBusModel: idle latency " + std::to_string(idleLatency) +
                                    " s out of range (0, 1e-3]");
    }
    if (!(queueingScale >= 0) || queueingScale > 1e-3)
    {
        throw std::invalid_argument("MemoryBusModel: queueing scale " +
                                    std::to_string(queueingScale) + " s out of range [0, 1e-3]");
    }
    if (!(maxUtilisation > 0) || !(maxUtilisation < 1))
    {
        throw std::invalid_argument("MemoryBusModel: max utilisation " +
                                    std::to_string(maxUtilisation) + " out of range (0, 1)");
    }
}

double
MemoryBusModel::Latency(double utilisation) const
{
    double u = std::clamp(utilisation, 0.0, m_maxUtil);
    return m_idle + m_scale * u / (2.0 * (1.0 - u));
}

double
MemoryBusModel::Utilisation(double load) const
{
    return std::max(0.0, load) / m_bandwidth;
}

double
MemoryBusModel::GetBandwidth() const
{
    return m_bandwidth;
}

double
MemoryBusModel::GetIdleLatency() const
{
    return m_idle;
}

double
MemoryBusModel::GetQueueingScale() const
{
    return m_scale;
}

double
MemoryBusModel::GetMaxUtilisation() const
{
    return m_maxUtil;
}

} // namespace ns3
