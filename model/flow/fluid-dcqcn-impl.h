/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLUID_DCQCN_IMPL_H
#define MLNET_FLUID_DCQCN_IMPL_H

// FluidDcqcn's state (its owners' reaction points and flows, its marking links' queues) and the
// per-step helpers that read and write it. Private to fluid-dcqcn.cc: not a public header.

#include "fluid-dcqcn.h"
#include "fluid-network.h"

#include "ns3/dcqcn.h"
#include "ns3/fabric-switch.h"
#include "ns3/object-factory.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <unordered_map>
#include <vector>

namespace ns3
{

/// The owners' and the marking links' state.
struct FluidDcqcn::Impl
{
    /// A controlled owner: its reaction point and its flow.
    struct Owner
    {
        Ptr<RdmaCongestionOps> ops;
        RdmaCcState cc;
        double payloadPerWire{1};
        double ownCap{0};    //!< the owner's cap (bytes/s, 0 = none)
        double applied{0};   //!< the cap in force on the flow (bytes/s, 0 = none)
        double through{0};   //!< what leaves its path (bytes/s) in the step after the last
        uint8_t cls{3};      //!< its traffic class
        uint64_t flow{0};    //!< its flow in the network
        bool active{false};  //!< the flow transmits
        double remaining{0}; //!< the flow's bytes left at the last step
        double sent{0};      //!< the flow's bytes the network carried in the last step
        /// what it offers its path in the step after the last (bytes/s): its sending rate, no
        /// more than its bytes not queued yet over the step
        double offer{0};
        double in{0};      //!< scratch: what it offers in the step being solved (bytes/s)
        double pred{0};    //!< what left its path in the last step by the model (bytes)
        bool fresh{false}; //!< started after the last step
        /// the part of the step it sends in (fractions): from its start if it started within
        /// the step, up to when its bytes not queued are out if that comes before the end
        double winFrom{0};
        double winTo{1};
        uint32_t firstQueue{0}; //!< its path's first marking link: its bytes queue from there on
        bool cnpSent{false};
        Time lastCnp;             //!< its notification point's last CNP (a marked frame's time)
        Time from;                //!< its flow's start
        std::vector<Time> arrive; //!< CNPs on their way back: when they reach it (ascending)
        std::vector<uint32_t> path;
        std::vector<double> coef; //!< bytes on path[i] per byte of the flow
        std::vector<double> held; //!< its bytes queued at path[i] (flow bytes)
        std::vector<double> dep;  //!< scratch: its queued bytes leaving path[i] in the step
        Feedback feedback;        //!< how its CNPs come back
    };

    /// Bytes of one flow that came into a link's queue together (one step's arrival).
    struct Segment
    {
        Owner* o;       //!< the flow's owner
        double bytes;   //!< flow bytes
        double coef;    //!< link bytes per flow byte
        uint64_t batch; //!< the step they came in (segments of one batch are interleaved)
        uint32_t hop;   //!< the link's position on the owner's path
    };

    /// An arrival of a step at a link's queue (flow bytes), within [from, to] of the step.
    struct Arrival
    {
        uint32_t slot;
        Owner* o;
        uint32_t hop;
        double bytes;
        double from;
        double to;
    };

    /// Pieces a step's arrivals at a queue are cut into at most (the batches' numbering).
    static constexpr uint64_t MAX_PIECES = 64;

    /// A link's FIFO queue of one class: batches in arrival order.
    struct Fifo
    {
        std::deque<Segment> segs;
        double total{0}; //!< link bytes queued
        double h{0};     //!< scratch: link bytes it serves in the step being solved
    };

    /// A marking link's state.
    static constexpr uint32_t N_CLASSES = FluidNetwork::N_CLASSES; //!< classes per link

    struct Marking
    {
        uint64_t kmin{0};
        uint64_t kmax{0};
        double pmax{0};
        double q[N_CLASSES]{}; //!< virtual queue per class (bytes)
        double p[N_CLASSES]{}; //!< marking probability per class
    };

