/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fluid-dcqcn.h"

#include "fluid-fabric.h"

#include "ns3/boolean.h"
#include "ns3/dcqcn.h"
#include "ns3/double.h"
#include "ns3/fabric-switch.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-nic.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluidDcqcn");

NS_OBJECT_ENSURE_REGISTERED(FluidDcqcn);

TypeId
FluidDcqcn::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FluidDcqcn")
            .SetParent<Object>()
            .SetGroupName("Mlnet")
            .AddConstructor<FluidDcqcn>()
            .AddAttribute("Step",
                          "Time step of the fluid DCQCN model (time), > 0: queues, marks, CNPs "
                          "and rate caps are updated once per step",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&FluidDcqcn::m_step),
                          MakeTimeChecker(TimeStep(1)))
            .AddAttribute("CnpInterval",
                          "Notification point: at most one CNP per flow per interval (time); "
                          "negative: RdmaNic::CnpInterval's default",
                          TimeValue(Time(-1)),
                          MakeTimeAccessor(&FluidDcqcn::m_cnpInterval),
                          MakeTimeChecker())
            .AddAttribute("CapTolerance",
                          "A flow's rate cap is applied again only when it moves by more than "
                          "this fraction of it (dimensionless), in [0, 1)",
                          DoubleValue(0.005),
                          MakeDoubleAccessor(&FluidDcqcn::m_tolerance),
                          MakeDoubleChecker<double>(0.0, 0.999999))
            .AddAttribute("OtherLoad",
                          "Whether a link's load that this model does not control (the "
                          "acknowledgements of class 7, flows of uncontrolled owners, at their "
                          "max-min rates) is served before the controlled classes' virtual "
                          "queues (true) or left to the max-min rates alone (false, the default; "
                          "doc/flow-backend.rst, DCQCN at flow level, has both measured)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FluidDcqcn::m_otherLoad),
                          MakeBooleanChecker())
            .AddTraceSource("Cnp",
                            "A flow's reaction point got a CNP: (flow id, its rate RC after the "
                            "cut in bit/s)",
                            MakeTraceSourceAccessor(&FluidDcqcn::m_cnpTrace),
                            "ns3::FluidDcqcn::CnpTracedCallback");
    return tid;
}

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

FluidDcqcn::FluidDcqcn()
    : m_impl(std::make_unique<Impl>()),
      m_step(MicroSeconds(10)),
      m_cnpInterval(Time(-1)),
      m_tolerance(0.005),
      m_otherLoad(false)
{
    NS_LOG_FUNCTION(this);
    m_impl->factory.SetTypeId(Dcqcn::GetTypeId());
    m_impl->rng = CreateObject<UniformRandomVariable>();
    m_impl->cnpTrace = &m_cnpTrace;
}

FluidDcqcn::~FluidDcqcn()
{
    NS_LOG_FUNCTION(this);
}

void
FluidDcqcn::DoDispose()
{
    m_event.Cancel();
    m_impl->owners.clear();
    m_impl->order.clear();
    m_impl->live.clear();
    m_impl->net = nullptr;
    m_impl->rng = nullptr;
    Object::DoDispose();
}

int64_t
FluidDcqcn::AssignStreams(int64_t stream)
{
    m_impl->rng->SetStream(stream);
    return 1;
}

void
FluidDcqcn::Attach(Ptr<FluidNetwork> net)
{
    if (m_impl->net)
    {
        throw std::logic_error("FluidDcqcn: already attached to a network");
    }
    if (!net)
    {
        throw std::invalid_argument("FluidDcqcn::Attach: the network is null");
    }
    if (Of(net))
    {
        throw std::logic_error("FluidDcqcn: the network already has a FluidDcqcn");
    }
    m_impl->net = PeekPointer(net);
    UintegerValue frame;
    net->GetAttribute("FrameBytes", frame);
    m_impl->frameBytes = double(frame.Get());
    m_impl->markOf.assign(net->GetNLinks(), -1);
    if (m_cnpInterval.IsNegative())
    {
        // The packet NIC's notification point: one source of truth for the interval.
        TypeId::AttributeInformation info;
        RdmaNic::GetTypeId().LookupAttributeByName("CnpInterval", &info);
        m_cnpInterval = DynamicCast<const TimeValue>(info.initialValue)->Get();
    }
    net->AggregateObject(this);
}

