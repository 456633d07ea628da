/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_RDMA_QUEUE_PAIR_H
#define MLNET_RDMA_QUEUE_PAIR_H

#include "message-transport.h"
#include "rdma-congestion-ops.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/reusable-timer.h"
#include "ns3/traced-callback.h"
#include "ns3/tx-time-accumulator.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class RdmaNic;

/**
 * \ingroup mlnet
 * \brief The requester (sending) side of a reliable-connected RDMA queue pair: a verbs-like
 * API (post an RDMA WRITE of N bytes, get a completion), segmentation into MTU-sized packets,
 * rate pacing driven by a per-QP congestion-control object, go-back-N on NAK or timeout.
 *
 * Created by RdmaNic::Connect(); the peer NIC holds the matching responder context. The
 * congestion-control state lives here (RdmaCcState); the algorithm is a RdmaCongestionOps.
 */
class RdmaQueuePair : public MessageConnection
{
  public:
    /// Completion of a posted message: (message id, bytes).
    typedef Callback<void, uint64_t, uint64_t> CompletionCallback;
    /// Trace of message completion: (message id, bytes, time posted, time completed).
    typedef void (*MessageTracedCallback)(uint64_t id, uint64_t bytes, Time posted, Time done);
    /// Trace of a rate: (bit/s).
    typedef void (*RateTracedCallback)(double rate);

    static TypeId GetTypeId();
    RdmaQueuePair();
    ~RdmaQueuePair() override;

    /**
     * Post an RDMA WRITE of `bytes` to the peer.
     * \param bytes message size, >= 1
     * \param cb called when the whole message is acknowledged (may be null)
     * \return the message id (consecutive from 0 per QP)
     * \throws std::invalid_argument if bytes is 0
     */
    uint64_t PostSend(uint64_t bytes, CompletionCallback cb = CompletionCallback()) override;

    /**
     * Declare that a training iteration of `bytes` starts now (for iteration-aware
     * congestion control: r = bytes sent in this iteration / bytes).
     * \param bytes bytes the iteration will send on this QP
     */
    void StartIteration(uint64_t bytes) override;

    uint32_t GetQpn() const override;          //!< \return local QP number
    Ipv4Address GetPeer() const override;      //!< \return peer host address
    uint8_t GetPriorityClass() const override; //!< \return priority class of data packets

    /**
     * Change the priority class of the data packets at run time (e.g. a flow scheduler's
     * decision). Packets sent from now on carry the new class. If packets are unacknowledged,
     * new packets are held until they are all acknowledged, so that packets of the new class
     * cannot overtake those of the old one in the fabric (the receiver accepts packets only in
     * order: an overtaking packet would cost a NAK and a go-back-N resend); the change costs this
     * queue pair the time its outstanding packets need to be acknowledged (one round trip plus
     * the queueing they meet).
     * \param cls the class, in [0, 7]
     * \throws std::invalid_argument for a class out of range
     */
    void SetPriorityClass(uint8_t cls) override;
    /// \return true while a class change waits for the outstanding packets
    bool IsClassChangePending() const;

    /**
     * Cap the pacing rate, independently of congestion control: packets leave at
     * min(congestion-control rate, cap). The cap is a wire rate (bit/s of whole frames, like
     * the congestion-control rates); DataRate(0) removes it. Same as the MaxRate attribute.
     * \param cap the cap (0 = none)
     */
    void SetMaxRate(DataRate cap) override;
    /// \return the rate cap (0 = none)
    DataRate GetMaxRate() const override;
    /// \return the congestion-control state (rates in bit/s)
    const RdmaCcState& GetCcState() const;
    Ptr<RdmaCongestionOps> GetCongestionOps() const; //!< \return the algorithm
    uint64_t GetBytesPosted() const override;        //!< \return payload bytes posted
    uint64_t GetBytesSent() const override;          //!< \return payload bytes handed to the wire
    uint64_t GetBytesAcked() const override;         //!< \return payload bytes acknowledged
    uint64_t GetRetransmittedPackets() const;        //!< \return packets sent again (go-back-N)
    uint64_t GetTimeouts() const;                    //!< \return retransmission timeouts
    uint64_t GetCnpsReceived() const;                //!< \return CNPs received
    /// \return data packets put on the wire (retransmissions included)
    uint64_t GetTxPackets() const;
    /// \return IPv4 bytes of the data packets put on the wire (retransmissions included)
    uint64_t GetTxBytes() const;
    /// \return the UDP source port of the data packets (RoCEv2 ECMP entropy)
    uint16_t GetUdpSourcePort() const;
    /// \return the responder context's number at the peer NIC (RdmaNic::GetReceiveStats)
    uint32_t GetPeerQpn() const;
    /// \return true while posted data is not yet fully acknowledged
    bool IsBusy() const override;

  protected:
    void DoDispose() override;

  private:
    friend class RdmaNic;

