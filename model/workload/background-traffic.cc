/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "background-traffic.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fluid-aggregate.h"
#include "ns3/fluid-transport.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BackgroundTraffic");
NS_OBJECT_ENSURE_REGISTERED(BackgroundTraffic);

namespace
{
// Same content as data/websearch.cdf and data/datamining.cdf (model code opens no files).
const char* kWebSearch = "0 0\n10000 0.15\n20000 0.20\n30000 0.30\n50000 0.40\n80000 0.53\n"
                         "200000 0.60\n1000000 0.70\n2000000 0.80\n5000000 0.90\n"
                         "10000000 0.97\n30000000 1.00\n";
const char* kDataMining = "0 0\n1460 0.5\n2920 0.6\n4380 0.7\n10220 0.8\n389820 0.9\n"
                          "3076220 0.95\n97333820 0.99\n973333820 1.00\n";
} // namespace

FlowSizeCdf::FlowSizeCdf(std::vector<std::pair<double, double>> points)
    : m_points(std::move(points))
{
    if (m_points.size() < 2)
    {
        throw std::invalid_argument("FlowSizeCdf: points must be >= 2");
    }
    for (std::size_t i = 0; i < m_points.size(); ++i)
    {
        const auto& p = m_points[i];
        if (!(p.first >= 0) || !(p.second >= 0 && p.second <= 1))
        {
            throw std::invalid_argument("FlowSizeCdf: point " + std::to_string(i) +
                                        ": size must be >= 0 and probability in [0, 1]");
        }
        if (i > 0 && (p.first < m_points[i - 1].first || p.second < m_points[i - 1].second))
        {
            throw std::invalid_argument("FlowSizeCdf: point " + std::to_string(i) +
                                        ": sizes and probabilities must be non-decreasing");
        }
    }
    if (std::abs(m_points.back().second - 1.0) > 1e-9)
    {
        throw std::invalid_argument("FlowSizeCdf: last probability must be 1");
    }
}

FlowSizeCdf
FlowSizeCdf::FromStream(std::istream& in)
{
    std::vector<std::pair<double, double>> pts;
    std::string line;
    uint32_t n = 0;
    while (std::getline(in, line))
    {
        ++n;
        auto hash = line.find('#');
        if (hash != std::string::npos)
        {
            line.resize(hash);
        }
        std::istringstream ls(line);
        double s;
        double p;
        if (!(ls >> s))
        {
            continue; // blank
        }
        std::string rest;
        if (!(ls >> p) || (ls >> rest))
        {
            throw std::invalid_argument("FlowSizeCdf::FromStream: line " + std::to_string(n) +
                                        ": expected 'size_bytes cumulative_probability'");
        }
        pts.emplace_back(s, p);
    }
    if (!pts.empty() && pts.front().second > 0)
    {
        pts.insert(pts.begin(), {pts.front().first, 0.0});
    }
    return FlowSizeCdf(pts);
}

FlowSizeCdf
FlowSizeCdf::WebSearch()
{
    std::istringstream s(kWebSearch);
    return FromStream(s);
}

FlowSizeCdf
FlowSizeCdf::DataMining()
{
    std::istringstream s(kDataMining);
    return FromStream(s);
}

FlowSizeCdf
FlowSizeCdf::Get(const std::string& name)
{
    if (name == "websearch")
    {
        return WebSearch();
    }
    if (name == "datamining")
    {
        return DataMining();
    }
    throw std::invalid_argument("FlowSizeCdf::Get: name '" + name +
                                "' must be one of websearch, datamining");
}

uint64_t
FlowSizeCdf::Sample(double u) const
{
    u = std::min(1.0, std::max(0.0, u));
    for (std::size_t i = 1; i < m_points.size(); ++i)
    {
        const auto& a = m_points[i - 1];
        const auto& b = m_points[i];
        if (u <= b.second && b.second > a.second)
        {
            double x = a.first + (u - a.second) / (b.second - a.second) * (b.first - a.first);
            return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(x)));
        }
    }
    return std::max<uint64_t>(1, static_cast<uint64_t>(m_points.back().first));
}

