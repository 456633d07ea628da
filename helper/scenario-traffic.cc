/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-traffic.h"

#include "flow-backend-helper.h"

#include "ns3/boolean.h"
#include "ns3/constant-rate-flow.h"
#include "ns3/data-class.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-net-device.h"
#include "ns3/flow-key.h"
#include "ns3/flow-sink.h"
#include "ns3/fluid-fabric.h"
#include "ns3/log.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioTraffic");

namespace
{

/// First UDP source port of constant-rate flows; flow id i uses kFirstPort + i.
constexpr uint32_t kFirstPort = 10000;
/// Destination UDP port of constant-rate flows.
constexpr uint16_t kDstPort = 9;

/// Parameters of constant-rate flows shared by "constant" and "permutation".
struct ConstantFlowParams
{
    DataRate rate;
    uint64_t bytes{0};
    Time start;
    uint32_t payload{1000};
    EntryClass cls; //!< the flows' class
    bool ect{true};
};

ConstantFlowParams
ParseFlowParams(ScenarioObject& in, const ScenarioConfig& cfg)
{
    ConstantFlowParams p;
    p.rate = in.Rate("rate", std::nullopt);
    p.bytes = in.Bytes("bytes", 0, uint64_t(1) << 50, 0);
    p.start = in.Duration("start", Time(0), cfg.duration, std::string("0ns"));
    p.payload = static_cast<uint32_t>(in.Uint("payload", 8, 8972, 1000));
    p.cls = ParseEntryClass(in, cfg, true);
    p.ect = in.Bool("ect", true);
    return p;
}

/**
 * A constant-rate flow at flow level: the frames ConstantRateFlow puts on the wire, as fluid
 * flows on its 5-tuple's path capped at its sending rate in wire bytes, with no congestion
 * control. It sends in slices so that it stops at the traffic end as the packet source does:
 * the whole flow in one if it ends before then even at a quarter of its rate, else slices of
 * 1/8 of the time left (the first 1/64) at the rate the previous slice got (doc/flow-backend.rst,
 * *UDP constant-rate flows*).
 */
class FluidConstantFlow : public std::enable_shared_from_this<FluidConstantFlow>
{
  public:
    Ptr<FluidNetwork> net;
    std::vector<uint32_t> path; //!< the links of its 5-tuple
    uint8_t cls{DataClass::DEFAULT};
    double cap{0};           //!< its sending rate in wire bytes/s
    uint64_t frame{0};       //!< wire bytes of one packet
    bool unlimited{false};   //!< no byte count: until the traffic end
    uint64_t packetsLeft{0}; //!< packets not sent yet (a flow with a byte count)
    Time end;                //!< the traffic end: no slice starts then or later
    Time latency;            //!< from a slice's drain to its delivery
    uint64_t delivered{0};   //!< packets delivered at the destination
    Time lastDelivery{Seconds(-1)};

    /// Start sending (now).
    void Start()
    {
        m_rate = cap;
        Next();
    }

    /// \return true until it has stopped sending and its last slice is delivered
    bool Busy() const
    {
        return !m_stopped || m_inFlight > 0;
    }

  private:
    /// Start the next slice, or stop.
    void Next()
    {
        const Time now = Simulator::Now();
        if ((!unlimited && packetsLeft == 0) || now >= end)
        {
            m_stopped = true;
            return;
        }
        // packets the estimated rate sends until the traffic end
        const double untilEnd = (end - now).GetSeconds() * m_rate / double(frame);
        uint64_t n = packetsLeft;
        if (unlimited || double(packetsLeft) > untilEnd / 4)
        {
            n = std::max<uint64_t>(1, uint64_t(untilEnd / (m_first ? 64 : 8)));
            n = unlimited ? n : std::min(n, packetsLeft);
        }
        m_first = false;
        packetsLeft -= unlimited ? 0 : n;
        ++m_inFlight;
        m_sliceStart = now;
        std::shared_ptr<FluidConstantFlow> self = shared_from_this();
        FluidNetwork::FlowSpec s;
        s.path = path;
        s.bytes = n * frame;
        s.cls = cls;
        s.rateCap = cap;
        s.latency = latency;
        s.drained = FluidNetwork::FlowCallback([self, n](uint64_t) {
            const double t = (Simulator::Now() - self->m_sliceStart).GetSeconds();
            if (t > 0)
            {
                self->m_rate = std::min(self->cap, double(n * self->frame) / t);
            }
            self->Next();
        });
        s.delivered = FluidNetwork::FlowCallback([self, n](uint64_t) {
            self->delivered += n;
            self->lastDelivery = Simulator::Now();
            --self->m_inFlight;
        });
        net->StartFlow(std::move(s));
    }

