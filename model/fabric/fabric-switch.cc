/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-switch.h"

#include "pfc-header.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/mlnet-enum-accessor.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricSwitch");
NS_OBJECT_ENSURE_REGISTERED(FabricSwitch);

namespace
{
const double kReferenceRate = 100e9; //!< ECN thresholds are given for a 100 Gb/s port
const std::vector<uint32_t> kNoRoute;
} // namespace

TypeId
FabricSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricSwitch")
            .SetParent<Object>()
            .SetGroupName("Mlnet")
            .AddConstructor<FabricSwitch>()
            .AddAttribute("BufferSize",
                          "Shared packet buffer of the switch (bytes)",
                          UintegerValue(32u * 1024 * 1024),
                          MakeUintegerAccessor(&FabricSwitch::m_bufferBytes),
                          MakeUintegerChecker<uint64_t>(64 * 1024, uint64_t(1) << 34))
            .AddAttribute("ReservePerQueue",
                          "Guaranteed buffer per ingress (port, class) (bytes)",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&FabricSwitch::m_reserveBytes),
                          MakeUintegerChecker<uint32_t>(0, 16u * 1024 * 1024))
            .AddAttribute("PfcEnabled",
                          "Enable 802.1Qbb PFC on the lossless classes (else lossy: drops)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FabricSwitch::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("PfcClassMask",
                          "Bit mask of lossless priority classes (bit c = class c)",
                          UintegerValue(0xff),
                          MakeUintegerAccessor(&FabricSwitch::m_pfcMask),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("PfcAlpha",
                          "Dynamic threshold: an ingress queue pauses its upstream when its "
                          "shared-buffer use exceeds alpha x free shared buffer",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&FabricSwitch::m_pfcAlpha),
                          MakeDoubleChecker<double>(1.0 / 1024, 64.0))
            .AddAttribute("PfcResumeOffset",
                          "Resume when the ingress queue is this far under the pause "
                          "threshold (bytes)",
                          UintegerValue(3076),
                          MakeUintegerAccessor(&FabricSwitch::m_pfcResumeOffset),
                          MakeUintegerChecker<uint32_t>(0, 16u * 1024 * 1024))
            .AddAttribute("PfcHeadroom",
                          "PFC headroom per lossless (port, class) (bytes); 0 = automatic: "
                          "2 x link bandwidth-delay product + 2 maximum frames + 1 pause frame",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FabricSwitch::m_headroom),
                          MakeUintegerChecker<uint32_t>(0, 64u * 1024 * 1024))
            .AddAttribute("PfcPauseQuanta",
                          "Pause time carried by PAUSE frames (quanta of 512 bit times); the "
                          "switch refreshes the pause at half of it while congested",
                          UintegerValue(0xffff),
                          MakeUintegerAccessor(&FabricSwitch::m_pauseQuanta),
                          MakeUintegerChecker<uint16_t>(1, 0xffff))
            .AddAttribute("EgressAlpha",
                          "Lossy classes: egress queue limit = reserve + alpha x free shared "
                          "buffer",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&FabricSwitch::m_egressAlpha),
                          MakeDoubleChecker<double>(1.0 / 1024, 64.0))
            .AddAttribute("EcnEnabled",
                          "RED-style ECN marking of ECN-capable packets at egress",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FabricSwitch::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("EcnKmin",
                          "Egress queue (bytes) where marking starts, for a 100 Gb/s port",
                          UintegerValue(400 * 1000),
                          MakeUintegerAccessor(&FabricSwitch::m_kmin),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnKmax",
                          "Egress queue (bytes) above which every packet is marked, for a "
                          "100 Gb/s port",
                          UintegerValue(1600 * 1000),
                          MakeUintegerAccessor(&FabricSwitch::m_kmax),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnPmax",
                          "Marking probability at Kmax",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&FabricSwitch::m_pmax),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("EcnScaleWithRate",
                          "Scale Kmin and Kmax with the port rate (rate / 100 Gb/s)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FabricSwitch::m_ecnScale),
                          MakeBooleanChecker())
            .AddAttribute("EcnMarkingPoint",
                          "Where the switch decides to CE-mark: Dequeue (when the packet leaves "
                          "the egress queue, on the queue it leaves behind) or Enqueue (when it "
                          "joins the queue, on the queue it finds)",
                          EnumValue(ECN_AT_DEQUEUE),
                          MakeEnumMemberAccessor(&FabricSwitch::m_ecnPoint),
                          MakeEnumChecker(ECN_AT_DEQUEUE, "Dequeue", ECN_AT_ENQUEUE, "Enqueue"))
            .AddAttribute("EcmpSeed",
                          "Seed of the ECMP flow hash; 0 = drawn from the switch's random "
                          "stream (so RngRun changes the spread)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FabricSwitch::m_ecmpSeed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LoadBalancing",
                          "How a packet picks a member of its ECMP group: FlowHash (a hash of "
                          "the 5-tuple, a flow keeps its path) or Flowlet (LetFlow-style: a "
                          "flow's member is drawn again after a gap of FlowletTimeout; may "
                          "reorder packets when paths' delays differ by more than the gap)",
                          EnumValue(LB_FLOW_HASH),
                          MakeEnumMemberAccessor(&FabricSwitch::m_loadBalancing),
                          MakeEnumChecker(LB_FLOW_HASH, "FlowHash", LB_FLOWLET, "Flowlet"))
            .AddAttribute("FlowletTimeout",
                          "LoadBalancing = Flowlet: the gap between a flow's packets that starts "
                          "a new flowlet (> 0)",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&FabricSwitch::m_flowletTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("FlowletTableSize",
                          "LoadBalancing = Flowlet: entries of the flowlet table (indexed by the "
                          "flow hash), a power of two in [1, 16777216]",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&FabricSwitch::m_flowletTableSize),
                          MakeUintegerChecker<uint32_t>(1, 1u << 24))
            .AddTraceSource("Drop",
                            "A packet was dropped: (packet, ingress port, class, reason)",
                            MakeTraceSourceAccessor(&FabricSwitch::m_dropTrace),
                            "ns3::FabricSwitch::DropTracedCallback")
            .AddTraceSource("EcnMark",
                            "A packet was CE-marked: (egress port, class)",
                            MakeTraceSourceAccessor(&FabricSwitch::m_ecnTrace),
                            "ns3::FabricSwitch::PortClassTracedCallback")
            .AddTraceSource("PfcPause",
                            "The switch paused an upstream port: (ingress port, class)",
                            MakeTraceSourceAccessor(&FabricSwitch::m_pauseTrace),
                            "ns3::FabricSwitch::PortClassTracedCallback")
            .AddTraceSource("PfcResume",
                            "The switch resumed an upstream port: (ingress port, class)",
                            MakeTraceSourceAccessor(&FabricSwitch::m_resumeTrace),
                            "ns3::FabricSwitch::PortClassTracedCallback");
    return tid;
}

