/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_RDMA_NIC_H
#define MLNET_RDMA_NIC_H

#include "message-transport.h"
#include "rdma-nic-source.h"
#include "rdma-queue-pair.h"
#include "rdma-receive-stats.h"
#include "roce-v2-header.h"

#include "ns3/callback.h"
#include "ns3/data-class.h"
#include "ns3/event-id.h"
#include "ns3/fabric-net-device.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/reusable-timer.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief RoCEv2 RDMA NIC of a host: queue pairs, their transmit scheduler, the responder
 * (receiving) side with ACK/NAK generation, and the DCQCN notification point (CNPs).
 *
 * Aggregated to a host Node and bound to its FabricNetDevice. The NIC is the device's pull
 * source: whenever the port is free it picks the next queue pair whose class is not paused by
 * PFC, whose window is open and whose pacing time has come (strict priority between classes,
 * class 7 highest as in the fabric; round robin within a class), and builds one packet
 * (IPv4 + UDP 4791 + BTH + payload + ICRC). Packets that are not RoCEv2 are left to the node's
 * other protocol handlers (an ns-3 internet stack, if installed).
 *
 * Responder: in-order packets are accepted and acknowledged (every AckInterval packets and at
 * the end of each message); a gap triggers one NAK (go-back-N); duplicates are re-acknowledged.
 * Notification point: at most one CNP per queue pair per CnpInterval while CE-marked packets
 * arrive. ACKs, NAKs and CNPs use the ControlClass priority.
 */
class RdmaNic : public MessageTransport, public FabricPortHandler, public FabricPullSource
{
  public:
    /// A message arrived completely at this NIC: (source address, source QP number, bytes).
    typedef Callback<void, Ipv4Address, uint32_t, uint64_t> ReceiveCallback;
    /// Trace signature of MessageRx: (source address, source QP number, bytes).
    typedef void (*MessageRxTracedCallback)(Ipv4Address src, uint32_t srcQpn, uint64_t bytes);
    /// Trace signature of CnpTx: (destination QP number).
    typedef void (*CnpTracedCallback)(uint32_t qpn);
    /**
     * Host receive path (e.g. HostInterconnect): (frame, responder QP number, payload bytes).
     * It takes every received data packet, as the frame it arrived in (a compact frame stays
     * compact: FabricFrame::GetPacket() if the path needs an ns3::Packet), and calls
     * DeliverData() once the packet is in memory.
     */
    typedef Callback<void, FabricFrame, uint32_t, uint32_t> HostReceiveHook;
    /// Host transmit path: (payload bytes of a data packet just built) -> earliest time the
    /// next data packet can have been read from memory.
    typedef Callback<Time, uint32_t> HostTransmitHook;

    static TypeId GetTypeId();
    RdmaNic();
    ~RdmaNic() override;

    /**
     * Bind the NIC to a host port.
     * \param dev the host's FabricNetDevice (its Ipv4Address must be set)
     */
    void SetDevice(Ptr<FabricNetDevice> dev);
    Ptr<FabricNetDevice> GetDevice() const; //!< \return the port

    /**
     * Set the congestion control used by queue pairs created from now on. Every queue pair gets
     * a copy (RdmaCongestionOps::Fork) of one instance the factory created: the prototype given
     * here, else one the NIC creates at the next Connect(). Attribute defaults changed after
     * that (Config::SetDefault) reach new queue pairs only after another call of this.
     * \param factory an ObjectFactory of a RdmaCongestionOps subclass (type + attributes)
     * \param prototype an instance factory.Create() made and nobody uses, which NICs may share
     *        (RdmaHelper::Install gives one to all its NICs), or null
     */
    void SetCongestionControl(const ObjectFactory& factory,
                              Ptr<const RdmaCongestionOps> prototype = nullptr);

    /**
     * Create a reliable-connected queue pair to a remote NIC (out-of-band connection set-up,
     * like RDMA CM): the local requester and the remote responder context.
     * \param remote the peer NIC
     * \param cls priority class of the data packets (0..7; default DataClass::DEFAULT)
     * \param cc congestion control for this QP (null: the NIC's default)
     * \return the local queue pair
     * \throws std::invalid_argument for a bad class or a remote without address
     */
    Ptr<RdmaQueuePair> Connect(Ptr<RdmaNic> remote,
                               uint8_t cls = DataClass::DEFAULT,
                               const ObjectFactory* cc = nullptr);

