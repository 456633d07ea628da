/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLUID_HOST_H
#define MLNET_FLUID_HOST_H

#include "fluid-network.h"

#include "ns3/host-interconnect.h"
#include "ns3/object.h"
#include "ns3/traced-value.h"

#include <cstdint>

namespace ns3
{

class FluidTransport;

/**
 * \ingroup mlnet
 * \brief The host interconnect (HostInterconnect: PCIe, IOMMU/IOTLB, memory bus) at flow
 * level: the host's path between its NIC and memory as fluid links of the transport's
 * FluidNetwork, whose capacities are the steady-state DMA rates of the packet model's own
 * formulas.
 *  - Receive link (NIC -> memory), at the end of every connection to the host: capacity
 *    HostInterconnect::GetStreamWriteRate(n) for the n connections to the host that are
 *    transmitting now (the IOTLB working set is n x the pages of RxBufferPerQp), the PCIe /
 *    write-credit limited write rate with the IOMMU off; set again (FluidNetwork::
 *    SetLinkCapacity) when n changes and when the operating point changes (the memory
 *    application's demand, MemoryAppDemand or the scenario's demandChanges; the throttle).
 *  - Transmit link (memory -> NIC), with TransmitPath, at the start of every connection from
 *    the host: the DMA read rate of the operating point.
 * Rates are payload bit/s; a link carries wire bytes, so its capacity is rate / 8 x the
 * transport's wire bytes per payload byte (FluidTransport::GetWirePerPayload()).
 *
 * hostCC throttling (HostCcThrottling) is taken at its steady state: while connections to the
 * host transmit, the throttle level is the lowest at which its rule stops raising it
 * (HostInterconnect::NextThrottleLevel with the DMA rate at the receive link's capacity:
 * the host path taken as the bottleneck), level 0 while none transmits. What the flow level
 * leaves out (the NIC buffer, host drops and PFC, hostCC's CE marks, per-packet IOTLB miss
 * latency) is listed in doc/host.rst.
 *
 * Install before the host's connections are opened (FluidTransport::Open routes a connection
 * at its opening).
 */
class FluidHost : public Object
{
  public:
    static TypeId GetTypeId();
    FluidHost();
    ~FluidHost() override;

    /**
     * Put a host's interconnect on its transport's fluid network (adds the links and registers
     * with the transport: FluidTransport::SetHost).
     * \param host the path's parameters (Configure() is called here; Enabled must be true)
     * \param transport the host's transport (bound to a fluid fabric, no connection opened)
     * \throws std::invalid_argument if called twice, for a transport that is not bound, has
     *         connections or already has a host path, or for a path the parameters do not make
     */
    void Install(Ptr<HostInterconnect> host, Ptr<FluidTransport> transport);
    /// \return the host interconnect whose rates the links take
    Ptr<HostInterconnect> GetHostInterconnect() const;
    /// \return the receive link's id (NIC -> memory), -1 before Install
    int64_t GetReceiveLink() const;
    /// \return the transmit link's id (memory -> NIC), -1 without TransmitPath
    int64_t GetTransmitLink() const;
    /// \return connections to the host transmitting now (the IOTLB working set's queue pairs)
    uint32_t GetActiveConnections() const;
    /// \return the receive link's rate now, bit/s of payload
    double GetReceiveRate() const;
    /// \return the transmit link's rate now, bit/s of payload (0 without TransmitPath)
    double GetTransmitRate() const;

    /**
     * Payload bytes the receive link carried so far (its wire bytes over the transport's wire
     * bytes per payload byte: exact for messages of full packets), up to the network's last
     * FluidNetwork::Advance() or recomputation.
     * \return bytes
     */
    double GetReceivedPayloadBytes() const;
    /// \return the same for the transmit link (0 without TransmitPath)
    double GetTransmittedPayloadBytes() const;

    /// A connection to this host started transmitting (FluidConnection).
    void ConnectionStarted();
    /// A connection to this host stopped transmitting (FluidConnection).
    void ConnectionStopped();

  protected:
    void DoDispose() override;

  private:
    /// Throttle level (hostCC steady state) and link capacities for the connections now.
    void Update();
    /// The host interconnect's operating point changed (its OperatingPoint trace).
    void OperatingChanged(double writeRate, double readRate);
    /// \param rate payload bit/s \return the link capacity (wire bytes/s)
    double Capacity(double rate) const;

    Ptr<HostInterconnect> m_host;
    Ptr<FluidNetwork> m_net;
    int64_t m_rx{-1};
    int64_t m_tx{-1};
    uint32_t m_active{0};
    uint32_t m_writeBytes{1000}; //!< payload per packet (the transport's Mtu)
    double m_wirePerPayload{1};
    double m_lineRate{0}; //!< the NIC's line rate, bit/s (hostCC's target)
    bool m_throttling{false};
    bool m_updating{false};
    TracedValue<double> m_rxRate;
    TracedValue<double> m_txRate;
};

} // namespace ns3

#endif /* MLNET_FLUID_HOST_H */