double
FlowSizeCdf::GetMean() const
{
    double m = 0;
    for (std::size_t i = 1; i < m_points.size(); ++i)
    {
        m += (m_points[i].second - m_points[i - 1].second) *
             (m_points[i].first + m_points[i - 1].first) / 2.0;
    }
    return std::max(1.0, m);
}

const std::vector<std::pair<double, double>>&
FlowSizeCdf::GetPoints() const
{
    return m_points;
}

TypeId
BackgroundTraffic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::BackgroundTraffic")
            .SetParent<Object>()
            .SetGroupName("Mlnet")
            .AddConstructor<BackgroundTraffic>()
            .AddAttribute("Load",
                          "Offered payload load per source host, fraction of LinkRate (0, 1]",
                          DoubleValue(0.3),
                          MakeDoubleAccessor(&BackgroundTraffic::m_load),
                          MakeDoubleChecker<double>(1e-9, 1.0))
            .AddAttribute("LinkRate",
                          "Rate the load refers to (the host link rate)",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&BackgroundTraffic::m_rate),
                          MakeDataRateChecker())
            .AddAttribute("PriorityClass",
                          DataClass::Help("the flows"),
                          UintegerValue(DataClass::DEFAULT),
                          MakeUintegerAccessor(&BackgroundTraffic::m_class),
                          DataClass::Checker())
            .AddAttribute("Fluid",
                          "At flow level: per-flow (one fluid flow of the network per flow), "
                          "aggregate (the flows drain in the fabric's aggregate background "
                          "model, FluidConnection::Aggregate: the network sees their load per "
                          "link and interval) or analytic (each FluidAggregate::Interval's "
                          "arrivals drawn at its start and completed by processor sharing on "
                          "their paths, FluidAggregate::CompleteAnalytic: no event, connection "
                          "or fluid flow per flow). Ignored at packet level",
                          EnumValue(BackgroundTraffic::PER_FLOW),
                          MakeEnumAccessor(&BackgroundTraffic::m_fluid),
                          MakeEnumChecker(BackgroundTraffic::PER_FLOW,
                                          "per-flow",
                                          BackgroundTraffic::AGGREGATE,
                                          "aggregate",
                                          BackgroundTraffic::ANALYTIC,
                                          "analytic"))
            .AddAttribute("KeepRecords",
                          "Keep one MessageRecord per flow (GetFlowRecords; 72 B and more "
                          "each). False: only the FCT summary (GetFctSummary) and the counters",
                          BooleanValue(true),
                          MakeBooleanAccessor(&BackgroundTraffic::m_keepRecords),
                          MakeBooleanChecker())
            .AddAttribute("StopTime",
                          "Generation time after Start() (0 = forever)",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&BackgroundTraffic::m_stop),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("FlowDone",
                            "A flow completed",
                            MakeTraceSourceAccessor(&BackgroundTraffic::m_flowTrace),
                            "ns3::TrainingJob::MessageTracedCallback");
    return tid;
}

/// The analytic mode's state: the transports, every source's next arrival, the routes of the
/// host pairs used so far and the batch being drawn.
struct BackgroundTraffic::Analytic
{
    Ptr<FluidAggregate> aggregate;
    std::vector<FluidTransport*> src;
    std::vector<FluidTransport*> dst;
    std::vector<Time> next; //!< per source: its next arrival
    EventId batch;

    /// a host pair's route: its links in `links` (path, then reverse), as FluidTransport::Route
    struct PairRoute
    {
        uint32_t first{0};
        uint32_t nPath{0};
        uint32_t nReverse{0};
        double reverseShare{0};
        Time latency; //!< path latency and acknowledgement: from the drain to the completion
    };

