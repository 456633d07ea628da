/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_RDMA_RECEIVE_STATS_H
#define MLNET_RDMA_RECEIVE_STATS_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief What the responder (receiving) side of one RDMA queue pair saw: every data packet that
 * arrived at the NIC for it, whether the transport accepted it or not.
 *
 * Kept by RdmaNic per responder context (RdmaNic::GetReceiveStats, indexed by the requester's
 * RdmaQueuePair::GetPeerQpn()). Byte counts are IPv4 bytes (headers included, Ethernet framing
 * excluded) except deliveredBytes, which is message payload.
 */
struct RdmaReceiveStats
{
    uint64_t packets{0};         //!< data packets that arrived (duplicates, out of sequence too)
    uint64_t bytes{0};           //!< IPv4 bytes of those packets
    uint64_t ceMarked{0};        //!< arrived data packets carrying ECN CE (notification point)
    uint64_t outOfOrder{0};      //!< arrivals whose PSN is below the highest PSN seen
    uint64_t outOfSequence{0};   //!< arrivals ahead of the expected PSN (discarded: go-back-N)
    uint64_t duplicates{0};      //!< arrivals of PSNs already accepted (discarded)
    uint64_t deliveredBytes{0};  //!< payload bytes accepted in order
    uint64_t messages{0};        //!< messages received completely
    Time firstArrival{Time(-1)}; //!< first data arrival (-1: none)
    Time lastArrival{Time(-1)};  //!< last data arrival (-1: none)
    Time lastDelivery{Time(-1)}; //!< last in-order acceptance (-1: none)
};

} // namespace ns3

#endif /* MLNET_RDMA_RECEIVE_STATS_H */