FabricSwitch::FabricSwitch()
    : m_rng(CreateObject<UniformRandomVariable>())
{
}

FabricSwitch::~FabricSwitch() = default;

int64_t
FabricSwitch::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

uint32_t
FabricSwitch::AddPort(Ptr<FabricNetDevice> dev)
{
    if (m_configured)
    {
        throw std::logic_error("FabricSwitch: ports must be added before the simulation starts");
    }
    uint32_t idx = m_ports.size();
    Port port;
    port.dev = dev;
    m_ports.push_back(std::move(port));
    dev->SetPortHandler(this, idx);
    return idx;
}

uint32_t
FabricSwitch::GetNPorts() const
{
    return m_ports.size();
}

Ptr<FabricNetDevice>
FabricSwitch::GetPort(uint32_t i) const
{
    return m_ports.at(i).dev;
}

void
FabricSwitch::SetRoute(Ipv4Address dst, const std::vector<uint32_t>& ports)
{
    if (ports.empty())
    {
        throw std::invalid_argument("FabricSwitch::SetRoute: empty next-hop set");
    }
    for (uint32_t p : ports)
    {
        if (p >= m_ports.size())
        {
            throw std::invalid_argument("FabricSwitch::SetRoute: port " + std::to_string(p) +
                                        " out of range [0, " + std::to_string(m_ports.size()) +
                                        ")");
        }
    }
    auto it = m_groupIndex.find(ports);
    uint32_t offset;
    if (it == m_groupIndex.end())
    {
        m_groups.push_back(ports);
        offset = AppendGroupData(uint32_t(m_groups.size() - 1), ports);
        m_groupIndex.emplace(ports, offset);
    }
    else
    {
        offset = it->second;
    }
    // A route of one port is the port itself: the lookup reads no group (step 30).
    const uint32_t word = ports.size() == 1 ? kSinglePort | ports[0] : offset;
    uint32_t off = dst.Get() - kDenseBase;
    if (off < kDenseSpan)
    {
        if (off >= m_denseRoute.size())
        {
            m_denseRoute.resize(off + 1, kNoGroup);
        }
        m_denseRoute[off] = word;
    }
    else
    {
        m_routeOf[dst.Get()] = word;
    }
}