    std::vector<PairRoute> routes;
    std::vector<uint32_t> links;
    std::vector<int32_t> pairIndex;                  //!< src x |dst| + dst -> route (-1: none)
    std::unordered_map<uint64_t, uint32_t> pairHash; //!< the same, for too many pairs
    std::vector<FluidAggregate::AnalyticFlow> flows; //!< the batch
    std::vector<uint32_t> flowSrc;
    std::vector<uint32_t> flowDst;
    std::vector<uint64_t> flowBytes;
    std::vector<Time> flowPosted;

    /// a drawn flow waiting for its completion time (reported then: Due())
    struct Pending
    {
        Time at; //!< its completion time
        uint32_t src;
        uint32_t dst;
        uint64_t bytes;
        Time posted;

        /// \param o another \return true if this one completes later (a min-heap)
        bool operator>(const Pending& o) const
        {
            return at > o.at;
        }
    };

    std::vector<Pending> pending; //!< a min-heap by completion time
    EventId due;                  //!< the report at the earliest completion

    /// Report every flow completed by now (in the order of completion) and schedule the next
    /// report at the earliest completion left. \param owner the traffic (its Done())
    void Report(BackgroundTraffic* owner)
    {
        const Time now = Simulator::Now();
        while (!pending.empty() && pending.front().at <= now)
        {
            std::pop_heap(pending.begin(), pending.end(), std::greater<Pending>());
            const Pending p = pending.back();
            pending.pop_back();
            owner->Done(p.src, p.dst, p.bytes, p.posted, p.at);
        }
        ScheduleReport(owner);
    }

    /// Schedule the report at the earliest completion, unless one is due by then.
    /// \param owner the traffic
    void ScheduleReport(BackgroundTraffic* owner)
    {
        if (pending.empty())
        {
            return;
        }
        const Time at = pending.front().at;
        if (due.IsRunning() && Simulator::Now() + Simulator::GetDelayLeft(due) <= at)
        {
            return;
        }
        due.Cancel();
        due = Simulator::Schedule(at - Simulator::Now(), &Analytic::Report, this, owner);
    }

    /// \param i a source \param d a destination \return the pair's key in the route tables
    uint64_t PairKey(uint32_t i, uint32_t d) const
    {
        return uint64_t(i) * dst.size() + d;
    }

    /// \param i a source \param d a destination \param cls the class \return its route
    const PairRoute& RouteOf(uint32_t i, uint32_t d, uint8_t cls)
    {
        const uint64_t key = PairKey(i, d);
        int64_t idx = -1;
        if (!pairIndex.empty())
        {
            idx = pairIndex[key];
        }
        else
        {
            auto it = pairHash.find(key);
            idx = it == pairHash.end() ? -1 : int64_t(it->second);
        }
        if (idx >= 0)
        {
            return routes[size_t(idx)];
        }
        // The 5-tuple of a queue pair numbered by its destination (ECMP entropy per host pair,
        // as one queue pair per pair gives; no connection is opened).
        const uint16_t port = RdmaNic::QueuePairSourcePort(src[i]->GetAddress().Get(), d, i);
        FluidTransport::Route r = src[i]->RouteTo(*dst[d], port, cls);
        PairRoute p;
        p.first = uint32_t(links.size());
        p.nPath = uint32_t(r.path.size());
        p.nReverse = uint32_t(r.reversePath.size());
        p.reverseShare = r.reverseShare;
        p.latency = src[i]->GetFabric()->GetNetwork()->PathLatency(r.path) + r.ackLatency;
        links.insert(links.end(), r.path.begin(), r.path.end());
        links.insert(links.end(), r.reversePath.begin(), r.reversePath.end());
        idx = int64_t(routes.size());
        routes.push_back(p);
        if (!pairIndex.empty())
        {
            pairIndex[key] = int32_t(idx);
        }
        else
        {
            pairHash.emplace(key, uint32_t(idx));
        }
        return routes.back();
    }
};