    /**
     * MessageTransport: a queue pair to a remote RdmaNic, as Connect(remote, cls).
     * \param remote the peer (an RdmaNic) \param cls priority class (0..7)
     * \return the queue pair
     * \throws std::invalid_argument if the peer is not an RdmaNic, or as Connect()
     */
    Ptr<MessageConnection> Open(Ptr<MessageTransport> remote, uint8_t cls) override;
    /// \return the address of the NIC's port (MessageTransport)
    Ipv4Address GetAddress() const override;
    /// \return the bound device's DataRate (0 while unbound)
    DataRate GetLineRate() const override;
    /// \return (Mtu + 44 B of IPv4/UDP/BTH/ICRC + the device's FrameOverhead) / Mtu (1 while
    ///         unbound)
    double GetWirePerPayload() const override;

    /**
     * The UDP source port of a queue pair's packets (RoCEv2's ECMP entropy), from both ends'
     * numbers: the flow backend derives its 5-tuples with it, so a flow takes the same path.
     * \param srcAddress the requester's address (Ipv4Address::Get())
     * \param qpn the requester's QP number
     * \param responderIndex the responder context's number at the peer NIC
     * \return the port, in [49152, 65535]
     */
    static uint16_t QueuePairSourcePort(uint32_t srcAddress, uint32_t qpn, uint32_t responderIndex);

    /// Called when a message has been received completely.
    void SetReceiveCallback(ReceiveCallback cb) override;

    /**
     * Put a host path between this NIC and memory (null callbacks: none, the default; then
     * received data goes straight to the transport and sending is not gated).
     * \param rx receive path \param tx transmit path
     */
    void SetHostPath(HostReceiveHook rx, HostTransmitHook tx);
    /// \param f a data packet handed to the host receive path, now in memory: process it
    void DeliverData(const FabricFrame& f);

    /**
     * Serve another packet source in the transmit scheduler, like a queue pair.
     * \param src the source (it must call RemoveSource() before it goes away)
     */
    void AddSource(RdmaNicSource* src);
    /// \param src a source added before
    void RemoveSource(RdmaNicSource* src);
    /// A source has a packet to send: wake the port if it is idle.
    void NotifySource();

    uint32_t GetNQueuePairs() const;                     //!< \return number of local queue pairs
    Ptr<RdmaQueuePair> GetQueuePair(uint32_t qpn) const; //!< \return local QP by number
    uint64_t GetBytesReceived() const; //!< \return in-order payload bytes accepted
    uint64_t GetCnpsSent() const;      //!< \return CNPs sent
    uint64_t GetNaksSent() const;      //!< \return NAKs sent
    /// \return control packets (ACKs, NAKs, CNPs) this NIC put on its port
    uint64_t GetControlPacketsSent() const;
    /// \return CE-marked data packets received (what the notification point reacts to)
    uint64_t GetCeReceived() const;
    /// \return number of responder (receiving) contexts: one per remote queue pair
    uint32_t GetNResponders() const;
    /**
     * What the responder side of a queue pair received.
     * \param responderQpn the responder context's number (the requester's
     *        RdmaQueuePair::GetPeerQpn())
     * \return its counters
     * \throws std::invalid_argument if there is no such responder
     */
    const RdmaReceiveStats& GetReceiveStats(uint32_t responderQpn) const;

  protected:
    void DoDispose() override;

  private:
    /// \return a congestion-control instance for a new queue pair (m_ccPrototype forked)
    Ptr<RdmaCongestionOps> NewCongestionOps();
    friend class RdmaQueuePair;

    struct Responder
    {
        uint32_t peer{0}; //!< the requester's address, as Ipv4Address::Get()
        uint32_t peerQpn{0};
        uint16_t srcPort{0};
        uint64_t epsn{0};       //!< expected PSN
        uint64_t msgBytes{0};   //!< bytes of the message being received
        uint32_t msn{0};        //!< completed messages
        uint32_t unacked{0};    //!< accepted packets not yet acknowledged
        bool nakPending{false}; //!< a NAK for epsn was sent
        Time lastCnp{Time(-1)};
        bool cnpSent{false};
        uint64_t highSeen{0};   //!< one past the highest PSN that arrived
        RdmaReceiveStats stats; //!< arrivals, marks, deliveries
    };

