/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-net-device.h"

#include "fabric-channel.h"
#include "fabric-wire.h"
#include "pfc-header.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/mlnet-enum-accessor.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricNetDevice");
NS_OBJECT_ENSURE_REGISTERED(FabricNetDevice);

namespace
{
const Mac48Address kPfcDestination("01:80:c2:00:00:01");
} // namespace

TypeId
FabricNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Mlnet")
            .AddConstructor<FabricNetDevice>()
            .AddAttribute(
                "DataRate",
                "Line rate of the port (bit/s)",
                DataRateValue(DataRate("100Gbps")),
                MakeDataRateAccessor(&FabricNetDevice::SetDataRate, &FabricNetDevice::GetDataRate),
                MakeDataRateChecker())
            .AddAttribute("Mtu",
                          "Largest IPv4 datagram the port carries (bytes), for upper layers",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&FabricNetDevice::m_mtu),
                          MakeUintegerChecker<uint16_t>(68, 9216))
            .AddAttribute("FrameOverhead",
                          "Bytes charged on the wire per frame beyond the IPv4 datagram: "
                          "Ethernet header 14 + FCS 4 + preamble 8 + inter-frame gap 12",
                          UintegerValue(38),
                          MakeUintegerAccessor(&FabricNetDevice::m_frameOverhead),
                          MakeUintegerChecker<uint32_t>(0, 128))
            .AddAttribute("Scheduler",
                          "Scheduling between priority classes",
                          EnumValue(STRICT_PRIORITY),
                          MakeEnumMemberAccessor(&FabricNetDevice::m_scheduler),
                          MakeEnumChecker(STRICT_PRIORITY, "StrictPriority", DWRR, "Dwrr"))
            .AddAttribute("DwrrQuantum",
                          "DWRR quantum per class and round (bytes)",
                          UintegerValue(1600),
                          MakeUintegerAccessor(&FabricNetDevice::SetDwrrQuantum,
                                               &FabricNetDevice::GetDwrrQuantum),
                          MakeUintegerChecker<uint32_t>(64, 1u << 24))
            .AddAttribute("HostQueueLimit",
                          "Per-class queue limit for packets sent by upper layers through "
                          "NetDevice::Send (bytes; 0 = unlimited). Switch egress is governed "
                          "by the switch MMU instead.",
                          UintegerValue(4u * 1024 * 1024),
                          MakeUintegerAccessor(&FabricNetDevice::m_hostQueueLimit),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("MacTx",
                            "A packet was queued for transmission",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxDrop",
                            "A packet from an upper layer was dropped (host queue full)",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_macTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A data packet was received",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "A frame started transmission",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "A frame was received completely",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "Ethernet frame (synthesised header) sent or received, for pcap",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Ethernet frame (synthesised header) sent or received, for pcap",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PfcTx",
                            "A PFC frame was sent: (class, quanta; 0 = resume)",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_pfcTxTrace),
                            "ns3::FabricNetDevice::PfcTracedCallback")
            .AddTraceSource("PfcRx",
                            "A PFC frame was received: (class, quanta; 0 = resume)",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_pfcRxTrace),
                            "ns3::FabricNetDevice::PfcTracedCallback")
            .AddTraceSource("QueueBytes",
                            "Bytes queued in a class changed: (class, bytes)",
                            MakeTraceSourceAccessor(&FabricNetDevice::m_queueTrace),
                            "ns3::FabricNetDevice::QueueTracedCallback");
    return tid;
}

namespace
{
/// Every FabricNetDevice, for ReservedTxDoneAhead() (never destroyed: devices may outlive
/// static destruction).
std::set<const FabricNetDevice*>&
AllDevices()
{
    static auto* devices = new std::set<const FabricNetDevice*>();
    return *devices;
}

/// GetEventCount() under mlnet's engine asks the devices for their reserved events.
[[maybe_unused]] const bool g_reservationCounter =
    (FastEvents::AddReservationCounter(&FabricNetDevice::ReservedTxDoneAhead), true);
} // namespace

uint64_t
FabricNetDevice::ReservedTxDoneAhead(const FastEvents::Engine& sim)
{
    uint64_t n = 0;
    for (const FabricNetDevice* d : AllDevices())
    {
        n += d->m_txDoneReserved && d->m_txDoneSim == &sim &&
             !FastEvents::HasPassed(d->TxDoneReservation());
    }
    return n;
}

