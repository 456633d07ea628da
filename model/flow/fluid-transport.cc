/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fluid-transport.h"

#include "fluid-host.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/rdma-nic.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluidTransport");
NS_OBJECT_ENSURE_REGISTERED(FluidTransport);

namespace
{
constexpr uint16_t kRoceV2Port = 4791; //!< RoCEv2's UDP destination port
constexpr uint8_t kUdp = 17;
} // namespace

TypeId
FluidTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FluidTransport")
            .SetParent<MessageTransport>()
            .SetGroupName("Mlnet")
            .AddConstructor<FluidTransport>()
            .AddAttribute("Mtu",
                          "Payload bytes per packet, as the RDMA NIC's Mtu (bytes)",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&FluidTransport::m_mtu),
                          MakeUintegerChecker<uint32_t>(64, 9000))
            .AddAttribute("HeaderBytes",
                          "Header bytes per packet: IPv4 20 + UDP 8 + BTH 12 + ICRC 4 (bytes)",
                          UintegerValue(44),
                          MakeUintegerAccessor(&FluidTransport::m_headerBytes),
                          MakeUintegerChecker<uint32_t>(0, 1024))
            .AddAttribute("FrameOverhead",
                          "Wire bytes per frame beyond the IPv4 datagram, as the fabric's "
                          "FrameOverhead: Ethernet header 14 + FCS 4 + preamble 8 + gap 12",
                          UintegerValue(38),
                          MakeUintegerAccessor(&FluidTransport::m_frameOverhead),
                          MakeUintegerChecker<uint32_t>(0, 1024))
            .AddAttribute("AckFrameBytes",
                          "Wire bytes of an acknowledgement frame (a minimum Ethernet frame "
                          "with preamble and gap), serialized per hop on the way back",
                          UintegerValue(84),
                          MakeUintegerAccessor(&FluidTransport::m_ackFrameBytes),
                          MakeUintegerChecker<uint32_t>(1, 9000))
            .AddAttribute("AckInterval",
                          "Data packets per acknowledgement, as the RDMA NIC's AckInterval: "
                          "the acknowledgements load the reverse path with AckFrameBytes per "
                          "AckInterval full frames",
                          UintegerValue(1),
                          MakeUintegerAccessor(&FluidTransport::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute(
                "RingGranularity",
                "How a ring collective (ring all-reduce, reduce-scatter, all-gather) crosses "
                "the fluid network: Message = one fluid flow per ring-step message (the "
                "reference); Group = the whole ring as one fluid group of its n connections "
                "at one common rate; Phased = RingPhases phases of one fluid flow per member, "
                "a member's phase k + 1 waiting for its own and its predecessor's phase k (as "
                "ring steps wait). Group and Phased add the per-step "
                "latencies at the end (doc/flow-backend.rst, Speed). Read on rank 0's "
                "transport",
                EnumValue(RING_MESSAGE),
                MakeEnumAccessor(&FluidTransport::m_ringGranularity),
                MakeEnumChecker(RING_MESSAGE,
                                "Message",
                                RING_GROUP,
                                "Group",
                                RING_PHASED,
                                "Phased"))
            .AddAttribute("RingPhases",
                          "RingGranularity Phased: phases of a ring collective (at most its "
                          "steps); a member's phase k + 1 starts when its own and its "
                          "predecessor's phase k have drained",
                          UintegerValue(8),
                          MakeUintegerAccessor(&FluidTransport::m_ringPhases),
                          MakeUintegerChecker<uint32_t>(1, 8192))
            .AddTraceSource("MessageRx",
                            "A message was received completely: (source, source QP, bytes)",
                            MakeTraceSourceAccessor(&FluidTransport::m_msgRxTrace),
                            "ns3::FluidTransport::MessageRxTracedCallback");
    return tid;
}

FluidTransport::FluidTransport() = default;
FluidTransport::~FluidTransport() = default;

void
FluidTransport::DoDispose()
{
    for (auto& c : m_conns)
    {
        c->Dispose();
    }
    m_conns.clear();
    m_fabric = nullptr;
    m_host = nullptr;
    m_rxCb = ReceiveCallback();
    MessageTransport::DoDispose();
}

void
FluidTransport::Bind(Ptr<FluidFabric> fabric, Ipv4Address address)
{
    if (!fabric || !fabric->GetHostDevice(address.Get()))
    {
        std::ostringstream os;
        address.Print(os);
        throw std::invalid_argument("FluidTransport::Bind: " + os.str() +
                                    " is not a host of the fluid fabric");
    }
    m_fabric = fabric;
    m_address = address.Get();
}

Ptr<FluidFabric>
FluidTransport::GetFabric() const
{
    return m_fabric;
}

Ipv4Address
FluidTransport::GetAddress() const
{
    return Ipv4Address(m_address);
}

void
FluidTransport::SetReceiveCallback(ReceiveCallback cb)
{
    m_rxCb = cb;
}

DataRate
FluidTransport::GetLineRate() const
{
    Ptr<FabricNetDevice> dev = m_fabric ? m_fabric->GetHostDevice(m_address) : nullptr;
    return dev ? dev->GetDataRate() : DataRate(0);
}

double
FluidTransport::GetWirePerPayload() const
{
    return double(m_mtu + m_headerBytes + m_frameOverhead) / m_mtu;
}

uint64_t
FluidTransport::WireBytes(uint64_t payload) const
{
    const uint64_t packets = (payload + m_mtu - 1) / m_mtu;
    return payload + packets * (uint64_t(m_headerBytes) + m_frameOverhead);
}

uint32_t
FluidTransport::GetNConnections() const
{
    return uint32_t(m_conns.size());
}

Ptr<FluidConnection>
FluidTransport::GetConnection(uint32_t qpn) const
{
    return qpn < m_conns.size() ? m_conns[qpn] : nullptr;
}

uint64_t
FluidTransport::GetBytesReceived() const
{
    return m_bytesRx;
}

Ptr<MessageConnection>
FluidTransport::Open(Ptr<MessageTransport> remote, uint8_t cls)
{
    if (cls > 7)
    {
        throw std::invalid_argument("FluidTransport::Open: priority class " + std::to_string(cls) +
                                    " out of range [0, 7]");
    }
    Ptr<FluidTransport> peer = DynamicCast<FluidTransport>(remote);
    if (!peer)
    {
        throw std::invalid_argument("FluidTransport::Open: the remote transport is not a "
                                    "FluidTransport (both ends of a connection must be of one "
                                    "backend)");
    }
    if (!m_fabric || peer->m_fabric != m_fabric)
    {
        throw std::invalid_argument("FluidTransport::Open: both transports must be bound to "
                                    "one fluid fabric");
    }
    Ptr<FluidConnection> c = CreateObject<FluidConnection>();
    c->m_local = this;
    c->m_remote = PeekPointer(peer);
    c->m_qpn = uint32_t(m_conns.size());
    c->m_class = cls;
    // The 5-tuple of the RDMA NIC's queue pair opened at the same point: the same ECMP path.
    c->m_srcPort = RdmaNic::QueuePairSourcePort(m_address, c->m_qpn, peer->m_responders++);
    Route r = RouteTo(*peer, c->m_srcPort, cls);
    c->m_path = std::move(r.path);
    c->m_reversePath = std::move(r.reversePath);
    c->m_reverseShare = r.reverseShare;
    c->m_ackLatency = r.ackLatency;
    m_conns.push_back(c);
    return c;
}

FluidTransport::Route
FluidTransport::RouteTo(const FluidTransport& peer, uint16_t srcPort, uint8_t cls) const
{
    if (!m_fabric || peer.m_fabric != m_fabric)
    {
        throw std::invalid_argument("FluidTransport::RouteTo: both transports must be bound to "
                                    "one fluid fabric");
    }
    FlowKey key;
    key.src = m_address;
    key.dst = peer.m_address;
    key.sport = srcPort;
    key.dport = kRoceV2Port;
    key.protocol = kUdp;
    key.dscp = cls;
    Route r;
    r.path = m_fabric->Route(key);
    // The acknowledgement's way back: each link's reverse direction, its delay and the
    // serialization of one acknowledgement frame.
    Ptr<FluidNetwork> net = m_fabric->GetNetwork();
    double ack = 0;
    for (uint32_t l : r.path)
    {
        const int64_t back = m_fabric->GetReverseLink(l);
        const uint32_t rl = back >= 0 ? uint32_t(back) : l;
        ack +=
            net->GetLinkDelay(rl).GetSeconds() + double(m_ackFrameBytes) / net->GetLinkCapacity(rl);
        if (back >= 0)
        {
            r.reversePath.push_back(rl);
        }
    }
    r.reverseShare =
        std::min(1.0, double(m_ackFrameBytes) / (double(m_ackInterval) * double(WireBytes(m_mtu))));
    r.ackLatency = NanoSeconds(int64_t(std::llround(ack * 1e9)));
    // The host interconnects (FluidHost): memory -> NIC at the source, NIC -> memory at the
    // destination (the acknowledgements are the NICs' and cross neither).
    if (m_host && m_host->GetTransmitLink() >= 0)
    {
        r.path.insert(r.path.begin(), uint32_t(m_host->GetTransmitLink()));
    }
    if (peer.m_host)
    {
        r.path.push_back(uint32_t(peer.m_host->GetReceiveLink()));
    }
    return r;
}

void
FluidTransport::SetHost(Ptr<FluidHost> host)
{
    m_host = host;
}

Ptr<FluidHost>
FluidTransport::GetHost() const
{
    return m_host;
}

void
FluidTransport::Receive(Ipv4Address src, uint32_t qpn, uint64_t bytes)
{
    m_bytesRx += bytes;
    m_msgRxTrace(src, qpn, bytes);
    if (!m_rxCb.IsNull())
    {
        m_rxCb(src, qpn, bytes);
    }
}

bool
FluidTransport::StartRing(const RingTransfer& ring)
{
    if (m_ringGranularity == RING_MESSAGE)
    {
        return false;
    }
    const uint32_t n = uint32_t(ring.conns.size());
    if (n < 2 || ring.steps == 0 || ring.stepMessages.empty() || ring.sent.size() != n)
    {
        throw std::invalid_argument(
            "FluidTransport::StartRing: needs >= 2 connections, steps >= 1, >= 1 step message "
            "and one sent entry per connection (got " +
            std::to_string(n) + " connections, " + std::to_string(ring.steps) + " steps, " +
            std::to_string(ring.stepMessages.size()) + " step messages, " +
            std::to_string(ring.sent.size()) + " sent entries)");
    }
    auto g = std::make_shared<FluidConnection::RingGroup>();
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<FluidConnection> c = DynamicCast<FluidConnection>(ring.conns[i]);
        if (!c || !c->m_local || c->m_local->m_fabric != m_fabric)
        {
            throw std::invalid_argument("FluidTransport::StartRing: connection " +
                                        std::to_string(i) +
                                        " is not a FluidConnection of this fluid fabric");
        }
        if (c->m_sending || !c->m_waiting.empty() || c->m_ring || c->m_aggregate ||
            (i > 0 && c->m_class != g->members.front()->m_class))
        {
            // messages of their own in flight, mixed classes, or aggregate background
            // connections: message by message
            return false;
        }
        g->members.push_back(PeekPointer(c));
    }
    Ptr<FluidNetwork> net = m_fabric->GetNetwork();
    FluidNetwork::FlowSpec spec;
    // link -> position in spec.path (data) and in spec.reversePath (acknowledgements)
    std::unordered_map<uint32_t, std::size_t> index;
    std::unordered_map<uint32_t, std::size_t> back;
    auto add = [](std::unordered_map<uint32_t, std::size_t>& at,
                  std::vector<uint32_t>& links,
                  std::vector<double>& coefs,
                  uint32_t link,
                  double coef) {
        auto [it, fresh] = at.emplace(link, links.size());
        if (fresh)
        {
            links.push_back(link);
            coefs.push_back(coef);
        }
        else
        {
            coefs[it->second] += coef;
        }
    };
    uint64_t stepWire = 0;
    uint64_t cap = 0;
    for (FluidConnection* c : g->members)
    {
        // Every member's data (one byte per byte) and acknowledgements (its reverse share).
        for (uint32_t l : c->m_path)
        {
            add(index, spec.path, spec.pathCoef, l, 1.0);
        }
        if (c->m_reverseShare > 0)
        {
            for (uint32_t l : c->m_reversePath)
            {
                add(back, spec.reversePath, spec.reverseCoef, l, c->m_reverseShare);
            }
        }
        g->latency.push_back(net->PathLatency(c->m_path));
        uint64_t wire = 0;
        for (uint64_t m : ring.stepMessages)
        {
            wire += c->m_local->WireBytes(m);
        }
        stepWire = std::max(stepWire, wire);
        if (c->m_maxRate > 0 && (cap == 0 || c->m_maxRate < cap))
        {
            cap = c->m_maxRate;
        }
    }
    g->sent = ring.sent;
    g->steps = ring.steps;
    g->pieces = uint32_t(ring.stepMessages.size());
    g->rankDone = ring.rankDone;
    g->start = Simulator::Now();
    g->stepWire = stepWire;
    for (uint32_t i = 0; i < n; ++i)
    {
        FluidConnection* c = g->members[i];
        c->m_posted += ring.sent[i];
        c->m_sending = true; // messages posted meanwhile wait for the ring
        c->m_ring = g;
        c->NotifyHost(true);
    }
    if (m_ringGranularity == RING_PHASED)
    {
        g->common = false;
        g->phases = std::min(m_ringPhases, ring.steps);
        StartPhases(g);
        return true;
    }
    spec.bytes = uint64_t(ring.steps) * stepWire;
    spec.cls = g->members.front()->m_class;
    spec.rateCap = double(cap) / 8.0;
    spec.latency = Time(0); // the ranks' ends are scheduled at the drain (RingDrained)
    spec.drained = FluidNetwork::FlowCallback([g](uint64_t) { RingDrained(g); });
    g->flow = net->StartFlow(spec);
    NS_LOG_DEBUG("ring group of " << n << " members, " << ring.steps << " steps: flow " << g->flow
                                  << ", " << spec.bytes << " B per member over " << spec.path.size()
                                  << " links");
    return true;
}

