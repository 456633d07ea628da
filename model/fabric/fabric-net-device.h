/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FABRIC_NET_DEVICE_H
#define MLNET_FABRIC_NET_DEVICE_H

#include "fabric-egress-scheduler.h"
#include "fabric-frame.h"
#include "flow-key.h"
#include "tx-time-accumulator.h"
#include "wire-arena.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/fast-events.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/mlnet-event.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/reusable-timer.h"
#include "ns3/ring-queue.h"
#include "ns3/traced-callback.h"
#include "ns3/watched-traced-callback.h"

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

class FabricChannel;
class FabricWire;
class Node;

class FabricNetDevice;

/**
 * \ingroup mlnet
 * \brief The owner of a fabric port called directly (one virtual call, no Callback layers or
 * Ptr copies) for every received packet and every dequeued packet: FabricSwitch,
 * AggregationDevice, and (receive only) RdmaNic. Equivalent to
 * the fabric receive and dequeue callbacks; setting either callback replaces the handler's
 * part.
 *
 * A packet's FlowKey, once parsed, travels beside it (like its EtherType) from a handler's
 * Enqueue() over the link to the next handler, so a switch parses each packet's headers only
 * once, where it enters the switched fabric. Only handlers see it: any other way into or out
 * of a device (callbacks, NetDevice::Send, a pull source) drops it, and the next switch
 * parses the bytes again.
 */
class FabricPortHandler
{
  public:
    virtual ~FabricPortHandler() = default;
    /**
     * A data packet arrived on a port.
     * \param port the handler's port index \param dev the device
     * \param f the frame (a packet or a compact descriptor); the handler may move it on (the
     *        device does not use it after the call), e.g. into another port's Enqueue()
     * \param key its parsed headers, as the previous handler enqueued them (null: unknown,
     *        parse the frame)
     * \return true if consumed
     */
    virtual bool PortReceive(uint32_t port,
                             FabricNetDevice* dev,
                             FabricFrame& f,
                             const FlowKey* key) = 0;

    /**
     * A packet queued with Enqueue() leaves the queue, just before its transmission.
     * \param port the handler's port index \param f the frame (may still be ECN-marked)
     * \param cls its class \param meta the value given to Enqueue()
     * \param key the key given to Enqueue() (null if none), sent on with the packet: a handler
     *        that changes the packet's ECN bits updates key->ecn
     *
     * Not called for a handler set with SetReceiveHandler() (default: nothing to do).
     */
    virtual void PortDequeue(uint32_t /* port */,
                             FabricFrame& /* f */,
                             uint8_t /* cls */,
                             uint32_t /* meta */,
                             FlowKey* /* key */)
    {
    }
};

/**
 * \ingroup mlnet
 * \brief What a host port pulls its next packet from when its class queues are empty (an RDMA
 * NIC's queue-pair scheduler): a direct virtual call instead of the pull callback.
 */
class FabricPullSource
{
  public:
    virtual ~FabricPullSource() = default;
    /**
     * The port may start a frame.
     * \param pausedMask bit c set: class c is paused by PFC
     * \param f set to the next packet to send (an IPv4 datagram: a packet or a compact frame)
     * \param key set to the packet's headers as a FlowKey if the source knows them (valid until
     *        its next call; the next hop then need not parse them), else to nullptr
     * \return true if f was set, false if there is nothing to send now
     */
    virtual bool PortPull(uint8_t pausedMask, FabricFrame& f, const FlowKey*& key) = 0;

    /**
     * Whether PortPull() could do anything now. false promises that it would return false and
     * change nothing (schedule nothing), and stays so until the source calls the port's
     * TriggerTransmit() or PullSourceChanged(): the port may then skip its transmit-complete
     * event as an idle switch port does (only the order-preserving reservation of its uid).
     * \return false if a pull would do nothing (default: true, always pull)
     */
    virtual bool MayPull() const
    {
        return true;
    }