FabricNetDevice::FabricNetDevice()
    : m_address(Mac48Address::Allocate())
{
    AllDevices().insert(this);
    m_pausedUntil.fill(Time(0));
    m_pauseWake.Bind<FabricNetDevice, &FabricNetDevice::PauseExpired>(this);
    WireArena::AddUser(); // the arena lives while a device may put frames on a wire
    m_txDoneEvent = TxDoneEvent::Make<&FabricNetDevice::TransmitComplete>(this);
    m_wire = Create<FabricWire>(this);
    m_macTxTrace.Watch(&m_watched, W_MAC_TX, &m_rxWatched);
    m_macRxTrace.Watch(&m_watched, W_MAC_RX, &m_rxWatched);
    m_phyTxBeginTrace.Watch(&m_watched, W_PHY_TX_BEGIN, &m_rxWatched);
    m_phyRxEndTrace.Watch(&m_watched, W_PHY_RX_END, &m_rxWatched);
    m_snifferTrace.Watch(&m_watched, W_SNIFFER, &m_rxWatched);
    m_promiscSnifferTrace.Watch(&m_watched, W_PROMISC_SNIFFER, &m_rxWatched);
    m_queueTrace.Watch(&m_watched, W_QUEUE, &m_rxWatched);
}

FabricNetDevice::~FabricNetDevice()
{
    AllDevices().erase(this);
    static_cast<TxDoneEvent*>(PeekPointer(m_txDoneEvent))->Detach();
    m_wire->Detach();
    if (m_arenaUser)
    {
        WireArena::RemoveUser(); // never disposed
    }
}

void
FabricNetDevice::DoDispose()
{
    m_node = nullptr;
    m_channel = nullptr;
    m_peerWire = nullptr;
    m_egress.Clear();
    m_queuedMask = 0;
    m_ctrlQueue.clear();
    m_pauseWake.Cancel();
    m_wire->Clear();
    if (m_arenaUser)
    {
        m_arenaUser = false;
        WireArena::RemoveUser(); // after Clear: none of this device's records is live
    }
    m_txDoneReserved = false;
    m_txDoneSim = nullptr;
    m_rxHandler = nullptr;
    m_dqHandler = nullptr;
    m_fabricRx = MakeNullCallback<bool, Ptr<FabricNetDevice>, Ptr<Packet>>();
    m_dequeueCb = MakeNullCallback<void, Ptr<const Packet>, uint8_t, uint32_t>();
    m_pull = MakeNullCallback<Ptr<Packet>, uint8_t>();
    m_pullSource = nullptr;
    m_rxCallback =
        MakeNullCallback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>();
    m_promiscCallback = MakeNullCallback<bool,
                                         Ptr<NetDevice>,
                                         Ptr<const Packet>,
                                         uint16_t,
                                         const Address&,
                                         const Address&,
                                         PacketType>();
    SetWatched(W_FABRIC_RX_CB | W_DEQUEUE_CB | W_PULL_CB | W_RX_CB | W_PROMISC_CB, false);
    NetDevice::DoDispose();
}

void
FabricNetDevice::Attach(Ptr<FabricChannel> ch)
{
    m_channel = ch;
    ch->Attach(this);
}

uint64_t
FabricNetDevice::WireBits(uint32_t bytes) const
{
    return 8 * uint64_t(std::max<uint32_t>(bytes, PfcHeader::kFrameBytes) + m_frameOverhead);
}

Time
FabricNetDevice::TxTime(uint32_t bytes) const
{
    return m_txClock.Peek(WireBits(bytes), m_bitRate);
}

void
FabricNetDevice::Enqueue(const Ptr<Packet>& p, uint8_t cls, uint32_t meta)
{
    FabricFrame f(p);
    DoEnqueue(f, cls, meta, nullptr);
}

void
FabricNetDevice::Enqueue(const Ptr<Packet>& p, uint8_t cls, uint32_t meta, const FlowKey& key)
{
    FabricFrame f(p);
    DoEnqueue(f, cls, meta, &key);
}