uint32_t
FabricSwitch::AppendGroupData(uint32_t g, const std::vector<uint32_t>& ports)
{
    static_assert(sizeof(FastModulus) == 4 * sizeof(uint32_t) &&
                      std::is_trivially_copyable<FastModulus>::value,
                  "a FastModulus is 4 words of m_groupData");
    const std::size_t offset = (m_groupData.size() + 3) & ~std::size_t(3);
    if (offset + kGroupHeadWords + ports.size() >= kSinglePort)
    {
        throw std::length_error("FabricSwitch::SetRoute: more than 2^31 words of ECMP groups");
    }
    m_groupData.resize(offset + kGroupHeadWords, 0);
    const FastModulus mod(uint32_t(ports.size()));
    std::memcpy(m_groupData.data() + offset, &mod, sizeof mod);
    m_groupData[offset + kGroupIndexWord] = g;
    m_groupData.insert(m_groupData.end(), ports.begin(), ports.end());
    return uint32_t(offset);
}

uint32_t
FabricSwitch::RouteWord(uint32_t dst) const
{
    uint32_t off = dst - kDenseBase;
    if (off < m_denseRoute.size())
    {
        return m_denseRoute[off];
    }
    if (off < kDenseSpan)
    {
        return kNoGroup;
    }
    auto it = m_routeOf.find(dst);
    return it == m_routeOf.end() ? kNoGroup : it->second;
}

const std::vector<uint32_t>&
FabricSwitch::GetRoute(Ipv4Address dst) const
{
    const uint32_t w = RouteWord(dst.Get());
    if (w == kNoGroup)
    {
        return kNoRoute;
    }
    if (w & kSinglePort)
    {
        return m_groups[m_groupData[m_groupIndex.at({w & ~kSinglePort}) + kGroupIndexWord]];
    }
    return m_groups[m_groupData[w + kGroupIndexWord]];
}

inline const uint32_t*
FabricSwitch::EcmpGroup(const FlowKey& key, int* port) const
{
    const uint32_t w = RouteWord(key.dst);
    if (w & kSinglePort)
    {
        *port = w == kNoGroup ? -1 : int(w & ~kSinglePort);
        return nullptr;
    }
    return m_groupData.data() + w;
}

int
FabricSwitch::SelectEgress(const FlowKey& key)
{
    int port;
    const uint32_t* group = EcmpGroup(key, &port);
    if (!group)
    {
        return port;
    }
    FastModulus mod;
    std::memcpy(static_cast<void*>(&mod), group, sizeof mod);
    EnsureConfigured();
    return int(group[kGroupHeadWords + mod.Mod(key.Hash(m_seedInUse))]);
}

