/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLUID_TRANSPORT_H
#define MLNET_FLUID_TRANSPORT_H

#include "fluid-connection.h"
#include "fluid-fabric.h"
#include "ns3/message-transport.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The flow backend's transport of one host: the MessageTransport the workloads talk to
 * (as they talk to an RdmaNic at packet level), carrying messages as fluid flows over a
 * FluidFabric.
 *
 * Connections are numbered per transport and per peer as the RDMA NIC numbers its queue pairs
 * and responder contexts, and a connection's 5-tuple uses RdmaNic::QueuePairSourcePort(): the
 * same sequence of Open() calls gives the same 5-tuples, hence the same ECMP paths, in both
 * backends. Messages are counted on the wire as the NIC segments them: Mtu payload bytes per
 * packet, each with HeaderBytes of IPv4/UDP/BTH/ICRC and FrameOverhead of Ethernet.
 */
class FluidTransport : public MessageTransport
{
  public:
    /// Trace signature of MessageRx: (source address, source connection number, bytes).
    typedef void (*MessageRxTracedCallback)(Ipv4Address src, uint32_t srcQpn, uint64_t bytes);

    static TypeId GetTypeId();
    FluidTransport();
    ~FluidTransport() override;

    /**
     * Bind the transport to a host of a fluid fabric.
     * \param fabric the fabric (built) \param address the host's address
     * \throws std::invalid_argument if the address is not a host of the fabric
     */
    void Bind(Ptr<FluidFabric> fabric, Ipv4Address address);
    /// \return the fabric
    Ptr<FluidFabric> GetFabric() const;

    Ptr<MessageConnection> Open(Ptr<MessageTransport> remote, uint8_t cls) override;
    void SetReceiveCallback(ReceiveCallback cb) override;
    Ipv4Address GetAddress() const override;
    /// \return the DataRate of the host's device (0 while unbound)
    DataRate GetLineRate() const override;
    /// \return (Mtu + HeaderBytes + FrameOverhead) / Mtu
    double GetWirePerPayload() const override;

    /// \param payload message bytes \return the bytes its packets occupy on the wire
    uint64_t WireBytes(uint64_t payload) const;
    /// \return connections opened here
    uint32_t GetNConnections() const;
    /// \param qpn a connection number \return the connection (null if none)
    Ptr<FluidConnection> GetConnection(uint32_t qpn) const;
    /// \return payload bytes of the messages received completely
    uint64_t GetBytesReceived() const;

  protected:
    void DoDispose() override;

  private:
    friend class FluidConnection;
    /// A message arrived completely. \param src source \param qpn its connection \param bytes
    void Receive(Ipv4Address src, uint32_t qpn, uint64_t bytes);

    Ptr<FluidFabric> m_fabric;
    uint32_t m_address{0};
    std::vector<Ptr<FluidConnection>> m_conns; //!< by connection number
    uint32_t m_responders{0};                  //!< connections opened towards this host
    ReceiveCallback m_rxCb;
    uint64_t m_bytesRx{0};
    uint32_t m_mtu{1000};
    uint32_t m_headerBytes{44};
    uint32_t m_frameOverhead{38};
    uint32_t m_ackFrameBytes{84};
    uint32_t m_ackInterval{1};

    TracedCallback<Ipv4Address, uint32_t, uint64_t> m_msgRxTrace;
};

} // namespace ns3

#endif /* MLNET_FLUID_TRANSPORT_H */