void
FabricNetDevice::Enqueue(FabricFrame& f, uint8_t cls, uint32_t meta, const FlowKey* key)
{
    DoEnqueue(f, cls, meta, key);
}

inline void
FabricNetDevice::SendDequeued(FabricFrame& f, uint8_t cls, uint32_t meta, FlowKey* key)
{
    if (m_dqHandler)
    {
        m_dqHandler->PortDequeue(m_txPort, f, cls, meta, key);
    }
    else if (m_watched & W_DEQUEUE_CB)
    {
        m_dequeueCb(f.GetPacket(), cls, meta);
        key = nullptr; // the callback may have changed the packet: the next hop parses
    }
    StartFrame(f, kEtherTypeIpv4, key);
}

void
FabricNetDevice::DoEnqueue(FabricFrame& f, uint8_t cls, uint32_t meta, const FlowKey* key)
{
    if (m_queuedMask == 0 && m_scheduler == STRICT_PRIORITY && m_peerWire &&
        !(m_watched & (W_MAC_TX | W_QUEUE)))
    {
        // Nothing queued: if the transmitter is idle and the class not paused, the frame
        // would be queued and taken straight back by TransmitStart() (the only frame, so the
        // one strict priority selects): send it without the round trip through the class
        // queue's ring, whose slot is cold memory (doc/performance.rst, step 29). The same
        // calls in the same order, without the queue's traces (none is watched here).
        NeedTxDone();
        if (!m_txBusy && !((GetPausedMask() >> cls) & 1u))
        {
            FlowKey k; // the dequeue handler may mark it, as it would the queue's copy
            SendDequeued(f, cls, meta, key ? &(k = *key) : nullptr);
            return;
        }
    }
    FabricEgressScheduler::KeyedFrame& e = m_egress.Push(cls, f, meta, key);
    m_queuedMask |= uint16_t(1u << cls);
    if (m_watched & (W_MAC_TX | W_QUEUE))
    {
        if (m_watched & W_MAC_TX)
        {
            m_macTxTrace(e.frame.GetPacket());
        }
        m_queueTrace(cls, m_egress.GetBytes(cls));
    }
    FrameQueued();
}

void
FabricNetDevice::SendPfc(uint8_t cls, uint16_t quanta)
{
    PfcHeader h;
    h.SetPause(cls, quanta);
    Ptr<Packet> p = Create<Packet>(PfcHeader::kFrameBytes - h.GetSerializedSize());
    p->AddHeader(h);
    m_ctrlQueue.push_back(p);
    m_queuedMask |= kCtrlQueued;
    m_pfcTxTrace(cls, quanta);
    NS_LOG_DEBUG("PFC tx class " << unsigned(cls) << " quanta " << quanta);
    FrameQueued();
}

void
FabricNetDevice::FrameQueued()
{
    NeedTxDone();
    if (!m_txBusy)
    {
        TransmitStart();
    }
}

void
FabricNetDevice::TriggerTransmit()
{
    PullSourceChanged(); // a pull source's news: its skipped transmit-complete event must run
    SettleTxDone();
    if (!m_txBusy)
    {
        TransmitStart();
    }
}

void
FabricNetDevice::PullSourceChanged()
{
    if (m_pullSource)
    {
        NeedTxDone();
    }
}

void
FabricNetDevice::ScheduleEvent(FastEvents::Engine* sim,
                               uint32_t context,
                               const Time& delay,
                               MlnetEvent* event)
{
    // In this node's context (the context orders nothing). Inside mlnet's Run() the call goes
    // to the engine directly: same uid, same order, without ns-3's static wrapper, and the loop
    // runs it through its function pointer (an MlnetEvent), not ns-3's Invoke().
    FastEvents::Schedule(sim, context, delay, event);
}

void
FabricNetDevice::SettleReservedTxDone() const
{
    if (!FastEvents::IsCurrent(TxDoneReservation()))
    {
        // Another simulator since (Simulator::Destroy()): the event went with the old one, as
        // ns-3 drops pending events; the transmitter stays as it was, busy.
        m_txDoneReserved = false;
        return;
    }
    if (FastEvents::HasPassed(TxDoneReservation()))
    {
        m_txDoneReserved = false; // it would have run, and found nothing to send
        m_txBusy = false;
    }
}

