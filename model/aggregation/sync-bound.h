/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_SYNC_BOUND_H
#define MLNET_SYNC_BOUND_H

#include <cstdint>
#include <vector>

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

/**
 * \ingroup mlnet
 * \brief Where the hops of a ring all-reduce go in a k-ary fat-tree.
 *
 * Hosts are numbered as FabricTopologyHelper::BuildFatTree numbers them: host h sits under
 * edge switch (rack) h / (k/2), in pod h / (k/2)^2. A ring sends from its i-th host to its
 * (i+1 mod n)-th; every hop carries the same bytes (2(n-1)/n of the gradient per iteration).
 * A hop between pods crosses an edge -> aggregation and an aggregation -> core uplink of its
 * source pod; a hop between racks of one pod only an edge -> aggregation uplink.
 */
struct RingHops
{
    uint32_t sameRack{0}; //!< hops that stay under one edge switch
    uint32_t samePod{0};  //!< hops between racks of one pod
    uint32_t interPod{0}; //!< hops between pods
    uint32_t pods{0};     //!< pods the ring visits
};

/**
 * \ingroup mlnet
 * \brief Counts a ring's hops by how far they go in a k-ary fat-tree.
 * \param ring the hosts in ring order (>= 2, distinct, each < k^3/4)
 * \param k the fat-tree's arity (even, >= 2)
 * \return the hop counts
 * \throws std::invalid_argument naming the parameter and its accepted range
 */
RingHops CountRingHops(const std::vector<uint32_t>& ring, uint32_t k);

/**
 * \ingroup mlnet
 * \brief Rack-aware ring order: the hosts sorted by index, i.e. by rack and pod.
 *
 * The ring then enters and leaves each pod it visits once: interPod = pods (0 for one pod),
 * the fewest hops between pods, and so the fewest bytes on the pods' aggregation -> core
 * uplinks, any ring over these hosts can have (a ring over m >= 2 pods crosses at least m pod
 * boundaries).
 * \param hosts the job's hosts (>= 2, distinct, each < k^3/4)
 * \param k the fat-tree's arity (even, >= 2)
 * \return the hosts in rack order
 * \throws std::invalid_argument as CountRingHops
 */
std::vector<uint32_t> RackOrderedRing(std::vector<uint32_t> hosts, uint32_t k);

} // namespace ns3

#endif /* MLNET_SYNC_BOUND_H */