BackgroundTraffic::Fluid
BackgroundTraffic::ParseFluid(const std::string& value)
{
    if (value == "per-flow")
    {
        return PER_FLOW;
    }
    if (value == "aggregate")
    {
        return AGGREGATE;
    }
    if (value == "analytic")
    {
        return ANALYTIC;
    }
    throw std::invalid_argument("fluid background = \"" + value +
                                "\": must be per-flow, aggregate or analytic");
}

BackgroundTraffic::BackgroundTraffic()
{
    m_gap = CreateObject<ExponentialRandomVariable>();
    m_size = CreateObject<UniformRandomVariable>();
    m_pick = CreateObject<UniformRandomVariable>();
}

BackgroundTraffic::~BackgroundTraffic() = default;

void
BackgroundTraffic::DoDispose()
{
    Stop();
    if (m_analytic)
    {
        m_analytic->due.Cancel();
    }
    m_analytic.reset();
    m_src.clear();
    m_dst.clear();
    m_qps.clear();
    Object::DoDispose();
}

void
BackgroundTraffic::SetHosts(const std::vector<Ptr<MessageTransport>>& sources,
                            const std::vector<Ptr<MessageTransport>>& destinations)
{
    if (sources.empty() || destinations.empty())
    {
        throw std::invalid_argument("BackgroundTraffic::SetHosts: sources and destinations "
                                    "must be >= 1");
    }
    if (destinations.size() == 1 && sources.size() == 1 && sources[0] == destinations[0])
    {
        throw std::invalid_argument("BackgroundTraffic::SetHosts: destinations must hold a "
                                    "host other than the source");
    }
    m_src = sources;
    m_dst = destinations;
    std::unordered_map<const MessageTransport*, std::vector<uint32_t>> at;
    for (uint32_t d = 0; d < m_dst.size(); ++d)
    {
        at[PeekPointer(m_dst[d])].push_back(d);
    }
    m_self.assign(m_src.size(), {});
    for (uint32_t i = 0; i < m_src.size(); ++i)
    {
        auto it = at.find(PeekPointer(m_src[i]));
        if (it != at.end())
        {
            m_self[i] = it->second;
        }
    }
}

void
BackgroundTraffic::SetFlowSizeCdf(const FlowSizeCdf& cdf)
{
    m_cdf = cdf;
}

int64_t
BackgroundTraffic::AssignStreams(int64_t stream)
{
    m_gap->SetStream(stream);
    m_size->SetStream(stream + 1);
    m_pick->SetStream(stream + 2);
    return 3;
}

double
BackgroundTraffic::GetArrivalRate() const
{
    return m_load * m_rate.GetBitRate() / 8.0 / m_cdf.GetMean();
}

void
BackgroundTraffic::Start()
{
    if (m_src.empty())
    {
        throw std::invalid_argument("BackgroundTraffic::Start: no hosts (call SetHosts)");
    }
    m_running = true;
    m_gap->SetAttribute("Mean", DoubleValue(1.0 / GetArrivalRate()));
    m_stopAt = m_stop.IsZero() ? Time(0) : Simulator::Now() + m_stop;
    if (m_fluid == ANALYTIC && SetUpAnalytic())
    {
        for (uint32_t i = 0; i < m_src.size(); ++i)
        {
            m_analytic->next[i] = Simulator::Now() + Seconds(m_gap->GetValue());
        }
        Batch();
        return;
    }
    m_events.assign(m_src.size(), EventId());
    for (uint32_t i = 0; i < m_src.size(); ++i)
    {
        m_events[i] =
            Simulator::Schedule(Seconds(m_gap->GetValue()), &BackgroundTraffic::Arrival, this, i);
    }
    if (!m_stop.IsZero())
    {
        Simulator::Schedule(m_stop, &BackgroundTraffic::Stop, this);
    }
}

void
BackgroundTraffic::Stop()
{
    m_running = false;
    for (auto& e : m_events)
    {
        e.Cancel();
    }
    if (m_analytic)
    {
        m_analytic->batch.Cancel();
    }
}