void
FluidDcqcn::Install(Ptr<FluidFabric> fabric)
{
    Ptr<FluidNetwork> net = fabric->GetNetwork();
    Attach(net);
    for (uint32_t link = 0; link < net->GetNLinks(); ++link)
    {
        Ptr<FabricNetDevice> dev;
        try
        {
            dev = fabric->GetDevice(link);
        }
        catch (const std::out_of_range&)
        {
            continue; // a service link (no device)
        }
        Ptr<FabricSwitch> sw = dev ? dev->GetNode()->GetObject<FabricSwitch>() : nullptr;
        if (!sw)
        {
            continue; // a host NIC or an in-line device: no ECN marking
        }
        BooleanValue on;
        sw->GetAttribute("EcnEnabled", on);
        if (!on.Get())
        {
            continue;
        }
        for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
        {
            if (sw->GetPort(i) == dev)
            {
                DoubleValue pmax;
                sw->GetAttribute("EcnPmax", pmax);
                const auto k = sw->GetEcnThresholds(i);
                SetMarking(link, k.first, k.second, pmax.Get());
                break;
            }
        }
    }
    NS_LOG_INFO("FluidDcqcn: " << m_impl->marks.size() << " marking links of " << net->GetNLinks());
}

Ptr<FluidDcqcn>
FluidDcqcn::Of(Ptr<FluidNetwork> net)
{
    return net ? net->GetObject<FluidDcqcn>() : nullptr;
}

void
FluidDcqcn::SetMarking(uint32_t link, uint64_t kmin, uint64_t kmax, double pmax)
{
    Impl& d = *m_impl;
    if (!d.net || link >= d.net->GetNLinks())
    {
        throw std::invalid_argument("FluidDcqcn::SetMarking: link " + std::to_string(link) +
                                    " is not a link of the attached network");
    }
    if (kmin > kmax || !(pmax >= 0.0 && pmax <= 1.0))
    {
        throw std::invalid_argument("FluidDcqcn::SetMarking: need kmin <= kmax and pmax in [0, "
                                    "1], got kmin " +
                                    std::to_string(kmin) + ", kmax " + std::to_string(kmax) +
                                    ", pmax " + std::to_string(pmax));
    }
    if (d.markOf.size() < d.net->GetNLinks())
    {
        d.markOf.resize(d.net->GetNLinks(), -1);
    }
    int32_t& idx = d.markOf[link];
    if (idx < 0)
    {
        idx = int32_t(d.marks.size());
        d.marks.emplace_back();
        d.markLinks.push_back(link);
    }
    Impl::Marking& m = d.marks[size_t(idx)];
    m.kmin = kmin;
    m.kmax = kmax;
    m.pmax = pmax;
}

void
FluidDcqcn::SetCongestionControl(const ObjectFactory& factory)
{
    m_impl->factory = factory;
}

double
FluidDcqcn::QueueStep(double q, double arrival, double capacity, double dt)
{
    return std::max(0.0, q + (arrival - capacity) * dt);
}

double
FluidDcqcn::LinkOutput(double q, double arrival, double capacity, double dt)
{
    return std::min(capacity, arrival + (dt > 0 ? q / dt : 0.0));
}

double
FluidDcqcn::CnpProbability(double mark, double frames)
{
    if (mark <= 0.0 || frames <= 0.0)
    {
        return 0.0;
    }
    if (mark >= 1.0)
    {
        return 1.0;
    }
    return -std::expm1(frames * std::log1p(-mark));
}

