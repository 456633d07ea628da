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
#include <cmath>
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
        double pass{1};      //!< product of out / A over its path at the last step
        uint8_t cls{3};      //!< its traffic class
        uint64_t flow{0};    //!< its flow in the network
        bool active{false};  //!< the flow transmits
        double remaining{0}; //!< the flow's bytes left at the last step
        bool cnpSent{false};
        Time lastCnp;             //!< its notification point's last CNP (a marked frame's time)
        Time from;                //!< its flow's start
        std::vector<Time> arrive; //!< CNPs on their way back: when they reach it (ascending)
        std::vector<uint32_t> path;
        std::vector<double> coef; //!< bytes on path[i] per byte of the flow
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
    std::unordered_map<const void*, uint64_t> ownIteration;
    std::vector<const void*> order;  //!< owners in the order they came (deterministic steps)
    std::vector<int32_t> markOf;     //!< per link: index in marks, or -1
    std::vector<Marking> marks;      //!< marking links
    std::vector<uint32_t> markLinks; //!< marks[i]'s link
    // scratch of a step, per (link, class) slot but `other` (per link); valid for the links
    // in `touched`
    std::vector<double> other;   //!< the other load (bytes/s)
    std::vector<double> arrival; //!< controlled flows' offered rates, thinned (bytes/s)
    std::vector<double> ratio;   //!< out / A
    std::vector<uint64_t> stamp; //!< the step that touched the link last
    std::vector<uint32_t> touched;
    std::vector<Owner*> live; //!< the owners whose flow transmits (this step)
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
     * The CNP's way back for a frame of `o` marked now: from the path's link likeliest to mark
     * (the highest marking probability; its own propagation included) to the receiver, then
     * the CNP to the sender over a way back as long as the path (the fabrics' paths are
     * symmetric). Propagation delays only (a frame's serialization per hop is 0.1 us at 100
     * Gb/s).
     * \param o the owner \return the delay
     */
    Time WayBack(const Owner& o) const
    {
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

    /// \return the owner's offered rate now (bytes/s): RC, or its own cap if lower
    static double Offered(const Owner& o)
    {
        const double rc = o.cc.rate / 8.0;
        return o.ownCap > 0 ? std::min(rc, o.ownCap) : rc;
    }

    /// \return the combined cap (bytes/s, 0 = none) of an owner now
    static double CapOf(const Owner& o)
    {
        const double rate = o.cc.rate * o.pass / 8.0;
        const double dcqcn = rate < o.cc.lineRate / 8.0 ? rate : 0.0;
        if (o.ownCap > 0 && dcqcn > 0)
        {
            return std::min(o.ownCap, dcqcn);
        }
        return o.ownCap > 0 ? o.ownCap : dcqcn;
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

    /**
     * The live owners' arrivals at their links (offered rates thinned by the links before) and
     * each link's ratio out / A. The thinning is iterated: the first sweep thins with the
     * ratios of the unthinned loads, each further sweep with those of the previous sweep's
     * arrivals, until the ratios stop changing (at most once per link of the longest path: a
     * link's arrivals are exact once those of every link before it on the flows' paths are).
     * One sweep alone thins a flow by the ratio of every link before it as if all flows
     * arrived there unthinned, so where a link passes much less than its flows offer (many queue
     * pairs at line rate into a class that a higher one starves), the links after it see
     * almost nothing and their queues, the marks and the backlog they hold are lost.
     * \param dt the step (s) \param queues also advance the marking links' queues by dt
     * \return whether a queue holds bytes
     */
    bool Ratios(double dt, bool queues)
    {
        size_t hops = 0;
        for (const Owner* o : live)
        {
            hops = std::max(hops, o->path.size());
        }
        for (uint32_t link : touched)
        {
            std::fill_n(ratio.begin() + link * N_CLASSES, N_CLASSES, 1.0);
        }
        for (size_t sweep = 0;; ++sweep)
        {
            for (uint32_t link : touched)
            {
                std::fill_n(arrival.begin() + link * N_CLASSES, N_CLASSES, 0.0);
            }
            for (const Owner* o : live)
            {
                double share = Offered(*o);
                for (size_t i = 0; i < o->path.size(); ++i)
                {
                    const uint32_t slot = o->path[i] * N_CLASSES + o->cls;
                    arrival[slot] += share * o->coef[i];
                    share *= ratio[slot];
                }
            }
            if (sweep + 1 >= hops)
            {
                break;
            }
            bool moved = false;
            double before[N_CLASSES];
            for (uint32_t link : touched)
            {
                std::copy_n(ratio.begin() + link * N_CLASSES, N_CLASSES, before);
                Serve(link, arrival, dt, false);
                for (uint32_t c = 0; c < N_CLASSES; ++c)
                {
                    double& r = ratio[link * N_CLASSES + c];
                    r = std::min(1.0, r);
                    moved = moved || r != before[c];
                }
            }
            if (!moved)
            {
                break;
            }
        }
        bool queued = false;
        for (uint32_t link : touched)
        {
            queued = Serve(link, arrival, dt, queues) || queued;
        }
        return queued;
    }

    /**
     * A link's classes in strict priority, the other load first (as the acknowledgements of
     * class 7): each class's output min(what is left, A + q / dt) and ratio out / A.
     * \param link the link \param load per (link, class) slot: the controlled arrivals
     * \param dt the step (s) \param queues also advance its queues by dt and mark
     * \return whether a queue of the link holds bytes
     */
    bool Serve(uint32_t link, const std::vector<double>& load, double dt, bool queues)
    {
        double left = std::max(0.0, net->GetLinkCapacity(link) - other[link]);
        Marking* m = markOf[link] >= 0 ? &marks[size_t(markOf[link])] : nullptr;
        bool queued = false;
        for (uint32_t c = N_CLASSES; c-- > 0;)
        {
            const uint32_t slot = link * N_CLASSES + c;
            const double a = load[slot];
            double q = 0;
            if (m)
            {
                if (queues)
                {
                    m->q[c] = QueueStep(m->q[c], a, left, dt);
                    m->p[c] =
                        FabricSwitch::EcnProbability(uint64_t(m->q[c]), m->kmin, m->kmax, m->pmax);
                }
                q = m->q[c];
                queued = queued || q > 0;
            }
            const double out = LinkOutput(q, a, left, dt);
            ratio[slot] = a > 0 ? out / a : 1.0;
            left = std::max(0.0, left - out);
        }
        return queued;
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