bool
BackgroundTraffic::SetUpAnalytic()
{
    auto fluid = [](const std::vector<Ptr<MessageTransport>>& v) {
        std::vector<FluidTransport*> out;
        for (const Ptr<MessageTransport>& t : v)
        {
            FluidTransport* f = dynamic_cast<FluidTransport*>(PeekPointer(t));
            if (!f || !f->GetFabric())
            {
                return std::vector<FluidTransport*>();
            }
            out.push_back(f);
        }
        return out;
    };
    auto a = std::make_unique<Analytic>();
    a->src = fluid(m_src);
    a->dst = fluid(m_dst);
    if (a->src.empty() || a->dst.empty())
    {
        return false; // packet level (or unbound transports): one event per flow
    }
    a->aggregate = a->src[0]->GetFabric()->GetAggregate();
    a->next.assign(m_src.size(), Time(0));
    const uint64_t pairs = uint64_t(m_src.size()) * m_dst.size();
    if (pairs <= (uint64_t(1) << 24))
    {
        a->pairIndex.assign(pairs, -1); // 4 B per pair: 4 MB for 1024 x 1024 hosts
    }
    m_analytic = std::move(a);
    return true;
}

void
BackgroundTraffic::Batch()
{
    if (!m_running)
    {
        return;
    }
    Analytic& a = *m_analytic;
    Time end = Simulator::Now() + a.aggregate->GetInterval();
    if (!m_stopAt.IsZero())
    {
        end = std::min(end, m_stopAt);
    }
    a.flows.clear();
    a.flowSrc.clear();
    a.flowDst.clear();
    a.flowBytes.clear();
    a.flowPosted.clear();
    // The draws first (each random stream in the same order as one flow at a time)...
    for (uint32_t i = 0; i < m_src.size(); ++i)
    {
        while (a.next[i] < end)
        {
            const int64_t d = PickDestination(i);
            if (d < 0)
            {
                a.next[i] = Time::Max(); // no destination but itself: this source sends nothing
                break;
            }
            const uint64_t bytes = m_cdf.Sample(m_size->GetValue());
            a.flowSrc.push_back(i);
            a.flowDst.push_back(uint32_t(d));
            a.flowBytes.push_back(bytes);
            a.flowPosted.push_back(a.next[i]);
            m_offered += bytes;
            ++m_flows;
            a.next[i] += Seconds(m_gap->GetValue());
        }
    }
    // ... then the routes, in the same order. The pair table, the routes and their links are
    // tens of MB at 1,024 hosts, read at random: each is asked for some flows ahead
    // (a prefetch), so that the loads of a flow do not wait one after the other.
    const std::size_t n = a.flowSrc.size();
    auto key = [&a](std::size_t k) { return a.PairKey(a.flowSrc[k], a.flowDst[k]); };
    constexpr std::size_t kPairAhead = 12; // the pair table's entry
    constexpr std::size_t kRouteAhead = 6; // the route (its entry read by then)
    constexpr std::size_t kLinksAhead = 3; // the route's links (the route read by then)
    const bool table = !a.pairIndex.empty();
    for (std::size_t k = 0; k < n; ++k)
    {
        if (table && k + kPairAhead < n)
        {
            __builtin_prefetch(&a.pairIndex[key(k + kPairAhead)]);
        }
        if (table && k + kRouteAhead < n)
        {
            const int32_t idx = a.pairIndex[key(k + kRouteAhead)];
            if (idx >= 0)
            {
                __builtin_prefetch(&a.routes[uint32_t(idx)]);
            }
        }
        if (table && k + kLinksAhead < n)
        {
            const int32_t idx = a.pairIndex[key(k + kLinksAhead)];
            if (idx >= 0)
            {
                __builtin_prefetch(&a.links[a.routes[uint32_t(idx)].first]);
            }
        }
        const uint32_t i = a.flowSrc[k];
        const Analytic::PairRoute& r = a.RouteOf(i, a.flowDst[k], m_class);
        FluidAggregate::AnalyticFlow f;
        f.first = r.first;
        f.nPath = r.nPath;
        f.nReverse = r.nReverse;
        f.reverseShare = r.reverseShare;
        f.wire = double(a.src[i]->WireBytes(a.flowBytes[k]));
        f.cls = m_class;
        f.latency = r.latency;
        a.flows.push_back(f);
    }
    a.aggregate->CompleteAnalytic(a.flows, a.links);
    // Each flow is reported (Done: record, summary, FlowDone) at its completion time.
    for (size_t k = 0; k < a.flows.size(); ++k)
    {
        a.pending.push_back(Analytic::Pending{a.flowPosted[k] + a.flows[k].fct,
                                              a.flowSrc[k],
                                              a.flowDst[k],
                                              a.flowBytes[k],
                                              a.flowPosted[k]});
        std::push_heap(a.pending.begin(), a.pending.end(), std::greater<Analytic::Pending>());
    }
    a.ScheduleReport(this);
    if (m_stopAt.IsZero() || end < m_stopAt)
    {
        a.batch = Simulator::Schedule(end - Simulator::Now(), &BackgroundTraffic::Batch, this);
    }
}

