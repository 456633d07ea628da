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

class FluidHost;

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

    /// How a ring collective crosses the fluid network (RingGranularity attribute).
    enum RingGranularity
    {
        RING_MESSAGE, //!< one fluid flow per ring-step message (the reference)
        RING_GROUP,   //!< the whole ring as one fluid group at one common rate (StartRing)
        RING_PHASED   //!< RingPhases phases of one fluid flow per member (StartRing)
    };

    Ptr<MessageConnection> Open(Ptr<MessageTransport> remote, uint8_t cls) override;
    /**
     * Carry a ring as a few fluid flows (RingGranularity):
     *  - "Group": one flow whose rate r is every member's (rank i -> i + 1) and which takes
     *    r x (its multiplicity) of every link a member's data or acknowledgements cross, so it
     *    freezes in the progressive filling when any of its links saturates;
     *  - "Phased": the steps split in RingPhases phases; in each, one flow per member on its
     *    own path at its own max-min rate; a member's phase k + 1 starts when its own and its
     *    predecessor's phase k have drained (the ring steps' dependencies, per phase).
     * A member drains steps x (the wire bytes of one step's messages of the largest chunk) in
     * all; rank i is done at the last drain plus the unloaded latencies of the chain of steps
     * that ends at it (each step's path latency, less what sub-chunk pipelining hides, and the
     * last acknowledgement). See doc/flow-backend.rst.
     * \param ring the ring (connections of FluidTransports of this fabric, idle)
     * \return false with RingGranularity "Message", or if a connection is busy or the
     *         connections differ in class (the collective then posts messages)
     */
    bool StartRing(const RingTransfer& ring) override;
    void SetReceiveCallback(ReceiveCallback cb) override;
    Ipv4Address GetAddress() const override;
    /// \return the DataRate of the host's device (0 while unbound)
    DataRate GetLineRate() const override;
    /// \return (Mtu + HeaderBytes + FrameOverhead) / Mtu
    double GetWirePerPayload() const override;

    /// \param payload message bytes \return the bytes its packets occupy on the wire
    uint64_t WireBytes(uint64_t payload) const;

    /// What a connection crosses (Route()).
    struct Route
    {
        std::vector<uint32_t> path;        //!< its links, source to destination
        std::vector<uint32_t> reversePath; //!< its acknowledgements' links back
        double reverseShare{0};            //!< acknowledgement bytes per wire byte
        Time ackLatency;                   //!< from delivery to completion
    };

    /**
     * The route of a connection to a host of the same fabric with a given 5-tuple (what
     * Open() gives its connection; also the analytic background's, which opens none).
     * \param peer the destination's transport \param srcPort the UDP source port
     * \param cls the class (the 5-tuple's DSCP)
     * \return the route \throws std::invalid_argument as FluidFabric::Route
     */
    Route RouteTo(const FluidTransport& peer, uint16_t srcPort, uint8_t cls) const;
    /// \return connections opened here
    uint32_t GetNConnections() const;
    /// \param qpn a connection number \return the connection (null if none)
    Ptr<FluidConnection> GetConnection(uint32_t qpn) const;
    /// \return payload bytes of the messages received completely
    uint64_t GetBytesReceived() const;
    /**
     * Route through the host's interconnect (FluidHost::Install): the connections opened from
     * now on from this host start with its transmit link (if it has one), those to it end with
     * its receive link, and the connections to it tell it when they start and stop
     * transmitting.
     * \param host the host's fluid interconnect
     */
    void SetHost(Ptr<FluidHost> host);
    /// \return the host's fluid interconnect (null: none)
    Ptr<FluidHost> GetHost() const;

  protected:
    void DoDispose() override;

  private:
    friend class FluidConnection;
    /// A message arrived completely. \param src source \param qpn its connection \param bytes
    void Receive(Ipv4Address src, uint32_t qpn, uint64_t bytes);
    /// A ring group's bytes have drained: schedule every rank's end. \param g the group
    static void RingDrained(const std::shared_ptr<FluidConnection::RingGroup>& g);
    /// Start a phased ring: every member's first phase. \param g the group
    static void StartPhases(const std::shared_ptr<FluidConnection::RingGroup>& g);
    /// Start member i's next phase if its own and its predecessor's previous phases have
    /// drained. \param g the group \param i the member
    static void TryPhase(const std::shared_ptr<FluidConnection::RingGroup>& g, uint32_t i);
    /// Rank `rank` of a ring group is done. \param g the group \param rank the rank
    /// \param received when its predecessor's last bytes arrived
    static void RingRankDone(const std::shared_ptr<FluidConnection::RingGroup>& g,
                             uint32_t rank,
                             Time received);

    Ptr<FluidFabric> m_fabric;
    Ptr<FluidHost> m_host; //!< SetHost (null: none)
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
    RingGranularity m_ringGranularity{RING_MESSAGE};
    uint32_t m_ringPhases{8};

    TracedCallback<Ipv4Address, uint32_t, uint64_t> m_msgRxTrace;
};

} // namespace ns3

#endif /* MLNET_FLUID_TRANSPORT_H */