    double m_rate{0};       //!< the rate the next slice is sized at (bytes/s)
    bool m_first{true};     //!< the next slice is the first
    bool m_stopped{false};  //!< no slice will start any more
    uint32_t m_inFlight{0}; //!< slices not delivered yet
    Time m_sliceStart;      //!< when the slice draining now started
};

/**
 * Install a constant-rate flow at flow level (a FluidConstantFlow) and register its record
 * and its activity.
 * \param ctx the run \param base its record so far \param p its parameters
 * \param ipBytes IPv4 bytes per packet \param maxBytes IPv4 bytes in all (0 = unlimited)
 */
void
InstallFluidConstantFlow(TrafficContext& ctx,
                         FlowStatsRecord base,
                         const ConstantFlowParams& p,
                         uint64_t ipBytes,
                         uint64_t maxBytes)
{
    const FabricTopology& topo = ctx.Topology();
    Ptr<FluidTransport> t = FlowBackendHelper::GetTransport(topo.hosts.Get(base.src));
    Ptr<FluidFabric> fabric = t->GetFabric();
    auto f = std::make_shared<FluidConstantFlow>();
    f->net = fabric->GetNetwork();
    FlowKey key; // the packet source's 5-tuple: the same ECMP path
    key.src = topo.HostAddress(base.src).Get();
    key.dst = topo.HostAddress(base.dst).Get();
    key.sport = base.srcPort;
    key.dport = kDstPort;
    key.protocol = 17;
    key.dscp = p.cls.cls;
    f->path = fabric->Route(key);
    f->cls = p.cls.cls;
    // The bytes the host device puts on the wire per packet (minimum frame, Ethernet overhead)
    // and the source's packet interval at its rate of IPv4 bytes.
    f->frame = topo.HostDevice(base.src)->WireBits(uint32_t(ipBytes)) / 8;
    const double interval = 8.0 * double(ipBytes) / double(p.rate.GetBitRate());
    f->cap = double(f->frame) / interval;
    f->unlimited = maxBytes == 0;
    f->packetsLeft = maxBytes / ipBytes;
    f->end = ctx.TrafficEnd();
    // The last packet leaves one interval (or, above the path's rate, one frame time at its
    // slowest link) before the drain, then is stored and forwarded at every hop.
    double path = 0;
    double slowest = 0;
    for (uint32_t l : f->path)
    {
        const double frameTime = double(f->frame) / f->net->GetLinkCapacity(l);
        path += f->net->GetLinkDelay(l).GetSeconds() + frameTime;
        slowest = std::max(slowest, frameTime);
    }
    f->latency =
        NanoSeconds(int64_t(std::llround(std::max(0.0, path - std::max(interval, slowest)) * 1e9)));
    Simulator::Schedule(p.start, [f]() { f->Start(); });
    base.flowLevel = true;
    ctx.AddFlow([base, f, ipBytes]() {
        FlowStatsRecord r = base;
        r.deliveredBytes = f->delivered * ipBytes;
        r.lastRxNs = f->lastDelivery.IsPositive() ? f->lastDelivery.GetNanoSeconds() : -1;
        if (r.targetBytes > 0 && r.deliveredBytes >= r.targetBytes)
        {
            r.completedNs = r.lastRxNs;
        }
        return r;
    });
    ctx.AddActivity([f]() { return f->Busy(); });
}

/// Install one ConstantRateFlow from host src to host dst and register its record.
void
InstallConstantFlow(TrafficContext& ctx,
                    const std::string& type,
                    uint32_t src,
                    uint32_t dst,
                    const ConstantFlowParams& p)
{
    const FabricTopology& topo = ctx.Topology();
    const uint32_t id = ctx.NewFlowId();
    if (id + kFirstPort > 65535)
    {
        throw std::invalid_argument("scenario: traffic: more than " +
                                    std::to_string(65536 - kFirstPort) +
                                    " constant-rate flows (UDP source ports exhausted)");
    }
    const auto srcPort = static_cast<uint16_t>(kFirstPort + id);
    // ConstantRateFlow sends whole packets and stops before exceeding MaxBytes: round the
    // requested bytes up to whole packets, so the flow sends at least what was asked.
    const uint64_t ipBytes = p.payload + 28;
    const uint64_t maxBytes = (p.bytes + ipBytes - 1) / ipBytes * ipBytes;
    FlowStatsRecord base;
    base.id = id;
    base.type = type;
    base.src = src;
    base.dst = dst;
    base.srcPort = srcPort;
    base.priority = p.cls.cls;
    base.offeredBps = static_cast<double>(p.rate.GetBitRate());
    base.targetBytes = maxBytes;
    base.startNs = p.start.GetNanoSeconds();
    if (ctx.Config().backend == "flow")
    {
        InstallFluidConstantFlow(ctx, base, p, ipBytes, maxBytes);
        return;
    }
    Ptr<ConstantRateFlow> app = CreateObject<ConstantRateFlow>();
    app->SetAttribute("Remote", Ipv4AddressValue(topo.HostAddress(dst)));
    app->SetAttribute("SourcePort", UintegerValue(srcPort));
    app->SetAttribute("DestinationPort", UintegerValue(kDstPort));
    app->SetAttribute("DataRate", DataRateValue(p.rate));
    app->SetAttribute("PayloadSize", UintegerValue(p.payload));
    app->SetAttribute("MaxBytes", UintegerValue(maxBytes));
    app->SetAttribute("PriorityClass", UintegerValue(p.cls.cls));
    app->SetAttribute("Ect", BooleanValue(p.ect));
    app->SetStartTime(p.start);
    app->SetStopTime(ctx.TrafficEnd());
    topo.hosts.Get(src)->AddApplication(app);
    Ptr<FlowSink> sink = ctx.Sink(dst);
    const FlowSink::FlowId key(topo.HostAddress(src).Get(), srcPort, kDstPort);
    ctx.AddFlow([base, app, sink, key]() {
        FlowStatsRecord r = base;
        r.txBytes = app->GetBytesSent();
        r.txPackets = app->GetPacketsSent();
        const auto& flows = sink->GetFlows();
        auto it = flows.find(key);
        if (it != flows.end())
        {
            r.rxBytes = it->second.bytes;
            r.rxPackets = it->second.packets;
            r.ceMarked = it->second.ceMarked;
            r.reordered = it->second.reordered;
            r.firstRxNs = it->second.first.GetNanoSeconds();
            r.lastRxNs = it->second.last.GetNanoSeconds();
            r.deliveredBytes = r.rxBytes; // UDP: every arrival is delivered
            if (r.targetBytes > 0 && r.rxBytes >= r.targetBytes)
            {
                r.completedNs = r.lastRxNs;
            }
        }
        return r;
    });
}

/// "constant": one flow from src to dst.
class ConstantTrafficSpec : public TrafficSpec
{
  public:
    uint32_t src{0};
    uint32_t dst{0};
    ConstantFlowParams params;
    std::string entry; //!< "traffic[i]"

