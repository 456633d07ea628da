/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fluid-aggregate.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluidAggregate");
NS_OBJECT_ENSURE_REGISTERED(FluidAggregate);

namespace
{
constexpr uint8_t kClasses = 8;
/// The smallest background capacity of a link, as a share of the link's (a link taken whole
/// by the classes above leaves the background flows this trickle until the next refresh).
constexpr double kMinShare = 1e-9;
/// Interval(), CompleteAnalytic(): how many links ahead the per-link state is asked for.
constexpr std::size_t kHotAhead = 4;
/// CompleteAnalytic(): how many flows ahead their links are asked for.
constexpr std::size_t kFlowsAhead = 8;

/// Ask for a per-link row (up to 64 B, two cache lines where it straddles them).
/// \param row the row
template <class Row>
void
PrefetchRow(const Row& row)
{
    const char* b = reinterpret_cast<const char*>(&row);
    __builtin_prefetch(b);
    __builtin_prefetch(b + sizeof(Row) - 1);
}
} // namespace

TypeId
FluidAggregate::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FluidAggregate")
            .SetParent<Object>()
            .SetGroupName("Mlnet")
            .AddConstructor<FluidAggregate>()
            .AddAttribute("Interval",
                          "Coupling interval: the background bytes a link carried in one "
                          "interval load the main network's link in the next one, and the "
                          "background capacities are refreshed at its end (in [1ns, 1s]; "
                          "shorter: closer to one fluid flow per background flow, more "
                          "recomputations of the main network)",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&FluidAggregate::m_interval),
                          MakeTimeChecker(NanoSeconds(1), Seconds(1)))
            .AddAttribute("MaxUtilisation",
                          "Analytic model (CompleteAnalytic): the largest load rho of a link's "
                          "other background flows in one interval, as a share of the capacity "
                          "left to them (in [0, 0.999]; a link's processor-sharing delay is at "
                          "most 1 / (1 - MaxUtilisation) - 1 times a flow's drain there)",
                          DoubleValue(0.95),
                          MakeDoubleAccessor(&FluidAggregate::m_maxUtilisation),
                          MakeDoubleChecker<double>(0.0, 0.999))
            .AddAttribute("LoadTolerance",
                          "A link's background load in the main network keeps its rate while "
                          "the rate the interval's bytes ask for is within this share of the "
                          "link's capacity of it (in [0, 1]; 0 = changed every interval, the "
                          "exact coupling; the bytes not carried, or carried ahead, stay in "
                          "the backlog: the rate is within 2 x LoadTolerance x capacity of the "
                          "exact one; fewer recomputations of the main network)",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&FluidAggregate::m_tolerance),
                          MakeDoubleChecker<double>(0.0, 1.0));
    return tid;
}

FluidAggregate::FluidAggregate() = default;
FluidAggregate::~FluidAggregate() = default;

void
FluidAggregate::DoDispose()
{
    m_timer.Cancel();
    if (m_bg)
    {
        m_bg->Dispose();
    }
    m_bg = nullptr;
    m_main = nullptr;
    Object::DoDispose();
}

void
FluidAggregate::Attach(Ptr<FluidNetwork> main)
{
    if (m_main)
    {
        throw std::logic_error("FluidAggregate::Attach: already attached");
    }
    if (!main)
    {
        throw std::invalid_argument("FluidAggregate::Attach: the main network is null");
    }
    m_main = main;
    m_bg = CreateObject<FluidNetwork>();
    UintegerValue frame;
    main->GetAttribute("FrameBytes", frame);
    m_bg->SetAttribute("FrameBytes", frame);
    BooleanValue incremental;
    main->GetAttribute("Incremental", incremental);
    m_bg->SetAttribute("Incremental", incremental);
    CopyLinks();
}

Ptr<FluidNetwork>
FluidAggregate::GetNetwork() const
{
    return m_bg;
}

void
FluidAggregate::CopyLinks()
{
    for (uint32_t l = m_bg->GetNLinks(); l < m_main->GetNLinks(); ++l)
    {
        m_bg->AddLink(m_main->GetLinkCapacity(l), m_main->GetLinkDelay(l));
    }
    const std::size_t n = m_main->GetNLinks();
    std::array<uint32_t, 8> zero{};
    std::array<double, 8> none{};
    m_count.resize(n, zero);
    m_seen.resize(n, none);
    m_backlog.resize(n, none);
    m_carried.resize(n, none);
    m_extra.resize(n, none);
    m_batch.resize(n, none);
    m_isHot.resize(n, 0);
    m_terms.resize(n);
}