int
FabricSwitch::SelectFlowletEgress(const FlowKey& key)
{
    int port;
    const uint32_t* group = EcmpGroup(key, &port);
    if (!group)
    {
        return port;
    }
    const auto members = uint32_t(m_groups[group[kGroupIndexWord]].size());
    const auto w = uint32_t(group - m_groupData.data());
    const uint32_t m =
        m_flowlets.Select(key.Hash(m_seedInUse), w, members, Simulator::Now().GetNanoSeconds());
    return int(group[kGroupHeadWords + m]);
}

uint64_t
FabricSwitch::GetFlowlets() const
{
    return m_flowlets.GetFlowlets();
}

uint32_t
FabricSwitch::GetEcmpSeed()
{
    EnsureConfigured();
    return m_seedInUse;
}

const SharedBufferMmu&
FabricSwitch::GetMmu() const
{
    return m_mmu;
}

const SwitchPortStats&
FabricSwitch::GetPortStats(uint32_t i) const
{
    const Port& p = m_ports.at(i);
    // The MMU keeps the largest queue (on the line a frame's accounting touches anyway).
    if (m_configured)
    {
        p.stats.maxQueueBytes = m_mmu.MaxEgressPortBytes(i);
    }
    p.stats.txPackets = 0;
    p.stats.txBytes = 0;
    for (const auto& c : p.txClass)
    {
        p.stats.txPackets += c[0];
        p.stats.txBytes += c[1];
    }
    return p.stats;
}

SwitchClassStats
FabricSwitch::GetClassStats(uint32_t i, uint8_t cls) const
{
    const Port& p = m_ports.at(i);
    if (cls >= FabricNetDevice::kNumClasses)
    {
        throw std::out_of_range("FabricSwitch::GetClassStats: class " + std::to_string(cls) +
                                " is out of range [0, 7]");
    }
    SwitchClassStats c;
    c.txPackets = p.txClass[cls][0];
    c.txBytes = p.txClass[cls][1];
    c.pauseSent = p.pauseClass[cls];
    c.maxQueueBytes = p.dev ? p.dev->GetMaxQueueBytes(cls) : 0;
    return c;
}

std::pair<uint64_t, uint64_t>
FabricSwitch::GetEcnThresholds(uint32_t i) const
{
    const_cast<FabricSwitch*>(this)->EnsureConfigured();
    return {m_ports.at(i).kmin, m_ports.at(i).kmax};
}

double
FabricSwitch::EcnProbability(uint64_t q, uint64_t kmin, uint64_t kmax, double pmax)
{
    if (q <= kmin)
    {
        return 0.0;
    }
    if (q > kmax)
    {
        return 1.0;
    }
    return pmax * double(q - kmin) / double(kmax - kmin);
}

void
FabricSwitch::DoInitialize()
{
    EnsureConfigured();
    Object::DoInitialize();
}

void
FabricSwitch::EnsureConfigured()
{
    if (!m_configured)
    {
        Configure();
    }
}

