/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-nic.h"

#include "roce-frame-note.h"
#include "roce-header.h"
#include "roce-v2-header.h"

#include "ns3/fabric-net-device.h"
#include "ns3/fast-events.h"
#include "ns3/flow-key.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <typeinfo>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNic");
NS_OBJECT_ENSURE_REGISTERED(RdmaNic);

using namespace roce;

namespace
{
/// Packets of lateness a rate-limited queue pair may catch up on (token-bucket depth).
const int64_t kPacingBurst = 4;
} // namespace

TypeId
RdmaNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNic")
            .SetParent<MessageTransport>()
            .SetGroupName("Mlnet")
            .AddConstructor<RdmaNic>()
            .AddAttribute("Mtu",
                          "Payload bytes per RDMA packet",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&RdmaNic::m_mtu),
                          MakeUintegerChecker<uint32_t>(64, 4096))
            .AddAttribute("AckInterval",
                          "Acknowledge every this many in-order packets (and every message end)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaNic::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1, 1u << 20))
            .AddAttribute("CnpInterval",
                          "Notification point: at most one CNP per queue pair per interval",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RdmaNic::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ControlClass",
                          "Priority class of ACK, NAK and CNP packets",
                          UintegerValue(7),
                          MakeUintegerAccessor(&RdmaNic::m_ctrlClass),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("RetransmitTimeout",
                          "Go back to the oldest unacknowledged packet when nothing was "
                          "acknowledged for this long (default 4.096 us x 2^14: RoCE's local "
                          "ACK timeout at NCCL_IB_TIMEOUT 14, NCCL's default before 2.14)",
                          TimeValue(NanoSeconds(67108864)),
                          MakeTimeAccessor(&RdmaNic::m_rto),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("MaxInflightBytes",
                          "Per-QP window of unacknowledged bytes (0 = unlimited, rate only)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaNic::m_maxInflight),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("CnpTx",
                            "A CNP was sent: (destination QP number)",
                            MakeTraceSourceAccessor(&RdmaNic::m_cnpTxTrace),
                            "ns3::RdmaNic::CnpTracedCallback")
            .AddTraceSource("MessageRx",
                            "A message was received completely: (source, source QP, bytes)",
                            MakeTraceSourceAccessor(&RdmaNic::m_msgRxTrace),
                            "ns3::RdmaNic::MessageRxTracedCallback");
    return tid;
}

RdmaNic::RdmaNic()
{
    m_ccFactory.SetTypeId("ns3::Dcqcn");
    m_wake.Bind<RdmaNic, &RdmaNic::Wake>(this);
}

RdmaNic::~RdmaNic() = default;

void
RdmaNic::DoDispose()
{
    m_wake.Cancel();
    for (auto& qp : m_qps)
    {
        qp->Dispose();
    }
    m_qps.clear();
    m_sources.clear();
    m_responders.clear();
    m_ccPrototype = nullptr;
    if (m_dev)
    {
        m_dev->SetPullSource(nullptr);
        m_dev->SetReceiveHandler(nullptr, 0);
    }
    m_dev = nullptr;
    m_rxCb = MakeNullCallback<void, Ipv4Address, uint32_t, uint64_t>();
    m_hostRx = HostReceiveHook();
    m_hostTx = HostTransmitHook();
    Object::DoDispose();
}

void
RdmaNic::SetDevice(Ptr<FabricNetDevice> dev)
{
    m_dev = dev;
    // Direct virtual calls (no Callback layers, no Ptr copies per packet).
    dev->SetPullSource(this);
    dev->SetReceiveHandler(this, 0);
}

Ptr<FabricNetDevice>
RdmaNic::GetDevice() const
{
    return m_dev;
}

void
RdmaNic::SetCongestionControl(const ObjectFactory& factory, Ptr<const RdmaCongestionOps> prototype)
{
    m_ccFactory = factory;
    m_ccPrototype = prototype;
}

Ptr<RdmaCongestionOps>
RdmaNic::NewCongestionOps()
{
    if (!m_ccPrototype)
    {
        m_ccPrototype = m_ccFactory.Create<RdmaCongestionOps>();
        if (!m_ccPrototype)
        {
            throw std::invalid_argument("RdmaNic: congestion control " +
                                        m_ccFactory.GetTypeId().GetName() +
                                        " is not a RdmaCongestionOps");
        }
    }
    // A subclass that does not override Fork() inherits its parent's, which copies only the
    // parent's part: such a copy is not the prototype's class, and the factory makes the
    // instance instead.
    Ptr<RdmaCongestionOps> ops = m_ccPrototype->Fork();
    if (ops && typeid(*ops) == typeid(*m_ccPrototype))
    {
        return ops;
    }
    return m_ccFactory.Create<RdmaCongestionOps>();
}

void
RdmaNic::SetReceiveCallback(ReceiveCallback cb)
{
    m_rxCb = cb;
}

void
RdmaNic::SetHostPath(HostReceiveHook rx, HostTransmitHook tx)
{
    m_hostRx = rx;
    m_hostTx = tx;
}

uint16_t
RdmaNic::QueuePairSourcePort(uint32_t srcAddress, uint32_t qpn, uint32_t responderIndex)
{
    // RoCEv2 uses the UDP source port for ECMP entropy: derive it from both ends' QP numbers.
    const uint32_t h = (srcAddress * 2654435761u) ^ (qpn * 40503u) ^ (responderIndex * 2246822519u);
    return uint16_t(49152 + (h >> 18) % 16384);
}

Ptr<MessageConnection>
RdmaNic::Open(Ptr<MessageTransport> remote, uint8_t cls)
{
    Ptr<RdmaNic> nic = DynamicCast<RdmaNic>(remote);
    if (!nic)
    {
        throw std::invalid_argument("RdmaNic::Open: the remote transport is not an RdmaNic "
                                    "(both ends of a connection must be of one backend)");
    }
    return Connect(nic, cls);
}

Ipv4Address
RdmaNic::GetAddress() const
{
    return m_dev ? m_dev->GetIpv4Address() : Ipv4Address();
}

DataRate
RdmaNic::GetLineRate() const
{
    return m_dev ? m_dev->GetDataRate() : DataRate(0);
}

double
RdmaNic::GetWirePerPayload() const
{
    if (!m_dev)
    {
        return 1.0;
    }
    UintegerValue frame;
    m_dev->GetAttribute("FrameOverhead", frame);
    return double(m_mtu + kIpUdpBytes + kBthBytes + kIcrcBytes + frame.Get()) / m_mtu;
}

Ptr<RdmaQueuePair>
RdmaNic::Connect(Ptr<RdmaNic> remote, uint8_t cls, const ObjectFactory* cc)
{
    if (cls > 7)
    {
        throw std::invalid_argument("RdmaNic::Connect: priority class " + std::to_string(cls) +
                                    " out of range [0, 7]");
    }
    if (!m_dev || !remote || !remote->m_dev)
    {
        throw std::invalid_argument("RdmaNic::Connect: both NICs must be bound to a device");
    }
    Ptr<RdmaQueuePair> qp = CreateObject<RdmaQueuePair>();
    qp->m_nic = this;
    qp->m_qpn = m_qps.size();
    qp->m_peer = remote->m_dev->GetIpv4AddressValue();
    qp->m_class = cls;
    qp->m_nextClass = cls;
    qp->m_mtu = m_mtu;
    qp->m_maxInflight = m_maxInflight;
    qp->m_srcPort = QueuePairSourcePort(m_dev->GetIpv4AddressValue(),
                                        qp->m_qpn,
                                        uint32_t(remote->m_responders.size()));
    qp->m_peerQpn = remote->m_responders.size();
    Responder r;
    r.peer = m_dev->GetIpv4AddressValue();
    r.peerQpn = qp->m_qpn;
    r.srcPort = qp->m_srcPort;
    remote->m_responders.push_back(r);
    qp->m_ops = cc ? cc->Create<RdmaCongestionOps>() : NewCongestionOps();
    qp->m_cc.lineRate = double(m_dev->GetDataRate().GetBitRate());
    qp->m_cc.rate = qp->m_cc.lineRate;
    qp->m_cc.targetRate = qp->m_cc.lineRate;
    qp->m_ops->Init(qp->m_cc, Simulator::Now());
    qp->m_nextAvail = Simulator::Now();
    m_qps.push_back(qp);
    if (m_dev)
    {
        m_dev->PullSourceChanged(); // MayPull() may have changed
    }
    m_classesInUse |= uint8_t(1u << cls);
    return qp;
}

uint32_t
RdmaNic::GetNQueuePairs() const
{
    return m_qps.size();
}

Ptr<RdmaQueuePair>
RdmaNic::GetQueuePair(uint32_t qpn) const
{
    return qpn < m_qps.size() ? m_qps[qpn] : nullptr;
}

uint64_t
RdmaNic::GetBytesReceived() const
{
    return m_bytesRx;
}

uint64_t
RdmaNic::GetCnpsSent() const
{
    return m_cnpsSent;
}

uint64_t
RdmaNic::GetNaksSent() const
{
    return m_naksSent;
}

uint64_t
RdmaNic::GetControlPacketsSent() const
{
    return m_controlSent;
}

uint64_t
RdmaNic::GetCeReceived() const
{
    return m_ceReceived;
}

uint32_t
RdmaNic::GetNResponders() const
{
    return m_responders.size();
}

const RdmaReceiveStats&
RdmaNic::GetReceiveStats(uint32_t responderQpn) const
{
    if (responderQpn >= m_responders.size())
    {
        throw std::invalid_argument("RdmaNic::GetReceiveStats: responder QP " +
                                    std::to_string(responderQpn) + " out of range [0, " +
                                    std::to_string(m_responders.size()) + ")");
    }
    return m_responders[responderQpn].stats;
}

void
RdmaNic::Kick()
{
    if (m_dev)
    {
        m_dev->TriggerTransmit();
    }
}

void
RdmaNic::ScheduleWake(Time at)
{
    if (m_wake.IsPending() && m_wake.GetTsStep() <= at.GetTimeStep())
    {
        return;
    }
    m_wake.Schedule(at - FastEvents::Now());
}

void
RdmaNic::Wake()
{
    Kick();
}

void
RdmaNic::AddSource(RdmaNicSource* src)
{
    m_sources.push_back(src);
    if (m_dev)
    {
        m_dev->PullSourceChanged(); // MayPull() may have changed
    }
}

void
RdmaNic::RemoveSource(RdmaNicSource* src)
{
    m_sources.erase(std::remove(m_sources.begin(), m_sources.end(), src), m_sources.end());
}

void
RdmaNic::NotifySource()
{
    Kick();
}

bool
RdmaNic::MayPull() const
{
    return !m_qps.empty() || !m_sources.empty();
}

bool
RdmaNic::PortPull(uint8_t pausedMask, FabricFrame& f, const FlowKey*& key)
{
    key = nullptr;
    const uint32_t nq = m_qps.size();
    const uint32_t n = nq + m_sources.size();
    if (n == 0)
    {
        return false;
    }
    // Strict priority between classes (class 7 highest, as the fabric), round robin among the
    // queue pairs of a class. With a single class in use the first ready QP wins (early exit).
    const bool oneClass = (m_classesInUse & (m_classesInUse - 1)) == 0;
    Time now = FastEvents::Now();
    if (m_hostTxReady > now)
    {
        ScheduleWake(m_hostTxReady); // the host transmit path is still reading
        return false;
    }
    Time earliest = Time::Max();
    int best = -1;
    uint8_t bestClass = 0;
    for (uint32_t k = 0; k < n; ++k)
    {
        uint32_t idx = (m_rr + k) % n;
        uint8_t cls;
        Time avail;
        if (idx < nq)
        {
            RdmaQueuePair& qp = *m_qps[idx];
            if (!qp.CanSend())
            {
                continue;
            }
            cls = qp.m_class;
            avail = qp.m_nextAvail;
        }
        else
        {
            avail = m_sources[idx - nq]->GetNextSendTime(cls);
            if (avail == Time::Max())
            {
                continue;
            }
            m_classesInUse |= uint8_t(1u << (cls & 7));
        }
        if ((pausedMask >> cls) & 1u)
        {
            continue;
        }
        if (avail > now)
        {
            earliest = std::min(earliest, avail);
            continue;
        }
        if (best < 0 || cls > bestClass)
        {
            best = int(idx);
            bestClass = cls;
            if (oneClass)
            {
                break;
            }
        }
    }
    if (best >= 0)
    {
        m_rr = (uint32_t(best) + 1) % n;
        if (uint32_t(best) < nq)
        {
            BuildData(*m_qps[best], now, f);
            key = &m_key; // the first switch need not parse the headers
            return true;
        }
        f = FabricFrame(m_sources[best - nq]->Dequeue());
        return !f.IsEmpty();
    }
    if (earliest != Time::Max())
    {
        ScheduleWake(earliest);
    }
    return false;
}

void
RdmaNic::BuildData(RdmaQueuePair& qp, const Time& now, FabricFrame& f)
{
    qp.m_ops->Advance(qp.m_cc, now);
    bool first = false;
    bool last = false;
    uint64_t psn = qp.m_sndNxt;
    uint32_t payload = qp.PayloadOf(psn, first, last);
    RoceHeader& bth = m_hdr.bth;
    bth.m_opcode = first && last
                       ? RoceHeader::WRITE_ONLY
                       : (first ? RoceHeader::WRITE_FIRST
                                : (last ? RoceHeader::WRITE_LAST : RoceHeader::WRITE_MIDDLE));
    bth.m_destQp = qp.m_peerQpn;
    bth.m_psn = uint32_t(psn & 0xffffff);
    bth.m_ackRequest = last;
    bth.m_syndrome = 0;
    bth.m_msn = 0;
    MakeFrame(f, payload, qp.m_peer, qp.m_srcPort, qp.m_class, true);
    const uint32_t size = f.GetSize();
    qp.m_txPackets++;
    qp.m_txBytes += size;
    if (psn < qp.m_highSent)
    {
        qp.m_retx++;
    }
    else
    {
        qp.m_highSent = psn + 1;
        qp.m_cc.iterationSent += payload;
        qp.m_cc.bytesSent += payload;
    }
    qp.m_sndNxt = psn + 1;
    qp.m_ops->OnSent(qp.m_cc, payload, now);
    qp.UpdateRateTraces();
    // Pace on the wire time at the current rate: the port's own wire time at line rate (no
    // gap between back-to-back packets), scaled up when the QP is rate-limited. A rate-limited
    // QP that got the port late (another QP's packet was on the wire at its slot) keeps its
    // schedule when it is less than kPacingBurst intervals late, as a token bucket of that many
    // packets would: otherwise every collision would lower its rate below the limit.
    const double pace = qp.PacingRate();
    if (pace >= qp.m_cc.lineRate)
    {
        qp.m_nextAvail = now + m_dev->TxTime(size); // a lower bound of the port's time
    }
    else
    {
        // Exact pacing: the sub-step remainder is carried from packet to packet.
        Time interval =
            qp.m_paceClock.Next(m_dev->WireBits(size), uint64_t(std::llround(std::max(pace, 1e3))));
        bool onSchedule = qp.m_nextAvail <= now && now - qp.m_nextAvail < interval * kPacingBurst;
        qp.m_nextAvail = (onSchedule ? qp.m_nextAvail : now) + interval;
    }
    ArmRto(qp);
    if (!m_hostTx.IsNull())
    {
        m_hostTxReady = m_hostTx(payload);
    }
}

void
RdmaNic::MakeFrame(FabricFrame& f,
                   uint32_t payload,
                   uint32_t dst,
                   uint16_t sport,
                   uint8_t cls,
                   bool ect)
{
    // Payload and ICRC are virtual bytes; the whole header stack is written in one pass, from
    // the NIC's one header object, into the compact frame: no ns3::Packet, no allocation.
    RoceV2Header& h = m_hdr;
    h.src = m_dev->GetIpv4AddressValue();
    h.dst = dst;
    h.dscp = cls;
    h.ecn = ect ? 2 : 0; // ECT(0)
    h.sport = sport;
    h.payload = payload + kIcrcBytes;
    static_assert(kIpUdpBytes + RoceHeader::kMaxBytes <= FabricFrame::kMaxHeaderBytes,
                  "a compact frame holds the largest RoCEv2 header stack");
    uint8_t* b = f.Headers();
    const uint32_t n = h.Write(b);
    f.SetCompact(n, n + payload + kIcrcBytes, &RoceV2Header::Materialise);
    // What the receiving NIC reads, beside the frame: its header block is out of the cache by
    // the time it arrives.
    BthFields note;
    note.opcode = h.bth.m_opcode;
    note.destQp = h.bth.m_destQp;
    note.psn24 = h.bth.m_psn;
    note.nak = h.bth.m_opcode == RoceHeader::ACK && IsNak(h.bth.m_syndrome);
    f.SetNote(ToNote(note));
    m_key = h.Key(); // the same headers' key, handed to the port with the frame
}

void
RdmaNic::SendControl(uint32_t dst,
                     uint16_t sport,
                     uint32_t dstQp,
                     uint8_t opcode,
                     uint64_t psn,
                     uint8_t syndrome,
                     uint32_t msn)
{
    RoceHeader& h = m_hdr.bth;
    h.m_opcode = opcode;
    h.m_ackRequest = false;
    h.m_destQp = dstQp;
    h.m_psn = uint32_t(psn & 0xffffff);
    h.m_syndrome = syndrome;
    h.m_msn = msn;
    FabricFrame f;
    MakeFrame(f, 0, dst, sport, m_ctrlClass, false);
    m_controlSent++;
    m_dev->Enqueue(f, m_ctrlClass, 0, &m_key);
}

void
RdmaNic::OnRto(RdmaQueuePair& qp)
{
    if (qp.m_sndUna >= qp.m_highSent)
    {
        return; // nothing outstanding
    }
    NS_LOG_DEBUG("qp " << qp.m_qpn << " timeout, go back to " << qp.m_sndUna);
    qp.m_timeouts++;
    qp.m_sndNxt = qp.m_sndUna;
    ArmRto(qp);
    Kick();
}

uint64_t
RdmaNic::ExpandPsn(uint32_t psn24, uint64_t reference)
{
    const uint64_t span = uint64_t(1) << 24;
    uint64_t base = reference & ~(span - 1);
    uint64_t cand = base | psn24;
    if (cand + span / 2 < reference)
    {
        cand += span;
    }
    else if (cand > reference + span / 2 && cand >= span)
    {
        cand -= span;
    }
    return cand;
}

bool
RdmaNic::PortReceive(uint32_t /* port */,
                     FabricNetDevice* /* dev */,
                     FabricFrame& f,
                     const FlowKey* carried)
{
    // The transport fields from the frame's note and the key carried from the last switch
    // (nothing read from the header block); otherwise IPv4 + UDP + BTH (+ the AETH of an ACK),
    // read in place from a compact frame or copied from a packet.
    BthFields h;
    const bool noted = carried && FromNote(f.GetNote(), h);
    uint8_t copy[kIpUdpBytes + kBthBytes + kAethBytes];
    const uint8_t* b = nullptr;
    uint32_t n = 0;
    FlowKey key;
    if (carried)
    {
        key = *carried;
    }
    if (!noted)
    {
        b = f.PeekData(copy, kIpUdpBytes + kBthBytes);
        n = std::min<uint32_t>(f.GetSize(), kIpUdpBytes + kBthBytes);
        if (!carried && !(n >= 20 && b[0] == 0x45 ? key.Parse(b, n) : key.Parse(f))) // ports at 20
        {
            return false; // not IPv4
        }
    }
    if (key.protocol != 17 || key.dport != RoceHeader::kUdpPort)
    {
        return false; // not RoCEv2: leave it to the node's other protocol handlers
    }
    if (!noted)
    {
        if (n < kIpUdpBytes + kBthBytes)
        {
            return true;
        }
        h = ReadBth(b + kIpUdpBytes);
        if (h.opcode == RoceHeader::ACK)
        {
            h.nak = IsNak(f.PeekData(copy, sizeof(copy))[kIpUdpBytes + kBthBytes]);
        }
    }
    if (h.opcode <= RoceHeader::WRITE_ONLY)
    {
        if (h.destQp >= m_responders.size())
        {
            return true;
        }
        const uint32_t size = f.GetSize();
        uint32_t payload = size - kIpUdpBytes - kBthBytes - kIcrcBytes;
        if (!m_hostRx.IsNull())
        {
            m_hostRx(std::move(f), h.destQp, payload); // DeliverData() once the host path wrote it
            return true;
        }
        ReceiveData(h.destQp, h.opcode, h.psn24, payload, size, key.ecn == 3);
        return true;
    }
    if (h.destQp >= m_qps.size())
    {
        return true;
    }
    RdmaQueuePair& qp = *m_qps[h.destQp];
    if (h.opcode == RoceHeader::CNP)
    {
        ReceiveCnp(qp);
    }
    else if (h.opcode == RoceHeader::ACK)
    {
        ReceiveAck(qp, ExpandPsn(h.psn24, qp.m_sndUna), h.nak);
    }
    return true;
}

void
RdmaNic::DeliverData(const FabricFrame& f)
{
    FlowKey key;
    uint8_t b[kIpUdpBytes + kBthBytes];
    if (f.CopyData(b, sizeof(b)) < sizeof(b) || !key.Parse(b, sizeof(b)))
    {
        return;
    }
    const BthFields h = ReadBth(b + kIpUdpBytes);
    if (h.destQp < m_responders.size())
    {
        uint32_t payload = f.GetSize() - kIpUdpBytes - kBthBytes - kIcrcBytes;
        ReceiveData(h.destQp, h.opcode, h.psn24, payload, f.GetSize(), key.ecn == 3);
    }
}

void
RdmaNic::ReceiveData(uint32_t qpn,
                     uint8_t opcode,
                     uint32_t psn24,
                     uint32_t payload,
                     uint32_t ipBytes,
                     bool ce)
{
    Responder* rp = &m_responders[qpn];
    Time now = FastEvents::Now();
    uint64_t psn = ExpandPsn(psn24, rp->epsn);
    // Every arrival counts, whether the transport accepts it or not.
    RdmaReceiveStats& st = rp->stats;
    if (st.packets == 0)
    {
        st.firstArrival = now;
    }
    else if (psn + 1 < rp->highSeen)
    {
        st.outOfOrder++;
    }
    rp->highSeen = std::max(rp->highSeen, psn + 1);
    st.packets++;
    st.bytes += ipBytes;
    st.lastArrival = now;
    if (ce)
    {
        st.ceMarked++;
        m_ceReceived++;
    }
    if (ce && (!rp->cnpSent || now - rp->lastCnp >= m_cnpInterval))
    {
        rp->cnpSent = true;
        rp->lastCnp = now;
        m_cnpsSent++;
        m_cnpTxTrace(rp->peerQpn);
        SendControl(rp->peer, rp->srcPort, rp->peerQpn, RoceHeader::CNP, 0, 0, 0);
    }
    bool last = opcode == RoceHeader::WRITE_LAST || opcode == RoceHeader::WRITE_ONLY;
    if (psn == rp->epsn)
    {
        rp->epsn++;
        rp->nakPending = false;
        rp->msgBytes += payload;
        m_bytesRx += payload;
        st.deliveredBytes += payload;
        st.lastDelivery = now;
        rp->unacked++;
        if (last)
        {
            rp->msn++;
            st.messages++;
            uint64_t bytes = rp->msgBytes;
            rp->msgBytes = 0;
            const Ipv4Address peer(rp->peer);
            const uint32_t peerQpn = rp->peerQpn;
            m_msgRxTrace(peer, peerQpn, bytes);
            if (!m_rxCb.IsNull())
            {
                m_rxCb(peer, peerQpn, bytes);
            }
            rp = &m_responders[qpn]; // the callbacks may have grown m_responders
        }
        if (last || rp->unacked >= m_ackInterval)
        {
            rp->unacked = 0;
            SendControl(rp->peer,
                        rp->srcPort,
                        rp->peerQpn,
                        RoceHeader::ACK,
                        rp->epsn - 1,
                        0,
                        rp->msn);
        }
    }
    else if (psn > rp->epsn)
    {
        st.outOfSequence++;
        if (!rp->nakPending)
        {
            rp->nakPending = true;
            m_naksSent++;
            SendControl(rp->peer,
                        rp->srcPort,
                        rp->peerQpn,
                        RoceHeader::ACK,
                        rp->epsn,
                        RoceHeader::kNakSequenceError,
                        rp->msn);
        }
    }
    else if (rp->epsn > 0)
    {
        st.duplicates++;
        // Duplicate (a go-back-N resend of what we have): acknowledge again.
        SendControl(rp->peer, rp->srcPort, rp->peerQpn, RoceHeader::ACK, rp->epsn - 1, 0, rp->msn);
    }
}

void
RdmaNic::ReceiveAck(RdmaQueuePair& qp, uint64_t psn, bool nak)
{
    Time now = FastEvents::Now();
    // An ACK of psn acknowledges everything up to psn; a NAK of psn everything before it.
    uint64_t una = nak ? psn : psn + 1;
    if (una > qp.m_highSent)
    {
        return; // stale or bogus
    }
    if (una > qp.m_sndUna)
    {
        uint64_t acked = 0;
        while (!qp.m_msgs.empty() && qp.m_msgs.front().lastPsn < una)
        {
            RdmaQueuePair::Message m = qp.m_msgs.front();
            qp.m_msgs.pop_front();
            acked += m.bytes;
            qp.m_bytesAcked += m.bytes;
            qp.m_msgTrace(m.id, m.bytes, m.posted, now);
            if (!m.cb.IsNull())
            {
                m.cb(m.id, m.bytes);
            }
        }
        RdmaAckInfo info;
        info.ackedBytes = (una - qp.m_sndUna) * qp.m_mtu;
        qp.m_sndUna = una;
        qp.m_ops->Advance(qp.m_cc, now);
        qp.m_ops->OnAck(qp.m_cc, info, now);
        qp.UpdateRateTraces();
        qp.m_rtoArmed = false; // restarted below if packets are still outstanding
        if (qp.m_sndUna < qp.m_highSent)
        {
            ArmRto(qp);
        }
        else
        {
            qp.m_rto.SetIdle(true); // nothing outstanding: see rdma-nic-rto.cc
        }
    }
    if (nak)
    {
        NS_LOG_DEBUG("qp " << qp.m_qpn << " NAK, go back to " << psn);
        qp.m_sndNxt = std::max(psn, qp.m_sndUna);
    }
    qp.MaybeApplyClass();
    Kick();
}

void
RdmaNic::ReceiveCnp(RdmaQueuePair& qp)
{
    Time now = FastEvents::Now();
    qp.m_cnps++;
    qp.m_ops->Advance(qp.m_cc, now);
    qp.m_ops->OnCnp(qp.m_cc, now);
    qp.UpdateRateTraces();
}

} // namespace ns3