int64_t
BackgroundTraffic::PickDestination(uint32_t i)
{
    // destination: uniform among the destinations other than the source (the r-th of them:
    // r, moved past each index of the source at or below it)
    const std::vector<uint32_t>& self = m_self[i];
    if (self.size() == m_dst.size())
    {
        return -1;
    }
    uint32_t d = m_pick->GetInteger(0, uint32_t(m_dst.size() - self.size()) - 1);
    for (uint32_t s : self)
    {
        d += s <= d ? 1 : 0;
    }
    return d;
}

void
BackgroundTraffic::Done(uint32_t src, uint32_t dst, uint64_t bytes, Time posted, Time completed)
{
    MessageRecord r;
    r.job = "background";
    r.srcHost = src;
    r.dstHost = dst;
    r.bytes = bytes;
    r.priorityClass = m_class;
    r.posted = posted;
    r.completed = completed;
    m_completed += bytes;
    m_summary.Add(bytes, (completed - posted).GetSeconds());
    if (m_keepRecords)
    {
        m_records.push_back(r);
    }
    m_flowTrace(r);
}

void
BackgroundTraffic::Arrival(uint32_t i)
{
    if (!m_running)
    {
        return;
    }
    const int64_t pick = PickDestination(i);
    if (pick < 0)
    {
        return; // no destination but itself: this source sends nothing
    }
    const uint32_t d = uint32_t(pick);
    uint64_t bytes = m_cdf.Sample(m_size->GetValue());
    const uint64_t key = uint64_t(i) << 32 | d;
    auto it = m_qps.find(key);
    if (it == m_qps.end())
    {
        it = m_qps.emplace(key, m_src[i]->Open(m_dst[d], m_class)).first;
        if (m_fluid == AGGREGATE)
        {
            // a fluid connection's attribute (a packet-level queue pair has none: ignored)
            it->second->SetAttributeFailSafe("Aggregate", BooleanValue(true));
        }
    }
    Time posted = Simulator::Now();
    m_offered += bytes;
    ++m_flows;
    it->second->PostSend(
        bytes,
        MessageConnection::CompletionCallback([this, i, d, posted](uint64_t, uint64_t b) {
            Done(i, d, b, posted, Simulator::Now());
        }));
    m_events[i] =
        Simulator::Schedule(Seconds(m_gap->GetValue()), &BackgroundTraffic::Arrival, this, i);
}

uint64_t
BackgroundTraffic::GetOfferedBytes() const
{
    return m_offered;
}

uint64_t
BackgroundTraffic::GetCompletedBytes() const
{
    return m_completed;
}

uint64_t
BackgroundTraffic::GetFlowsStarted() const
{
    return m_flows;
}

const std::vector<MessageRecord>&
BackgroundTraffic::GetFlowRecords() const
{
    return m_records;
}

const FctSummary&
BackgroundTraffic::GetFctSummary() const
{
    return m_summary;
}

} // namespace ns3
