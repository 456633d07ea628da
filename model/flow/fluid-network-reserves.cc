/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// FluidNetwork's per-class link reserves: rates held on a link for a class (the aggregate and
// analytic background, the acknowledgements), granted in class order and progressed in bytes.
#include "fluid-network.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{

void
FluidNetwork::CheckLinkClass(uint32_t link, uint8_t cls, const char* what) const
{
    LinkAt(link);
    if (cls >= N_CLASSES)
    {
        throw std::invalid_argument(std::string("FluidNetwork::") + what +
                                    ": class = " + std::to_string(cls) + " is out of range [0, 7]");
    }
}

void
FluidNetwork::SetLinkReserve(uint32_t link, uint8_t cls, double rate)
{
    CheckLinkClass(link, cls, "SetLinkReserve");
    if (!(rate >= 0) || !std::isfinite(rate))
    {
        throw std::invalid_argument("FluidNetwork::SetLinkReserve: rate = " + std::to_string(rate) +
                                    " bytes/s is out of range (>= 0, finite; 0 = none)");
    }
    Link& l = m_links[link];
    if (l.byClass[cls].reserve == rate)
    {
        return;
    }
    ProgressReserves(l, Simulator::Now());
    l.byClass[cls].reserve = rate;
    const uint8_t bit = uint8_t(1u << cls);
    if (rate > 0)
    {
        l.reserveMask |= bit;
    }
    else
    {
        l.reserveMask &= uint8_t(~bit);
        l.reserveHeld &= uint8_t(~bit);
        l.byClass[cls].granted = 0;
    }
    if (l.flows.empty())
    {
        GrantAlone(l);
        return;
    }
    // No flow bottlenecked here and room for every reserve at its rate: the flows' rates stay
    // max-min (each one's bottleneck is elsewhere and unchanged, the link not full), so only
    // the reserves change; no recomputation.
    double load = 0;
    bool free = true;
    for (std::size_t j = 0; free && j < l.flows.size(); ++j)
    {
        const Flow& f = m_flows[l.flows[j]];
        free = !f.finished && f.bottleneck != link;
        load += f.rate * std::abs(l.coefs[j]); // (< 0: acknowledgements)
    }
    // (the classes of reserveMask only: another class has no reserve and no grant)
    double reserved = 0;
    for (unsigned mask = l.reserveMask; mask != 0; mask &= mask - 1)
    {
        reserved += l.byClass[__builtin_ctz(mask)].reserve;
    }
    if (free && load + reserved <= l.capacity * (1 - 1e-9))
    {
        for (unsigned mask = l.reserveMask; mask != 0; mask &= mask - 1)
        {
            ClassState& k = l.byClass[__builtin_ctz(mask)];
            k.granted = k.reserve;
        }
        l.reserveHeld = 0;
        l.load = load + reserved;
        return;
    }
    // The link's flows are recomputed (and the reserve with them: it is filled whenever its
    // link is in a recomputation). A link whose flows have all drained is in the pending one.
    for (uint32_t s : l.flows)
    {
        if (!m_flows[s].finished)
        {
            Touch(s);
        }
    }
}

void
FluidNetwork::GrantAlone(Link& l)
{
    // Reserves alone on the link: each takes its rate of what the classes above leave.
    double left = l.capacity;
    l.load = 0;
    l.reserveHeld = 0;
    for (int c = N_CLASSES - 1; c >= 0; --c)
    {
        if ((l.reserveMask >> c & 1) == 0)
        {
            continue; // no reserve, no grant
        }
        l.byClass[c].granted = std::min(l.byClass[c].reserve, std::max(left, 0.0));
        left -= l.byClass[c].granted;
        l.load += l.byClass[c].granted;
        if (l.byClass[c].granted < l.byClass[c].reserve)
        {
            l.reserveHeld |= uint8_t(1u << c);
        }
    }
}

double
FluidNetwork::GetLinkReserve(uint32_t link, uint8_t cls) const
{
    CheckLinkClass(link, cls, "GetLinkReserve");
    return m_links[link].byClass[cls].reserve;
}

double
FluidNetwork::GetLinkReserveRate(uint32_t link, uint8_t cls) const
{
    CheckLinkClass(link, cls, "GetLinkReserveRate");
    return m_links[link].byClass[cls].granted;
}

double
FluidNetwork::GetLinkReserveBytes(uint32_t link, uint8_t cls) const
{
    CheckLinkClass(link, cls, "GetLinkReserveBytes");
    const Link& l = m_links[link];
    return l.byClass[cls].reserveBytes +
           l.byClass[cls].granted * (Simulator::Now() - l.reserveLast).GetSeconds();
}

void
FluidNetwork::ProgressReserves(Link& l, Time now)
{
    if (l.reserveLast == now)
    {
        return;
    }
    if (l.reserveMask == 0)
    {
        l.reserveLast = now; // no reserve, no grant: nothing carried
        return;
    }
    const double dt = (now - l.reserveLast).GetSeconds();
    // Only a class with a reserve has a grant (SetLinkReserve clears both; the same holds in
    // SetLinkReserve, GrantAlone and Violations): the classes of reserveMask, in the same
    // order as all eight would be.
    for (unsigned mask = l.reserveMask; mask != 0; mask &= mask - 1)
    {
        const int c = __builtin_ctz(mask);
        if (l.byClass[c].granted > 0)
        {
            const double bytes = l.byClass[c].granted * dt;
            l.byClass[c].reserveBytes += bytes;
            l.carried += bytes;
            l.byClass[c].carried += bytes;
        }
    }
    l.reserveLast = now;
}

} // namespace ns3
