/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// FluidNetwork's progressive filling (one filling of a recomputation's round): the classes in
// priority order, in each the levels at which links saturate and flows reach their caps taken
// from a heap, weighted max-min within the class; the acknowledgement loads served first.
#include "fluid-network-scratch.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluidNetworkFilling");

using fluidsolver::kAckTolerance;
using fluidsolver::kToCount;

bool
FluidNetwork::FillOnce(const std::vector<uint32_t>& flows, const std::vector<uint32_t>& links)
{
    const std::size_t nl = links.size();
    const uint32_t nf = uint32_t(flows.size());
    std::vector<double>& avail = m_scratch->avail;
    std::vector<double>& wsum = m_scratch->wsum;
    std::vector<uint32_t>& active = m_scratch->active;
    std::vector<uint32_t>& version = m_scratch->version;
    std::vector<uint8_t>& full = m_scratch->full;
    std::vector<uint8_t>& used = m_scratch->used;
    const std::vector<double>& guess = m_scratch->guess;
    avail.assign(m_scratch->base.begin(), m_scratch->base.end());
    wsum.assign(nl, 0.0);
    active.assign(nl, 0);
    version.assign(nl, 0);
    full.assign(nl, 0);
    used.assign(nl, 0);
    std::vector<char>& reserveFrozen = m_scratch->reserveFrozen;
    reserveFrozen.assign(nl, 0);
    std::vector<uint8_t>& held = m_scratch->held;
    held.assign(nl, 0);
    std::vector<char>& frozen = m_scratch->frozen;
    frozen.assign(flows.size(), 0);
    Scratch& sc = *m_scratch;
    std::vector<double>& rate = sc.rate;
    std::vector<uint32_t>& bottleneck = sc.bottleneck;
    rate.assign(nf, 0.0);
    const std::vector<uint32_t>& entryStart = sc.entryStart;
    const std::vector<uint32_t>& entryLink = sc.entryLink;
    const std::vector<double>& entryCoef = sc.entryCoef;
    const std::vector<uint32_t>& nFilled = sc.nFilled;
    const std::vector<double>& weight = sc.weight;
    const std::vector<double>& cap = sc.cap;
    const std::vector<double>& capacity = sc.capacity;
    // The acknowledgements counted at a rate, on links the data does not cross: served first
    // (class 7), before the data of every class.
    for (uint32_t fi : sc.acking)
    {
        for (uint32_t k = entryStart[fi] + nFilled[fi]; guess[fi] > 0 && k < entryStart[fi + 1];
             ++k)
        {
            if (entryCoef[k] < 0)
            {
                avail[entryLink[k]] += entryCoef[k] * guess[fi];
            }
        }
    }
    bool exact = true;
    double& moved = m_scratch->moved;
    moved = 0;
    const std::vector<std::vector<uint32_t>>& byClass = m_scratch->byClass;
    const std::vector<std::vector<uint32_t>>& reserves = m_scratch->reserves;
    // A min-heap of candidate levels (std::push_heap/pop_heap over a kept vector).
    std::vector<FluidNetworkLevel>& heap = m_scratch->heap;
    heap.clear();
    auto push = [&heap](const FluidNetworkLevel& e) {
        heap.push_back(e);
        std::push_heap(heap.begin(), heap.end(), std::greater<FluidNetworkLevel>());
    };
    auto pushLink = [&](uint32_t li) {
        push(FluidNetworkLevel{std::max(avail[li], 0.0) / wsum[li], li, version[li]});
    };
    // A link whose level a freeze changed gets its new entry once the level taken has been
    // handled (the heap's order is strict: the same levels are taken as with an entry per
    // change, without the stale ones).
    std::vector<char>& relevel = sc.relevel;
    std::vector<uint32_t>& relevelLinks = sc.relevelLinks;
    relevel.assign(nl, 0);
    relevelLinks.clear();
    auto markLink = [&](uint32_t li) {
        if (!relevel[li])
        {
            relevel[li] = 1;
            relevelLinks.push_back(li);
        }
    };
    auto pushMarked = [&]() {
        for (uint32_t li : relevelLinks)
        {
            relevel[li] = 0;
            if (active[li] > 0)
            {
                pushLink(li);
            }
        }
        relevelLinks.clear();
    };
    // The entries of a flow filled with it, [entryStart, this): its path, its acknowledgements
    // on links its path crosses (coef > 0; the first nFilled entries), and the others while
    // they rise with it (not counted at a rate).
    auto filledEnd = [&](uint32_t fi) {
        return guess[fi] < 0 ? entryStart[fi + 1] : entryStart[fi] + nFilled[fi];
    };
    for (int c = N_CLASSES - 1; c >= 0; --c)
    {
        const std::vector<uint32_t>& members = byClass[c];
        const std::vector<uint32_t>& reserved = reserves[c];
        if (members.empty() && reserved.empty())
        {
            continue;
        }
        const uint8_t bit = uint8_t(1u << c);
        if (members.empty())
        {
            // Reserves only (the background's classes above the flows'): each alone on its
            // link, granted min(what is left, its rate) as below, in one pass (no heap entry,
            // nothing else rises in the class; the link's level is not asked for in it).
            const std::vector<double>& reserveRate = sc.reserveRate[c];
            std::vector<double>& granted = sc.granted[c];
            for (uint32_t p = 0; p < reserved.size(); ++p)
            {
                const uint32_t li = reserved[p];
                const double reserve = reserveRate[p];
                const double rate = std::min(std::max(avail[li], 0.0), reserve);
                granted[p] = rate;
                if (rate > 0)
                {
                    used[li] |= bit;
                }
                if (rate < reserve)
                {
                    held[li] |= bit;
                    full[li] |= bit;
                }
                avail[li] = std::max(avail[li] - rate, 0.0); // what the lower classes may use
            }
            if (g_log.IsEnabled(LOG_LOGIC))
            {
                for (uint32_t p = 0; p < reserved.size(); ++p)
                {
                    NS_LOG_LOGIC("reserve of class " << int(c) << " alone on link "
                                                     << links[reserved[p]] << ": " << granted[p]
                                                     << " of " << reserveRate[p]);
                }
            }
            continue;
        }
        std::vector<uint32_t>& touched = m_scratch->touched;
        touched.clear();
        for (uint32_t fi : members)
        {
            for (uint32_t k = entryStart[fi], end = filledEnd(fi); k < end; ++k)
            {
                const uint32_t li = entryLink[k];
                if (active[li]++ == 0)
                {
                    touched.push_back(li);
                }
                wsum[li] += weight[fi] * std::abs(entryCoef[k]);
            }
            if (cap[fi] > 0)
            {
                push(FluidNetworkLevel{cap[fi] / weight[fi], fi, FluidNetworkLevel::kCapEntry});
            }
        }
        for (uint32_t p = 0; p < reserved.size(); ++p)
        {
            const uint32_t li = reserved[p];
            sc.reservePos[li] = p;
            if (active[li] == 0)
            {
                continue; // alone in the class on its link: below
            }
            reserveFrozen[li] = 0;
            ++active[li]; // a flow of the class is on the link: it is in `touched`
            wsum[li] += 1.0;
            push(FluidNetworkLevel{sc.reserveRate[c][p], nf + li, FluidNetworkLevel::kCapEntry});
        }
        for (uint32_t li : touched)
        {
            pushLink(li);
        }
        // A reserve alone in the class on its link rises by itself until its rate (its entry
        // first in the heap) or the link's saturation at what is left (the link's first; a tie
        // gives the same): granted here, without the heap, as nothing else depends on it.
        // A reserve stops rising at its rate (held = false) or where its link saturates: its
        // grant, taken from what its link has left. \return the rate granted
        // (Fill() writes the last filling's grants to the links)
        auto grantReserve = [&](uint32_t li, double level, bool below) {
            reserveFrozen[li] = 1;
            const uint32_t p = sc.reservePos[li];
            const double reserve = sc.reserveRate[c][p];
            const double rate = std::min(level, reserve);
            sc.granted[c][p] = rate;
            if (rate > 0)
            {
                used[li] |= bit;
            }
            if (below && rate < reserve)
            {
                held[li] |= bit;
                full[li] |= bit;
            }
            avail[li] -= rate;
            ++version[li];
            return rate;
        };
        std::size_t alone = 0;
        // (the log's level asked once per class, not per reserve: a call into ns-3's library
        // per reserve of every filling otherwise)
        const bool logAlone = g_log.IsEnabled(LOG_LOGIC);
        for (uint32_t li : reserved)
        {
            if (active[li] != 0)
            {
                continue;
            }
            const double rate = grantReserve(li, std::max(avail[li], 0.0), true);
            if (logAlone)
            {
                NS_LOG_LOGIC("reserve of class " << int(c) << " alone on link " << links[li] << ": "
                                                 << rate << " of "
                                                 << sc.reserveRate[c][sc.reservePos[li]]);
            }
            touched.push_back(li);
            ++alone;
        }
        std::size_t left = members.size() + reserved.size() - alone;
        // A flow stops rising at fill level T: its rate is weight x T.
        auto freeze = [&](uint32_t fi, double level, uint32_t stop) {
            frozen[fi] = 1;
            --left;
            double r = weight[fi] * level;
            bottleneck[fi] = stop;
            if (cap[fi] > 0 && r >= cap[fi])
            {
                r = cap[fi];
                bottleneck[fi] = kCapped;
            }
            rate[fi] = r;
            for (uint32_t k = entryStart[fi], end = filledEnd(fi); k < end; ++k)
            {
                const uint32_t li = entryLink[k];
                avail[li] -= r * std::abs(entryCoef[k]);
                ++version[li];
                if (r > 0 && entryCoef[k] > 0)
                {
                    used[li] |= bit; // (its data, or its acknowledgements with its data)
                }
                if (--active[li] == 0)
                {
                    wsum[li] = 0;
                }
                else
                {
                    wsum[li] -= weight[fi] * std::abs(entryCoef[k]);
                    markLink(li);
                }
            }
            if (guess[fi] >= 0)
            {
                // Its acknowledgements counted at a rate: from it to the rate just set, at
                // once (the links' later saturations see them as they are). The flows stopped
                // on such a link so far (of this class or above) saw the guess: right if it
                // was. The link must have room at this level for the difference where flows of
                // this recomputation of the class or above carry data over it (they come after
                // the acknowledgements); elsewhere more than it has is the flows' outside the
                // recomputation (Violations() adds them) or of the classes below (they get
                // none of it).
                for (uint32_t k = entryStart[fi] + nFilled[fi]; k < entryStart[fi + 1]; ++k)
                {
                    const double delta = -entryCoef[k] * (r - guess[fi]);
                    if (delta == 0)
                    {
                        continue;
                    }
                    const uint32_t li = entryLink[k];
                    const double tolerance = kAckTolerance * capacity[li];
                    avail[li] -= delta;
                    const bool over = avail[li] - wsum[li] * level < -tolerance;
                    if (std::abs(delta) > tolerance &&
                        ((full[li] >> c) != 0 ||
                         (over && (active[li] > 0 || (used[li] >> c) != 0))))
                    {
                        exact = false;
                        moved = std::max(moved, std::abs(delta) / capacity[li]);
                    }
                    if (active[li] > 0)
                    {
                        ++version[li];
                        markLink(li);
                    }
                }
            }
        };
        // A reserve in the heap: granted, then its link's other members rise without it.
        auto freezeReserve = [&](uint32_t li, double level, bool below) {
            --left;
            grantReserve(li, level, below);
            if (--active[li] == 0)
            {
                wsum[li] = 0;
            }
            else
            {
                wsum[li] -= 1.0;
                markLink(li);
            }
        };
        while (left > 0 && !heap.empty())
        {
            std::pop_heap(heap.begin(), heap.end(), std::greater<FluidNetworkLevel>());
            const FluidNetworkLevel e = heap.back();
            heap.pop_back();
            if (e.IsFlow())
            {
                if (e.idx >= nf)
                {
                    if (!reserveFrozen[e.idx - nf])
                    {
                        freezeReserve(e.idx - nf, e.level, false);
                    }
                }
                else if (!frozen[e.idx])
                {
                    freeze(e.idx, e.level, kCapped);
                }
                pushMarked();
                continue;
            }
            if (e.version != version[e.idx] || active[e.idx] == 0)
            {
                continue; // stale: the link's active set changed since
            }
            // The link saturates: every flow of this class still rising on it stops here
            // (not one that only acknowledges over it: its acknowledgements are served first).
            bool stops = false;
            for (uint32_t k = sc.dataBegin[e.idx]; k < sc.dataEnd[e.idx]; ++k)
            {
                const uint32_t fi = sc.dataFlow[k];
                if (sc.cls[fi] == c && !frozen[fi])
                {
                    freeze(fi, e.level, links[e.idx]);
                    stops = true;
                }
            }
            if ((sc.reserveMask[e.idx] & bit) != 0 && !reserveFrozen[e.idx])
            {
                freezeReserve(e.idx, e.level, true);
                stops = true;
            }
            if (stops)
            {
                full[e.idx] |= bit; // its capacity set rates of this class
            }
            pushMarked();
        }
        heap.clear(); // caps of flows frozen by links, stale links
        // The class's acknowledgements that rose with their flow, on links its data does not
        // cross: right unless they took more than the link had (they rose on after it
        // saturated, or after a class above filled it) where flows of this recomputation of
        // the class or above carry data (they come after the acknowledgements); else they are
        // counted at the flow's rate in the next filling. (More than the link had elsewhere is
        // the flows' outside the recomputation: Violations() adds them.)
        for (uint32_t fi : members)
        {
            if (guess[fi] >= 0 || rate[fi] == 0)
            {
                continue;
            }
            for (uint32_t k = entryStart[fi] + nFilled[fi]; k < entryStart[fi + 1]; ++k)
            {
                const uint32_t li = entryLink[k];
                if (entryCoef[k] < 0 && (used[li] >> c) != 0 &&
                    avail[li] < -kAckTolerance * capacity[li])
                {
                    exact = false;
                    moved = std::max(moved, -avail[li] / capacity[li]);
                    sc.guess[fi] = kToCount;
                    break;
                }
            }
        }
        for (uint32_t li : touched)
        {
            avail[li] = std::max(avail[li], 0.0); // what the lower classes may use
            version[li]++;
        }
    }
    for (uint32_t fi = 0; fi < nf; ++fi)
    {
        Flow& f = m_flows[flows[fi]];
        f.rate = rate[fi];
        f.bottleneck = bottleneck[fi];
    }
    return exact;
}

} // namespace ns3