uint64_t
FluidAggregate::StartFlow(FluidNetwork::FlowSpec spec)
{
    if (!m_main)
    {
        throw std::invalid_argument("FluidAggregate::StartFlow: not attached to a network");
    }
    if (m_bg->GetNLinks() < m_main->GetNLinks())
    {
        CopyLinks();
    }
    std::vector<uint32_t> links = spec.path;
    if (spec.reverseShare > 0)
    {
        links.insert(links.end(), spec.reversePath.begin(), spec.reversePath.end());
    }
    const uint8_t cls = spec.cls;
    const FluidNetwork::FlowCallback drained = spec.drained;
    spec.drained = FluidNetwork::FlowCallback([this, links, cls, drained](uint64_t id) {
        Leave(links, cls);
        if (!drained.IsNull())
        {
            drained(id);
        }
    });
    const uint64_t id = m_bg->StartFlow(std::move(spec)); // validates the spec
    ++m_flows;
    for (uint32_t l : links)
    {
        ++m_count[l][cls];
        Heat(l);
        UpdateCapacity(l);
    }
    Arm();
    return id;
}

void
FluidAggregate::Heat(uint32_t link)
{
    if (!m_isHot[link])
    {
        m_isHot[link] = 1;
        m_hot.push_back(link);
    }
}

void
FluidAggregate::Arm()
{
    if (!m_timer.IsRunning())
    {
        m_timer = Simulator::Schedule(m_interval, &FluidAggregate::Interval, this);
    }
}

void
FluidAggregate::AddLoad(uint32_t link, uint8_t cls, double bytes)
{
    if (!m_main)
    {
        throw std::invalid_argument("FluidAggregate::AddLoad: not attached to a network");
    }
    if (m_bg->GetNLinks() < m_main->GetNLinks())
    {
        CopyLinks();
    }
    if (link >= m_extra.size() || cls >= kClasses || !(bytes >= 0))
    {
        throw std::invalid_argument("FluidAggregate::AddLoad: link " + std::to_string(link) +
                                    " (range [0, " + std::to_string(m_extra.size()) + ")), class " +
                                    std::to_string(cls) + " (range [0, 7]) or bytes " +
                                    std::to_string(bytes) + " (range >= 0) out of range");
    }
    m_extra[link][cls] += bytes;
    m_added += bytes;
    Heat(link);
    Arm();
}

