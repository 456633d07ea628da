/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// FluidNetwork's rate solver: event-driven progressive filling (max-min fair per link, strict
// priority between classes, weights within one, rate caps) over the component of flows that a
// change touches, widened until the max-min conditions hold, and the next completion.
#include "fluid-network-scratch.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluidNetworkSolver");

void
FluidNetwork::ScratchDeleter::operator()(Scratch* s) const
{
    delete s;
}

using fluidsolver::kAckTolerance;
using fluidsolver::kRising;

namespace
{
/// Relative tolerance of the max-min conditions (rates are sums of a few doubles).
constexpr double kTolerance = 1e-9;
/// Rounds of widening after which a recomputation takes the whole connected component.
constexpr int kMaxRounds = 8;
/**
 * Members from which a round of widening is a large one: its filling is taken once, without
 * iterating the acknowledgement loads to their fixed point, unless it is the last round, and the
 * flows bottlenecked on the paths of the flows it adds join with them (the analytic background's
 * intervals: hundreds of flows in 4-8 rounds). A smaller recomputation iterates every round's
 * loads and adds the flows of the links that fail only (the outputs are those of the code before,
 * byte for byte, where every recomputation is smaller).
 */
constexpr std::size_t kLargeRound = 64;
/// The class of the acknowledgements (the fabric's control class, served first).
constexpr uint8_t kAckClass = 7;

/// \return the ns step at or after t seconds from now (exact fluid time, rounded up; a
/// millionth of a ns is taken as rounding error of the division, not as a step)
Time
CeilNs(double seconds)
{
    // A rate left over by rounding (a class below a saturated link's top classes), or a flow
    // the fluid DCQCN holds at its minimum cap, can be a few bytes/s: its drain time is clamped
    // to ~31 years, and to a quarter of what the time grid holds (26 days at Time::PS, as
    // panama-shared-cluster sets it), instead of overflowing the count of time steps.
    const double grid = double(Time::Max().GetNanoSeconds()) / 4;
    const double ns = std::min(std::ceil(seconds * 1e9 - 1e-6), std::min(1e18, grid));
    return NanoSeconds(int64_t(std::max(ns, 0.0)));
}

/**
 * Ask for what a loop over the links of a recomputation reads, ahead of it: the link records
 * four links ahead, their flow lists two ahead, the records of the next link's flows (the first
 * 16). The records (~300-400 B each, a few of their fields read) are read at random, and a
 * recomputation over a ring's links waits on one cache miss after the other without this.
 * Fill() reads three or four of a link record's six lines (the first two, and those of the
 * classes of its reserves and flows: ProgressReserves(), the grants), so it asks for the whole
 * record (`whole`, FluidNetwork::PrefetchLink()); Violations() reads the records after Fill()
 * did, and asks for the first two. A flow's class, weight and cap are in its record's second
 * line, its rate, stamp and bottleneck in the third.
 * \param net the network \param all its links \param flows its flows
 * \param order the loop's link ids \param i the loop's position
 * \param whole ask for the link records' every line
 */
template <class Links, class Flows>
void
PrefetchAhead(const FluidNetwork& net,
              const Links& all,
              const Flows& flows,
              const std::vector<uint32_t>& order,
              size_t i,
              bool whole)
{
    const std::size_t n = order.size();
    if (i + 4 < n)
    {
        if (whole)
        {
            net.PrefetchLink(order[i + 4]);
        }
        else
        {
            const auto& l = all[order[i + 4]];
            __builtin_prefetch(&l.capacity);
            __builtin_prefetch(&l.local);
        }
    }
    if (i + 2 < n)
    {
        const auto& l = all[order[i + 2]];
        __builtin_prefetch(l.flows.data());
        __builtin_prefetch(l.coefs.data());
    }
    if (i + 1 < n)
    {
        const auto& l = all[order[i + 1]];
        const std::size_t m = std::min<std::size_t>(l.flows.size(), 16);
        for (std::size_t j = 0; j < m; ++j)
        {
            const auto& f = flows[l.flows[j]];
            __builtin_prefetch(&f.stamp);
            __builtin_prefetch(&f.spec.cls);
        }
    }
}
} // namespace