void
FabricNetDevice::ScheduleReservedTxDone()
{
    SettleReservedTxDone();
    if (m_txDoneReserved)
    {
        m_txDoneReserved = false;
        m_txDoneEvent->Ref(); // the scheduler releases one reference after the event ran
        FastEvents::ScheduleReserved(TxDoneReservation(), m_txContext, PeekPointer(m_txDoneEvent));
    }
}

bool
FabricNetDevice::HasQueued() const
{
    return m_queuedMask != 0;
}

bool
FabricNetDevice::IsEmpty() const
{
    SettleTxDone();
    return !m_txBusy && !HasQueued();
}

uint8_t
FabricNetDevice::PausedMaskNow() const
{
    uint8_t mask = 0;
    Time now = Simulator::Now();
    if (m_pauseHorizon <= now)
    {
        m_pauseHorizon = Time(0); // every pause has expired: the next call need not look
        return 0;
    }
    for (uint8_t c = 0; c < kNumClasses; ++c)
    {
        if (m_pausedUntil[c] > now)
        {
            mask |= uint8_t(1u << c);
        }
    }
    return mask;
}

int
FabricNetDevice::SelectClass(uint8_t pausedMask)
{
    const uint32_t ready = m_queuedMask & ~uint32_t(pausedMask) & ~uint32_t(kCtrlQueued);
    return m_egress.Select(ready, pausedMask, m_scheduler == DWRR);
}

void
FabricNetDevice::TransmitStart()
{
    if (m_txBusy || !m_peerWire)
    {
        return; // busy, or no far end: the frames wait
    }
    if (m_queuedMask & kCtrlQueued)
    {
        FabricFrame f(m_ctrlQueue.front());
        m_ctrlQueue.pop_front();
        if (m_ctrlQueue.empty())
        {
            m_queuedMask &= uint16_t(~kCtrlQueued);
        }
        StartFrame(f, PfcHeader::kEtherType);
        return;
    }
    uint8_t paused = GetPausedMask();
    // one frame from the pull source, if it has one for the unpaused classes
    auto pull = [this, paused]() {
        const FlowKey* key = nullptr;
        FabricFrame f;
        if (!m_pullSource->PortPull(paused, f, key))
        {
            return false;
        }
        StartFrame(f, kEtherTypeIpv4, key);
        return true;
    };
    if (m_pullSource && m_pullSource->PullFirst() && pull())
    {
        return;
    }
    int c = SelectClass(paused);
    if (c >= 0)
    {
        FabricEgressScheduler::KeyedFrame e = m_egress.Pop(uint8_t(c));
        if (m_egress.IsEmpty(uint8_t(c)))
        {
            m_queuedMask &= uint16_t(~(1u << c));
        }
        if (m_watched & W_QUEUE)
        {
            m_queueTrace(uint8_t(c), m_egress.GetBytes(uint8_t(c)));
        }
        SendDequeued(e.frame, uint8_t(c), e.word, e.Key());
        return;
    }
    if (m_pullSource)
    {
        pull();
    }
    else if (m_watched & W_PULL_CB)
    {
        Ptr<Packet> p = m_pull(paused);
        if (p)
        {
            FabricFrame f(p);
            StartFrame(f, kEtherTypeIpv4);
        }
    }
}