    /**
     * Whether the port should ask this source before its class queues for its next frame (a
     * source that shares the port with them, e.g. round robin, rather than taking what they
     * leave). Asked at every transmit opportunity; if PortPull() then returns false, the class
     * queues are served as usual.
     * \return true to be pulled first now (default: false, pulled only when no class queue
     *         has an unpaused frame)
     */
    virtual bool PullFirst() const
    {
        return false;
    }
};

/**
 * \ingroup mlnet
 * \brief A full-duplex datacenter Ethernet port (host NIC port or switch port) with eight
 * priority classes and 802.1Qbb PFC.
 *
 * Frames carry IPv4 datagrams (EtherType 0x0800) or PFC pause frames (0x8808). The Ethernet
 * header itself is not materialised per packet (the EtherType travels beside the packet on the
 * channel); its bytes are charged on the wire through the FrameOverhead attribute and it is
 * synthesised for pcap, so traces decode in Wireshark (RoCEv2 on UDP 4791, PFC frames).
 *
 * Transmission: PFC frames first, then the eight class queues by strict priority (class 7
 * highest, as in 802.1p) or deficit weighted round robin, skipping paused classes, then the
 * optional pull source (an RDMA NIC's queue-pair scheduler; a source may ask to go first,
 * FabricPullSource::PullFirst). A received PFC frame pauses the
 * named classes of this port for the given number of 512-bit quanta, or resumes them.
 *
 * Received IPv4 packets go to the fabric receive callback (a switch, or a host NIC transport);
 * if it is not set or declines the packet, to the node's protocol handlers (e.g. an ns-3
 * internet stack), so ordinary ns-3 applications can share the fabric.
 */
class FabricNetDevice : public NetDevice
{
  public:
    static constexpr uint8_t kNumClasses = 8;          //!< priority classes
    static constexpr uint16_t kEtherTypeIpv4 = 0x0800; //!< IPv4 EtherType

    /// Egress scheduling between classes.
    enum Scheduler
    {
        STRICT_PRIORITY, //!< highest non-empty, non-paused class first
        DWRR,            //!< deficit weighted round robin over non-paused classes
    };

    /**
     * Fabric receive callback: (device, packet) -> consumed. A switch consumes everything; a
     * host transport consumes its own packets and declines the rest.
     */
    typedef Callback<bool, Ptr<FabricNetDevice>, Ptr<Packet>> FabricReceiveCallback;
    /// Called when a packet queued with Enqueue() leaves the queue: (packet, class, meta),
    /// just before its transmission starts (the packet is the one put on the wire: the queue's
    /// owner may still set its ECN bits, as FabricSwitch does for dequeue marking).
    typedef Callback<void, Ptr<const Packet>, uint8_t, uint32_t> DequeueCallback;
    /// Pull source: given the mask of paused classes, return the next packet to send, or null.
    typedef Callback<Ptr<Packet>, uint8_t> PullCallback;

    static TypeId GetTypeId();
    FabricNetDevice();
    ~FabricNetDevice() override;

    /**
     * Attach to a channel.
     * \param ch the channel
     */
    void Attach(Ptr<FabricChannel> ch);

    /**
     * Queue an IPv4 packet for transmission in a class (switch egress path, or a host sender).
     * No admission control here: the caller (switch MMU) has decided.
     * \param p the IPv4 packet
     * \param cls priority class 0..7
     * \param meta opaque value returned to the dequeue callback (the switch's ingress port)
     */
    void Enqueue(const Ptr<Packet>& p, uint8_t cls, uint32_t meta = 0);
    /**
     * Enqueue() a packet together with its parsed headers (FabricPortHandler): the key goes
     * to the dequeue handler and then over the link to the peer's handler.
     * \param p the IPv4 packet \param cls priority class 0..7 \param meta opaque value
     * \param key the packet's FlowKey (must describe the packet's bytes)
     */
    void Enqueue(const Ptr<Packet>& p, uint8_t cls, uint32_t meta, const FlowKey& key);
    /**
     * Enqueue() a frame (a packet or a compact descriptor) with its parsed headers if known.
     * \param f the frame, moved into the queue (left empty)
     * \param cls priority class 0..7 \param meta opaque value
     * \param key the frame's FlowKey (must describe its bytes), or null (the next switch
     *        parses the frame)
     */
    void Enqueue(FabricFrame& f, uint8_t cls, uint32_t meta, const FlowKey* key);

