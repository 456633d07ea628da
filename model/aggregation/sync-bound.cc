/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "sync-bound.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{
void
Check(bool ok, const std::string& what)
{
    if (!ok)
    {
        throw std::invalid_argument("RingVsAggregationBound: " + what);
    }
}
} // namespace

SyncBound
RingVsAggregationBound(const SyncBoundInput& in)
{
    Check(std::isfinite(in.forwardS) && in.forwardS >= 0, "forwardS must be >= 0 s");
    Check(std::isfinite(in.backwardS) && in.backwardS >= 0, "backwardS must be >= 0 s");
    Check(std::isfinite(in.gradientBytes) && in.gradientBytes > 0, "gradientBytes must be > 0");
    Check(in.workers >= 2, "workers must be >= 2");
    Check(std::isfinite(in.linkBps) && in.linkBps > 0, "linkBps must be > 0 bit/s");
    Check(in.ringPayloadFraction > 0 && in.ringPayloadFraction <= 1,
          "ringPayloadFraction must be in (0, 1]");
    Check(in.aggPayloadFraction > 0 && in.aggPayloadFraction <= 1,
          "aggPayloadFraction must be in (0, 1]");
    Check(std::isfinite(in.minPeriodS) && in.minPeriodS >= 0, "minPeriodS must be >= 0 s");
    const double n = in.workers;
    const double bits = in.gradientBytes * 8.0;
    SyncBound b;
    b.ringCommS = 2.0 * (n - 1) / n * bits / (in.linkBps * in.ringPayloadFraction);
    b.aggCommS = bits / (in.linkBps * in.aggPayloadFraction);
    const double compute = in.forwardS + in.backwardS;
    const double p = in.minPeriodS;
    b.ringSerialS = std::max(p, compute + b.ringCommS);
    b.aggSerialS = std::max(p, compute + b.aggCommS);
    b.ringOverlapS = std::max(p, in.forwardS + std::max(in.backwardS, b.ringCommS));
    b.aggOverlapS = std::max(p, in.forwardS + std::max(in.backwardS, b.aggCommS));
    b.speedupSerial = b.ringSerialS / b.aggSerialS;
    b.speedupOverlap = b.ringOverlapS / b.aggOverlapS;
    b.speedup = std::max(b.speedupSerial, b.speedupOverlap);
    return b;
}

namespace
{
void
CheckRing(const std::vector<uint32_t>& ring, uint32_t k)
{
    if (k < 2 || k % 2 != 0)
    {
        throw std::invalid_argument("CountRingHops: k = " + std::to_string(k) +
                                    " must be even and >= 2");
    }
    const uint64_t hosts = uint64_t(k) * k * k / 4;
    if (ring.size() < 2)
    {
        throw std::invalid_argument("CountRingHops: ring must have >= 2 hosts, has " +
                                    std::to_string(ring.size()));
    }
    if (std::set<uint32_t>(ring.begin(), ring.end()).size() != ring.size())
    {
        throw std::invalid_argument("CountRingHops: ring hosts must be distinct");
    }
    for (uint32_t h : ring)
    {
        if (h >= hosts)
        {
            throw std::invalid_argument("CountRingHops: host " + std::to_string(h) +
                                        " must be in [0, " + std::to_string(hosts - 1) +
                                        "] for k = " + std::to_string(k));
        }
    }
}
} // namespace

RingHops
CountRingHops(const std::vector<uint32_t>& ring, uint32_t k)
{
    CheckRing(ring, k);
    const uint32_t half = k / 2;
    const uint32_t podHosts = half * half;
    RingHops r;
    std::set<uint32_t> pods;
    for (std::size_t i = 0; i < ring.size(); ++i)
    {
        const uint32_t a = ring[i];
        const uint32_t b = ring[(i + 1) % ring.size()];
        pods.insert(a / podHosts);
        if (a / podHosts != b / podHosts)
        {
            ++r.interPod;
        }
        else if (a / half != b / half)
        {
            ++r.samePod;
        }
        else
        {
            ++r.sameRack;
        }
    }
    r.pods = pods.size();
    return r;
}

std::vector<uint32_t>
RackOrderedRing(std::vector<uint32_t> hosts, uint32_t k)
{
    CheckRing(hosts, k);
    std::sort(hosts.begin(), hosts.end());
    return hosts;
}

} // namespace ns3
