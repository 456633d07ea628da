/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MLNET_RDMA_MESSAGE_DISPATCHER_H
#define MLNET_RDMA_MESSAGE_DISPATCHER_H

#include "ns3/callback.h"
#include "ns3/ipv4-address.h"
#include "ns3/message-transport.h"
#include "ns3/object.h"

#include <cstdint>
#include <map>
#include <utility>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Demultiplexes the single receive callback of a MessageTransport (an RdmaNic, a
 * FluidTransport) to many users (collectives,
 * jobs, background flows), keyed by the sending queue pair: (source address, source QPN).
 *
 * One dispatcher is aggregated to each NIC (Get() creates it on first use and installs itself
 * as the NIC's receive callback). Messages from an unregistered queue pair go to the default
 * callback, if any, and are counted.
 */
class RdmaMessageDispatcher : public Object
{
  public:
    /// Message received: (source address, source QPN, bytes), as
    /// MessageTransport::ReceiveCallback.
    typedef MessageTransport::ReceiveCallback ReceiveCallback;

    /// \return the TypeId
    static TypeId GetTypeId();
    RdmaMessageDispatcher();
    ~RdmaMessageDispatcher() override;

    /**
     * \param nic a host's transport (an RdmaNic, or a FluidTransport in the flow backend)
     * \return the dispatcher of that transport, created (and installed as its receive
     * callback) if needed
     * \throws std::invalid_argument if nic is null
     */
    static Ptr<RdmaMessageDispatcher> Get(Ptr<MessageTransport> nic);

    /**
     * Register the receiver of messages sent by one remote queue pair.
     * \param src source host address
     * \param srcQpn source queue pair number
     * \param cb called for each message from that queue pair
     * \throws std::invalid_argument if the key is already registered
     */
    void Register(Ipv4Address src, uint32_t srcQpn, ReceiveCallback cb);
    /**
     * Register the receiver of the messages sent on a queue pair (whose peer is this NIC).
     * \param qp the sending queue pair
     * \param srcAddress address of the host that owns qp
     * \param cb callback
     */
    void Register(Ptr<MessageConnection> qp, Ipv4Address srcAddress, ReceiveCallback cb);
    /// Remove a registration (no-op if absent). \param src address \param srcQpn QP number
    void Unregister(Ipv4Address src, uint32_t srcQpn);
    /// \param cb receiver of messages from unregistered queue pairs
    void SetDefaultCallback(ReceiveCallback cb);
    /// \return messages that matched no registration
    uint64_t GetUnmatchedMessages() const;

  protected:
    void DoDispose() override;

  private:
    void Receive(Ipv4Address src, uint32_t srcQpn, uint64_t bytes);

    std::map<std::pair<uint32_t, uint32_t>, ReceiveCallback> m_handlers; //!< by (addr, qpn)
    ReceiveCallback m_default;                                           //!< fallback
    uint64_t m_unmatched{0};                                             //!< unmatched messages
};

} // namespace ns3

#endif /* MLNET_RDMA_MESSAGE_DISPATCHER_H */
