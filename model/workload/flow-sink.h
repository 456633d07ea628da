/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLOW_SINK_H
#define MLNET_FLOW_SINK_H

#include "ns3/application.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <tuple>

namespace ns3
{

class NetDevice;
class Packet;
class Address;

/**
 * \ingroup mlnet
 * \brief Receives the IPv4/UDP packets of ConstantRateFlow sources on a host (no internet stack
 * needed) and keeps per-flow records: bytes, packets, first/last arrival, reordering, CE marks.
 */
class FlowSink : public Application
{
  public:
    /// Per-flow record.
    struct FlowRecord
    {
        uint64_t bytes{0};     //!< IPv4 bytes received
        uint64_t packets{0};   //!< packets received
        uint64_t reordered{0}; //!< packets whose sequence number was below the highest seen
        uint64_t ceMarked{0};  //!< packets carrying ECN CE
        uint64_t maxSeq{0};    //!< highest sequence number seen
        Time first;            //!< first arrival
        Time last;             //!< last arrival
    };

    /// Flow identifier: (source address, source port, destination port).
    typedef std::tuple<uint32_t, uint16_t, uint16_t> FlowId;

    static TypeId GetTypeId();
    FlowSink();

    const std::map<FlowId, FlowRecord>& GetFlows() const; //!< \return per-flow records
    uint64_t GetTotalBytes() const;                       //!< \return all bytes received
    uint64_t GetTotalReordered() const;                   //!< \return all reordered packets

  private:
    void StartApplication() override;
    void StopApplication() override;
    void Receive(Ptr<NetDevice> dev,
                 Ptr<const Packet> p,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType packetType);

    std::map<FlowId, FlowRecord> m_flows;
    uint64_t m_total{0};
    TracedCallback<Ptr<const Packet>> m_rxTrace;
};

} // namespace ns3

#endif /* MLNET_FLOW_SINK_H */
