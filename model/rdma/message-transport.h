/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_MESSAGE_TRANSPORT_H
#define MLNET_MESSAGE_TRANSPORT_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/object.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief One reliable, ordered message connection of a MessageTransport (in the packet
 * backend, an RDMA queue pair): post messages of N bytes, get a completion when the peer has
 * them all. What workloads use of a queue pair, whichever backend carries the bytes.
 */
class MessageConnection : public Object
{
  public:
    /// Completion of a posted message: (message id, bytes).
    typedef Callback<void, uint64_t, uint64_t> CompletionCallback;

    /// \return the TypeId
    static TypeId GetTypeId();
    ~MessageConnection() override;

    /**
     * Post a message to the peer (after the messages posted before on this connection).
     * \param bytes message size, >= 1
     * \param cb called when the whole message is acknowledged (may be null)
     * \return the message id (consecutive from 0 per connection)
     * \throws std::invalid_argument if bytes is 0
     */
    virtual uint64_t PostSend(uint64_t bytes, CompletionCallback cb = CompletionCallback()) = 0;
    /**
     * Declare that a training iteration of `bytes` starts now (iteration-aware congestion
     * control; a backend without congestion control ignores it).
     * \param bytes bytes the iteration will send on this connection
     */
    virtual void StartIteration(uint64_t bytes) = 0;
    /// \return the connection's number at its transport (the source QPN receivers see)
    virtual uint32_t GetQpn() const = 0;
    /// \return the peer's address
    virtual Ipv4Address GetPeer() const = 0;
    /// \return the traffic class of the data (0..7)
    virtual uint8_t GetPriorityClass() const = 0;
    /**
     * \param cls the traffic class of the data from now on, in [0, 7]
     * \throws std::invalid_argument for a class out of range
     */
    virtual void SetPriorityClass(uint8_t cls) = 0;
    /// \param cap wire-rate cap (bit/s of whole frames; 0 = none)
    virtual void SetMaxRate(DataRate cap) = 0;
    /// \return the wire-rate cap (0 = none)
    virtual DataRate GetMaxRate() const = 0;
    /// \return payload bytes posted
    virtual uint64_t GetBytesPosted() const = 0;
    /// \return payload bytes that have left the source so far (a message being sent counts
    ///         the part already sent)
    virtual uint64_t GetBytesSent() const = 0;
    /// \return payload bytes acknowledged
    virtual uint64_t GetBytesAcked() const = 0;
    /// \return true while posted data is not yet fully acknowledged
    virtual bool IsBusy() const = 0;
};

/**
 * \ingroup mlnet
 * \brief A ring collective's transfers as one unit, for a backend that can carry a whole ring
 * at once (MessageTransport::StartRing): n ranks, rank i sending to rank (i + 1) % n on
 * conns[i], `steps` ring steps in each of which every rank sends one chunk (in `subChunks`
 * pipelined messages) and step s + 1 of rank i waits for step s of rank i - 1.
 */
struct RingTransfer
{
    std::vector<Ptr<MessageConnection>> conns; //!< conns[i]: rank i -> rank (i + 1) % n
    uint32_t steps{0};                         //!< ring steps (>= 1)
    /// payload of the messages of one step of the largest chunk (one per sub-chunk)
    std::vector<uint64_t> stepMessages;
    std::vector<uint64_t> sent; //!< payload rank i sends in all (rank i + 1 receives it)
    /// rank i is done: everything it sent is acknowledged, everything it receives arrived
    Callback<void, uint32_t> rankDone;
};

/**
 * \ingroup mlnet
 * \brief The message API of a host's transport, which the workloads talk to and both backends
 * implement: the RDMA NIC (packet level) and FluidTransport (flow level).
 *
 * A transport opens connections to other transports of the same backend and reports every
 * message that arrives completely through one receive callback (source address, source
 * connection number, bytes), which RdmaMessageDispatcher demultiplexes.
 */
class MessageTransport : public Object
{
  public:
    /// A message arrived completely: (source address, source connection number, bytes).
    typedef Callback<void, Ipv4Address, uint32_t, uint64_t> ReceiveCallback;

    /// \return the TypeId
    static TypeId GetTypeId();
    ~MessageTransport() override;

    /**
     * Open a connection to a remote transport of the same backend.
     * \param remote the peer \param cls the traffic class of the data (0..7)
     * \return the connection
     * \throws std::invalid_argument for a bad class or a peer of another backend
     */
    virtual Ptr<MessageConnection> Open(Ptr<MessageTransport> remote, uint8_t cls) = 0;
    /// \param cb called for every message that arrived completely
    virtual void SetReceiveCallback(ReceiveCallback cb) = 0;
    /// \return the host's address
    virtual Ipv4Address GetAddress() const = 0;
    /// \return the line rate of the host's link (0 while the transport is not bound to one)
    virtual DataRate GetLineRate() const = 0;
    /// \return bytes on the wire per payload byte of a message of full packets (headers and
    ///         framing of one MTU-sized packet over its payload, >= 1)
    virtual double GetWirePerPayload() const = 0;
    /**
     * Carry a whole ring as one unit, if this backend does (the flow backend with
     * FluidTransport::RingGranularity "Group" or "Phased"); otherwise the collective posts its
     * messages one by one. Called on rank 0's transport with connections opened by the ring.
     * \param ring the ring \return true if the ring was started (rankDone will be called
     *        once per rank), false to fall back to messages (the default)
     */
    virtual bool StartRing(const RingTransfer& ring);
};

} // namespace ns3

#endif /* MLNET_MESSAGE_TRANSPORT_H */
