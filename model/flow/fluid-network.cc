/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fluid-network.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluidNetwork");
NS_OBJECT_ENSURE_REGISTERED(FluidNetwork);

TypeId
FluidNetwork::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FluidNetwork")
            .SetParent<Object>()
            .SetGroupName("Mlnet")
            .AddConstructor<FluidNetwork>()
            .AddAttribute("FrameBytes",
                          "Bytes of one full-size frame on the wire, serialized once per "
                          "store-and-forward hop in the unloaded path latency (default 1082: "
                          "1000 B payload + 44 B RoCEv2 headers and ICRC + 38 B Ethernet "
                          "header, FCS, preamble and gap)",
                          UintegerValue(1082),
                          MakeUintegerAccessor(&FluidNetwork::m_frameBytes),
                          MakeUintegerChecker<uint32_t>(1, 1u << 20))
            .AddAttribute("Incremental",
                          "true: a recomputation fills the changed flows with the others' "
                          "rates fixed and widens to the flows whose max-min conditions fail "
                          "(work grows with the flows sharing the changed links); false: it "
                          "refills the whole connected component (the reference). Both give "
                          "the same rates up to rounding",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FluidNetwork::m_incremental),
                          MakeBooleanChecker())
            .AddAttribute("MaxAckFillings",
                          "Fillings (1-1000) after which a recomputation takes the "
                          "acknowledgement loads (class 7) as its last filling left them, "
                          "converged to 1e-7 of their links' capacity or not: the fixed point "
                          "usually converges in 1-6; one that does not is counted "
                          "(GetUnconvergedFillings(), the run's summary warns) and fires "
                          "AckUnconverged",
                          UintegerValue(40),
                          MakeUintegerAccessor(&FluidNetwork::m_maxAckFillings),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("Sharing",
                          "How a link is shared among the flows of a class it bottlenecks: "
                          "\"flow\" (max-min by the flows' weights) or \"input-port\" (as a "
                          "packet switch without congestion control: equally among its input "
                          "ports, and recursively upstream; FluidInputPortShare)",
                          StringValue("flow"),
                          MakeStringAccessor(&FluidNetwork::SetSharing, &FluidNetwork::GetSharing),
                          MakeStringChecker())
            .AddAttribute("MaxSharingRounds",
                          "Solves (1-1000) after the first that a recomputation in the "
                          "\"input-port\" Sharing may run to bring the flows' weights to their "
                          "fixed point; one that needs more keeps its last rates and is counted "
                          "(GetSharingUnconverged(), the run's summary warns)",
                          UintegerValue(16),
                          MakeUintegerAccessor(&FluidNetwork::m_maxSharingRounds),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddTraceSource("FlowStart",
                            "A flow started: (flow id, bytes)",
                            MakeTraceSourceAccessor(&FluidNetwork::m_startTrace),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("FlowEnd",
                            "A flow's bytes were delivered: (flow id, bytes, start, delivered)",
                            MakeTraceSourceAccessor(&FluidNetwork::m_endTrace),
                            "ns3::FluidNetwork::FlowEndTracedCallback")
            .AddTraceSource("AckUnconverged",
                            "A recomputation's filling kept acknowledgement loads that had not "
                            "converged after MaxAckFillings fillings: (flows, fillings, largest "
                            "move of a load in the last one / its link's capacity)",
                            MakeTraceSourceAccessor(&FluidNetwork::m_ackUnconvergedTrace),
                            "ns3::FluidNetwork::AckUnconvergedTracedCallback");
    return tid;
}

FluidNetwork::FluidNetwork() = default;
FluidNetwork::~FluidNetwork() = default;

void
FluidNetwork::DoDispose()
{
    m_recompute.Cancel();
    for (Flow& f : m_flows)
    {
        f.done.Cancel();
        f.spec = FlowSpec();
    }
    m_flows.clear();
    m_links.clear();
    m_slotOf.clear();
    m_touched.clear();
    m_inputPort.reset();
    Object::DoDispose();
}

uint32_t
FluidNetwork::AddLink(double capacity, Time delay)
{
    if (!(capacity > 0) || !std::isfinite(capacity))
    {
        throw std::invalid_argument(
            "FluidNetwork::AddLink: capacity = " + std::to_string(capacity) +
            " bytes/s is out of range (must be > 0 and finite)");
    }
    if (delay.IsStrictlyNegative())
    {
        throw std::invalid_argument(
            "FluidNetwork::AddLink: delay = " + std::to_string(delay.GetSeconds()) +
            " s is out of range (must be >= 0)");
    }
    Link l;
    l.capacity = capacity;
    l.nominal = capacity;
    l.delay = delay;
    l.frameTime = double(m_frameBytes) / capacity;
    m_links.push_back(l);
    return uint32_t(m_links.size() - 1);
}

uint32_t
FluidNetwork::GetNLinks() const
{
    return uint32_t(m_links.size());
}

namespace
{
/// LinkAt()'s error, out of line so that the check inlines (called per link by the intervals)
/// \param link the link asked for \param n the links
[[noreturn]] __attribute__((noinline, cold)) void
ThrowUnknownLink(uint32_t link, std::size_t n)
{
    throw std::invalid_argument("FluidNetwork: link " + std::to_string(link) +
                                " is out of range [0, " + std::to_string(n) + ")");
}
} // namespace

const FluidNetwork::Link&
FluidNetwork::LinkAt(uint32_t link) const
{
    if (link >= m_links.size())
    {
        ThrowUnknownLink(link, m_links.size());
    }
    return m_links[link];
}

double
FluidNetwork::GetLinkCapacity(uint32_t link) const
{
    return LinkAt(link).capacity;
}

Time
FluidNetwork::GetLinkDelay(uint32_t link) const
{
    return LinkAt(link).delay;
}

double
FluidNetwork::GetLinkBytes(uint32_t link) const
{
    return LinkAt(link).carried;
}

double
FluidNetwork::GetLinkClassBytes(uint32_t link, uint8_t cls) const
{
    if (cls >= N_CLASSES)
    {
        throw std::invalid_argument("FluidNetwork::GetLinkClassBytes: class = " +
                                    std::to_string(cls) + " is out of range [0, 7]");
    }
    return LinkAt(link).byClass[cls].carried;
}

double
FluidNetwork::GetLinkLoad(uint32_t link) const
{
    return LinkAt(link).load;
}

void
FluidNetwork::SetLinkCapacity(uint32_t link, double capacity)
{
    LinkAt(link);
    if (!(capacity > 0) || !std::isfinite(capacity))
    {
        throw std::invalid_argument(
            "FluidNetwork::SetLinkCapacity: capacity = " + std::to_string(capacity) +
            " bytes/s is out of range (must be > 0 and finite)");
    }
    Link& l = m_links[link];
    if (l.capacity == capacity)
    {
        return;
    }
    ProgressReserves(l, Simulator::Now());
    l.capacity = capacity;
    ++l.version;
    if (l.flows.empty())
    {
        GrantAlone(l);
        return;
    }
    for (uint32_t s : l.flows)
    {
        if (!m_flows[s].finished)
        {
            Touch(s);
        }
    }
}

double
FluidNetwork::GetLinkShare(uint32_t link,
                           uint8_t cls,
                           double weight,
                           const std::vector<uint64_t>& ignore) const
{
    if (!(weight > 0))
    {
        throw std::invalid_argument("FluidNetwork::GetLinkShare: class = " + std::to_string(cls) +
                                    " must be in [0, 7] and weight = " + std::to_string(weight) +
                                    " > 0");
    }
    double free = 0;
    double sharing = 0;
    GetLinkShareTerms(link, cls, ignore, free, sharing);
    return free * weight / (weight + sharing);
}

void
FluidNetwork::GetLinkShareTerms(uint32_t link,
                                uint8_t cls,
                                const std::vector<uint64_t>& ignore,
                                double& free,
                                double& sharing) const
{
    const Link& l = LinkAt(link);
    if (cls >= N_CLASSES)
    {
        throw std::invalid_argument("FluidNetwork::GetLinkShare: class = " + std::to_string(cls) +
                                    " must be in [0, 7]");
    }
    double used = 0;
    sharing = 0; // weights of the class's flows bottlenecked here
    // The class's flows bottlenecked elsewhere: (rate per weight, rate x coef, weight x coef).
    thread_local std::vector<std::tuple<double, double, double>> elsewhere;
    elsewhere.clear();
    for (std::size_t j = 0; j < l.flows.size(); ++j)
    {
        const Flow& f = m_flows[l.flows[j]];
        if (f.finished || (f.spec.cls < cls && l.coefs[j] > 0) ||
            std::find(ignore.begin(), ignore.end(), f.id) != ignore.end())
        {
            continue;
        }
        if (l.coefs[j] < 0)
        {
            used -= f.rate * l.coefs[j]; // acknowledgements: served first, whatever the class
        }
        else if (f.spec.cls == cls && f.bottleneck == link)
        {
            sharing += f.spec.weight * l.coefs[j];
        }
        else
        {
            used += f.rate * l.coefs[j];
            if (f.spec.cls == cls)
            {
                elsewhere.emplace_back(f.rate / f.spec.weight,
                                       f.rate * l.coefs[j],
                                       f.spec.weight * l.coefs[j]);
            }
        }
    }
    // A newcomer of weight 1 would cut every flow of the class above its level to that level
    // (max-min): such a flow shares here too, whatever link its last filling named (a flow
    // bottlenecked at a tie elsewhere, e.g. a lone flow at line rate on every link of its path,
    // would otherwise leave this link no free capacity at all).
    std::sort(elsewhere.begin(), elsewhere.end(), [](const auto& a, const auto& b) {
        return std::get<0>(a) > std::get<0>(b);
    });
    for (const auto& [perWeight, bytes, share] : elsewhere)
    {
        const double level = std::max(0.0, l.capacity - used) / (1 + sharing);
        if (perWeight <= level)
        {
            break;
        }
        used -= bytes;
        sharing += share;
    }
    free = std::max(0.0, l.capacity - used);
}

uint64_t
FluidNetwork::GetLinkVersion(uint32_t link) const
{
    return LinkAt(link).version;
}

void
FluidNetwork::PrefetchLink(uint32_t link) const
{
    if (link < m_links.size())
    {
        const char* b = reinterpret_cast<const char*>(&m_links[link]);
        for (std::size_t off = 0; off < sizeof(Link); off += 64)
        {
            __builtin_prefetch(b + off);
        }
    }
}

Time
FluidNetwork::PathLatency(const std::vector<uint32_t>& path) const
{
    Time delay;
    double serialization = 0;
    double bottleneck = 0;
    for (uint32_t l : path)
    {
        const Link& link = LinkAt(l);
        delay += link.delay;
        const double frameTime = double(m_frameBytes) / link.nominal;
        serialization += frameTime;
        bottleneck = std::max(bottleneck, frameTime);
    }
    // The bottleneck's serialization of every frame, the last one included, is in the drain
    // time; every other hop adds one frame's store-and-forward.
    return delay + NanoSeconds(int64_t(std::llround((serialization - bottleneck) * 1e9)));
}

uint64_t
FluidNetwork::StartFlow(FlowSpec spec)
{
    if (spec.path.empty())
    {
        throw std::invalid_argument("FluidNetwork::StartFlow: path is empty (needs >= 1 link)");
    }
    // Each list's links known and distinct (a link may be on both lists: data one way, others'
    // acknowledgements), each coefficient list empty or one positive entry per link.
    auto checkLinks = [this](const std::vector<uint32_t>& links, const char* what) {
        for (std::size_t i = 0; i < links.size(); ++i)
        {
            LinkAt(links[i]);
            for (std::size_t j = 0; j < i; ++j)
            {
                if (links[j] == links[i])
                {
                    throw std::invalid_argument(std::string("FluidNetwork::StartFlow: ") + what +
                                                " crosses link " + std::to_string(links[i]) +
                                                " twice");
                }
            }
        }
    };
    auto checkCoefs =
        [](const std::vector<double>& coefs, std::size_t n, const char* name, const char* what) {
            if (!coefs.empty() && coefs.size() != n)
            {
                throw std::invalid_argument(std::string("FluidNetwork::StartFlow: ") + name +
                                            " has " + std::to_string(coefs.size()) +
                                            " entries; it must be empty or one per " + what +
                                            " link (" + std::to_string(n) + ")");
            }
            for (double c : coefs)
            {
                if (!(c > 0) || !std::isfinite(c))
                {
                    throw std::invalid_argument(std::string("FluidNetwork::StartFlow: ") + name +
                                                " entry " + std::to_string(c) +
                                                " is out of range (> 0, finite)");
                }
            }
        };
    checkLinks(spec.path, "path");
    checkLinks(spec.reversePath, "reverse path");
    checkCoefs(spec.pathCoef, spec.path.size(), "pathCoef", "path");
    checkCoefs(spec.reverseCoef, spec.reversePath.size(), "reverseCoef", "reverse path");
    if (!(spec.reverseShare >= 0 && spec.reverseShare <= 1))
    {
        throw std::invalid_argument("FluidNetwork::StartFlow: reverse share = " +
                                    std::to_string(spec.reverseShare) + " is out of range [0, 1]");
    }
    if (spec.bytes == 0)
    {
        throw std::invalid_argument("FluidNetwork::StartFlow: bytes = 0 is out of range (>= 1)");
    }
    if (spec.cls >= N_CLASSES)
    {
        throw std::invalid_argument("FluidNetwork::StartFlow: class = " + std::to_string(spec.cls) +
                                    " is out of range [0, 7]");
    }
    if (!(spec.weight > 0) || !std::isfinite(spec.weight))
    {
        throw std::invalid_argument("FluidNetwork::StartFlow: weight = " +
                                    std::to_string(spec.weight) + " is out of range (> 0, finite)");
    }
    if (!(spec.rateCap >= 0) || !std::isfinite(spec.rateCap))
    {
        throw std::invalid_argument(
            "FluidNetwork::StartFlow: rate cap = " + std::to_string(spec.rateCap) +
            " bytes/s is out of range (>= 0, finite; 0 = none)");
    }
    if (spec.extraLatency.IsStrictlyNegative())
    {
        throw std::invalid_argument("FluidNetwork::StartFlow: extra latency is negative");
    }
    uint32_t slot;
    if (m_freeSlots.empty())
    {
        slot = uint32_t(m_flows.size());
        m_flows.emplace_back();
    }
    else
    {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
    }
    Flow& f = m_flows[slot];
    f.id = m_nextId++;
    f.live = true;
    f.finished = false;
    f.remaining = double(spec.bytes);
    f.rate = 0;
    f.last = Simulator::Now();
    f.start = f.last;
    f.stamp = 0;
    f.bottleneck = kCapped;
    f.links.assign(spec.path.begin(), spec.path.end());
    if (spec.pathCoef.empty())
    {
        f.coef.assign(spec.path.size(), 1.0);
    }
    else
    {
        f.coef.assign(spec.pathCoef.begin(), spec.pathCoef.end());
    }
    f.nPath = uint32_t(spec.path.size());
    if (spec.reverseShare > 0 || !spec.reverseCoef.empty())
    {
        // Acknowledgement entries (class 7): +share where the path crosses the link too (the
        // flow's own rate sets them in its filling), -share elsewhere (see Flow::coef).
        for (std::size_t i = 0; i < spec.reversePath.size(); ++i)
        {
            const uint32_t l = spec.reversePath[i];
            const double share = spec.reverseCoef.empty() ? spec.reverseShare : spec.reverseCoef[i];
            const bool own = std::find(spec.path.begin(), spec.path.end(), l) != spec.path.end();
            f.links.push_back(l);
            f.coef.push_back(own ? share : -share);
        }
    }
    f.spec = std::move(spec);
    f.posInLink.resize(f.links.size());
    for (std::size_t i = 0; i < f.links.size(); ++i)
    {
        Link& link = m_links[f.links[i]];
        f.posInLink[i] = uint32_t(link.flows.size());
        link.flows.push_back(slot);
        // on the link, every acknowledgement entry is < 0 (class 7, see Link::coefs)
        link.coefs.push_back(i < f.nPath ? f.coef[i] : -std::abs(f.coef[i]));
    }
    m_slotOf.emplace(f.id, slot);
    NS_LOG_DEBUG("flow " << f.id << " starts: " << f.spec.bytes << " B over " << f.spec.path.size()
                         << " links, class " << int(f.spec.cls));
    m_startTrace(f.id, f.spec.bytes);
    Touch(slot);
    return f.id;
}

FluidNetwork::Flow&
FluidNetwork::LiveFlow(uint64_t id)
{
    return const_cast<Flow&>(static_cast<const FluidNetwork*>(this)->LiveFlow(id));
}

const FluidNetwork::Flow&
FluidNetwork::LiveFlow(uint64_t id) const
{
    auto it = m_slotOf.find(id);
    if (it == m_slotOf.end() || m_flows[it->second].finished)
    {
        throw std::invalid_argument("FluidNetwork: flow " + std::to_string(id) +
                                    " is not transmitting");
    }
    return m_flows[it->second];
}

void
FluidNetwork::SetRateCap(uint64_t id, double cap)
{
    if (!(cap >= 0) || !std::isfinite(cap))
    {
        throw std::invalid_argument("FluidNetwork::SetRateCap: cap = " + std::to_string(cap) +
                                    " bytes/s is out of range (>= 0, finite; 0 = none)");
    }
    Flow& f = LiveFlow(id);
    if (f.spec.rateCap != cap)
    {
        f.spec.rateCap = cap;
        Touch(m_slotOf.at(id));
    }
}

void
FluidNetwork::SetClass(uint64_t id, uint8_t cls)
{
    if (cls >= N_CLASSES)
    {
        throw std::invalid_argument("FluidNetwork::SetClass: class = " + std::to_string(cls) +
                                    " is out of range [0, 7]");
    }
    Flow& f = LiveFlow(id);
    if (f.spec.cls != cls)
    {
        Progress(f, Simulator::Now()); // the bytes so far count in the old class
        f.spec.cls = cls;
        Touch(m_slotOf.at(id));
    }
}

void
FluidNetwork::SetWeight(uint64_t id, double weight)
{
    if (!(weight > 0) || !std::isfinite(weight))
    {
        throw std::invalid_argument("FluidNetwork::SetWeight: weight = " + std::to_string(weight) +
                                    " is out of range (> 0, finite)");
    }
    Flow& f = LiveFlow(id);
    // (with the "input-port" Sharing, the owner's weight, which the input-port weight
    // multiplies at the recomputation; FluidInputPortShare::Base)
    if (f.spec.weight != weight || m_inputPort)
    {
        f.spec.weight = weight;
        Touch(m_slotOf.at(id));
    }
}

void
FluidNetwork::AddBytes(uint64_t id, uint64_t bytes)
{
    if (bytes == 0)
    {
        throw std::invalid_argument("FluidNetwork::AddBytes: bytes = 0 is out of range (>= 1)");
    }
    Flow& f = LiveFlow(id);
    Progress(f, Simulator::Now());
    f.remaining += double(bytes);
    f.spec.bytes += bytes;
    f.done.Cancel(); // the recomputation schedules the new drain
    Touch(m_slotOf.at(id));
}

bool
FluidNetwork::IsTransmitting(uint64_t id) const
{
    auto it = m_slotOf.find(id);
    return it != m_slotOf.end() && !m_flows[it->second].finished;
}

double
FluidNetwork::GetRate(uint64_t id) const
{
    return LiveFlow(id).rate;
}

double
FluidNetwork::GetRemaining(uint64_t id) const
{
    const Flow& f = LiveFlow(id);
    const double moved = f.rate * (Simulator::Now() - f.last).GetSeconds();
    return std::max(0.0, f.remaining - moved);
}

uint32_t
FluidNetwork::GetNTransmitting() const
{
    uint32_t n = 0;
    for (const auto& [id, slot] : m_slotOf)
    {
        n += m_flows[slot].finished ? 0 : 1;
    }
    return n;
}

uint64_t
FluidNetwork::GetRecomputations() const
{
    return m_recomputations;
}

uint64_t
FluidNetwork::GetFlowsRecomputed() const
{
    return m_flowsRecomputed;
}

uint64_t
FluidNetwork::GetMaxFlowsRecomputed() const
{
    return m_maxFlowsRecomputed;
}

uint64_t
FluidNetwork::GetBytesDrained() const
{
    return m_bytesDrained;
}

uint64_t
FluidNetwork::GetFillings() const
{
    return m_fillings;
}

uint64_t
FluidNetwork::GetUnconvergedFillings() const
{
    return m_unconvergedFillings;
}

std::string
FluidNetwork::GetUnconvergedWarning() const
{
    std::string sharing;
    if (GetSharingUnconverged() > 0)
    {
        sharing = "the input-port weights of the fluid network (Sharing \"input-port\") did not "
                  "reach their fixed point within FluidNetwork::MaxSharingRounds = " +
                  std::to_string(m_maxSharingRounds) + " solves " +
                  std::to_string(GetSharingUnconverged()) + " times (in " +
                  std::to_string(m_recomputations) +
                  " recomputations): there the rates are those of the last solve, whose "
                  "weights are one round old (raise --ns3::FluidNetwork::MaxSharingRounds)";
    }
    if (m_unconvergedFillings == 0)
    {
        return sharing;
    }
    return (sharing.empty() ? "" : sharing + "; ") +
           "the acknowledgement loads (class 7) of the fluid network did not converge within "
           "FluidNetwork::MaxAckFillings = " +
           std::to_string(m_maxAckFillings) + " fillings " + std::to_string(m_unconvergedFillings) +
           " times (in " + std::to_string(m_recomputations) +
           " recomputations): there they are off their flows' rates by more than 1e-7 of a "
           "link, and so are the rates of the flows sharing those links (raise "
           "--ns3::FluidNetwork::MaxAckFillings)";
}

void
FluidNetwork::Advance()
{
    const Time now = Simulator::Now();
    for (Flow& f : m_flows)
    {
        if (f.live)
        {
            Progress(f, now);
        }
    }
    for (Link& l : m_links)
    {
        ProgressReserves(l, now);
    }
}

void
FluidNetwork::Touch(uint32_t slot)
{
    for (uint32_t l : m_flows[slot].links)
    {
        ++m_links[l].version;
    }
    m_touched.push_back(slot);
    if (!m_recompute.IsRunning())
    {
        ScheduleRecompute(); // (fluid-input-port-share.cc: this Sharing mode's recomputation)
    }
}

void
FluidNetwork::Progress(Flow& f, Time now)
{
    double moved;
    if (f.finished)
    {
        moved = f.remaining; // drained (its event is at or just after the exact time)
    }
    else
    {
        moved = std::min(f.remaining, f.rate * (now - f.last).GetSeconds());
    }
    if (moved > 0)
    {
        f.remaining -= moved;
        for (std::size_t i = 0; i < f.links.size(); ++i)
        {
            Link& link = m_links[f.links[i]];
            const double bytes = moved * std::abs(f.coef[i]);
            link.carried += bytes;
            // (the acknowledgements in class 7)
            link.byClass[i < f.nPath ? f.spec.cls : N_CLASSES - 1].carried += bytes;
        }
    }
    f.last = now;
}

void
FluidNetwork::Drained(uint32_t slot)
{
    Flow& f = m_flows[slot];
    f.finished = true;
    m_bytesDrained += f.spec.bytes;
    NS_LOG_DEBUG("flow " << f.id << " drained");
    const Time latency =
        f.spec.latency.IsStrictlyNegative() ? PathLatency(f.spec.path) : f.spec.latency;
    Simulator::Schedule(latency,
                        &FluidNetwork::Deliver,
                        this,
                        f.id,
                        f.spec.bytes,
                        f.start,
                        f.spec.delivered,
                        f.spec.completed,
                        f.spec.extraLatency);
    Touch(slot);
    if (!f.spec.drained.IsNull())
    {
        // A copy, called last: it may start flows (m_flows may grow and move f).
        const FlowCallback drained = f.spec.drained;
        drained(f.id);
    }
}

void
FluidNetwork::Deliver(uint64_t id,
                      uint64_t bytes,
                      Time start,
                      FlowCallback delivered,
                      FlowCallback completed,
                      Time extra)
{
    m_endTrace(id, bytes, start, Simulator::Now());
    if (!delivered.IsNull())
    {
        delivered(id);
    }
    if (completed.IsNull())
    {
        return;
    }
    if (extra.IsZero())
    {
        completed(id);
    }
    else
    {
        Simulator::Schedule(extra, [completed, id]() { completed(id); });
    }
}

void
FluidNetwork::Detach(uint32_t slot)
{
    Flow& f = m_flows[slot];
    for (std::size_t i = 0; i < f.links.size(); ++i)
    {
        const uint32_t l = f.links[i];
        std::vector<uint32_t>& on = m_links[l].flows;
        std::vector<double>& coefs = m_links[l].coefs;
        const uint32_t pos = f.posInLink[i];
        const uint32_t last = uint32_t(on.size() - 1);
        const uint32_t moved = on.back();
        on[pos] = moved;
        on.pop_back();
        coefs[pos] = coefs.back();
        coefs.pop_back();
        // The entry that was last (a flow may have two on the link, its data and its
        // acknowledgements, and may be this flow) is now at pos.
        Flow& g = m_flows[moved];
        for (std::size_t j = 0; j < g.links.size(); ++j)
        {
            if (g.links[j] == l && g.posInLink[j] == last)
            {
                g.posInLink[j] = pos;
                break;
            }
        }
    }
    m_slotOf.erase(f.id);
    f.live = false;
    f.finished = false;
    f.done.Cancel();
    f.spec = FlowSpec();
    f.posInLink.clear();
    f.links.clear();
    f.coef.clear();
    m_freeSlots.push_back(slot);
}

} // namespace ns3