    /// The network this object is aggregated to. Not a Ptr: the aggregate holds this object,
    /// so a Ptr back would be a reference cycle that nothing breaks unless someone disposes it.
    FluidNetwork* net{nullptr};
    ObjectFactory factory;
    std::unordered_map<const void*, Owner> owners;
    /// before an owner's first flow: its own factory (SetOwnerCongestionControl) and its
    /// iteration's bytes (StartIteration)
    std::unordered_map<const void*, ObjectFactory> ownFactory;
    std::unordered_map<const void*, Feedback> ownFeedback; //!< before an owner's first flow
    std::unordered_map<const void*, uint64_t> ownIteration;
    std::vector<const void*> order;  //!< owners in the order they came (deterministic steps)
    std::vector<int32_t> markOf;     //!< per link: index in marks, or -1
    std::vector<Marking> marks;      //!< marking links
    std::vector<uint32_t> markLinks; //!< marks[i]'s link
    std::vector<int32_t> fifoOf;     //!< per link: index in fifos, or -1 (no queue yet)
    std::vector<std::array<Fifo, N_CLASSES>> fifos; //!< per queueing link: a FIFO per class
    // scratch of a step, per (link, class) slot but `other` (per link); valid for the links
    // in `touched`
    std::vector<double> other;   //!< the other load (bytes/s)
    std::vector<double> arrival; //!< controlled flows' offered rates, thinned (bytes/s)
    std::vector<double> ratio;   //!< the share of the step's arrivals that passes
    std::vector<uint64_t> stamp; //!< the step that touched the link last
    std::vector<uint32_t> touched;
    std::vector<Owner*> live;     //!< the owners whose flow transmits (this step)
    std::vector<Arrival> pending; //!< scratch: the step's arrivals at the queues
    Ptr<UniformRandomVariable> rng;
    TracedCallback<uint64_t, double>* cnpTrace{nullptr}; //!< the model's Cnp trace source
    Time lastStep;
    double frameBytes{1082};
    uint64_t cnps{0};
    uint64_t steps{0};
    uint64_t capChanges{0};

    /**
     * Give an owner a new reaction point made by `factory`, at line rate, its iteration's
     * bytes and count kept.
     * \param o the owner \param factory a factory of an RdmaCongestionOps
     * \param lineRate bit/s \param now the time
     */
    static void NewReactionPoint(Owner& o, const ObjectFactory& factory, double lineRate, Time now)
    {
        o.ops = factory.Create<RdmaCongestionOps>();
        RdmaCcState cc;
        cc.lineRate = lineRate;
        cc.rate = lineRate;
        cc.targetRate = lineRate;
        cc.iterationBytes = o.cc.iterationBytes;
        cc.iterationSent = o.cc.iterationSent;
        o.cc = cc;
        o.ops->Init(o.cc, now);
    }

    /**
     * When the first marked frame of a window has gone out, as a fraction of the window, for
     * `frames` frames sent evenly over it, each marked with probability `mark`, given the
     * uniform draw u that found one (u below the CNP's probability: 1 - (1 - mark)^frames, or
     * frames x mark below one frame). The unmarked frames before it are k = floor(x), x the
     * solution of 1 - (1 - mark)^x = u (geometric: the same draw decides the CNP and places
     * it), and it ends at (k + 1) / frames of the window; below one frame, the one frame goes
     * out at x / frames, x = u / mark (uniform over the window).
     * \param mark per frame, in (0, 1] \param frames > 0 \param u in [0, 1)
     * \return a fraction in [0, 1]
     */
    static double FirstMarkAt(double mark, double frames, double u)
    {
        if (frames < 1.0)
        {
            return std::min(1.0, u / mark / frames);
        }
        const double k = mark < 1.0 ? std::floor(std::log1p(-u) / std::log1p(-mark)) : 0.0;
        return std::min(1.0, (std::max(0.0, k) + 1.0) / frames);
    }

    /**
     * The CNPs of an owner that have come back by `until`: each at its time, the reaction point
     * advanced to it first.
     * \param o the owner \param until the time
     */
    void Arrive(Owner& o, Time until)
    {
        size_t n = 0;
        for (; n < o.arrive.size() && o.arrive[n] <= until; ++n)
        {
            o.ops->Advance(o.cc, o.arrive[n]);
            o.ops->OnCnp(o.cc, o.arrive[n]);
            ++cnps;
            (*cnpTrace)(o.flow, o.cc.rate);
        }
        o.arrive.erase(o.arrive.begin(), o.arrive.begin() + ptrdiff_t(n));
    }

