/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_SYNC_BOUND_H
#define MLNET_SYNC_BOUND_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief What the idle-network bound of ring all-reduce against in-network aggregation needs
 * to know about one data-parallel job.
 */
struct SyncBoundInput
{
    double forwardS{0};            //!< forward pass per iteration (s, >= 0)
    double backwardS{0};           //!< backward pass per iteration (s, >= 0)
    double gradientBytes{0};       //!< gradient bytes per worker per iteration (> 0)
    uint32_t workers{2};           //!< workers n (>= 2)
    double linkBps{0};             //!< host link rate (bit/s, > 0)
    double ringPayloadFraction{1}; //!< ring's payload bytes / wire bytes per packet, in (0, 1]
    double aggPayloadFraction{1};  //!< aggregation's payload bytes / wire bytes, in (0, 1]
    double minPeriodS{0};          //!< iterations start at most this often (s, >= 0; 0 = free)
};

/**
 * \ingroup mlnet
 * \brief Iteration times of ring all-reduce and in-network aggregation on an idle network.
 */
struct SyncBound
{
    double ringCommS{0};      //!< ring: 2(n-1)/n x gradient / goodput (s)
    double aggCommS{0};       //!< aggregation: gradient / goodput (each byte once up, once down)
    double ringSerialS{0};    //!< ring, no overlap: forward + backward + ringCommS
    double aggSerialS{0};     //!< aggregation, no overlap: forward + backward + aggCommS
    double ringOverlapS{0};   //!< ring, backward overlaps: forward + max(backward, ringCommS)
    double aggOverlapS{0};    //!< aggregation, the same with aggCommS
    double speedupSerial{0};  //!< ringSerialS / aggSerialS
    double speedupOverlap{0}; //!< ringOverlapS / aggOverlapS
    double speedup{0};        //!< the bound: max(speedupSerial, speedupOverlap) <= 2(n-1)/n
};

/**
 * \ingroup mlnet
 * \brief The idle-network bound of the training speed-up of in-network aggregation over ring
 * all-reduce (bandwidth terms only; per-message latencies are left out, they matter only for
 * small gradients).
 *
 * A ring all-reduce sends 2(n-1)/n of the gradient from every worker (reduce-scatter and
 * all-gather, n-1 steps each); in-network aggregation sends it once up and receives the sum
 * once down on the full-duplex host link, so its transfer takes gradient / goodput. An
 * iteration is forward + backward + transfer when nothing overlaps, forward + max(backward,
 * transfer) when the transfer runs during the backward pass (gradients leave layer by layer;
 * the next forward waits for the first layer's, which comes last). The speed-up is the ratio
 * of the two schemes' iteration times under the same assumption; the bound is the larger of the
 * two ratios. Both are at most 2(n-1)/n (no compute) and at least 1. With a minimum period P
 * (a job whose iteration rate is capped), each iteration time is max(P, the above).
 *
 * \param in the job
 * \return the bound
 * \throws std::invalid_argument naming the field and its accepted range
 */
SyncBound RingVsAggregationBound(const SyncBoundInput& in);

} // namespace ns3

#endif /* MLNET_SYNC_BOUND_H */
