/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// FluidNetwork's rate solver: event-driven progressive filling (max-min fair per link, strict
// priority between classes, weights within one, rate caps) over the component of flows that a
// change touches, widened until the max-min conditions hold, and the next completion.
#include "fluid-network.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluidNetworkSolver");

/// A candidate fill level of the progressive filling: a link saturates or a flow hits its cap.
/// (16 B: a cap's entry is told by its version, kCapEntry; the heap's order is the level's.)
struct FluidNetworkLevel
{
    double level;     //!< fill level (bytes/s per unit of weight)
    uint32_t idx;     //!< local link or flow index
    uint32_t version; //!< the link's version when pushed (stale entries are skipped)

    /// FluidNetworkLevel::version of a flow's (or a reserve's) cap: a link's never reaches it
    /// (Scratch::version counts the changes of one filling)
    static constexpr uint32_t kCapEntry = 0xffffffffu;

    /// \return true for a flow's cap, false for a link's saturation
    bool IsFlow() const
    {
        return version == kCapEntry;
    }

    /// \param o another level \return true if this one is higher
    bool operator>(const FluidNetworkLevel& o) const
    {
        return level > o.level;
    }
};

/// Fill()'s working arrays, kept so that a recomputation allocates nothing.
struct FluidNetwork::Scratch
{
    std::vector<double> avail;                  //!< per local link: capacity left
    std::vector<double> wsum;                   //!< per local link: weights of its rising flows
    std::vector<uint32_t> active;               //!< per local link: rising flows of the class
    std::vector<uint32_t> version;              //!< per local link: changes (stale heap entries)
    std::vector<char> frozen;                   //!< per local flow
    std::vector<std::vector<uint32_t>> byClass; //!< local flows by class
    std::vector<uint32_t> touched;              //!< local links of the class being filled
    std::vector<FluidNetworkLevel> heap;        //!< candidate levels (a min-heap)
    std::vector<uint32_t> links;   //!< Recompute(): links whose flows or rates may change
    std::vector<uint32_t> members; //!< Recompute(): flows whose rates are computed
    std::vector<double> old;       //!< Recompute(): their rates before
    std::vector<uint32_t> more;    //!< Violations(): flows to add
    std::vector<std::vector<uint32_t>> reserves; //!< Fill(): local links by reserve class
    std::vector<char> reserveFrozen;             //!< Fill(): per local link
    std::vector<double> base;     //!< Fill(): per local link, capacity less the outside
    std::vector<double> guess;    //!< Fill(): per local flow, its acknowledgements' rate
    std::vector<uint8_t> full;    //!< Fill(): per local link, classes it bottlenecked
    std::vector<uint8_t> used;    //!< Fill(): per local link, classes whose data it carries
    std::vector<uint32_t> acking; //!< Fill(): local flows with acknowledgements elsewhere
    // Fill(): the members' entries and the links' members, copied together once per Fill()
    // (the fillings read them in order, not the flow and link records at random)
    std::vector<uint32_t> entryStart; //!< per local flow + 1: its first entry
    std::vector<uint32_t> entryLink;  //!< per entry: the local link (Flow::links)
    std::vector<double> entryCoef;    //!< per entry: Flow::coef
    std::vector<uint32_t> nPath;      //!< per local flow: Flow::nPath
    std::vector<uint8_t> cls;         //!< per local flow: its class
    std::vector<double> weight;       //!< per local flow: its weight
    std::vector<double> cap;          //!< per local flow: its rate cap (0: none)
    std::vector<double> rate;         //!< per local flow: its rate in the filling
    std::vector<uint32_t> bottleneck; //!< per local flow: its bottleneck in the filling
    std::vector<double> capacity;     //!< per local link: its capacity
    std::vector<uint32_t> dataStart;  //!< per local link + 1: its first data entry
    /// per data entry: a member with data on the link (coef > 0), in the link's flow order
    std::vector<uint32_t> dataFlow;
    // The links' reserves, read and set here (not in the link records at random); the last
    // filling's grants are written to the links by Violations(), which reads them next
    std::vector<uint8_t> reserveMask; //!< per local link: Link::reserveMask
    std::vector<uint8_t> held;        //!< per local link: Link::reserveHeld as filled
    /// per class, beside `reserves`: Link::ClassState::reserve
    std::vector<std::vector<double>> reserveRate;
    /// per class, beside `reserves`: Link::ClassState::granted as filled
    std::vector<std::vector<double>> granted;
    /// FillOnce(): per local link, its index in `reserves` of the class being filled
    std::vector<uint32_t> reservePos;
    /// FillOnce(): the largest move of an acknowledgement load counted at a rate that made the
    /// filling inexact, as a share of its link's capacity (0 if exact)
    double moved{0};
};