    struct Message
    {
        uint64_t id;
        uint64_t bytes;
        uint64_t firstPsn;
        uint64_t lastPsn;
        Time posted;
        CompletionCallback cb;
    };

    /**
     * FIFO of the posted messages: a vector and the index of its head. An idle queue pair
     * allocates nothing (std::deque allocates a map and a 512-byte block when constructed,
     * about a quarter of a queue pair's memory at rest).
     */
    class MessageQueue
    {
      public:
        /// \return true if no message is queued
        bool empty() const
        {
            return m_head == m_v.size();
        }

        /// \return the oldest message (not empty())
        const Message& front() const
        {
            return m_v[m_head];
        }

        /// \param m the message to append
        void push_back(const Message& m)
        {
            m_v.push_back(m);
        }

        /// Remove the oldest message (not empty()); amortised O(1).
        void pop_front()
        {
            m_v[m_head].cb = CompletionCallback(); // let go of what the callback holds now
            if (++m_head == m_v.size())
            {
                m_v.clear(); // keeps the capacity for the next messages
                m_head = 0;
            }
            else if (m_head >= 32 && 2 * m_head >= m_v.size())
            {
                m_v.erase(m_v.begin(), m_v.begin() + m_head);
                m_head = 0;
            }
        }

        /// Remove every message and free the storage.
        void clear()
        {
            std::vector<Message>().swap(m_v);
            m_head = 0;
        }

        /// \return iterator to the oldest message
        std::vector<Message>::const_iterator begin() const
        {
            return m_v.begin() + m_head;
        }

        /// \return iterator past the newest message
        std::vector<Message>::const_iterator end() const
        {
            return m_v.end();
        }

      private:
        std::vector<Message> m_v;
        std::size_t m_head{0};
    };

    /// \return true if a packet may be sent now ignoring pacing (data unsent, window open, no
    /// class change waiting)
    bool CanSend() const;
    /// Complete a waiting class change once everything before the fence is acknowledged.
    void MaybeApplyClass();
    /// \return the pacing rate: min(congestion-control rate, cap) in bit/s
    double PacingRate() const;
    /// Payload bytes of packet psn, and whether it starts/ends its message.
    uint32_t PayloadOf(uint64_t psn, bool& first, bool& last) const;
    void UpdateRateTraces();
    /// The retransmission timer's event came due (tells the NIC).
    void OnRtoTimer();

    Ptr<RdmaNic> m_nic;
    uint32_t m_qpn{0};
    uint32_t m_peerQpn{0};
    uint32_t m_peer{0}; //!< the remote address, as Ipv4Address::Get()
    uint16_t m_srcPort{0};
    uint8_t m_class{3};
    uint8_t m_nextClass{3};   //!< class waiting for the outstanding packets (see SetPriorityClass)
    bool m_classFence{false}; //!< a class change waits until m_sndUna reaches m_fencePsn
    bool m_rtoArmed{false};   //!< the retransmission timer is armed (m_rto may be pending while
                              //!< disarmed: see m_rtoDeadline)
    uint64_t m_fencePsn{0};   //!< PSN up to which packets must be acknowledged first
    uint64_t m_maxRate{0};    //!< pacing cap in bit/s (0 = none; read per packet)
    uint32_t m_mtu{1000};
    uint64_t m_maxInflight{0};

    MessageQueue m_msgs; //!< posted, not fully acknowledged
    uint64_t m_nextMsgId{0};
    uint64_t m_psnEnd{0};   //!< one past the last assigned PSN
    uint64_t m_sndNxt{0};   //!< next PSN to send
    uint64_t m_sndUna{0};   //!< oldest unacknowledged PSN
    uint64_t m_highSent{0}; //!< one past the highest PSN ever sent
    uint64_t m_bytesPosted{0};
    uint64_t m_bytesAcked{0};
    uint64_t m_retx{0};
    uint64_t m_txPackets{0}; //!< data packets put on the wire
    uint64_t m_txBytes{0};   //!< IPv4 bytes of those
    uint64_t m_timeouts{0};
    uint64_t m_cnps{0};
    Time m_nextAvail;
    TxTimeAccumulator m_paceClock; //!< exact pacing intervals below the line rate
    /// Retransmission timer, lazy: one pending event at most; re-arming only moves
    /// m_rtoDeadline and the event, when it fires early, re-schedules itself for the deadline
    /// (an ACK per packet would otherwise cancel and insert one event per packet).
    ReusableTimer m_rto;
    Time m_rtoDeadline; //!< when the armed timer expires

    RdmaCcState m_cc;
    Ptr<RdmaCongestionOps> m_ops;
    double m_lastRate{-1};
    double m_lastTarget{-1};

    TracedCallback<double> m_rateTrace;
    TracedCallback<double> m_targetTrace;
    TracedCallback<uint64_t, uint64_t, Time, Time> m_msgTrace;
};

} // namespace ns3

#endif /* MLNET_RDMA_QUEUE_PAIR_H */