void
FluidAggregate::CompleteAnalytic(std::vector<AnalyticFlow>& flows,
                                 const std::vector<uint32_t>& links)
{
    if (!m_main)
    {
        throw std::invalid_argument("FluidAggregate::CompleteAnalytic: not attached to a network");
    }
    if (m_bg->GetNLinks() < m_main->GetNLinks())
    {
        CopyLinks();
    }
    // The batch's links, flow after flow (path, then way back), copied once from `links` (tens
    // of MB read at random) so that the passes below read them in sequence; a scratch kept
    // between calls.
    thread_local std::vector<uint32_t> seq;
    seq.clear();
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        if (i + kFlowsAhead < flows.size())
        {
            // a flow's links some flows ahead: their first and last lines (in range: `links`
            // is not read here, only asked for)
            const AnalyticFlow& g = flows[i + kFlowsAhead];
            const uint64_t end = uint64_t(g.first) + g.nPath + g.nReverse;
            if (g.nPath > 0 && end <= links.size())
            {
                __builtin_prefetch(&links[g.first]);
                __builtin_prefetch(&links[end - 1]);
            }
        }
        const AnalyticFlow& f = flows[i];
        if (f.nPath == 0 || uint64_t(f.first) + f.nPath + f.nReverse > links.size() ||
            f.cls >= kClasses || !(f.wire > 0) || !(f.reverseShare >= 0))
        {
            throw std::invalid_argument(
                "FluidAggregate::CompleteAnalytic: a flow's links (nPath >= 1, within the "
                "links given), class (range [0, 7]), wire bytes (> 0) or reverseShare (>= 0) "
                "out of range");
        }
        if (f.nReverse > 0)
        {
            // (data in class 7 shares the acknowledgements' load: no limit then)
            m_ackShare = std::max(m_ackShare,
                                  f.cls == FluidNetwork::N_CLASSES - 1
                                      ? std::numeric_limits<double>::infinity()
                                      : f.reverseShare);
        }
        for (uint32_t k = f.first; k < f.first + f.nPath + f.nReverse; ++k)
        {
            if (links[k] >= m_batch.size())
            {
                throw std::invalid_argument("FluidAggregate::CompleteAnalytic: link " +
                                            std::to_string(links[k]) + " out of range [0, " +
                                            std::to_string(m_batch.size()) + ")");
            }
            seq.push_back(links[k]);
        }
    }
    // The batch's bytes per link and class (its load rho, less each flow's own). The links
    // with bytes are marked in a bit set, read in link order below (the order of the loads
    // handed over: the same as sorting them).
    thread_local std::vector<uint64_t> marked;
    marked.resize((m_batch.size() + 63) / 64);
    auto add = [this](uint32_t l, uint8_t c, double bytes) {
        if (m_batch[l][c] == 0)
        {
            marked[l >> 6] |= uint64_t(1) << (l & 63);
        }
        m_batch[l][c] += bytes;
    };
    std::size_t at = 0;
    for (const AnalyticFlow& f : flows)
    {
        for (uint32_t k = 0; k < f.nPath; ++k)
        {
            add(seq[at++], f.cls, f.wire);
        }
        for (uint32_t k = 0; k < f.nReverse; ++k)
        {
            // acknowledgements in class 7, as FluidNetwork carries them
            add(seq[at++], FluidNetwork::N_CLASSES - 1, f.wire * f.reverseShare);
        }
    }
    m_batchLinks.clear();
    for (std::size_t w = 0; w < marked.size(); ++w)
    {
        for (uint64_t bits = marked[w]; bits != 0; bits &= bits - 1)
        {
            m_batchLinks.push_back(uint32_t(w * 64 + __builtin_ctzll(bits)));
        }
        marked[w] = 0;
    }
    const double T = m_interval.GetSeconds();
    // A_l per link and class of the batch, read once (the main network does not change within
    // the call); a scratch kept between calls, indexed by link x 8 + class.
    thread_local std::vector<double> avail;
    avail.resize(m_batch.size() * kClasses);
    for (std::size_t i = 0; i < m_batchLinks.size(); ++i)
    {
        if (i + kHotAhead < m_batchLinks.size())
        {
            // the main network's link and its terms, read by Available() (links at random
            // places in memory: asked for a few ahead)
            const uint32_t n = m_batchLinks[i + kHotAhead];
            m_main->PrefetchLink(n);
            __builtin_prefetch(&m_terms[n]);
        }
        const uint32_t l = m_batchLinks[i];
        for (uint8_t c = 0; c < kClasses; ++c)
        {
            if (m_batch[l][c] > 0)
            {
                avail[l * kClasses + c] = Available(l, c);
            }
        }
    }
    at = 0;
    for (AnalyticFlow& f : flows)
    {
        double slowest = std::numeric_limits<double>::infinity();
        double shared = 0; // the links' processor-sharing delays
        for (uint32_t k = 0; k < f.nPath; ++k)
        {
            const uint32_t l = seq[at + k];
            const double a = avail[l * kClasses + f.cls];
            const double rho =
                std::min(m_maxUtilisation, std::max(0.0, (m_batch[l][f.cls] - f.wire) / (a * T)));
            slowest = std::min(slowest, a);
            shared += f.wire * rho / (a * (1 - rho));
        }
        at += f.nPath + f.nReverse;
        const double drain = f.wire / slowest + shared;
        f.fct = NanoSeconds(int64_t(std::ceil(drain * 1e9))) + f.latency;
    }
    m_analyticFlows += flows.size();
    // The batch's bytes to the main network, as the background network's, in link order.
    for (uint32_t l : m_batchLinks)
    {
        for (uint8_t c = 0; c < kClasses; ++c)
        {
            if (m_batch[l][c] > 0)
            {
                AddLoad(l, c, m_batch[l][c]);
                m_batch[l][c] = 0;
            }
        }
    }
    m_batchLinks.clear();
}

double
FluidAggregate::Available(uint32_t link, uint8_t cls)
{
    const ShareTerms& t = Terms(link, cls);
    const double full = m_main->GetLinkCapacity(link);
    return std::max(t.free / (1 + t.sharing), full * kMinShare);
}

Time
FluidAggregate::GetInterval() const
{
    return m_interval;
}

void
FluidAggregate::Leave(const std::vector<uint32_t>& links, uint8_t cls)
{
    for (uint32_t l : links)
    {
        --m_count[l][cls];
        UpdateCapacity(l);
    }
}

void
FluidAggregate::UpdateCapacity(uint32_t link)
{
    int top = -1;
    for (int c = kClasses - 1; c >= 0; --c)
    {
        if (m_count[link][c] > 0)
        {
            top = c;
            break;
        }
    }
    if (top < 0)
    {
        return; // no background flow here: the capacity is set when one comes
    }
    const ShareTerms& t = Terms(link, top);
    const double full = m_main->GetLinkCapacity(link);
    const double k = double(m_count[link][top]);
    const double share = t.free * k / (k + t.sharing); // FluidNetwork::GetLinkShare
    m_bg->SetLinkCapacity(link, std::max(share, full * kMinShare));
}