uint64_t
FluidDcqcn::StartFlow(const void* owner,
                      FluidNetwork::FlowSpec spec,
                      double lineRate,
                      double payloadPerWire)
{
    Impl& d = *m_impl;
    if (!d.net)
    {
        throw std::invalid_argument("FluidDcqcn::StartFlow: not attached to a network");
    }
    if (!(lineRate > 0) || !std::isfinite(lineRate))
    {
        throw std::invalid_argument("FluidDcqcn::StartFlow: lineRate must be > 0 (bit/s), got " +
                                    std::to_string(lineRate));
    }
    if (!(payloadPerWire > 0) || payloadPerWire > 1)
    {
        throw std::invalid_argument(
            "FluidDcqcn::StartFlow: payloadPerWire must be in (0, 1], got " +
            std::to_string(payloadPerWire));
    }
    const Time now = Simulator::Now();
    auto it = d.owners.find(owner);
    if (it == d.owners.end())
    {
        Impl::Owner o;
        auto own = d.ownFactory.find(owner);
        Impl::NewReactionPoint(o,
                               own != d.ownFactory.end() ? own->second : d.factory,
                               lineRate,
                               now);
        if (auto iter = d.ownIteration.find(owner); iter != d.ownIteration.end())
        {
            o.cc.iterationBytes = iter->second;
            d.ownIteration.erase(iter);
        }
        if (own != d.ownFactory.end())
        {
            d.ownFactory.erase(own);
        }
        it = d.owners.emplace(owner, std::move(o)).first;
        d.order.push_back(owner);
    }
    Impl::Owner& o = it->second;
    d.Arrive(o, now);          // CNPs that came back while it was idle
    o.ops->Advance(o.cc, now); // the timers that expired while it was idle
    if (o.remaining > 0)
    {
        // the previous flow's bytes after the last step: sent, without a step to see them
        const auto payload = uint32_t(std::min(o.remaining * o.payloadPerWire, 4e9));
        o.cc.iterationSent += payload;
        o.ops->OnSent(o.cc, payload, now);
    }
    o.payloadPerWire = payloadPerWire;
    o.ownCap = spec.rateCap;
    o.cls = spec.cls;
    o.pass = 1;
    o.active = true;
    o.applied = Impl::CapOf(o);
    spec.rateCap = o.applied;
    o.path = spec.path;
    o.coef = spec.pathCoef.empty() ? std::vector<double>(spec.path.size(), 1.0) : spec.pathCoef;
    o.remaining = double(spec.bytes);
    o.from = now;
    o.flow = d.net->StartFlow(std::move(spec));
    Wake();
    return o.flow;
}

void
FluidDcqcn::SetRateCap(const void* owner, double cap)
{
    auto it = m_impl->owners.find(owner);
    if (it == m_impl->owners.end())
    {
        return;
    }
    it->second.ownCap = cap;
    m_impl->ApplyCap(it->second, true, m_tolerance);
}

void
FluidDcqcn::SetClass(const void* owner, uint8_t cls)
{
    if (cls >= Impl::N_CLASSES)
    {
        throw std::invalid_argument("FluidDcqcn::SetClass: class = " + std::to_string(cls) +
                                    " is out of range [0, 7]");
    }
    auto it = m_impl->owners.find(owner);
    if (it != m_impl->owners.end())
    {
        it->second.cls = cls;
    }
}

void
FluidDcqcn::Forget(const void* owner)
{
    Impl& d = *m_impl;
    if (d.owners.erase(owner))
    {
        d.order.erase(std::find(d.order.begin(), d.order.end(), owner));
    }
    d.ownFactory.erase(owner);
    d.ownIteration.erase(owner);
}

void
FluidDcqcn::SetOwnerCongestionControl(const void* owner, const ObjectFactory& factory)
{
    Impl& d = *m_impl;
    auto it = d.owners.find(owner);
    if (it == d.owners.end())
    {
        d.ownFactory[owner] = factory;
        return;
    }
    Impl::Owner& o = it->second;
    Impl::NewReactionPoint(o, factory, o.cc.lineRate, Simulator::Now());
    d.ApplyCap(o, true, m_tolerance);
}