    /**
     * The CNP's way back for a frame of `o` marked now: its Feedback's delay if set, else from the
     * path's link likeliest to mark (the highest marking probability; its own propagation included)
     * to the receiver, then the CNP to the sender over a way back as long as the path (the fabrics'
     * paths are symmetric). Propagation delays only (a frame's serialization per hop is 0.1 us at
     * 100 Gb/s). \param o the owner \return the delay
     */
    Time WayBack(const Owner& o) const
    {
        if (!o.feedback.delay.IsNegative())
        {
            return o.feedback.delay;
        }
        size_t at = 0;
        double best = -1;
        for (size_t i = 0; i < o.path.size(); ++i)
        {
            const int32_t m = markOf[o.path[i]];
            if (m >= 0 && marks[size_t(m)].p[o.cls] > best)
            {
                best = marks[size_t(m)].p[o.cls];
                at = i;
            }
        }
        Time delay;
        for (size_t i = 0; i < o.path.size(); ++i)
        {
            const Time link = net->GetLinkDelay(o.path[i]);
            delay += i >= at ? link + link : link;
        }
        return delay;
    }

    /// \return the owner's sending rate now (bytes/s): RC, or its own cap if lower
    static double Sending(const Owner& o)
    {
        const double rc = o.cc.rate / 8.0;
        return o.ownCap > 0 ? std::min(rc, o.ownCap) : rc;
    }

    /// \return the owner's bytes in the queues (flow bytes)
    static double Held(const Owner& o)
    {
        double sum = 0;
        for (double b : o.held)
        {
            sum += b;
        }
        return sum;
    }

    /// The slowest cap there is (bytes/s): 1 bit/s, as a flow scheduler's pause.
    static constexpr double MIN_CAP = 1.0 / 8;

    /**
     * \return the cap (bytes/s, 0 = none) of an owner's flow now: what leaves its path, which
     * its own cap (a scheduler's) limits only at its sending (its bytes in the queues drain
     * whatever the scheduler does); its own cap alone when that is at line rate or above
     */
    static double CapOf(const Owner& o)
    {
        if (o.through < o.cc.lineRate / 8.0)
        {
            return std::max(o.through, MIN_CAP);
        }
        return o.ownCap > 0 ? o.ownCap : 0.0;
    }

    /// Apply an owner's cap to its flow if it moved by more than the tolerance.
    void ApplyCap(Owner& o, bool force, double tolerance)
    {
        const double cap = CapOf(o);
        if (cap == o.applied || !o.active)
        {
            return;
        }
        if (force || cap == 0 || o.applied == 0 ||
            std::fabs(cap - o.applied) > tolerance * std::max(cap, o.applied))
        {
            o.applied = cap;
            ++capChanges;
            net->SetRateCap(o.flow, cap);
        }
    }

    /// \return the link's FIFO of a class, made if it has none
    Fifo& FifoAt(uint32_t link, uint8_t cls)
    {
        if (fifoOf.size() <= link)
        {
            fifoOf.resize(size_t(link) + 1, -1);
        }
        if (fifoOf[link] < 0)
        {
            fifoOf[link] = int32_t(fifos.size());
            fifos.emplace_back();
        }
        return fifos[size_t(fifoOf[link])][cls];
    }

    /// \return the link's FIFOs (one per class), or null if it has none
    std::array<Fifo, N_CLASSES>* FifosOf(uint32_t link)
    {
        return link < fifoOf.size() && fifoOf[link] >= 0 ? &fifos[size_t(fifoOf[link])] : nullptr;
    }

    /**
     * Walk the first `h` link bytes of a FIFO: each batch served whole while the bytes last,
     * the batch they end in in proportion to its segments (their frames came interleaved).
     * \param f the FIFO \param h link bytes \param fn called with (segment, its link bytes
     *        served, the fraction of the segment served)
     */
    template <typename Fn>
    static void Walk(Fifo& f, double h, Fn fn)
    {
        double rem = h;
        auto it = f.segs.begin();
        while (rem > 0 && it != f.segs.end())
        {
            auto end = it;
            double batch = 0;
            for (; end != f.segs.end() && end->batch == it->batch; ++end)
            {
                batch += end->bytes * end->coef;
            }
            const double phi = batch <= rem * (1 + 1e-12) ? 1.0 : rem / batch;
            for (; it != end; ++it)
            {
                fn(*it, it->bytes * it->coef * phi, phi);
            }
            rem -= batch * phi;
        }
    }

    /// Each live owner's queued bytes leaving each link of its path in the step being solved
    /// (`dep`), from the FIFOs' served bytes `h`.
    void Attribute()
    {
        for (Owner* o : live)
        {
            std::fill(o->dep.begin(), o->dep.end(), 0.0);
        }
        for (uint32_t link : touched)
        {
            auto* fs = FifosOf(link);
            for (uint32_t c = 0; fs && c < N_CLASSES; ++c)
            {
                Walk((*fs)[c], (*fs)[c].h, [](Segment& s, double part, double) {
                    s.o->dep[s.hop] += part / s.coef;
                });
            }
        }
    }