const FluidAggregate::ShareTerms&
FluidAggregate::Terms(uint32_t link, int cls)
{
    ShareTerms& t = m_terms[link];
    const uint64_t version = m_main->GetLinkVersion(link);
    if (t.version != version || t.top != cls)
    {
        // the main network changed on the link since the last refresh (or the class did);
        // the loads are reserves, which the terms do not count
        m_main->GetLinkShareTerms(link, uint8_t(cls), {}, t.free, t.sharing);
        t.version = version;
        t.top = cls;
    }
    return t;
}

void
FluidAggregate::Interval()
{
    ++m_intervals;
    const bool network = m_flows > 0; // the background network has had flows (else: analytic)
    if (network)
    {
        m_bg->Advance();
    }
    const double dt = m_interval.GetSeconds();
    std::size_t keep = 0;
    for (std::size_t i = 0; i < m_hot.size(); ++i)
    {
        if (i + kHotAhead < m_hot.size())
        {
            // the per-link rows the loop reads, a few links ahead (links in m_hot's order are
            // at random places: one miss after the other without this)
            const uint32_t n = m_hot[i + kHotAhead];
            m_main->PrefetchLink(n); // its reserves, read and set below
            PrefetchRow(m_count[n]);
            PrefetchRow(m_extra[n]);
            PrefetchRow(m_seen[n]);
            PrefetchRow(m_backlog[n]);
            PrefetchRow(m_carried[n]);
        }
        const uint32_t l = m_hot[i];
        // (0 without a tolerance: the link's capacity, a cache miss per link, is not read)
        const double slack = m_tolerance > 0 ? m_tolerance * m_main->GetLinkCapacity(l) : 0.0;
        bool busy = false;
        for (uint8_t c = 0; c < kClasses; ++c)
        {
            busy = busy || m_count[l][c] > 0;
            const double inNetwork = network ? m_bg->GetLinkClassBytes(l, c) : 0.0;
            double whole = std::floor(inNetwork + m_extra[l][c] - m_seen[l][c]);
            if (whole >= 1)
            {
                m_seen[l][c] += whole;
                m_handed += whole;
            }
            else
            {
                whole = 0;
            }
            if (whole == 0 && m_backlog[l][c] <= 0 && m_carried[l][c] == 0)
            {
                continue; // no load here, ever
            }
            const double applied = m_main->GetLinkReserve(l, c);
            if (whole == 0 && applied == 0 && m_backlog[l][c] <= 0)
            {
                continue; // no load here
            }
            // The interval's bytes and the backlog, carried in the next interval.
            const double carried = m_main->GetLinkReserveBytes(l, c) - m_carried[l][c];
            m_carried[l][c] += carried;
            double& backlog = m_backlog[l][c];
            backlog += whole - carried;
            double rate = backlog >= 1 ? backlog / dt : 0.0; // whole bytes, as handed
            if (c == FluidNetwork::N_CLASSES - 1 && m_ackShare > 0)
            {
                // The analytic flows' acknowledgements, served before every class: at most
                // what the acknowledgements of data at line rate take (CompleteAnalytic hands
                // a flow's at once; its data, in its class, gets a max-min share).
                rate = std::min(rate, m_ackShare * m_main->GetLinkCapacity(l));
            }
            if (rate == applied)
            {
                // no change
            }
            else if (rate > 0 && applied > 0 && std::abs(rate - applied) <= slack)
            {
                ++m_loadSkips; // within the tolerance: the rate stays
            }
            else
            {
                m_loadFlows += applied == 0 ? 1 : 0;
                ++m_loadUpdates;
                m_main->SetLinkReserve(l, c, rate);
            }
            busy = busy || rate > 0 || m_main->GetLinkReserve(l, c) > 0;
        }
        if (busy)
        {
            m_hot[keep++] = l;
            UpdateCapacity(l);
        }
        else
        {
            m_isHot[l] = 0;
        }
    }
    m_hot.resize(keep);
    NS_LOG_DEBUG("interval " << m_intervals << ": " << keep << " links with background");
    if (!m_hot.empty())
    {
        m_timer = Simulator::Schedule(m_interval, &FluidAggregate::Interval, this);
    }
}

uint64_t
FluidAggregate::GetIntervals() const
{
    return m_intervals;
}

uint64_t
FluidAggregate::GetLoadFlows() const
{
    return m_loadFlows;
}

uint64_t
FluidAggregate::GetLoadUpdates() const
{
    return m_loadUpdates;
}

uint64_t
FluidAggregate::GetLoadSkips() const
{
    return m_loadSkips;
}

uint64_t
FluidAggregate::GetFlows() const
{
    return m_flows;
}

uint64_t
FluidAggregate::GetAnalyticFlows() const
{
    return m_analyticFlows;
}

double
FluidAggregate::GetAddedBytes() const
{
    return m_added;
}

double
FluidAggregate::GetHandedBytes() const
{
    return m_handed;
}

} // namespace ns3
