/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "sync-bound.h"

#include <algorithm>
#include <cmath>
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

} // namespace ns3
