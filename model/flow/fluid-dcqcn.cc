/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fluid-dcqcn.h"

#include "fluid-dcqcn-impl.h"
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
    m_impl->fifos.clear();
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
        if (auto fb = d.ownFeedback.find(owner); fb != d.ownFeedback.end())
        {
            o.feedback = fb->second;
            d.ownFeedback.erase(fb);
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
    d.Purge(o); // bytes of its previous flow still queued (it ended after the last step)
    o.payloadPerWire = payloadPerWire;
    o.ownCap = spec.rateCap;
    o.cls = spec.cls;
    o.through = Impl::Sending(o);
    o.active = true;
    o.applied = Impl::CapOf(o);
    spec.rateCap = o.applied;
    o.path = spec.path;
    o.coef = spec.pathCoef.empty() ? std::vector<double>(spec.path.size(), 1.0) : spec.pathCoef;
    o.firstQueue = uint32_t(o.path.size());
    for (size_t i = 0; i < o.path.size(); ++i)
    {
        if (o.path[i] < d.markOf.size() && d.markOf[o.path[i]] >= 0)
        {
            o.firstQueue = uint32_t(i);
            break;
        }
    }
    o.held.assign(o.path.size(), 0.0);
    o.dep.assign(o.path.size(), 0.0);
    o.remaining = double(spec.bytes);
    o.sent = 0;
    o.offer = std::min(Impl::Sending(o), o.remaining / m_step.GetSeconds());
    o.pred = 0;
    o.fresh = true;
    o.winFrom = 0;
    o.winTo = o.offer > 0 ? std::min(1.0, o.offer / Impl::Sending(o)) : 1.0;
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
    Impl::Owner& o = it->second;
    o.ownCap = cap;
    // what leaves its path at the new sending rate, at the last step's ratios and drains
    o.through = o.fresh || !o.active ? Impl::Sending(o) : m_impl->Through(o, m_step.GetSeconds());
    o.offer = std::min(o.offer, Impl::Sending(o));
    m_impl->ApplyCap(o, true, m_tolerance);
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
    if (auto it = d.owners.find(owner); it != d.owners.end())
    {
        d.Purge(it->second);
        d.owners.erase(it);
        d.order.erase(std::find(d.order.begin(), d.order.end(), owner));
    }
    d.ownFactory.erase(owner);
    d.ownFeedback.erase(owner);
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
    o.through = o.fresh || !o.active ? Impl::Sending(o) : d.Through(o, m_step.GetSeconds());
    d.ApplyCap(o, true, m_tolerance);
}

void
FluidDcqcn::SetOwnerFeedback(const void* owner, const Feedback& feedback)
{
    Impl& d = *m_impl;
    if (auto it = d.owners.find(owner); it != d.owners.end())
    {
        it->second.feedback = feedback;
        return;
    }
    d.ownFeedback[owner] = feedback;
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
    // Links added after Attach (e.g. a scenario's "host" section's fluid host links, installed
    // after "fluidCc"): every per-link array grows to the network, markOf too (-1: no marking).
    if (d.markOf.size() < nLinks)
    {
        d.markOf.resize(nLinks, -1);
    }
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
    // (acknowledgements, uncontrolled flows) at its fluid rate. A flow the network has carried
    // to its end takes its bytes out of the queues.
    for (const void* key : d.order)
    {
        Impl::Owner& o = d.owners[key];
        if (o.active && !d.net->IsTransmitting(o.flow))
        {
            o.active = false; // drained since the last step: its last bytes count below
            d.Purge(o);
        }
        if (o.path.empty() || (!o.active && o.remaining <= 0))
        {
            o.sent = 0;
            continue;
        }
        const double left = o.active ? d.net->GetRemaining(o.flow) : 0.0;
        o.sent = std::max(0.0, o.remaining - left);
        o.remaining = left;
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
    if (m_otherLoad)
    {
        // the acknowledgements (class 7) and the uncontrolled flows, served first; without
        // OtherLoad they are left to the max-min rates (`other` stays 0 from Touch)
        for (uint32_t link : d.touched)
        {
            d.other[link] = std::max(0.0, d.net->GetLinkLoad(link) + d.other[link]);
        }
    }
    // 2. The queues after the step, at the offers in force during it (a flow that started
    // within it offered from its start); then each flow's bytes queued set right by what the
    // network carried: the model let `pred` leave its path, the network carried `sent`.
    for (Impl::Owner* o : d.live)
    {
        const double part = o->fresh ? std::min(1.0, (now - o->from).GetSeconds() / dt) : 1.0;
        o->in = o->offer * part;
        if (o->fresh)
        {
            o->winFrom = 1.0 - part;
            o->winTo = o->winFrom + part * o->winTo;
        }
    }
    d.Solve(dt);
    d.Commit(dt);
    for (Impl::Owner* o : d.live)
    {
        const double diff = o->pred - o->sent;
        if (diff > 1.0)
        {
            d.PutBack(*o, diff);
        }
        else if (diff < -1.0)
        {
            d.TakeOut(*o, -diff);
        }
        const double excess = Impl::Held(*o) - o->remaining; // never more than it has left
        if (excess > 1.0)
        {
            d.TakeOut(*o, excess);
        }
        o->fresh = false;
    }
    bool queued = d.Marks();

    // 3. Per flow: bytes sent, CNP, reaction point.
    for (const void* key : d.order)
    {
        Impl::Owner& o = d.owners[key];
        if (o.path.empty() || (!o.active && o.remaining <= 0 && o.sent <= 0))
        {
            continue;
        }
        const double sent = o.sent;
        double unmarked = 1.0;
        for (size_t i = 0; i < o.path.size(); ++i)
        {
            const int32_t m = d.markOf[o.path[i]];
            if (m >= 0)
            {
                const double pass = 1.0 - d.marks[size_t(m)].p[o.cls];
                unmarked *= o.feedback.ecnOr ? std::pow(pass, o.coef[i]) : pass;
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
    // 4. What leaves each flow's path in the next step at the new rates: its cap. A flow
    // offers its sending rate, but no more than its bytes not queued yet.
    if (!d.live.empty())
    {
        const double step = m_step.GetSeconds();
        for (Impl::Owner* o : d.live)
        {
            o->in =
                std::min(Impl::Sending(*o), std::max(0.0, o->remaining - Impl::Held(*o)) / step);
            o->offer = o->in;
            const double sending = Impl::Sending(*o);
            o->winFrom = 0;
            o->winTo = sending > 0 ? std::min(1.0, o->in / sending) : 1.0;
        }
        d.Solve(step);
        for (Impl::Owner* o : d.live)
        {
            o->through = d.Through(*o, step);
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