void
FabricSwitch::Configure()
{
    if (m_kmin > m_kmax)
    {
        throw std::invalid_argument("FabricSwitch: EcnKmin (" + std::to_string(m_kmin) +
                                    ") must not exceed EcnKmax (" + std::to_string(m_kmax) + ")");
    }
    m_seedInUse = m_ecmpSeed != 0 ? m_ecmpSeed : m_rng->GetInteger(1, 0xfffffffeu);
    if (m_loadBalancing == LB_FLOWLET)
    {
        m_flowlets.Configure(m_flowletTableSize, m_flowletTimeout.GetNanoSeconds());
    }
    std::vector<uint32_t> headroom;
    for (Port& port : m_ports)
    {
        double rate = port.dev->GetDataRate().GetBitRate();
        double scale = m_ecnScale ? rate / kReferenceRate : 1.0;
        port.kmin = uint64_t(m_kmin * scale);
        port.kmax = uint64_t(m_kmax * scale);
        port.pauseDuration = port.dev->GetDataRate().CalculateBytesTxTime(
            uint64_t(m_pauseQuanta) * PfcHeader::kBitsPerQuantum / 8);
        uint32_t h = m_headroom;
        if (h == 0)
        {
            double bdp = rate * port.dev->GetDelay().GetSeconds() / 8.0;
            uint32_t maxFrame = port.dev->GetMtu() + 38;
            h = uint32_t(2 * bdp) + 2 * maxFrame + 84;
        }
        headroom.push_back(h);
    }
    MmuConfig cfg;
    cfg.bufferBytes = m_bufferBytes;
    cfg.reserveBytes = m_reserveBytes;
    cfg.pfcEnabled = m_pfcEnabled;
    cfg.losslessMask = m_pfcMask;
    cfg.pfcAlpha = m_pfcAlpha;
    cfg.pfcResumeOffset = m_pfcResumeOffset;
    cfg.egressAlpha = m_egressAlpha;
    m_mmu.Configure(m_ports.size(), cfg, headroom);
    m_configured = true;
}

bool
FabricSwitch::PortReceive(uint32_t in, FabricNetDevice* dev, FabricFrame& f, const FlowKey* carried)
{
    EnsureConfigured();
    FlowKey parsed;
    const FlowKey* key = carried; // parsed by an upstream switch: the bytes are the same
    if (!key)
    {
        if (!parsed.Parse(f))
        {
            Drop(f, in, 0, "NotIpv4");
            return true;
        }
        key = &parsed;
    }
    if (key->dst == m_localAddr && !m_local.IsNull())
    {
        m_local(in, f.GetPacket());
        return true;
    }
    Forward(in, *key, f);
    return true;
}

void
FabricSwitch::Drop(FabricFrame& f, uint32_t in, uint8_t cls, const char* reason)
{
    m_ports[in].stats.drops++;
    m_ports[in].stats.dropBytes += f.GetSize();
    if (!m_dropTrace.IsEmpty())
    {
        m_dropTrace(f.GetPacket(), in, cls, reason);
    }
}

void
FabricSwitch::SetLocalHandler(Ipv4Address addr, LocalCallback cb)
{
    m_localAddr = addr.Get();
    m_local = cb;
}

void
FabricSwitch::Inject(Ptr<Packet> p, uint32_t in)
{
    EnsureConfigured();
    FlowKey key;
    if (in >= m_ports.size() || !key.Parse(*p))
    {
        m_dropTrace(p, in, 0, "NotIpv4");
        return;
    }
    FabricFrame f(p);
    Forward(in, key, f);
}

void
FabricSwitch::Forward(uint32_t in, const FlowKey& key, FabricFrame& f)
{
    uint8_t cls = key.dscp & 0x7;
    int out = m_loadBalancing == LB_FLOW_HASH ? SelectEgress(key) : SelectFlowletEgress(key);
    uint32_t size = f.GetSize();
    if (out < 0)
    {
        Drop(f, in, cls, "NoRoute");
        return;
    }
    Port& op = m_ports[out];
    op.dev->PrefetchForEnqueue(); // its first line, while the MMU admits the frame
    SharedBufferMmu::Verdict v = m_mmu.AdmitAndEnqueue(in, uint32_t(out), cls, size);
    if (!SharedBufferMmu::Admitted(v))
    {
        Drop(f, in, cls, SharedBufferMmu::ReasonName(v));
        NS_LOG_DEBUG("drop at port " << in << ": " << SharedBufferMmu::ReasonName(v));
        return;
    }
    if (!m_ports[in].pausing[cls] && m_mmu.NeedPause(in, cls))
    {
        SendPause(in, cls);
    }
    uint32_t meta = in;
    const FlowKey* sent = &key;
    FlowKey marked;
    if (m_ecnEnabled && (key.ecn == 1 || key.ecn == 2))
    {
        if (m_ecnPoint == ECN_AT_DEQUEUE)
        {
            meta |= kMarkAtDequeue; // decided in PortDequeue, on the queue left behind
        }
        else if (MaybeMark(f, uint32_t(out), cls, m_mmu.EgressBytes(out, cls)))
        {
            marked = key;
            marked.ecn = Ipv4Header::ECN_CE; // the key sent on describes the marked bytes
            sent = &marked;
        }
    }
    op.dev->Enqueue(f, cls, meta, sent);
}