void
FluidNetwork::Recompute()
{
    const Time now = Simulator::Now();
    ++m_recomputations;
    if (!m_scratch)
    {
        m_scratch.reset(new Scratch);
    }
    const uint64_t stamp = ++m_stamp;
    // `links`: the links whose flows or rates may change; `members`: the flows whose rates are
    // computed (their old rates in `old`). Every other flow keeps its rate.
    // (kept between recomputations: no allocation per recomputation)
    std::vector<uint32_t>& links = m_scratch->links;
    std::vector<uint32_t>& members = m_scratch->members;
    std::vector<double>& old = m_scratch->old;
    links.clear();
    members.clear();
    old.clear();
    m_scratch->filledFlows = 0; // Fill() starts its arrays anew
    m_scratch->filledLinks = 0;
    auto markLinks = [&](const Flow& f) {
        for (uint32_t l : f.links)
        {
            if (m_links[l].stamp != stamp)
            {
                m_links[l].stamp = stamp;
                links.push_back(l);
            }
        }
    };
    auto add = [&](uint32_t s) {
        Flow& f = m_flows[s];
        if (f.stamp == stamp)
        {
            return;
        }
        f.stamp = stamp;
        Progress(f, now);
        members.push_back(s);
        old.push_back(f.rate);
        markLinks(f);
    };
    // The drained flows leave their links; the started and changed ones are recomputed.
    for (uint32_t s : m_touched)
    {
        Flow& f = m_flows[s];
        if (!f.live || f.stamp == stamp)
        {
            continue;
        }
        if (f.finished)
        {
            f.stamp = stamp;
            Progress(f, now);
            markLinks(f);
            Detach(s);
        }
        else
        {
            add(s);
        }
    }
    m_touched.clear();
    // The whole connected component: every flow on a link of the recomputation, transitively.
    auto closure = [&]() {
        for (std::size_t i = 0; i < links.size(); ++i)
        {
            const std::vector<uint32_t>& on = m_links[links[i]].flows;
            for (std::size_t j = 0; j < on.size(); ++j)
            {
                add(on[j]); // may grow `links`, never this link's flows
            }
        }
    };
    if (!m_incremental)
    {
        closure();
    }
    // Fill the members with the others' rates fixed; where a max-min condition then fails on a
    // changed link, the flows there join and the filling is redone. At the fixed point every
    // flow has a valid bottleneck, which makes the allocation the (unique) max-min one.
    // A large round (kLargeRound) takes its filling once, without iterating the
    // acknowledgement loads to their fixed point (a next round's filling starts from its
    // rates); once no condition fails, the loads are brought to their fixed point and the
    // conditions checked again.
    for (int round = 0;; ++round)
    {
        m_scratch->converge = members.size() < kLargeRound;
        Fill(members, links);
        const std::vector<uint32_t>* more = &Violations(links);
        if (more->empty() && !m_scratch->converged)
        {
            m_scratch->converge = true;
            m_scratch->resume = true; // the same members: the fixed point from the last filling
            Fill(members, links);
            m_scratch->resume = false;
            more = &Violations(links);
        }
        if (more->empty())
        {
            break;
        }
        if (round + 1 >= kMaxRounds)
        {
            closure();
            m_scratch->converge = true;
            Fill(members, links);
            Violations(links); // the loads (no flow outside is left on these links)
            break;
        }
        const std::size_t joined = members.size();
        for (uint32_t s : *more)
        {
            add(s);
        }
        // A joining flow's rate moves: the flows bottlenecked on its path would fail their
        // conditions in the next round; they join now (a round fewer).
        const std::size_t end = members.size() >= kLargeRound ? members.size() : joined;
        for (std::size_t i = joined; i < end; ++i)
        {
            const Flow& f = m_flows[members[i]];
            for (uint32_t j = 0; j < f.nPath; ++j)
            {
                const uint32_t l = f.links[j];
                for (uint32_t g : m_links[l].flows)
                {
                    if (m_flows[g].bottleneck == l)
                    {
                        add(g);
                    }
                }
            }
        }
    }
    m_flowsRecomputed += members.size();
    m_maxFlowsRecomputed = std::max<uint64_t>(m_maxFlowsRecomputed, members.size());
    for (std::size_t i = 0; i < members.size(); ++i)
    {
        Flow& f = m_flows[members[i]];
        if (f.rate == old[i] && (f.done.IsRunning() || f.rate == 0))
        {
            continue; // same rate: its completion event stands
        }
        f.done.Cancel();
        if (f.rate > 0)
        {
            f.done = Simulator::Schedule(CeilNs(f.remaining / f.rate),
                                         &FluidNetwork::Drained,
                                         this,
                                         members[i]);
        }
    }
    for (uint32_t l : links)
    {
        ++m_links[l].version; // rates, bottlenecks or flows changed here
    }
    NS_LOG_DEBUG("recomputed " << members.size() << " flows over " << links.size() << " links");
}