    void Install(TrafficContext& ctx) const override
    {
        ctx.AddTrafficClass({entry, "constant", params.cls.cls, params.cls.chosen, false});
        InstallConstantFlow(ctx, "constant", src, dst, params);
    }
};

std::shared_ptr<const TrafficSpec>
ParseConstant(ScenarioObject& in, const ScenarioConfig& cfg)
{
    auto s = std::make_shared<ConstantTrafficSpec>();
    s->entry = in.Path();
    const uint32_t last = cfg.topology.NumHosts() - 1;
    s->src = static_cast<uint32_t>(in.Uint("src", 0, last, std::nullopt));
    s->dst = static_cast<uint32_t>(in.Uint("dst", 0, last, std::nullopt));
    if (s->src == s->dst)
    {
        in.Fail("dst", "must differ from src");
    }
    s->params = ParseFlowParams(in, cfg);
    return s;
}

/// "permutation": every host sends one flow to another host, each host receives one.
class PermutationTrafficSpec : public TrafficSpec
{
  public:
    ConstantFlowParams params;
    std::string entry; //!< "traffic[i]"

    void Install(TrafficContext& ctx) const override
    {
        ctx.AddTrafficClass({entry, "permutation", params.cls.cls, params.cls.chosen, false});
        const uint32_t n = ctx.Topology().hosts.GetN();
        std::vector<uint32_t> dst = RandomDerangement(n, ctx.Random());
        for (uint32_t i = 0; i < n; ++i)
        {
            InstallConstantFlow(ctx, "permutation", i, dst[i], params);
        }
    }
};

std::shared_ptr<const TrafficSpec>
ParsePermutation(ScenarioObject& in, const ScenarioConfig& cfg)
{
    if (cfg.topology.NumHosts() < 2)
    {
        in.Fail("type", "needs a topology with at least 2 hosts");
    }
    auto s = std::make_shared<PermutationTrafficSpec>();
    s->entry = in.Path();
    s->params = ParseFlowParams(in, cfg);
    return s;
}

} // namespace