    /**
     * Start loading the fields Enqueue() reads first (a prefetch; changes nothing): a switch
     * that has chosen the egress port calls it before its buffer accounting, so that the
     * device's line arrives meanwhile.
     */
    void PrefetchForEnqueue() const
    {
        __builtin_prefetch(&m_queuedMask);
    }

    /**
     * Send a PFC frame to the peer pausing (quanta > 0) or resuming (quanta = 0) a class.
     * \param cls priority class
     * \param quanta pause time in 512-bit quanta
     */
    void SendPfc(uint8_t cls, uint16_t quanta);

    /// Wake the transmitter (a pull source has a packet ready).
    void TriggerTransmit();

    /**
     * The pull source's state changed in a way that MayPull() may now answer true: a
     * transmit-complete event skipped on its earlier answer is scheduled after all, at its
     * time and place (the transmitter is not started otherwise).
     */
    void PullSourceChanged();

    /**
     * A frame received completely, now (the far end's frames arrive through this device's
     * FabricWire, which SetWire gives the far end; tests inject frames here).
     * \param p the frame payload
     * \param etherType its EtherType
     */
    void Receive(Ptr<Packet> p, uint16_t etherType);

    /**
     * The channel tells each end who is at the other end and the propagation delay (when a
     * device attaches or detaches, when the delay changes): a transmission then goes to the
     * peer directly, without reading the channel.
     * \param peer the device at the other end (null: none) \param delay the channel's delay
     */
    void SetWire(FabricNetDevice* peer, const Time& delay);

    /**
     * Deliver received data packets and dequeue notifications to a port handler (instead of
     * the fabric receive and dequeue callbacks, which setting either callback restores).
     * \param h the handler (null: none) \param port the index passed back to it
     */
    void SetPortHandler(FabricPortHandler* h, uint32_t port);
    /**
     * Deliver received data packets to a port handler (its PortDequeue is not called; the
     * dequeue callback, if any, stays); SetFabricReceiveCallback() restores the callback.
     * \param h the handler (null: none) \param port the index passed back to it
     */
    void SetReceiveHandler(FabricPortHandler* h, uint32_t port);
    /**
     * Pull from a source when the class queues are empty (instead of the pull callback, which
     * setting it restores). \param src the source (null: none)
     */
    void SetPullSource(FabricPullSource* src);
    void SetFabricReceiveCallback(FabricReceiveCallback cb); //!< \param cb the callback
    void SetDequeueCallback(DequeueCallback cb);             //!< \param cb the callback
    void SetPullCallback(PullCallback cb);                   //!< \param cb the callback

    DataRate GetDataRate() const; //!< \return the line rate
    /// Set the line rate (the DataRate attribute). \param rate the rate
    void SetDataRate(DataRate rate);
    Time GetDelay() const; //!< \return the propagation delay of the attached channel

    /// \return bytes queued in class cls (excluding the frame being transmitted)
    uint64_t GetQueueBytes(uint8_t cls) const
    {
        return m_egress.GetBytes(cls);
    }

    /// \return the most bytes ever queued in class cls (GetQueueBytes' largest value)
    uint64_t GetMaxQueueBytes(uint8_t cls) const
    {
        return m_egress.GetMaxBytes(cls);
    }

    /// \return bitmask of classes paused by the peer right now
    uint8_t GetPausedMask() const
    {
        // No pause in force (the common case): no clock read, no scan, no call.
        return m_pauseHorizon.IsZero() ? 0 : PausedMaskNow();
    }

    /// \return true if the transmitter is idle
    bool IsIdle() const
    {
        SettleTxDone();
        return !m_txBusy;
    }

    /// \return true if nothing is queued (any class, PFC frames) and the transmitter is idle
    bool IsEmpty() const;

    /// \return IPv4 frames (data packets) that started transmission on this port
    uint64_t GetTxPackets() const
    {
        return m_txFrames - m_txOtherFrames;
    }