// Called right after Fill() with the same links (Recompute()): it also writes the grants of
// Fill()'s last filling to the link records, which it reads anyway.
const std::vector<uint32_t>&
FluidNetwork::Violations(const std::vector<uint32_t>& links)
{
    std::vector<uint32_t>& more = m_scratch->more;
    more.clear();
    const Scratch& sc = *m_scratch;
    uint32_t next[N_CLASSES] = {}; // per class: the next grant of Scratch::granted
    for (std::size_t i = 0; i < links.size(); ++i)
    {
        PrefetchAhead(*this, m_links, m_flows, links, i, false);
        const uint32_t l = links[i];
        Link& link = m_links[l];
        // Fill()'s grants, in the order of its `reserves` (the same links, in the same order)
        for (unsigned mask = link.reserveMask; mask != 0; mask &= mask - 1)
        {
            const int c = __builtin_ctz(mask);
            link.byClass[c].granted = sc.granted[c][next[c]++];
            link.reserveHeld = sc.held[i];
        }
        // Per class: the load of the class and the highest level (rate per unit of weight).
        double load[N_CLASSES] = {};
        double top[N_CLASSES] = {};
        double tolerance = kTolerance; // (kAckTolerance on a link with acknowledgements)
        for (std::size_t j = 0; j < link.flows.size(); ++j)
        {
            const Flow& f = m_flows[link.flows[j]];
            if (link.coefs[j] < 0)
            {
                load[kAckClass] -= f.rate * link.coefs[j]; // acknowledgements: no level here
                tolerance = kAckTolerance;
                continue;
            }
            load[f.spec.cls] += f.rate * link.coefs[j];
            top[f.spec.cls] = std::max(top[f.spec.cls], f.rate / f.spec.weight);
        }
        for (unsigned mask = link.reserveMask; mask != 0; mask &= mask - 1)
        {
            // a reserve: weight 1, on this link only (another class has no grant)
            const int c = __builtin_ctz(mask);
            load[c] += link.byClass[c].granted;
            top[c] = std::max(top[c], link.byClass[c].granted);
        }
        double atLeast[N_CLASSES]; // load of the class and the classes above it
        double sum = 0;
        for (int c = N_CLASSES - 1; c >= 0; --c)
        {
            sum += load[c];
            atLeast[c] = sum;
        }
        link.load = sum;
        // Acknowledgements of this recomputation's flows may take more than the flows outside
        // it left (they are served first): then those flows join.
        bool holds = sum <= link.capacity * (1 + tolerance) + 1e-6;
        for (std::size_t j = 0; holds && j < link.flows.size(); ++j)
        {
            const Flow& f = m_flows[link.flows[j]];
            if (f.bottleneck != l)
            {
                continue;
            }
            const double level = f.rate / f.spec.weight;
            if (atLeast[f.spec.cls] < link.capacity * (1 - tolerance) ||
                top[f.spec.cls] > level * (1 + kTolerance) + 1e-6)
            {
                holds = false;
                break;
            }
        }
        for (uint8_t c = 0; holds && link.reserveHeld != 0 && c < N_CLASSES; ++c)
        {
            // a reserve held below its rate: bottlenecked here, as a flow would be
            if ((link.reserveHeld >> c & 1) != 0 &&
                (atLeast[c] < link.capacity * (1 - tolerance) ||
                 top[c] > link.byClass[c].granted * (1 + kTolerance) + 1e-6))
            {
                holds = false;
            }
        }
        if (!holds)
        {
            for (uint32_t s : link.flows)
            {
                if (m_flows[s].stamp != m_stamp)
                {
                    more.push_back(s);
                }
            }
        }
    }
    return more;
}