void
FluidTransport::StartPhases(const std::shared_ptr<FluidConnection::RingGroup>& g)
{
    const uint32_t n = uint32_t(g->members.size());
    g->done.assign(n, 0);
    g->running.assign(n, 0);
    g->pending = n;
    for (uint32_t i = 0; i < n; ++i)
    {
        TryPhase(g, i);
    }
}

void
FluidTransport::TryPhase(const std::shared_ptr<FluidConnection::RingGroup>& g, uint32_t i)
{
    const uint32_t n = uint32_t(g->members.size());
    const uint32_t k = g->done[i]; // the member's next phase
    if (g->running[i] || k >= g->phases || (k > 0 && g->done[(i + n - 1) % n] < k))
    {
        return; // draining, finished, or its predecessor's phase k - 1 has not drained
    }
    // Phase k covers steps [k K / G, (k + 1) K / G) of the K steps.
    const uint64_t first = uint64_t(k) * g->steps / g->phases;
    const uint64_t last = uint64_t(k + 1) * g->steps / g->phases;
    FluidConnection* c = g->members[i];
    Ptr<FluidNetwork> net = c->m_local->GetFabric()->GetNetwork();
    FluidNetwork::FlowSpec s;
    s.path = c->m_path;
    s.reversePath = c->m_reversePath;
    s.reverseShare = c->m_reverseShare;
    s.bytes = (last - first) * g->stepWire;
    s.cls = c->m_class;
    s.rateCap = double(c->m_maxRate) / 8.0;
    s.latency = Time(0); // the ranks' ends are scheduled at the last drain (RingDrained)
    s.drained = FluidNetwork::FlowCallback([g, i, n](uint64_t) {
        g->running[i] = 0;
        ++g->done[i];
        TryPhase(g, i);
        TryPhase(g, (i + 1) % n); // its successor may wait for this phase
        if (g->done[i] == g->phases && --g->pending == 0)
        {
            RingDrained(g);
        }
    });
    g->running[i] = 1;
    c->m_flow = net->StartFlow(s);
}

