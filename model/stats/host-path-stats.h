/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_HOST_PATH_STATS_H
#define MLNET_HOST_PATH_STATS_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Counters of one host's interconnect (HostInterconnect::GetStats). Byte counts are
 * IPv4 bytes of received data packets: rxBytes = deliveredBytes + dropBytes + bytes still in
 * the NIC buffer.
 */
struct HostPathStats
{
    uint64_t rxPackets{0};        //!< data packets that arrived at the NIC buffer
    uint64_t rxBytes{0};          //!< their IPv4 bytes
    uint64_t deliveredPackets{0}; //!< packets written to memory and handed to the transport
    uint64_t deliveredBytes{0};   //!< their IPv4 bytes
    uint64_t dmaPayloadBytes{0};  //!< payload bytes written by DMA
    uint64_t dropPackets{0};      //!< packets dropped because the NIC buffer was full
    uint64_t dropBytes{0};        //!< their IPv4 bytes
    uint64_t ceMarked{0};         //!< packets CE-marked by the host-congestion response
    uint64_t pausesSent{0};       //!< PFC pause frames sent upstream (refreshes included)
    uint64_t resumesSent{0};      //!< PFC resume frames sent upstream
    uint64_t iotlbHits{0};        //!< IOTLB lookups that hit
    uint64_t iotlbMisses{0};      //!< IOTLB lookups that missed (page walks)
    uint64_t maxBufferBytes{0};   //!< highest NIC-buffer occupancy
    double queueDelaySumNs{0};    //!< sum over delivered packets of arrival-to-memory time
    Time maxQueueDelay{Time(0)};  //!< largest arrival-to-memory time
    Time busyTime{Time(0)};       //!< time the DMA engine was writing
    uint64_t txPayloadBytes{0};   //!< payload bytes read by DMA for sending
    uint32_t throttleLevel{0};    //!< memory-application throttle level now
    uint32_t maxThrottleLevel{0}; //!< highest throttle level reached
};

} // namespace ns3

#endif /* MLNET_HOST_PATH_STATS_H */