    /// \return frames of any kind (IPv4 and PFC) that started transmission on this port
    uint64_t GetTxFrames() const
    {
        return m_txFrames;
    }

    /// \return frames of any kind received completely on this port
    uint64_t GetRxFrames() const
    {
        return m_rxFrames;
    }

    /**
     * Wire time of one frame carrying `bytes` of IPv4 datagram (frame overhead included),
     * rounded down to the time resolution. The transmitter itself carries the sub-step
     * remainder from frame to frame (TxTimeAccumulator), so back-to-back frames take exactly
     * the nominal line rate; this value is a lower bound of each frame's time on the wire.
     * \param bytes the datagram size
     * \return the wire time
     */
    Time TxTime(uint32_t bytes) const;
    /**
     * \param bytes the datagram size
     * \return bits one frame carrying `bytes` of IPv4 datagram occupies on the wire (minimum
     *         frame size and FrameOverhead included)
     */
    uint64_t WireBits(uint32_t bytes) const;
    /// \return the peer device on the channel (null if not attached)
    Ptr<FabricNetDevice> GetPeer() const;

    /// Host address used by transports on this port (set by the topology helper).
    void SetIpv4Address(Ipv4Address a);
    Ipv4Address GetIpv4Address() const; //!< \return the host address

    /// \return the host address as Ipv4Address::Get() (inline: a transport's per-packet read)
    uint32_t GetIpv4AddressValue() const
    {
        return m_ipv4;
    }

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

    /// Trace signature of PFC events: (class, quanta).
    typedef void (*PfcTracedCallback)(uint8_t cls, uint16_t quanta);
    /// Trace signature of queue-length changes: (class, bytes queued).
    typedef void (*QueueTracedCallback)(uint8_t cls, uint64_t bytes);

  protected:
    void DoDispose() override;

  private:
    friend class FabricWire; // delivers arrivals (ReceiveFrame), schedules (ScheduleEvent)

    /// m_queuedMask bit of the PFC (control) queue; bits 0-7 are the class queues.
    static constexpr uint16_t kCtrlQueued = 1u << kNumClasses;

    /// m_watched bits: trace sources with sinks, and callbacks that are set.
    enum WatchBit : uint16_t
    {
        W_MAC_TX = 1u << 0,
        W_MAC_RX = 1u << 1,
        W_PHY_TX_BEGIN = 1u << 2,
        W_PHY_RX_END = 1u << 3,
        W_SNIFFER = 1u << 4,
        W_PROMISC_SNIFFER = 1u << 5,
        W_QUEUE = 1u << 6,
        W_FABRIC_RX_CB = 1u << 7,
        W_DEQUEUE_CB = 1u << 8,
        W_PULL_CB = 1u << 9,
        W_RX_CB = 1u << 10,
        W_PROMISC_CB = 1u << 11,
    };

    /// Set or clear a watch bit. \param bit the bit \param on its value
    void SetWatched(uint16_t bit, bool on)
    {
        m_watched = on ? uint16_t(m_watched | bit) : uint16_t(m_watched & ~bit);
        m_rxWatched = m_watched;
    }

    /// The transmit-complete event (one per device, reused for every frame).
    using TxDoneEvent = MlnetMemberEvent<FabricNetDevice>;
    /// The DwrrQuantum attribute. \param bytes the quantum
    void SetDwrrQuantum(uint32_t bytes);
    uint32_t GetDwrrQuantum() const; //!< \return the DwrrQuantum attribute

    /**
     * Schedule an MlnetEvent after delay (a device's transmit-complete event, a wire's
     * arrival), in the context of the node that runs it.
     * \param sim FastEvents::Running() (nullptr: through ns-3's Simulator)
     * \param context the node's id \param delay the delay
     * \param event the event, already referenced for the scheduler
     */
    static void ScheduleEvent(FastEvents::Engine* sim,
                              uint32_t context,
                              const Time& delay,
                              MlnetEvent* event);