void
FluidNetwork::ScratchDeleter::operator()(Scratch* s) const
{
    delete s;
}

namespace
{
/// Relative tolerance of the max-min conditions (rates are sums of a few doubles).
constexpr double kTolerance = 1e-9;
/// Rounds of widening after which a recomputation takes the whole connected component.
constexpr int kMaxRounds = 8;
/**
 * The acknowledgement loads are solved to this share of their links' capacity: one that moves
 * by at most that much from one filling to the next has converged, and a link that carries
 * acknowledgements is full (or not overfull) for the max-min conditions within it. A flow's
 * change moves the acknowledgements of the flows bottlenecked behind it by 84/1082 of it, and
 * theirs the next ones' by as much again (around a ring): at 1e-9 a change of a ring member
 * went 8 links on (one round of widening, or one more filling, each), at this share 5.
 */
constexpr double kAckTolerance = 1e-7;
/// The class of the acknowledgements (the fabric's control class, served first).
constexpr uint8_t kAckClass = 7;
/// Scratch::guess of a flow whose acknowledgements rise with it in its class's filling.
constexpr double kRising = -1;
/// Scratch::guess of such a flow whose acknowledgements are to be counted at its rate.
constexpr double kToCount = -2;

/// \return the ns step at or after t seconds from now (exact fluid time, rounded up; a
/// millionth of a ns is taken as rounding error of the division, not as a step)
Time
CeilNs(double seconds)
{
    // A rate left over by rounding (a class below a saturated link's top classes) can be a
    // few bytes/s: its drain time is clamped to ~31 years instead of overflowing the ns count.
    const double ns = std::min(std::ceil(seconds * 1e9 - 1e-6), 1e18);
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
    for (int round = 0;; ++round)
    {
        Fill(members, links);
        const std::vector<uint32_t>& more = Violations(links);
        if (more.empty())
        {
            break;
        }
        if (round + 1 >= kMaxRounds)
        {
            closure();
            Fill(members, links);
            Violations(links); // the loads (no flow outside is left on these links)
            break;
        }
        for (uint32_t s : more)
        {
            add(s);
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
    const std::size_t nl = links.size();
    const std::size_t nf = flows.size();
    Scratch& sc = *m_scratch;
    std::vector<std::vector<uint32_t>>& byClass = sc.byClass;
    byClass.resize(N_CLASSES);
    for (std::vector<uint32_t>& members : byClass)
    {
        members.clear();
    }
    // A flow whose acknowledgements cross links its data does not: they are counted at the
    // rate it had (guess >= 0), served before every class, and set to its new rate when it
    // is frozen; the filling is repeated until no such rate moves where it changes another
    // (the previous filling's rates are the next guesses). A flow that had no rate: in the
    // first filling they rise with it in its class (kRising), without stopping it where such a
    // link saturates; where that proves wrong (they would take more than the link has left, or
    // a class above saturated it: they are served first), they are counted from then on.
    std::vector<double>& guess = sc.guess;
    std::vector<uint32_t>& acking = sc.acking;
    guess.assign(nf, 0.0);
    acking.clear();
    sc.nPath.resize(nf);
    sc.cls.resize(nf);
    sc.weight.resize(nf);
    sc.cap.resize(nf);
    sc.rate.resize(nf);
    sc.bottleneck.resize(nf);
    for (std::size_t i = 0; i < nf; ++i)
    {
        Flow& f = m_flows[flows[i]];
        f.local = uint32_t(i);
        byClass[f.spec.cls].push_back(uint32_t(i));
        sc.nPath[i] = f.nPath;
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
    }
    std::vector<double>& base = sc.base;
    base.assign(nl, 0.0);
    sc.capacity.resize(nl);
    sc.reserveMask.resize(nl);
    sc.reservePos.resize(nl);
    sc.dataStart.resize(nl + 1);
    sc.dataFlow.clear();
    // The links' reserves (SetLinkReserve) are filled whenever their link is in the
    // recomputation, each as a flow of weight 1 on its link capped at its rate; in the heap
    // a reserve is the flow index nf + its local link.
    const Time now = Simulator::Now();
    std::vector<std::vector<uint32_t>>& reserves = sc.reserves;
    reserves.resize(N_CLASSES);
    sc.reserveRate.resize(N_CLASSES);
    sc.granted.resize(N_CLASSES);
    for (uint8_t c = 0; c < N_CLASSES; ++c)
    {
        reserves[c].clear();
        sc.reserveRate[c].clear();
    }
    for (std::size_t i = 0; i < nl; ++i)
    {
        PrefetchAhead(*this, m_links, m_flows, links, i, true);
        Link& link = m_links[links[i]];
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
        // What the flows outside the recomputation take (at their rates, acknowledgements
        // included) is not available. The members with data here are the ones it stops
        // where it saturates.
        double outside = 0;
        sc.dataStart[i] = uint32_t(sc.dataFlow.size());
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
        base[i] = link.capacity - outside;
    }
    sc.dataStart[nl] = uint32_t(sc.dataFlow.size());
    for (uint8_t c = 0; c < N_CLASSES; ++c)
    {
        sc.granted[c].resize(reserves[c].size());
    }
    sc.entryStart.resize(nf + 1);
    sc.entryLink.clear();
    sc.entryCoef.clear();
    for (std::size_t i = 0; i < nf; ++i)
    {
        const Flow& f = m_flows[flows[i]];
        sc.entryStart[i] = uint32_t(sc.entryLink.size());
        for (std::size_t j = 0; j < f.links.size(); ++j)
        {
            sc.entryLink.push_back(m_links[f.links[j]].local);
            sc.entryCoef.push_back(f.coef[j]);
        }
    }
    sc.entryStart[nf] = uint32_t(sc.entryLink.size());
    for (uint32_t filling = 1;; ++filling)
    {
        ++m_fillings;
        if (FillOnce(flows, links))
        {
            break;
        }
        if (filling >= m_maxAckFillings)
        {
            // Taken as they are: GetUnconvergedFillings() counts it, the run's summary warns.
            ++m_unconvergedFillings;
            NS_LOG_WARN("acknowledgement loads not converged after "
                        << filling << " fillings of " << flows.size() << " flows (a load moved by "
                        << m_scratch->moved << " of its link's capacity)");
            m_ackUnconvergedTrace(uint32_t(flows.size()), filling, m_scratch->moved);
            break;
        }
        for (uint32_t fi : acking)
        {
            if (guess[fi] != kRising)
            {
                guess[fi] = sc.rate[fi]; // counted, or to be counted from now on
            }
        }
    }
    // (Violations(), which reads the link records next, writes the grants to them)
}

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
    const std::vector<uint32_t>& nPath = sc.nPath;
    const std::vector<double>& weight = sc.weight;
    const std::vector<double>& cap = sc.cap;
    const std::vector<double>& capacity = sc.capacity;
    // The acknowledgements counted at a rate, on links the data does not cross: served first
    // (class 7), before the data of every class.
    for (uint32_t fi : sc.acking)
    {
        for (uint32_t k = entryStart[fi] + nPath[fi]; guess[fi] > 0 && k < entryStart[fi + 1]; ++k)
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
    // The entries of a flow filled with it: its path, its acknowledgements on links its path
    // crosses (coef > 0), and the others while they rise with it (not counted at a rate).
    auto filled = [&](uint32_t fi, uint32_t k) {
        return k < entryStart[fi] + nPath[fi] || entryCoef[k] > 0 || guess[fi] < 0;
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
        std::vector<uint32_t>& touched = m_scratch->touched;
        touched.clear();
        for (uint32_t fi : members)
        {
            for (uint32_t k = entryStart[fi]; k < entryStart[fi + 1]; ++k)
            {
                if (!filled(fi, k))
                {
                    continue;
                }
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
        for (uint32_t li : reserved)
        {
            if (active[li] != 0)
            {
                continue;
            }
            const double rate = grantReserve(li, std::max(avail[li], 0.0), true);
            NS_LOG_LOGIC("reserve of class " << int(c) << " alone on link " << links[li] << ": "
                                             << rate << " of "
                                             << sc.reserveRate[c][sc.reservePos[li]]);
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
            for (uint32_t k = entryStart[fi]; k < entryStart[fi + 1]; ++k)
            {
                if (!filled(fi, k))
                {
                    continue;
                }
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
                    pushLink(li);
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
                for (uint32_t k = entryStart[fi] + nPath[fi]; k < entryStart[fi + 1]; ++k)
                {
                    const double delta = -entryCoef[k] * (r - guess[fi]);
                    if (entryCoef[k] > 0 || delta == 0)
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
                        pushLink(li);
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
                pushLink(li);
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
                continue;
            }
            if (e.version != version[e.idx] || active[e.idx] == 0)
            {
                continue; // stale: the link's active set changed since
            }
            // The link saturates: every flow of this class still rising on it stops here
            // (not one that only acknowledges over it: its acknowledgements are served first).
            bool stops = false;
            for (uint32_t k = sc.dataStart[e.idx]; k < sc.dataStart[e.idx + 1]; ++k)
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
            for (uint32_t k = entryStart[fi] + nPath[fi]; k < entryStart[fi + 1]; ++k)
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
