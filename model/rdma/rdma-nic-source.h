/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_RDMA_NIC_SOURCE_H
#define MLNET_RDMA_NIC_SOURCE_H

#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief A packet source other than a queue pair that an RdmaNic's transmit scheduler serves
 * like one (same strict priority between classes, same round robin within a class): e.g. the
 * transport of in-network aggregation. Register it with RdmaNic::AddSource().
 */
class RdmaNicSource
{
  public:
    virtual ~RdmaNicSource() = default;
    /**
     * When can the source hand the NIC its next packet?
     * \param cls [out] the priority class of that packet
     * \return the earliest time (Time::Max() if it has nothing to send)
     */
    virtual Time GetNextSendTime(uint8_t& cls) = 0;
    /**
     * The NIC takes the next packet now (called only when GetNextSendTime() <= now and its
     * class is not paused).
     * \return the packet (an IPv4 datagram)
     */
    virtual Ptr<Packet> Dequeue() = 0;
};

} // namespace ns3

#endif /* MLNET_RDMA_NIC_SOURCE_H */