void
FluidDcqcn::StartIteration(const void* owner, uint64_t bytes)
{
    Impl& d = *m_impl;
    auto it = d.owners.find(owner);
    if (it == d.owners.end())
    {
        d.ownIteration[owner] = bytes;
        return;
    }
    it->second.cc.iterationBytes = bytes;
    it->second.cc.iterationSent = 0;
}

void
FluidDcqcn::Wake()
{
    if (!m_event.IsRunning())
    {
        m_impl->lastStep = Simulator::Now();
        m_event = Simulator::Schedule(m_step, &FluidDcqcn::Step, this);
    }
}

void
FluidDcqcn::Step()
{
    Impl& d = *m_impl;
    const Time now = Simulator::Now();
    const Time start = d.lastStep;
    const double dt = (now - start).GetSeconds();
    d.lastStep = now;
    ++d.steps;
    const uint32_t nLinks = d.net->GetNLinks();
    if (d.stamp.size() < nLinks)
    {
        d.other.resize(nLinks);
        d.arrival.resize(nLinks * Impl::N_CLASSES);
        d.ratio.resize(nLinks * Impl::N_CLASSES);
        d.stamp.resize(nLinks, 0);
    }
    d.touched.clear();
    d.live.clear();

    // 1. The controlled flows still transmitting, and their links' other load
    // (acknowledgements, uncontrolled flows) at its fluid rate.
    for (const void* key : d.order)
    {
        Impl::Owner& o = d.owners[key];
        if (o.active && !d.net->IsTransmitting(o.flow))
        {
            o.active = false; // drained since the last step: its last bytes count below
        }
        if (!o.active)
        {
            continue;
        }
        d.live.push_back(&o);
        for (uint32_t link : o.path)
        {
            d.Touch(link);
        }
        if (m_otherLoad)
        {
            // the link's load less the controlled flows' (at their fluid rates)
            const double rate = d.net->GetRate(o.flow);
            for (size_t i = 0; i < o.path.size(); ++i)
            {
                d.other[o.path[i]] -= rate * o.coef[i];
            }
        }
    }
    for (size_t i = 0; i < d.marks.size(); ++i)
    {
        const double* q = d.marks[i].q;
        if (std::any_of(q, q + Impl::N_CLASSES, [](double x) { return x > 0; }))
        {
            d.Touch(d.markLinks[i]); // a queue drains with the other load alone
        }
    }
    if (m_otherLoad)
    {
        // the acknowledgements (class 7) and the uncontrolled flows, served first; without
        // OtherLoad they are left to the max-min rates (`other` stays 0 from Touch)
        for (uint32_t link : d.touched)
        {
            d.other[link] = std::max(0.0, d.net->GetLinkLoad(link) + d.other[link]);
        }
    }
    // 2. The queues after the step, at the rates in force during it; their marks.
    bool queued = d.Ratios(dt, true);

    // 3. Per flow: bytes sent, CNP, reaction point.
    for (const void* key : d.order)
    {
        Impl::Owner& o = d.owners[key];
        if (o.path.empty() || (!o.active && o.remaining <= 0))
        {
            continue;
        }
        const double left = o.active ? d.net->GetRemaining(o.flow) : 0.0;
        const double sent = std::max(0.0, o.remaining - left);
        o.remaining = left;
        double unmarked = 1.0;
        for (uint32_t link : o.path)
        {
            if (d.markOf[link] >= 0)
            {
                unmarked *= 1.0 - d.marks[size_t(d.markOf[link])].p[o.cls];
            }
        }
        // The step's frames went out evenly over [from, now] (from: the step's start, or the
        // flow's if it started within the step); only those after the notification point's
        // interval has passed since the last CNP (`open` on) count.
        const Time from = std::max(start, o.from);
        const Time open = o.cnpSent ? std::max(from, o.lastCnp + m_cnpInterval) : from;
        double frames = 0;
        if (open < now)
        {
            frames = sent / d.frameBytes * ((now - open).GetSeconds() / (now - from).GetSeconds());
        }
        const double mark = 1.0 - unmarked;
        // Less than one frame in the step: a frame goes out with probability `frames` (a flow
        // paced at 1 bit/s, a scheduler's pause, sends one in hours), marked with the path's
        // probability. (1 - (1 - P)^n is 1 for any n > 0 when P = 1: every paused flow behind a
        // queue above Kmax would be cut at every CnpInterval without sending a frame.)
        const double prob = frames >= 1.0 ? CnpProbability(mark, frames) : frames * mark;
        const auto payload = uint32_t(std::min(sent * o.payloadPerWire, 4e9));
        o.cc.iterationSent += payload;
        const double u = prob > 0 ? d.rng->GetValue() : 1.0;
        if (u < prob)
        {
            // The notification point sends a CNP at the first marked frame (the same draw
            // places it), not at the step's end; it reaches the reaction point one way back
            // later (in this step or a later one). Cut at its time, not at the step's end: the
            // timers that would expire between the two (the rate increase's, 55 us, just after
            // a CnpInterval of 50 us) must not act before the cut.
            const Time at = open + TimeStep(int64_t(double((now - open).GetTimeStep()) *
                                                    Impl::FirstMarkAt(mark, frames, u)));
            o.cnpSent = true;
            o.lastCnp = at;
            o.arrive.push_back(at + d.WayBack(o));
        }
        // the bytes sent before each CNP that comes back in the step count before it
        uint32_t counted = 0;
        while (!o.arrive.empty() && o.arrive.front() <= now)
        {
            const Time t = std::max(from, o.arrive.front());
            const auto before = std::max(
                counted,
                uint32_t(double(payload) * (t - from).GetSeconds() / (now - from).GetSeconds()));
            o.ops->Advance(o.cc, t);
            o.ops->OnSent(o.cc, before - counted, t);
            counted = before;
            d.Arrive(o, o.arrive.front());
        }
        o.ops->Advance(o.cc, now);
        o.ops->OnSent(o.cc, payload - counted, now);
        if (!o.active)
        {
            o.path.clear(); // its last bytes are counted
        }
    }
    // 4. What the links pass in the next step at the new rates: the flows' caps.
    if (!d.live.empty())
    {
        d.Ratios(m_step.GetSeconds(), false);
        for (Impl::Owner* o : d.live)
        {
            o->pass = 1.0;
            for (uint32_t link : o->path)
            {
                o->pass *= d.ratio[link * Impl::N_CLASSES + o->cls];
            }
            d.ApplyCap(*o, false, m_tolerance);
        }
    }
    if (!d.live.empty() || queued)
    {
        m_event = Simulator::Schedule(m_step, &FluidDcqcn::Step, this);
    }
}