void
FluidTransport::RingDrained(const std::shared_ptr<FluidConnection::RingGroup>& g)
{
    const Time now = Simulator::Now();
    g->drained = now;
    const uint32_t n = uint32_t(g->members.size());
    // Each step's latency (sub-chunk pipelining hides up to (pieces - 1) messages' drain of it;
    // a message's drain is the group's mean per message).
    const double perMessage = (now - g->start).GetSeconds() / (double(g->steps) * g->pieces);
    const Time hidden = NanoSeconds(int64_t(std::llround(perMessage * (g->pieces - 1) * 1e9)));
    std::vector<int64_t> step(n);
    std::vector<int64_t> prefix(n + 1, 0); // prefix sums of the step latencies (ns)
    for (uint32_t i = 0; i < n; ++i)
    {
        step[i] = std::max<int64_t>(0, (g->latency[i] - hidden).GetNanoSeconds());
        prefix[i + 1] = prefix[i] + step[i];
    }
    // Sum of the step latencies of the r ranks before rank i (cyclically).
    auto before = [&](uint32_t i, uint64_t r) -> int64_t {
        int64_t sum = int64_t(r / n) * prefix[n];
        const uint32_t rem = uint32_t(r % n);
        sum += i >= rem ? prefix[i] - prefix[i - rem] : prefix[i] + prefix[n] - prefix[n + i - rem];
        return sum;
    };
    // The last message of rank i arrives after the chain of steps that ends with it: its own
    // path latency and the (hidden-reduced) latencies of the steps - 1 ranks before it.
    std::vector<Time> arrive(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        arrive[i] = g->latency[i] + NanoSeconds(before(i, g->steps - 1));
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        FluidConnection* c = g->members[i];
        c->m_ring = nullptr;
        c->m_sending = false;
        c->m_sent += g->sent[i];
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        const Time received = arrive[(i + n - 1) % n];
        const Time acked = arrive[i] + g->members[i]->m_ackLatency;
        Simulator::Schedule(std::max(received, acked),
                            &FluidTransport::RingRankDone,
                            g,
                            i,
                            now + received);
    }
    for (FluidConnection* c : g->members)
    {
        if (!c->m_waiting.empty())
        {
            c->StartNext();
        }
        else
        {
            c->NotifyHost(false);
        }
    }
}

void
FluidTransport::RingRankDone(const std::shared_ptr<FluidConnection::RingGroup>& g,
                             uint32_t rank,
                             Time received)
{
    const uint32_t n = uint32_t(g->members.size());
    FluidConnection* out = g->members[rank];
    FluidConnection* in = g->members[(rank + n - 1) % n];
    out->m_acked += g->sent[rank];
    in->m_delivered += g->sent[(rank + n - 1) % n];
    in->m_lastDelivery = std::max(in->m_lastDelivery, received);
    in->m_remote->m_bytesRx += g->sent[(rank + n - 1) % n];
    if (!g->rankDone.IsNull())
    {
        g->rankDone(rank);
    }
}

} // namespace ns3