bool
FabricSwitch::MarkAboveKmin(FabricFrame& f, uint32_t out, uint8_t cls, uint64_t q)
{
    Port& op = m_ports[out];
    double prob = EcnProbability(q, op.kmin, op.kmax, m_pmax);
    if (prob >= 1.0 || m_rng->GetValue() < prob)
    {
        f.SetEcnCe();
        op.stats.ecnMarks++;
        m_ecnTrace(out, cls);
        return true;
    }
    return false;
}

void
FabricSwitch::PortDequeue(uint32_t out, FabricFrame& f, uint8_t cls, uint32_t meta, FlowKey* key)
{
    const uint32_t in = meta & ~kMarkAtDequeue;
    uint32_t size = f.GetSize();
    m_mmu.Dequeue(in, out, cls, size);
    if (meta & kMarkAtDequeue)
    {
        // The device hands over the packet it is about to transmit (its own, non-const copy):
        // marking it here is what goes on the wire, and the key sent with it follows.
        if (MaybeMark(f, out, cls, m_mmu.EgressBytes(out, cls)) && key)
        {
            key->ecn = Ipv4Header::ECN_CE;
        }
    }
    Port& op = m_ports[out];
    op.txClass[cls][0]++; // the port's totals are their sums (GetPortStats)
    op.txClass[cls][1] += size;
    Port& ip = m_ports[in];
    if (ip.pausing[cls] && m_mmu.CanResume(in, cls))
    {
        ip.pausing[cls] = false;
        ip.refresh[cls]->timer.Cancel(); // made by SendPause
        ip.stats.resumeSent++;
        ip.dev->SendPfc(cls, 0);
        m_resumeTrace(in, cls);
    }
}

void
FabricSwitch::SendPause(uint32_t in, uint8_t cls)
{
    Port& ip = m_ports[in];
    ip.pausing[cls] = true;
    ip.stats.pauseSent++;
    ip.pauseClass[cls]++;
    ip.dev->SendPfc(cls, m_pauseQuanta);
    m_pauseTrace(in, cls);
    std::unique_ptr<PauseRefresh>& r = ip.refresh[cls];
    if (!r)
    {
        r = std::make_unique<PauseRefresh>();
        r->sw = this;
        r->port = in;
        r->cls = cls;
        r->timer.Bind<PauseRefresh, &PauseRefresh::Fire>(r.get());
    }
    r->timer.Schedule(ip.pauseDuration / 2); // replaces a pending refresh
}

void
FabricSwitch::RefreshPause(uint32_t in, uint8_t cls)
{
    Port& ip = m_ports[in];
    if (!ip.pausing[cls])
    {
        return;
    }
    if (m_mmu.CanResume(in, cls))
    {
        ip.pausing[cls] = false;
        ip.stats.resumeSent++;
        ip.dev->SendPfc(cls, 0);
        m_resumeTrace(in, cls);
        return;
    }
    SendPause(in, cls);
}

void
FabricSwitch::DoDispose()
{
    for (Port& p : m_ports)
    {
        for (auto& r : p.refresh)
        {
            if (r)
            {
                r->timer.Cancel();
            }
        }
        p.dev = nullptr;
    }
    m_ports.clear();
    m_rng = nullptr;
    m_local = LocalCallback();
    Object::DoDispose();
}

} // namespace ns3