void
FluidNetwork::Fill(const std::vector<uint32_t>& flows, const std::vector<uint32_t>& links)
{
    // Component-local arrays: links by their index in `links`, flows by theirs in `flows`.
    // (scratch vectors kept between recomputations: no allocation per recomputation)
    // A round after the first has the same members and links first, then the new ones: only
    // the new ones are copied (the copies of the others are the same).
    const std::size_t nl = links.size();
    const std::size_t nf = flows.size();
    Scratch& sc = *m_scratch;
    const std::size_t f0 = sc.filledFlows;
    const std::size_t l0 = sc.filledLinks;
    std::vector<std::vector<uint32_t>>& byClass = sc.byClass;
    std::vector<double>& guess = sc.guess;
    std::vector<uint32_t>& acking = sc.acking;
    std::vector<std::vector<uint32_t>>& reserves = sc.reserves;
    // The fillings from the given one on, each after the first with the last one's rates as
    // the guesses, until the acknowledgement loads are exact (after one filling unless
    // Scratch::converge: a round that widens takes one).
    auto fillings = [&](uint32_t first) {
        for (uint32_t filling = first;; ++filling)
        {
            if (filling > 1)
            {
                for (uint32_t fi : acking)
                {
                    if (guess[fi] != kRising)
                    {
                        guess[fi] = sc.rate[fi]; // counted, or to be counted from now on
                    }
                }
            }
            ++m_fillings;
            sc.converged = FillOnce(flows, links);
            if (sc.converged || !sc.converge)
            {
                break;
            }
            if (filling >= m_maxAckFillings)
            {
                // Taken as they are: GetUnconvergedFillings() counts it, the run's summary warns.
                ++m_unconvergedFillings;
                NS_LOG_WARN("acknowledgement loads not converged after "
                            << filling << " fillings of " << flows.size()
                            << " flows (a load moved by " << m_scratch->moved
                            << " of its link's capacity)");
                m_ackUnconvergedTrace(uint32_t(flows.size()), filling, m_scratch->moved);
                sc.converged = true; // (no more fillings)
                break;
            }
        }
    };
    if (sc.resume)
    {
        // The same members and links as the last Fill(), whose one filling was inexact: the
        // fixed point goes on from it, as within one Fill()
        fillings(2);
        return;
    }
    byClass.resize(N_CLASSES);
    reserves.resize(N_CLASSES);
    sc.reserveRate.resize(N_CLASSES);
    sc.granted.resize(N_CLASSES);
    for (uint8_t c = 0; c < N_CLASSES; ++c)
    {
        if (f0 == 0)
        {
            byClass[c].clear();
        }
        if (l0 == 0)
        {
            reserves[c].clear();
            sc.reserveRate[c].clear();
        }
    }
    if (f0 == 0)
    {
        acking.clear();
    }
    // A flow whose acknowledgements cross links its data does not: they are counted at the
    // rate it had (guess >= 0), served before every class, and set to its new rate when it
    // is frozen; the filling is repeated until no such rate moves where it changes another
    // (the previous filling's rates are the next guesses). A flow that had no rate: in the
    // first filling they rise with it in its class (kRising), without stopping it where such a
    // link saturates; where that proves wrong (they would take more than the link has left, or
    // a class above saturated it: they are served first), they are counted from then on.
    // (The members of the rounds before: their rates are the last filling's, Scratch::rate.)
    for (uint32_t fi : acking)
    {
        guess[fi] = sc.rate[fi] > 0 ? sc.rate[fi] : kRising;
    }
    if (f0 == 0)
    {
        guess.assign(nf, 0.0);
    }
    guess.resize(nf, 0.0);
    sc.nFilled.resize(nf);
    sc.cls.resize(nf);
    sc.weight.resize(nf);
    sc.cap.resize(nf);
    sc.rate.resize(nf);
    sc.bottleneck.resize(nf);
    // The links whose outside sums and data entries are computed: the new ones, and those of
    // the rounds before that a new member crosses (it is no longer outside).
    std::vector<char>& redo = sc.redo;
    redo.assign(nl, 0);
    std::fill(redo.begin() + l0, redo.end(), 1);
    for (std::size_t i = f0; i < nf; ++i)
    {
        Flow& f = m_flows[flows[i]];
        f.local = uint32_t(i);
        byClass[f.spec.cls].push_back(uint32_t(i));
        sc.cls[i] = f.spec.cls;
        sc.weight[i] = f.spec.weight;
        sc.cap[i] = f.spec.rateCap;
        sc.bottleneck[i] = f.bottleneck;
        for (std::size_t j = f.nPath; j < f.links.size(); ++j)
        {
            if (f.coef[j] < 0)
            {
                // (a flow that had no rate: they rise with it in the first filling)
                guess[i] = f.rate > 0 ? f.rate : kRising;
                acking.push_back(uint32_t(i));
                break;
            }
        }
        for (std::size_t j = 0; l0 > 0 && j < f.links.size(); ++j)
        {
            const uint32_t li = m_links[f.links[j]].local; // (a new link's is not set yet)
            if (li < l0 && links[li] == f.links[j])
            {
                redo[li] = 1;
            }
        }
    }
    std::vector<uint32_t>& redoLinks = sc.redoLinks;
    redoLinks.clear();
    for (std::size_t i = 0; i < nl; ++i)
    {
        if (redo[i])
        {
            redoLinks.push_back(links[i]);
        }
    }
    std::vector<double>& base = sc.base;
    base.resize(nl);
    sc.capacity.resize(nl);
    sc.reserveMask.resize(nl);
    sc.reservePos.resize(nl);
    // The links' reserves (SetLinkReserve) are filled whenever their link is in the
    // recomputation, each as a flow of weight 1 on its link capped at its rate; in the heap
    // a reserve is the flow index nf + its local link. (A new link's come after the others'.)
    const Time now = Simulator::Now();
    const std::size_t nOld = redoLinks.size() - (nl - l0); // links of the rounds before
    // The members with data on each link: a redone link's list appended to dataFlow (in a
    // new recomputation, after clearing it), the others' left where they are.
    if (l0 == 0)
    {
        sc.dataFlow.clear();
    }
    sc.dataBegin.resize(nl);
    sc.dataEnd.resize(nl);
    for (std::size_t r = 0; r < redoLinks.size(); ++r)
    {
        PrefetchAhead(*this, m_links, m_flows, redoLinks, r, true);
        Link& link = m_links[redoLinks[r]];
        std::size_t i = link.local;
        if (r >= nOld)
        {
            // a new link
            i = l0 + (r - nOld);
            link.local = uint32_t(i);
            sc.capacity[i] = link.capacity;
            sc.reserveMask[i] = link.reserveMask;
            if (link.reserveMask != 0)
            {
                ProgressReserves(link, now);
                for (uint8_t c = 0; c < N_CLASSES; ++c)
                {
                    if (link.reserveMask >> c & 1)
                    {
                        reserves[c].push_back(uint32_t(i));
                        sc.reserveRate[c].push_back(link.byClass[c].reserve);
                    }
                }
            }
        }
        // What the flows outside the recomputation take (at their rates, acknowledgements
        // included) is not available. The members with data here are the ones it stops
        // where it saturates.
        double outside = 0;
        sc.dataBegin[i] = uint32_t(sc.dataFlow.size());
        for (std::size_t j = 0; j < link.flows.size(); ++j)
        {
            const Flow& f = m_flows[link.flows[j]];
            if (f.stamp != m_stamp)
            {
                outside += f.rate * std::abs(link.coefs[j]);
            }
            else if (link.coefs[j] > 0)
            {
                sc.dataFlow.push_back(f.local);
            }
        }
        sc.dataEnd[i] = uint32_t(sc.dataFlow.size());
        base[i] = link.capacity - outside;
    }
    for (uint8_t c = 0; c < N_CLASSES; ++c)
    {
        sc.granted[c].resize(reserves[c].size());
    }
    // The new members' entries, after those of the rounds before.
    sc.entryStart.resize(nf + 1);
    if (f0 == 0)
    {
        sc.entryLink.clear();
        sc.entryCoef.clear();
    }
    else
    {
        sc.entryLink.resize(sc.entryStart[f0]);
        sc.entryCoef.resize(sc.entryStart[f0]);
    }
    // A member's entries: its path, its acknowledgement entries > 0 (on links its path
    // crosses: filled with it, nFilled ends them), then its other acknowledgement entries, each
    // part in the flow's order (a link's entries of one flow keep their order).
    for (std::size_t i = f0; i < nf; ++i)
    {
        const Flow& f = m_flows[flows[i]];
        sc.entryStart[i] = uint32_t(sc.entryLink.size());
        for (std::size_t j = 0; j < f.links.size(); ++j)
        {
            if (j < f.nPath || f.coef[j] > 0)
            {
                sc.entryLink.push_back(m_links[f.links[j]].local);
                sc.entryCoef.push_back(f.coef[j]);
            }
        }
        sc.nFilled[i] = uint32_t(sc.entryLink.size()) - sc.entryStart[i];
        for (std::size_t j = f.nPath; j < f.links.size(); ++j)
        {
            if (!(f.coef[j] > 0))
            {
                sc.entryLink.push_back(m_links[f.links[j]].local);
                sc.entryCoef.push_back(f.coef[j]);
            }
        }
    }
    sc.entryStart[nf] = uint32_t(sc.entryLink.size());
    sc.filledFlows = uint32_t(nf);
    sc.filledLinks = uint32_t(nl);
    fillings(1);
    // (Violations(), which reads the link records next, writes the grants to them)
}

} // namespace ns3
