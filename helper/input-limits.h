/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_INPUT_LIMITS_H
#define MLNET_INPUT_LIMITS_H

#include "ns3/data-class.h"
#include "ns3/dcqcn-profile.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief An accepted integer range [lo, hi] of a user-facing parameter.
 */
struct UintLimit
{
    uint64_t lo; //!< smallest accepted value
    uint64_t hi; //!< largest accepted value
};

/**
 * \ingroup mlnet
 * \brief An accepted real range [lo, hi] of a user-facing parameter.
 */
struct RealLimit
{
    double lo; //!< smallest accepted value
    double hi; //!< largest accepted value
};

/**
 * \ingroup mlnet
 * \brief The one table of ranges for parameters that both front ends take (the JSON scenario
 * keys in helper/scenario*.cc and the Python arguments in bindings/python/), so that a value
 * is accepted by one exactly when it is accepted by the other. Names: JSON key / Python
 * argument. Limits that an ns-3 attribute checker already holds (switch buffer, ECN
 * thresholds, ...) are read from the checker by both instead.
 */
struct InputLimits
{
    /**
     * topology.k / fat_tree(k), even. The largest fat-tree that builds in well under a minute:
     * k = 48 (27,648 hosts, 2,880 switches) takes 28 s of CPU and 2.4 GB; k = 64 took 190 s
     * and 7.1 GB (the routes alone are switches x hosts; see doc/scenario.rst).
     */
    static constexpr UintLimit FAT_TREE_K{2, 48};
    /// topology.hostsPerEdge / fat_tree(hosts_per_edge) is in [0, this x k] (0 = k/2)
    static constexpr uint64_t HOSTS_PER_EDGE_PER_K = 4;
    /// topology.leaves / leaf_spine(leaves)
    static constexpr UintLimit LEAVES{1, 1024};
    /// topology.spines / leaf_spine(spines)
    static constexpr UintLimit SPINES{1, 256};
    /// topology.hostsPerLeaf / leaf_spine(hosts_per_leaf)
    static constexpr UintLimit HOSTS_PER_LEAF{1, 1024};
    /// topology.left, topology.right / dumbbell(left, right)
    static constexpr UintLimit DUMBBELL_HOSTS{1, 4096};
    /// hosts of any topology
    static constexpr uint64_t MAX_HOSTS = 65536;
    /// switches x hosts of any topology: every switch holds a route to every host (4 bytes
    /// each), and building them is most of a large topology's build time. k = 48 has 79.6 M.
    static constexpr uint64_t MAX_ROUTES = 80000000;
    /// priority class of data traffic (DataClass): class 7 carries the NICs' ACK, NAK and CNP
    static constexpr UintLimit RDMA_PRIORITY{0, DataClass::MAX};
    /// bytes of one RDMA message (rdma, periodic-job / rdma_flow, periodic_job)
    static constexpr UintLimit MESSAGE_BYTES{1, uint64_t(1) << 50};
    /// training iterations of a job
    static constexpr UintLimit ITERATIONS{1, 1000000};
    /// iterGainSlope / iter_gain_slope: S of F(r) = S r + I
    static constexpr RealLimit ITER_GAIN_SLOPE{-100, 100};
    /// iterGainIntercept / iter_gain_intercept: I of F(r) = S r + I
    static constexpr RealLimit ITER_GAIN_INTERCEPT{0, 100};
    /// aggressiveness of a job's DCQCN profile
    static constexpr RealLimit AGGRESSIVENESS{DcqcnProfile::MIN_AGGRESSIVENESS,
                                              DcqcnProfile::MAX_AGGRESSIVENESS};
    /// computeCv / compute_cv: coefficient of variation of a periodic job's compute time
    static constexpr RealLimit COMPUTE_CV{0, 1};
    /// minIterationPeriod / min_iteration_period: seconds between a job's iteration starts
    /// (TrainingJob::MinIterationPeriod; 0 = no cap)
    static constexpr RealLimit MIN_ITERATION_PERIOD_S{0, 3600};
    /// seed (RngRun) of a run
    static constexpr UintLimit SEED{1, 0xffffffffu};
    /// aggregation.maxSlots / aggregate(max_slots): cap of a tree's slot pool
    /// (AggregationHelper::SetMaxSlots)
    static constexpr UintLimit AGG_MAX_SLOTS{1, 65536};
    /// trees / aggregate(trees): aggregation trees of an in-network aggregation job
    static constexpr UintLimit AGG_TREES{1, 1024};
    /// slots / aggregate(slots): slot pool per tree, 0 = the largest the buffers allow
    static constexpr UintLimit AGG_SLOTS{0, 65536};
    /// scaleExponent / aggregate(scale_exponent): fixed-point scale 2^e of the workers' values
    /// (the AggregationWorker::ScaleExponent attribute also takes negative values; the front
    /// ends do not)
    static constexpr UintLimit AGG_SCALE_EXPONENT{0, 64};

    /**
     * The range the checker of a numeric ns-3 attribute accepts, read from its type information
     * ("uint64_t 65536:17179869184", "double 0:1"), so such limits live only in GetTypeId.
     * \param tid the type \param attribute the attribute name
     * \return the range ([0, max double] if the checker states none)
     * \throw std::logic_error if the type has no such attribute
     */
    static RealLimit OfAttribute(TypeId tid, const std::string& attribute);
    /**
     * OfAttribute() for an integer attribute.
     * \param tid the type \param attribute the attribute name
     * \return the range, clamped to uint64_t
     */
    static UintLimit UintOfAttribute(TypeId tid, const std::string& attribute);

    /**
     * \param v a value \param what its name, for the message \param limit the range
     * \return v \throw std::invalid_argument "<what> = <v> is out of range [lo, hi]" if outside
     */
    static uint64_t Check(uint64_t v, const std::string& what, const UintLimit& limit);
    /**
     * \param x a value \param what its name, for the message \param limit the range
     * \return x \throw std::invalid_argument "<what> = <x> is out of range [lo, hi]" if outside
     *         (NaN too)
     */
    static double Check(double x, const std::string& what, const RealLimit& limit);
};

} // namespace ns3

#endif /* MLNET_INPUT_LIMITS_H */