    /// \return the reservation of the transmit-complete event (see m_txDoneReserved)
    FastEvents::Reservation TxDoneReservation() const
    {
        return {m_txDoneSim, m_txDoneTs, m_txDoneUid};
    }

    /// Resolve a reserved transmit-complete event against the clock (see m_txDoneReserved).
    void SettleTxDone() const
    {
        if (m_txDoneReserved)
        {
            SettleReservedTxDone();
        }
    }

    /// SettleTxDone() of a reserved event (out of line: the common case costs no call).
    void SettleReservedTxDone() const;
    /// \return GetPausedMask() while a pause may be in force (m_pauseHorizon is set)
    uint8_t PausedMaskNow() const;
    /// Arm m_pauseWake for the earliest pause still in force, or cancel it if none is.
    void ArmPauseWake();
    /// m_pauseWake is due: transmit what the expired pause held, and wait for the next one.
    void PauseExpired();

    /// Something to send arrived: settle the reserved event, and schedule it if still ahead.
    void NeedTxDone()
    {
        if (m_txDoneReserved)
        {
            ScheduleReservedTxDone();
        }
    }

    /// NeedTxDone() of a reserved event: settle it, and schedule it if still ahead.
    void ScheduleReservedTxDone();
    /// A data or PFC frame was queued: make sure it will be sent (now if the port is idle).
    void FrameQueued();
    /// \return true if a class queue or the PFC queue holds a frame
    bool HasQueued() const;

    void TransmitStart();
    void TransmitComplete();
    void DoEnqueue(FabricFrame& f, uint8_t cls, uint32_t meta, const FlowKey* key);
    /**
     * Send a frame just taken from a class queue (or that would have been): tell the dequeue
     * handler or callback, then start it on the wire.
     * \param f the frame \param cls its class \param meta its meta word
     * \param key its key (the handler may change it), or null
     */
    void SendDequeued(FabricFrame& f, uint8_t cls, uint32_t meta, FlowKey* key);
    void StartFrame(FabricFrame& f, uint16_t etherType, const FlowKey* key = nullptr);
    void ReceiveFrame(FabricFrame& f, uint16_t etherType, const FlowKey* key);
    int SelectClass(uint8_t pausedMask);
    void SnifferTrace(Ptr<const Packet> p, uint16_t etherType, bool tx);
    void HandlePfc(Ptr<Packet> p);
    uint8_t ClassOfIpv4(const Packet& p) const;

    // Per-frame state first and together, by who touches it: a packet-hop touches these few
    // cache lines of a device rather than a line per member (doc/performance.rst, steps 18
    // and 36). The transmit side starts in the base classes' line.
    uint16_t m_queuedMask{0}; //!< bit c set: class c (m_egress) holds frames; kCtrlQueued: PFC
    uint16_t m_watched{0};    //!< WatchBit: trace sources with sinks, callbacks that are set
    mutable bool m_txBusy{false};
    /**
     * The transmit-complete event of the frame on the wire may be reserved instead of
     * scheduled (StartFrame, on mlnet's engine, a port with nothing to pull: no pull
     * callback, or a pull source whose MayPull() is false): its uid is
     * taken, so every other event keeps its place in the order, and it is scheduled with that
     * (time, uid) only when something to send arrives before the frame ends. Otherwise it
     * would have run and found nothing to send: once the clock passes (time, uid) the
     * transmitter is idle (SettleTxDone). A switch port's event has nothing to do in 36-46 %
     * of hops; the results are the same, only the executed-event count is lower.
     */
    mutable bool m_txDoneReserved{false};
    Scheduler m_scheduler{STRICT_PRIORITY}; //!< the egress discipline (m_egress serves it)
    uint32_t m_frameOverhead{38};
    uint32_t m_txDoneUid{0}; //!< its uid
    uint32_t m_txContext{0}; //!< the node's id: the context of the device's events
    uint32_t m_txPort{0};    //!< m_handlerPort, for the transmit side's calls
    uint64_t m_bitRate{0};   //!< m_rate in bit/s (read per frame; DataRate::GetBitRate logs)