    /**
     * Solve a step of `dt`: each live owner offers `in` (bytes/s) at its first link; at each
     * link of its path before its first marking link the share `ratio` of what it brings
     * passes (the rest stays at the sender), from there on each link serves its queue first,
     * oldest batch first, then the share `ratio` of the step's arrivals, and what is not
     * served waits in its queue; what leaves a link arrives at the next. The arrivals are
     * iterated as the thinning was: the first sweep with every ratio 1, each further sweep
     * with those of the previous sweep's arrivals, until they stop changing (at most once per
     * link of the longest path: a link's arrivals are exact once those of every link before
     * it on the flows' paths are). Leaves `ratio`, each FIFO's `h` and each owner's `dep`.
     * \param dt the step (s)
     */
    void Solve(double dt)
    {
        size_t hops = 0;
        for (const Owner* o : live)
        {
            hops = std::max(hops, o->path.size());
        }
        for (uint32_t link : touched)
        {
            std::fill_n(arrival.begin() + link * N_CLASSES, N_CLASSES, 0.0);
        }
        ServeAll(dt); // the queues alone: what each serves, and its owners' departures
        Attribute();
        for (size_t sweep = 0;; ++sweep)
        {
            for (uint32_t link : touched)
            {
                std::fill_n(arrival.begin() + link * N_CLASSES, N_CLASSES, 0.0);
            }
            for (const Owner* o : live)
            {
                double x = o->in;
                for (size_t i = 0; i < o->path.size(); ++i)
                {
                    const uint32_t slot = o->path[i] * N_CLASSES + o->cls;
                    arrival[slot] += x * o->coef[i];
                    x = i >= o->firstQueue ? o->dep[i] / dt + ratio[slot] * x : ratio[slot] * x;
                }
            }
            const bool moved = ServeAll(dt);
            Attribute();
            if (!moved || sweep + 1 >= hops)
            {
                break;
            }
        }
    }

    /// Serve every touched link (Serve). \param dt the step (s) \return whether a ratio or a
    /// served queue moved
    bool ServeAll(double dt)
    {
        bool moved = false;
        for (uint32_t link : touched)
        {
            moved = Serve(link, dt) || moved;
        }
        return moved;
    }

    /**
     * A link's classes in strict priority, the other load first (as the acknowledgements of
     * class 7): each class gets what is left of the capacity, serves its queue first (h =
     * min(queued, what it gets)) and passes the share ratio = min(1, (what it gets - h) /
     * arrivals) of the step's arrivals: its output min(what is left, queue / dt + A).
     * \param link the link \param dt the step (s)
     * \return whether a ratio or a served queue moved
     */
    bool Serve(uint32_t link, double dt)
    {
        double left = std::max(0.0, net->GetLinkCapacity(link) - other[link]);
        auto* fs = FifosOf(link);
        bool moved = false;
        for (uint32_t c = N_CLASSES; c-- > 0;)
        {
            const uint32_t slot = link * N_CLASSES + c;
            const double a = arrival[slot] * dt;
            const double s = left * dt;
            double h = 0;
            if (fs)
            {
                h = std::min((*fs)[c].total, s);
                moved = moved || h != (*fs)[c].h;
                (*fs)[c].h = h;
            }
            const double r = a > 0 ? std::clamp((s - h) / a, 0.0, 1.0) : 1.0;
            moved = moved || r != ratio[slot];
            ratio[slot] = r;
            left = std::max(0.0, left - (h + r * a) / dt);
        }
        return moved;
    }

