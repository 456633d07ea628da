/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLUID_CONNECTION_H
#define MLNET_FLUID_CONNECTION_H

#include "ns3/message-transport.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace ns3
{

class FluidTransport;
class FluidNetwork;

/**
 * \ingroup mlnet
 * \brief A connection of the flow backend (what a queue pair is at packet level): its messages
 * cross the FluidNetwork one after the other, each as one fluid flow on the connection's
 * path, at the rate the network's progressive filling gives it.
 *
 * Message i+1 starts when the last byte of message i has left the source, as a queue pair
 * sends back to back. A message is received at the destination when its flow is delivered
 * (drain + the path's unloaded latency) and completes at the sender one acknowledgement later
 * (the reverse path's delays plus one acknowledgement frame's serialization per hop); the
 * acknowledgements also load the reverse path (one AckFrameBytes frame per AckInterval
 * packets, as a share of the message's rate). A
 * message counts its bytes on the wire: payload plus, per MTU-sized packet, the headers and the
 * Ethernet overhead (FluidTransport::WireBytes). Created by FluidTransport::Open().
 */
class FluidConnection : public MessageConnection
{
  public:
    /// Trace of message completion: (message id, bytes, time posted, time completed).
    typedef void (*MessageTracedCallback)(uint64_t id, uint64_t bytes, Time posted, Time done);

    static TypeId GetTypeId();
    FluidConnection();
    ~FluidConnection() override;

    uint64_t PostSend(uint64_t bytes, CompletionCallback cb = CompletionCallback()) override;
    /// Under DCQCN at flow level (a FluidDcqcn on the network): the reaction point's iteration
    /// (FluidDcqcn::StartIteration, MLTCP's iteration fraction); otherwise ignored.
    void StartIteration(uint64_t bytes) override;
    uint32_t GetQpn() const override;
    Ipv4Address GetPeer() const override;
    uint8_t GetPriorityClass() const override;
    /// Takes effect at once, also for the message in flight (no fence is needed without packets).
    void SetPriorityClass(uint8_t cls) override;
    void SetMaxRate(DataRate cap) override;
    DataRate GetMaxRate() const override;
    uint64_t GetBytesPosted() const override;
    /// \return payload of the messages drained plus the drained share of the one in flight
    uint64_t GetBytesSent() const override;
    uint64_t GetBytesAcked() const override;
    bool IsBusy() const override;

    /// \return the link ids of the connection's path (FluidFabric::Route of its 5-tuple)
    const std::vector<uint32_t>& GetPath() const;
    /// \return the UDP source port of its 5-tuple (as the RDMA NIC's queue pair would have)
    uint16_t GetUdpSourcePort() const;
    /// \return the acknowledgement's latency (delivery to completion)
    Time GetAckLatency() const;
    /// \return payload bytes of the messages delivered at the destination so far
    uint64_t GetBytesDelivered() const;
    /// \return when the last delivered message's last byte arrived at the destination
    ///         (negative: nothing delivered yet)
    Time GetLastDelivery() const;
    /**
     * Drain the connection's messages in the fabric's aggregate background model
     * (FluidFabric::GetAggregate(); attribute Aggregate) or, false (the default), as flows of
     * the fabric's network.
     * \param aggregate the mode
     * \throws std::invalid_argument if the connection is not idle or carries a ring
     */
    void SetAggregate(bool aggregate);
    /// \return true if the messages drain in the aggregate background model
    bool GetAggregate() const;
    /**
     * The connection's own reaction-point algorithm under DCQCN at flow level, as
     * RdmaNic::Connect's per-queue-pair factory (a job's DcqcnProfile, MLTCP's gain): passed to
     * the network's FluidDcqcn at the connection's next message
     * (FluidDcqcn::SetOwnerCongestionControl). Without a FluidDcqcn nothing controls the
     * connection's rate and it has no effect.
     * \param factory a factory of an RdmaCongestionOps
     */
    void SetCongestionControl(const ObjectFactory& factory);

  protected:
    void DoDispose() override;

  private:
    friend class FluidTransport;

    /// A ring carried as one fluid group (FluidTransport::StartRing), shared by its members.
    struct RingGroup
    {
        std::vector<FluidConnection*> members; //!< member i: rank i -> rank i + 1
        std::vector<uint64_t> sent;            //!< payload member i carries
        std::vector<Time> latency;             //!< unloaded path latency of member i
        uint32_t steps{0};                     //!< ring steps
        uint32_t pieces{1};                    //!< messages per step (sub-chunks)
        Callback<void, uint32_t> rankDone;     //!< the collective's
        Time start;                            //!< the group's start
        Time drained;                          //!< the group's drain (when it happened)
        bool common{true};          //!< one flow at a common rate (else one per member and phase)
        uint64_t flow{0};           //!< common: its FluidNetwork id
        uint64_t stepWire{0};       //!< wire bytes per member and step
        uint32_t phases{1};         //!< phased: phases
        std::vector<uint32_t> done; //!< phased: phases drained, per member
        std::vector<char> running;  //!< phased: a member's phase is draining
        uint32_t pending{0};        //!< phased: members with phases left
    };

    /// Apply the rate cap to the ring this connection is a member of: a common group's is its
    /// members' smallest, a phased member's flow has its own.
    void UpdateRingCap();

    struct Message
    {
        uint64_t id;
        uint64_t bytes;
        Time posted;
        CompletionCallback cb;
    };

    /// The messages posted and not started, oldest first: a vector and the index of its head
    /// (a std::deque allocates ~600 bytes when made; a flow backend with one connection per
    /// background host pair has ~1 M connections that mostly hold one message at a time).
    class MessageQueue
    {
      public:
        /// \return true if no message waits
        bool empty() const
        {
            return m_head == m_items.size();
        }

        /// \param m a message to append
        void push_back(Message m)
        {
            m_items.push_back(std::move(m));
        }

        /// \return the oldest message
        Message& front()
        {
            return m_items[m_head];
        }

        /// Remove the oldest message.
        void pop_front()
        {
            m_items[m_head] = Message();
            if (++m_head == m_items.size())
            {
                m_items.clear();
                m_head = 0;
            }
            else if (m_head >= 64 && 2 * m_head >= m_items.size())
            {
                // a queue that never empties: drop the consumed half (amortized O(1))
                m_items.erase(m_items.begin(), m_items.begin() + std::ptrdiff_t(m_head));
                m_head = 0;
            }
        }

        /// Remove every message.
        void clear()
        {
            m_items.clear();
            m_head = 0;
        }

      private:
        std::vector<Message> m_items;
        std::size_t m_head{0};
    };

    /// Start the flow of the oldest message that has not started.
    void StartNext();
    /// Tell the destination's host path (FluidHost), if it has one, that this connection
    /// started (true) or stopped (false) transmitting.
    void NotifyHost(bool started);
    /// \return the network the connection's messages drain in
    Ptr<FluidNetwork> MessageNetwork() const;
    /// The message in flight has left the source.
    void OnDrained();
    /// A message has been acknowledged.
    void OnCompleted(uint64_t id, uint64_t bytes, Time posted, CompletionCallback cb);

    FluidTransport* m_local{nullptr};  //!< owns this connection
    FluidTransport* m_remote{nullptr}; //!< the peer
    uint32_t m_qpn{0};
    uint8_t m_class{3};
    uint64_t m_maxRate{0}; //!< bit/s, 0 = none
    uint16_t m_srcPort{0};
    std::vector<uint32_t> m_path;
    std::vector<uint32_t> m_reversePath; //!< the acknowledgements' links
    double m_reverseShare{0};            //!< acknowledgement bytes per data byte on the wire
    Time m_ackLatency;
    MessageQueue m_waiting;                   //!< posted, not started
    bool m_sending{false};                    //!< a message's flow is draining
    uint64_t m_sendingBytes{0};               //!< its payload bytes
    uint64_t m_sendingWire{0};                //!< its bytes on the wire
    uint64_t m_sent{0};                       //!< payload bytes of the messages drained
    uint64_t m_flow{0};                       //!< its FluidNetwork id
    bool m_aggregate{false};                  //!< Aggregate attribute
    std::optional<ObjectFactory> m_ccFactory; //!< SetCongestionControl's, not yet passed on
    uint64_t m_nextId{0};
    uint64_t m_posted{0};
    uint64_t m_acked{0};
    uint64_t m_delivered{0};           //!< payload bytes delivered at the destination
    Time m_lastDelivery{Seconds(-1)};  //!< the last delivery (negative: none yet)
    std::shared_ptr<RingGroup> m_ring; //!< the ring group draining on it (null: none)

    TracedCallback<uint64_t, uint64_t, Time, Time> m_msgTrace;
};

} // namespace ns3

#endif /* MLNET_FLUID_CONNECTION_H */