void
FabricNetDevice::StartFrame(FabricFrame& f, uint16_t etherType, const FlowKey* key)
{
    m_txBusy = true;
    // Exact serialisation: the sub-step remainder of each frame is carried into the next, so
    // back-to-back frames leave at the nominal line rate whatever the time resolution.
    Time txTime = m_txClock.Next(WireBits(f.GetSize()), m_bitRate);
    m_txFrames++;
    if (etherType != kEtherTypeIpv4)
    {
        m_txOtherFrames++;
    }
    if (m_watched & (W_PHY_TX_BEGIN | W_SNIFFER | W_PROMISC_SNIFFER))
    {
        if (m_watched & W_PHY_TX_BEGIN)
        {
            m_phyTxBeginTrace(f.GetPacket());
        }
        if (m_watched & (W_SNIFFER | W_PROMISC_SNIFFER))
        {
            SnifferTrace(f.GetPacket(), etherType, true);
        }
    }
    // In this node's context, like the arrival events (the context orders nothing). A port
    // that pulls (a host's) needs the event to pull, unless its pull source says a pull would
    // do nothing (MayPull: a NIC without queue pairs); a port with nothing queued and nothing
    // to pull only reserves it (m_txDoneReserved), on mlnet's simulator.
    FastEvents::Engine* sim = FastEvents::Running();
    const bool pullIdle = m_pullSource ? !m_pullSource->MayPull() : !(m_watched & W_PULL_CB);
    if (sim && pullIdle && !HasQueued())
    {
        const FastEvents::Reservation r = FastEvents::Reserve(sim, txTime);
        m_txDoneSim = r.engine;
        m_txDoneTs = r.ts;
        m_txDoneUid = r.uid;
        m_txDoneReserved = true;
    }
    else
    {
        m_txDoneEvent->Ref(); // the scheduler releases one reference after the event ran
        ScheduleEvent(sim, m_txContext, txTime, PeekPointer(m_txDoneEvent));
    }
    m_peerWire->Push(f, etherType, key, txTime + m_peerWire->m_delay);
}

void
FabricNetDevice::SetDwrrQuantum(uint32_t bytes)
{
    m_egress.SetQuantum(bytes);
}

uint32_t
FabricNetDevice::GetDwrrQuantum() const
{
    return m_egress.GetQuantum();
}

void
FabricNetDevice::SetWire(FabricNetDevice* peer, const Time& delay)
{
    m_peerWire = peer ? PeekPointer(peer->m_wire) : nullptr;
    m_wire->m_delay = delay;
}

void
FabricNetDevice::TransmitComplete()
{
    m_txBusy = false;
    TransmitStart();
}

void
FabricNetDevice::Receive(Ptr<Packet> p, uint16_t etherType)
{
    FabricFrame f(p);
    ReceiveFrame(f, etherType, nullptr);
}

void
FabricNetDevice::ReceiveFrame(FabricFrame& f, uint16_t etherType, const FlowKey* key)
{
    m_rxFrames++;
    if (m_rxWatched & (W_PHY_RX_END | W_SNIFFER | W_PROMISC_SNIFFER))
    {
        if (m_rxWatched & W_PHY_RX_END)
        {
            m_phyRxEndTrace(f.GetPacket());
        }
        if (m_rxWatched & (W_SNIFFER | W_PROMISC_SNIFFER))
        {
            SnifferTrace(f.GetPacket(), etherType, false);
        }
    }
    if (etherType == PfcHeader::kEtherType)
    {
        HandlePfc(f.GetPacket());
        return;
    }
    if (m_rxWatched & W_MAC_RX)
    {
        m_macRxTrace(f.GetPacket());
    }
    if (m_rxHandler)
    {
        // A handler that declines leaves the frame as it was (it may have materialised it).
        if (m_rxHandler->PortReceive(m_handlerPort, this, f, key))
        {
            return;
        }
    }
    else if ((m_rxWatched & W_FABRIC_RX_CB) && m_fabricRx(this, f.GetPacket()))
    {
        return;
    }
    if (!(m_rxWatched & (W_RX_CB | W_PROMISC_CB)))
    {
        return;
    }
    Ptr<Packet> p = f.GetPacket();
    Ptr<FabricNetDevice> peer = GetPeer();
    Address from = peer ? peer->GetAddress() : Address(m_address);
    if (!m_promiscCallback.IsNull())
    {
        m_promiscCallback(this, p, etherType, from, m_address, NetDevice::PACKET_HOST);
    }
    if (!m_rxCallback.IsNull())
    {
        m_rxCallback(this, p, etherType, from);
    }
}