uint32_t
FluidDcqcn::GetNOwners() const
{
    return uint32_t(m_impl->owners.size());
}

Ptr<RdmaCongestionOps>
FluidDcqcn::GetOps(const void* owner) const
{
    auto it = m_impl->owners.find(owner);
    return it == m_impl->owners.end() ? nullptr : it->second.ops;
}

RdmaCcState
FluidDcqcn::GetState(const void* owner) const
{
    auto it = m_impl->owners.find(owner);
    return it == m_impl->owners.end() ? RdmaCcState() : it->second.cc;
}

double
FluidDcqcn::GetQueue(uint32_t link, uint8_t cls) const
{
    const Impl::Marking* m = m_impl->MarkingOf(link, cls);
    return m ? m->q[cls] : 0.0;
}

double
FluidDcqcn::GetMarkProbability(uint32_t link, uint8_t cls) const
{
    const Impl::Marking* m = m_impl->MarkingOf(link, cls);
    return m ? m->p[cls] : 0.0;
}

uint32_t
FluidDcqcn::GetNMarkingLinks() const
{
    return uint32_t(m_impl->marks.size());
}

uint64_t
FluidDcqcn::GetCnps() const
{
    return m_impl->cnps;
}

uint64_t
FluidDcqcn::GetSteps() const
{
    return m_impl->steps;
}

uint64_t
FluidDcqcn::GetCapChanges() const
{
    return m_impl->capChanges;
}

} // namespace ns3