    /**
     * Advance the queues by the solved step: each FIFO loses what it serves (`h`, oldest
     * first), and gains, as one batch, what its owners' arrivals leave (from their first
     * marking link on). Sets each owner's `pred` (what left its path).
     * \param dt the step (s)
     */
    void Commit(double dt)
    {
        for (uint32_t link : touched)
        {
            auto* fs = FifosOf(link);
            for (uint32_t c = 0; fs && c < N_CLASSES; ++c)
            {
                Fifo& f = (*fs)[c];
                if (f.h <= 0)
                {
                    continue;
                }
                size_t whole = 0;
                Walk(f, f.h, [&whole](Segment& s, double part, double phi) {
                    s.o->held[s.hop] = std::max(0.0, s.o->held[s.hop] - part / s.coef);
                    if (phi >= 1.0)
                    {
                        ++whole;
                    }
                    else
                    {
                        s.bytes *= 1.0 - phi;
                    }
                });
                f.segs.erase(f.segs.begin(), f.segs.begin() + ptrdiff_t(whole));
                f.total = f.segs.empty() ? 0.0 : std::max(0.0, f.total - f.h);
                f.h = 0;
            }
        }
        pending.clear();
        for (Owner* o : live)
        {
            double x = o->in;
            for (size_t i = 0; i < o->path.size(); ++i)
            {
                const uint32_t slot = o->path[i] * N_CLASSES + o->cls;
                const double r = ratio[slot];
                if (i < o->firstQueue)
                {
                    x *= r;
                    continue;
                }
                const double wait = (1.0 - r) * x * dt;
                if (wait > 0)
                {
                    // from the sender: within its window of the step; from a queue before:
                    // over the whole step
                    const bool first = i == o->firstQueue;
                    pending.push_back(Arrival{slot,
                                              o,
                                              uint32_t(i),
                                              wait,
                                              first ? o->winFrom : 0.0,
                                              first ? o->winTo : 1.0});
                    o->held[i] += wait;
                }
                x = o->dep[i] / dt + r * x;
            }
            o->pred = x * dt;
        }
        Enqueue();
    }

    /**
     * Append the step's arrivals (`pending`) to their queues, a link's in the order they came
     * within the step: the step is cut at the ends of the senders' windows (a sender that
     * starts within the step, or has its last bytes out before its end), and each piece is a
     * batch of what each flow sent in it (its bytes spread evenly over its window).
     */
    void Enqueue()
    {
        std::stable_sort(pending.begin(), pending.end(), [](const Arrival& x, const Arrival& y) {
            return x.slot < y.slot;
        });
        std::vector<double> cuts;
        for (size_t g = 0; g < pending.size();)
        {
            size_t e = g;
            cuts.clear();
            for (; e < pending.size() && pending[e].slot == pending[g].slot; ++e)
            {
                cuts.push_back(pending[e].from);
                cuts.push_back(pending[e].to);
            }
            std::sort(cuts.begin(), cuts.end());
            cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
            Fifo& f = FifoAt(pending[g].slot / N_CLASSES, uint8_t(pending[g].slot % N_CLASSES));
            for (size_t k = 0; k + 1 < std::max<size_t>(cuts.size(), 2); ++k)
            {
                const double t0 = cuts.size() >= 2 ? cuts[k] : 0.0;
                const double t1 = cuts.size() >= 2 ? cuts[k + 1] : 1.0;
                const uint64_t batch = steps * MAX_PIECES + std::min<uint64_t>(k, MAX_PIECES - 1);
                for (size_t j = g; j < e; ++j)
                {
                    const Arrival& a = pending[j];
                    const double span = a.to - a.from;
                    double part = a.bytes;
                    if (span > 0 && cuts.size() > 2)
                    {
                        const double overlap = std::min(a.to, t1) - std::max(a.from, t0);
                        part = overlap > 0 ? a.bytes * overlap / span : 0.0;
                    }
                    else if (span <= 0 && k > 0)
                    {
                        part = 0; // a window of no length: its bytes in the first piece
                    }
                    if (part > 0)
                    {
                        f.segs.push_back(Segment{a.o, part, a.o->coef[a.hop], batch, a.hop});
                        f.total += part * a.o->coef[a.hop];
                    }
                }
            }
            g = e;
        }
    }

    /// The marking links' queues and marking probabilities from the FIFOs (the touched links).
    /// \return whether a queue holds bytes
    bool Marks()
    {
        bool queued = false;
        for (uint32_t link : touched)
        {
            queued = Mark(link) || queued;
        }
        return queued;
    }

    /// A link's queues and marking probabilities (if it marks) from its FIFOs.
    /// \param link the link \return whether a queue of it holds bytes
    bool Mark(uint32_t link)
    {
        auto* fs = FifosOf(link);
        if (!fs)
        {
            return false;
        }
        Marking* m =
            link < markOf.size() && markOf[link] >= 0 ? &marks[size_t(markOf[link])] : nullptr;
        bool queued = false;
        for (uint32_t c = 0; c < N_CLASSES; ++c)
        {
            const double q = (*fs)[c].total;
            queued = queued || q > 0;
            if (m)
            {
                m->q[c] = q;
                m->p[c] = FabricSwitch::EcnProbability(uint64_t(q), m->kmin, m->kmax, m->pmax);
            }
        }
        return queued;
    }