    // The receive side, one cache line: what an arrival touches in the device (the frames on
    // the wire and their event are one object of their own, FabricWire, which the far end's
    // transmission touches alone).
    alignas(64) Ptr<FabricWire> m_wire;      //!< frames on the wire towards this device
    FabricPortHandler* m_rxHandler{nullptr}; //!< receives data packets (SetPortHandler)
    uint64_t m_rxFrames{0};                  //!< all frames received
    uint32_t m_handlerPort{0};
    uint16_t m_rxWatched{0}; //!< a copy of m_watched, read by the receive side

    // The transmit side, continued.
    /// No class is paused at or after this time; zero once every pause has expired (a cache
    /// GetPausedMask() clears, so that the common case reads no clock).
    alignas(64) mutable Time m_pauseHorizon;
    FabricWire* m_peerWire{nullptr};          //!< the far end's m_wire (SetWire; null: none)
    FabricPortHandler* m_dqHandler{nullptr};  //!< told about dequeues (SetPortHandler)
    FabricPullSource* m_pullSource{nullptr};  //!< pulled instead of m_pull (SetPullSource)
    Ptr<MlnetEvent> m_txDoneEvent;            //!< calls TransmitComplete(); reused for every frame
    uint64_t m_txDoneTs{0};                   //!< its time, in time steps
    FastEvents::Engine* m_txDoneSim{nullptr}; //!< the simulator that reserved it
    uint64_t m_txFrames{0};                   //!< all frames transmitted
    alignas(64) TxTimeAccumulator m_txClock;  //!< exact frame times (one line)
    FabricEgressScheduler m_egress;           //!< the class queues and the discipline serving them

    // Configuration and state that a frame does not touch.
    Ptr<Node> m_node;
    Ptr<FabricChannel> m_channel;
    uint64_t m_txOtherFrames{0}; //!< frames transmitted that are not IPv4 (PFC)
    uint32_t m_ifIndex{0};
    Mac48Address m_address;
    /// the host address, as Ipv4Address::Get() (unset: Ipv4Address()'s, as before)
    uint32_t m_ipv4{Ipv4Address().Get()};
    uint16_t m_mtu{4200};
    DataRate m_rate;
    uint64_t m_hostQueueLimit{0};
    std::deque<Ptr<Packet>> m_ctrlQueue;
    std::array<Time, kNumClasses> m_pausedUntil;
    /// Wakes the port at the earliest expiry of a received pause (PauseExpired): one expiry
    /// pending at a time, replaced by each pause frame, so a refreshed or resumed pause leaves
    /// no queued wake-up behind (a run to the end ends at the last event that did something).
    ReusableTimer m_pauseWake;

    FabricReceiveCallback m_fabricRx;
    DequeueCallback m_dequeueCb;
    PullCallback m_pull;
    NetDevice::ReceiveCallback m_rxCallback;
    NetDevice::PromiscReceiveCallback m_promiscCallback;

    WatchedTracedCallback<Ptr<const Packet>> m_macTxTrace;
    WatchedTracedCallback<Ptr<const Packet>> m_macRxTrace;
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace;
    WatchedTracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;
    WatchedTracedCallback<Ptr<const Packet>> m_phyRxEndTrace;
    WatchedTracedCallback<Ptr<const Packet>> m_snifferTrace;
    WatchedTracedCallback<Ptr<const Packet>> m_promiscSnifferTrace;
    TracedCallback<uint8_t, uint16_t> m_pfcTxTrace;
    TracedCallback<uint8_t, uint16_t> m_pfcRxTrace;
    WatchedTracedCallback<uint8_t, uint64_t> m_queueTrace;
    bool m_arenaUser{true}; //!< counted in WireArena's users (until DoDispose)

  public:
    /**
     * FastEvents::ReservationCounter of the devices: their reserved transmit-complete
     * uids not yet passed on sim (see GetEventCount()).
     * \param sim the simulator \return the number
     */
    static uint64_t ReservedTxDoneAhead(const FastEvents::Engine& sim);
};

} // namespace ns3

#endif /* MLNET_FABRIC_NET_DEVICE_H */
