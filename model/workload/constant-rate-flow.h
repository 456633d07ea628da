/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_CONSTANT_RATE_FLOW_H
#define MLNET_CONSTANT_RATE_FLOW_H

#include "ns3/application.h"
#include "ns3/data-class.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/traced-callback.h"
#include "ns3/tx-time-accumulator.h"

namespace ns3
{

class FabricNetDevice;

/**
 * \ingroup mlnet
 * \brief A constant-rate IPv4/UDP flow sent straight through a host's FabricNetDevice (no
 * internet stack, no transport): the simplest traffic source for fabric experiments and the
 * traffic of the mainline comparison benchmarks.
 *
 * Every packet carries a SeqTsHeader (32-bit sequence number, send time) as the first payload
 * bytes, so a FlowSink can detect reordering; the rest of the payload is virtual. Like a NIC whose
 * transmit ring is full, the source holds back while more than BacklogLimit bytes wait in its class
 * queue (e.g. while PFC pauses the host port), so a paused host does not drop.
 */
class ConstantRateFlow : public Application
{
  public:
    static TypeId GetTypeId();
    ConstantRateFlow();

    /**
     * Set the host port to send through (default: the node's first FabricNetDevice).
     * \param dev the device
     */
    void SetDevice(Ptr<FabricNetDevice> dev);

    uint64_t GetBytesSent() const;   //!< \return IPv4 bytes handed to the device
    uint64_t GetPacketsSent() const; //!< \return packets handed to the device

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void SendNext();

    Ptr<FabricNetDevice> m_dev;
    Ipv4Address m_remote;
    uint16_t m_srcPort{0};
    uint16_t m_dstPort{0};
    DataRate m_rate;
    uint32_t m_payload{1000};
    uint64_t m_maxBytes{0};
    uint8_t m_class{DataClass::DEFAULT};
    bool m_ect{true};
    uint32_t m_backlogLimit{0};
    uint64_t m_seq{0};
    uint64_t m_bytesSent{0};
    TxTimeAccumulator m_clock; //!< exact intervals between packets at DataRate
    EventId m_event;
    TracedCallback<Ptr<const Packet>> m_txTrace;
};

} // namespace ns3

#endif /* MLNET_CONSTANT_RATE_FLOW_H */