    /**
     * What leaves the owner's path (bytes/s) in the solved step if it sends at its sending
     * rate: its cap (a flow that has queued all its bytes still leaves at what its queued
     * bytes are served at; at the end of its bytes it is not held below its rate).
     * \param o the owner \param dt the step (s) \return bytes/s
     */
    double Through(const Owner& o, double dt) const
    {
        double x = Sending(o);
        for (size_t i = 0; i < o.path.size(); ++i)
        {
            const double r = ratio[o.path[i] * N_CLASSES + o.cls];
            x = i >= o.firstQueue ? o.dep[i] / dt + r * x : r * x;
        }
        return x;
    }

    /**
     * Take bytes of an owner out of the queues, oldest first (from the last link of its path
     * back): what the network carried beyond what the model let leave its path.
     * \param o the owner \param bytes flow bytes
     */
    void TakeOut(Owner& o, double bytes)
    {
        for (size_t i = o.path.size(); i-- > o.firstQueue && bytes > 0;)
        {
            if (o.held[i] <= 0)
            {
                continue;
            }
            auto* fs = FifosOf(o.path[i]);
            for (uint32_t c = 0; fs && c < N_CLASSES && bytes > 0; ++c)
            {
                Fifo& f = (*fs)[c];
                for (Segment& s : f.segs)
                {
                    if (s.o != &o || s.hop != i)
                    {
                        continue;
                    }
                    const double take = std::min(bytes, s.bytes);
                    s.bytes -= take;
                    bytes -= take;
                    o.held[i] = std::max(0.0, o.held[i] - take);
                    f.total = std::max(0.0, f.total - take * s.coef);
                    if (bytes <= 0)
                    {
                        break;
                    }
                }
                Prune(f);
            }
        }
    }

    /// Drop a FIFO's empty segments.
    static void Prune(Fifo& f)
    {
        f.segs.erase(std::remove_if(f.segs.begin(),
                                    f.segs.end(),
                                    [](const Segment& s) { return s.bytes <= 0; }),
                     f.segs.end());
        if (f.segs.empty())
        {
            f.total = 0;
        }
    }

    /**
     * Put bytes of an owner back at the head of the last queue of its path that holds bytes
     * of it: what the model let leave its path and the network did not carry (they are the
     * oldest it has there). If no queue holds bytes of it, they stay among its bytes not
     * queued (the network gave it less than the model's links do, e.g. for load the model
     * leaves to the max-min rates): it offers them again.
     * \param o the owner \param bytes flow bytes
     */
    void PutBack(Owner& o, double bytes)
    {
        for (size_t i = o.path.size(); i-- > o.firstQueue;)
        {
            if (o.held[i] > 0)
            {
                Fifo& f = FifoAt(o.path[i], o.cls);
                const uint64_t batch = ~steps; // the step's put-backs: one batch at the head
                f.segs.push_front(Segment{&o, bytes, o.coef[i], batch, uint32_t(i)});
                f.total += bytes * o.coef[i];
                o.held[i] += bytes;
                return;
            }
        }
    }

    /// Take all of an owner's bytes out of the queues (its flow ended or it is forgotten).
    void Purge(Owner& o)
    {
        for (size_t i = o.firstQueue; i < o.held.size() && i < o.path.size(); ++i)
        {
            auto* fs = FifosOf(o.path[i]);
            for (uint32_t c = 0; fs && c < N_CLASSES; ++c)
            {
                Fifo& f = (*fs)[c];
                bool found = false;
                for (Segment& s : f.segs)
                {
                    if (s.o == &o)
                    {
                        f.total = std::max(0.0, f.total - s.bytes * s.coef);
                        s.bytes = 0;
                        found = true;
                    }
                }
                if (found)
                {
                    Prune(f);
                }
            }
            o.held[i] = 0;
            Mark(o.path[i]);
        }
    }

    /// \return a link's marking state if it marks and the class is valid, else null
    const Marking* MarkingOf(uint32_t link, uint8_t cls) const
    {
        return link < markOf.size() && markOf[link] >= 0 && cls < N_CLASSES
                   ? &marks[size_t(markOf[link])]
                   : nullptr;
    }

    /// Note a link in this step's scratch (zeroed at its first touch).
    void Touch(uint32_t link)
    {
        if (stamp[link] != steps)
        {
            stamp[link] = steps;
            other[link] = 0;
            touched.push_back(link);
        }
    }
};

} // namespace ns3

#endif /* MLNET_FLUID_DCQCN_IMPL_H */