std::string
JobName(const std::string& type, uint32_t index)
{
    return type + std::to_string(index);
}

uint8_t
ParseDataClass(ScenarioObject& in, const std::string& key, uint8_t def)
{
    const nlohmann::json& v = in.Raw(key);
    if (in.Has(key) && (!v.is_number_unsigned() || v.get<uint64_t>() > DataClass::MAX))
    {
        in.Fail(key,
                "must be an integer in [0, " + std::to_string(DataClass::MAX) +
                    "] (class 7 is reserved for ACK/CNP)");
    }
    return in.Has(key) ? v.get<uint8_t>() : def;
}

EntryClass
ParseEntryClass(ScenarioObject& in, const ScenarioConfig& cfg, bool priorityAlias)
{
    EntryClass c;
    const bool hasClass = in.Has("class");
    const bool hasPriority = priorityAlias && in.Has("priority");
    if (hasClass && hasPriority)
    {
        in.Fail("priority", "is another name for \"class\": give one of them, not both");
    }
    in.Raw("class"); // both accepted (listed in unknown-key errors)
    if (priorityAlias)
    {
        in.Raw("priority");
    }
    c.cls = ParseDataClass(in, hasPriority ? "priority" : "class", cfg.dataClass);
    c.chosen = hasClass || hasPriority;
    return c;
}

std::vector<uint32_t>
RandomDerangement(uint32_t n, Ptr<UniformRandomVariable> rng)
{
    // Fisher-Yates shuffle, repeated until no element is fixed (about e tries on average).
    std::vector<uint32_t> dst(n);
    bool fixedPoint = true;
    while (fixedPoint)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            dst[i] = i;
        }
        for (uint32_t i = n - 1; i > 0; --i)
        {
            std::swap(dst[i], dst[rng->GetInteger(0, i)]);
        }
        fixedPoint = false;
        for (uint32_t i = 0; i < n; ++i)
        {
            fixedPoint = fixedPoint || dst[i] == i;
        }
    }
    return dst;
}

namespace
{

/// The registry, with the built-in types (created on first use, so registration order
/// across translation units does not matter).
std::map<std::string, TrafficRegistry::ParseFunction>&
Registry()
{
    static std::map<std::string, TrafficRegistry::ParseFunction> types = {
        {"constant", &ParseConstant},
        {"permutation", &ParsePermutation},
    };
    return types;
}

} // namespace

void
TrafficRegistry::Register(const std::string& type, ParseFunction parse)
{
    NS_LOG_FUNCTION(type);
    if (!Registry().emplace(type, std::move(parse)).second)
    {
        throw std::logic_error("TrafficRegistry: type \"" + type + "\" registered twice");
    }
}

std::vector<std::string>
TrafficRegistry::Types()
{
    std::vector<std::string> names;
    for (const auto& kv : Registry())
    {
        names.push_back(kv.first);
    }
    return names;
}

std::shared_ptr<const TrafficSpec>
TrafficRegistry::Parse(ScenarioObject& entry, const ScenarioConfig& cfg)
{
    const std::string type = entry.Choice("type", Types(), std::nullopt);
    std::shared_ptr<const TrafficSpec> spec = Registry().at(type)(entry, cfg);
    entry.Finish();
    return spec;
}

} // namespace ns3