void
FabricNetDevice::HandlePfc(Ptr<Packet> p)
{
    PfcHeader h;
    p->PeekHeader(h);
    Time now = Simulator::Now();
    for (uint8_t c = 0; c < kNumClasses; ++c)
    {
        if (!h.IsEnabled(c))
        {
            continue;
        }
        uint16_t q = h.GetQuanta(c);
        m_pfcRxTrace(c, q);
        NS_LOG_DEBUG("PFC rx class " << unsigned(c) << " quanta " << q);
        if (q == 0)
        {
            m_pausedUntil[c] = Time(0);
        }
        else
        {
            Time d = m_rate.CalculateBytesTxTime(uint64_t(q) * PfcHeader::kBitsPerQuantum / 8);
            m_pausedUntil[c] = now + d;
            m_pauseHorizon = std::max(m_pauseHorizon, m_pausedUntil[c]);
        }
    }
    ArmPauseWake();
    TriggerTransmit();
}

void
FabricNetDevice::ArmPauseWake()
{
    Time now = Simulator::Now();
    Time next = Time::Max();
    for (const Time& until : m_pausedUntil)
    {
        if (until > now && until < next)
        {
            next = until;
        }
    }
    if (next == Time::Max())
    {
        m_pauseWake.Cancel();
    }
    else if (!m_pauseWake.IsPending() || m_pauseWake.GetTsStep() != next.GetTimeStep())
    {
        m_pauseWake.Schedule(next - now);
    }
}

void
FabricNetDevice::PauseExpired()
{
    ArmPauseWake();
    TriggerTransmit();
}

void
FabricNetDevice::SnifferTrace(Ptr<const Packet> p, uint16_t etherType, bool tx)
{
    Ptr<FabricNetDevice> peer = GetPeer();
    Mac48Address other = peer ? Mac48Address::ConvertFrom(peer->GetAddress()) : m_address;
    EthernetHeader eth(false);
    eth.SetLengthType(etherType);
    eth.SetSource(tx ? m_address : other);
    eth.SetDestination(etherType == PfcHeader::kEtherType ? kPfcDestination
                                                          : (tx ? other : m_address));
    Ptr<Packet> frame = p->Copy();
    frame->AddHeader(eth);
    m_snifferTrace(frame);
    m_promiscSnifferTrace(frame);
}

uint8_t
FabricNetDevice::ClassOfIpv4(const Packet& p) const
{
    uint8_t b[2] = {0, 0};
    p.CopyData(b, 2);
    return uint8_t((b[1] >> 2) & 0x7); // class = DSCP mod 8
}

void
FabricNetDevice::SetPortHandler(FabricPortHandler* h, uint32_t port)
{
    m_rxHandler = h;
    m_dqHandler = h;
    m_handlerPort = port;
    m_txPort = port;
}

void
FabricNetDevice::SetReceiveHandler(FabricPortHandler* h, uint32_t port)
{
    m_rxHandler = h;
    m_handlerPort = port;
    m_txPort = port;
}

void
FabricNetDevice::SetPullSource(FabricPullSource* src)
{
    NeedTxDone(); // a transmit-complete event skipped under the old source runs
    m_pullSource = src;
}

void
FabricNetDevice::SetFabricReceiveCallback(FabricReceiveCallback cb)
{
    m_rxHandler = nullptr;
    m_fabricRx = cb;
    SetWatched(W_FABRIC_RX_CB, !cb.IsNull());
}

void
FabricNetDevice::SetDequeueCallback(DequeueCallback cb)
{
    m_dqHandler = nullptr;
    m_dequeueCb = cb;
    SetWatched(W_DEQUEUE_CB, !cb.IsNull());
}

void
FabricNetDevice::SetPullCallback(PullCallback cb)
{
    m_pullSource = nullptr;
    m_pull = cb;
    SetWatched(W_PULL_CB, !cb.IsNull());
}

DataRate
FabricNetDevice::GetDataRate() const
{
    return m_rate;
}

void
FabricNetDevice::SetDataRate(DataRate rate)
{
    m_rate = rate;
    m_bitRate = rate.GetBitRate();
}

Time
FabricNetDevice::GetDelay() const
{
    return m_channel ? m_channel->GetDelay() : Time(0);
}

Ptr<FabricNetDevice>
FabricNetDevice::GetPeer() const
{
    return m_channel ? m_channel->GetPeer(this) : nullptr;
}

void
FabricNetDevice::SetIpv4Address(Ipv4Address a)
{
    m_ipv4 = a.Get();
}

Ipv4Address
FabricNetDevice::GetIpv4Address() const
{
    return Ipv4Address(m_ipv4);
}

} // namespace ns3
