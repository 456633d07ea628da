/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "host-path-timing.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{

HostPathTiming::HostPathTiming(const PcieLinkModel& pcie,
                               const MemoryBusModel& mem,
                               const Config& cfg)
    : m_pcie(pcie),
      m_mem(mem),
      m_cfg(cfg)
{
    if (cfg.writeCredits < 1 || cfg.writeCredits > 65536)
    {
        throw std::invalid_argument("HostPathTiming: write credits " +
                                    std::to_string(cfg.writeCredits) + " out of range [1, 65536]");
    }
    if (cfg.requestBytes < 4 || cfg.requestBytes > 4096)
    {
        throw std::invalid_argument("HostPathTiming: request bytes " +
                                    std::to_string(cfg.requestBytes) + " out of range [4, 4096]");
    }
    if (!(cfg.ioLatency >= 0) || cfg.ioLatency > 1e-3)
    {
        throw std::invalid_argument("HostPathTiming: I/O latency " + std::to_string(cfg.ioLatency) +
                                    " s out of range [0, 1e-3]");
    }
    if (!(cfg.walkAccesses >= 0) || cfg.walkAccesses > 8)
    {
        throw std::invalid_argument("HostPathTiming: page-walk accesses " +
                                    std::to_string(cfg.walkAccesses) + " out of range [0, 8]");
    }
    if (cfg.readRequests < 1 || cfg.readRequests > 65536)
    {
        throw std::invalid_argument("HostPathTiming: read requests " +
                                    std::to_string(cfg.readRequests) + " out of range [1, 65536]");
    }
    if (cfg.readRequestBytes < 64 || cfg.readRequestBytes > 4096)
    {
        throw std::invalid_argument("HostPathTiming: read request bytes " +
                                    std::to_string(cfg.readRequestBytes) +
                                    " out of range [64, 4096]");
    }
}

HostPathTiming::Operating
HostPathTiming::Solve(double appLoad) const
{
    if (!(appLoad >= 0) || !std::isfinite(appLoad))
    {
        throw std::invalid_argument("HostPathTiming: application memory load " +
                                    std::to_string(appLoad) +
                                    " bit/s must be non-negative and finite");
    }
    const double rp = m_pcie.EffectiveRate(m_pcie.GetMaxPayload());
    const double inflightBits = double(m_cfg.writeCredits) * m_cfg.requestBytes * 8.0;
    auto creditRate = [&](double r) {
        return inflightBits / (m_cfg.ioLatency + m_mem.Latency(m_mem.Utilisation(appLoad + r)));
    };
    double r;
    if (creditRate(rp) >= rp)
    {
        r = rp;
    }
    else
    {
        // g(r) = min(rp, credit(r)) - r decreases: bisection between 0 and rp.
        double lo = 0.0;
        double hi = rp;
        for (int i = 0; i < 60; ++i)
        {
            double mid = 0.5 * (lo + hi);
            if (std::min(rp, creditRate(mid)) > mid)
            {
                lo = mid;
            }
            else
            {
                hi = mid;
            }
        }
        r = 0.5 * (lo + hi);
    }
    Operating op;
    op.writeRate = r;
    op.pcieRate = rp;
    op.creditRate = creditRate(r);
    double u = m_mem.Utilisation(appLoad + r);
    op.memUtil = std::min(u, m_mem.GetMaxUtilisation());
    op.memLatency = m_mem.Latency(u);
    op.appRate =
        std::max(0.0, std::min(appLoad, m_mem.GetMaxUtilisation() * m_mem.GetBandwidth() - r));
    double readInflight = double(m_cfg.readRequests) * m_cfg.readRequestBytes * 8.0;
    op.readRate = std::min(m_pcie.EffectiveRate(m_cfg.readRequestBytes),
                           readInflight / (m_cfg.ioLatency + op.memLatency));
    return op;
}

double
HostPathTiming::PacketTime(uint64_t bytes, uint32_t misses, const Operating& op) const
{
    return double(bytes) * 8.0 / op.writeRate + misses * m_cfg.walkAccesses * op.memLatency;
}

double
HostPathTiming::MissLimitedRate(double missesPerByte, const Operating& op) const
{
    if (!(missesPerByte >= 0) || !std::isfinite(missesPerByte))
    {
        throw std::invalid_argument("HostPathTiming: IOTLB misses per byte " +
                                    std::to_string(missesPerByte) +
                                    " must be non-negative and finite");
    }
    return 8.0 / (8.0 / op.writeRate + missesPerByte * m_cfg.walkAccesses * op.memLatency);
}

const PcieLinkModel&
HostPathTiming::GetPcie() const
{
    return m_pcie;
}

const MemoryBusModel&
HostPathTiming::GetMemory() const
{
    return m_mem;
}

const HostPathTiming::Config&
HostPathTiming::GetConfig() const
{
    return m_cfg;
}

} // namespace ns3
