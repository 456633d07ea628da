/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_AGGREGATION_ENDPOINT_H
#define MLNET_AGGREGATION_ENDPOINT_H

#include "aggregation-worker.h"

#include "ns3/fabric-net-device.h"
#include "ns3/object.h"

#include <map>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The aggregation protocol handler of a host: receives the results addressed to the
 * host (UDP port AggregationHeader::kUdpPort) through the node's protocol handlers, next to the
 * RDMA NIC and any ns-3 internet stack, and hands them to the host's AggregationWorker of the
 * job. Aggregated to the host Node by AggregationHelper.
 */
class AggregationEndpoint : public Object
{
  public:
    static TypeId GetTypeId();
    AggregationEndpoint();
    ~AggregationEndpoint() override;

    /**
     * Listen on a host port.
     * \param dev the host's FabricNetDevice
     */
    void Install(Ptr<FabricNetDevice> dev);
    /// \param w a worker of this host (one per job)
    void AddWorker(Ptr<AggregationWorker> w);
    /// \return the worker of a job on this host (null if none)
    Ptr<AggregationWorker> GetWorker(uint16_t job) const;
    /// \return the host port
    Ptr<FabricNetDevice> GetDevice() const;

  protected:
    void DoDispose() override;

  private:
    void Receive(Ptr<NetDevice> dev,
                 Ptr<const Packet> p,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType type);

    Ptr<FabricNetDevice> m_dev;
    std::map<uint16_t, Ptr<AggregationWorker>> m_workers;
    uint64_t m_unknown{0};
};

} // namespace ns3

#endif /* MLNET_AGGREGATION_ENDPOINT_H */