    /// The port's class queues are empty: the next data packet of a queue pair or a source.
    bool PortPull(uint8_t pausedMask, FabricFrame& f, const FlowKey*& key) override;
    /// A NIC without queue pairs and sources pulls nothing (its port sends only ACKs/CNPs).
    bool MayPull() const override;
    /// A packet arrived at the port: RoCEv2 packets are consumed, others left to the node.
    bool PortReceive(uint32_t port,
                     FabricNetDevice* dev,
                     FabricFrame& f,
                     const FlowKey* key) override;
    /**
     * A data packet for the responder QP \p qpn. By index, not by reference: the message-received
     * trace and callback may connect new queue pairs to this NIC, which grows m_responders.
     */
    void ReceiveData(uint32_t qpn,
                     uint8_t opcode,
                     uint32_t psn24,
                     uint32_t payload,
                     uint32_t ipBytes,
                     bool ce);
    void ReceiveAck(RdmaQueuePair& qp, uint64_t psn, bool nak);
    void ReceiveCnp(RdmaQueuePair& qp);
    /// The next data packet of a queue pair, as a compact frame. \param f set to it
    void BuildData(RdmaQueuePair& qp, const Time& now, FabricFrame& f);
    void SendControl(uint32_t dst,
                     uint16_t sport,
                     uint32_t dstQp,
                     uint8_t opcode,
                     uint64_t psn,
                     uint8_t syndrome,
                     uint32_t msn);
    /**
     * A RoCEv2 packet with the transport header in m_hdr.bth (set by the caller), as a compact
     * frame (its headers written inline; an ns3::Packet only if something asks for one).
     * \param f set to the frame
     * \param payload payload bytes \param dst destination (as Ipv4Address::Get())
     * \param sport UDP source port
     * \param cls priority class (DSCP) \param ect ECN-capable (ECT(0))
     */
    void MakeFrame(FabricFrame& f,
                   uint32_t payload,
                   uint32_t dst,
                   uint16_t sport,
                   uint8_t cls,
                   bool ect);
    void ScheduleWake(Time at);
    void Wake();
    void ArmRto(RdmaQueuePair& qp);
    void OnRtoTimer(RdmaQueuePair& qp);
    void OnRto(RdmaQueuePair& qp);
    void Kick();
    static uint64_t ExpandPsn(uint32_t psn24, uint64_t reference);

    Ptr<FabricNetDevice> m_dev;
    std::vector<Ptr<RdmaQueuePair>> m_qps; //!< by local QP number
    std::vector<RdmaNicSource*> m_sources; //!< other packet sources, after the QPs in the rotation
    std::vector<Responder> m_responders;   //!< by local responder QP number
    uint32_t m_rr{0};
    uint8_t m_classesInUse{0}; //!< bit c set: some queue pair sends in class c
    RoceV2Header m_hdr;        //!< the header MakeFrame() writes (filled per packet)
    FlowKey m_key;             //!< the FlowKey of the last packet MakeFrame() built
    ReusableTimer m_wake;      //!< wakes the port when a queue pair may send again
    ObjectFactory m_ccFactory;
    /// An instance of m_ccFactory, forked for every queue pair and never used itself (given to
    /// SetCongestionControl, else built at the first Connect)
    Ptr<const RdmaCongestionOps> m_ccPrototype;
    ReceiveCallback m_rxCb;
    HostReceiveHook m_hostRx;  //!< null: no host path
    HostTransmitHook m_hostTx; //!< null: no host path
    Time m_hostTxReady;        //!< next data packet not before (host transmit path)

    uint32_t m_mtu{1000};
    uint32_t m_ackInterval{1};
    Time m_cnpInterval;
    uint8_t m_ctrlClass{7};
    Time m_rto;
    uint64_t m_maxInflight{0};

    uint64_t m_bytesRx{0};
    uint64_t m_cnpsSent{0};
    uint64_t m_naksSent{0};
    uint64_t m_controlSent{0};
    uint64_t m_ceReceived{0};

    TracedCallback<uint32_t> m_cnpTxTrace;
    TracedCallback<Ipv4Address, uint32_t, uint64_t> m_msgRxTrace;
};

} // namespace ns3

#endif /* MLNET_RDMA_NIC_H */
