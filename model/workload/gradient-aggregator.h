/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MLNET_GRADIENT_AGGREGATOR_H
#define MLNET_GRADIENT_AGGREGATOR_H

#include "ns3/callback.h"
#include "ns3/message-transport.h"
#include "ns3/object.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Hook for in-network aggregation: sums one gradient slice of every worker and returns
 * the result to every worker (implemented by the aggregation part, e.g. a switch-resident
 * aggregator). A DataParallelJob in "Aggregator" mode hands each slice of its transfer plan to
 * Aggregate(), in plan order.
 */
class GradientAggregator : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    ~GradientAggregator() override;

    /**
     * Called once by the job before the first slice.
     * \param workers the workers' transports (rank order): RDMA NICs at packet level,
     *        FluidTransports at flow level
     * \throws std::invalid_argument if they are not the hosts (or the backend) the aggregator
     *         was installed for
     */
    virtual void Setup(const std::vector<Ptr<MessageTransport>>& workers) = 0;
    /**
     * Aggregate one slice.
     * \param sliceId job-unique slice id
     * \param bytes gradient bytes of the slice per worker
     * \param priorityClass the slice's priority class from the plan
     * \param done to call once every worker holds the aggregated slice
     */
    virtual void Aggregate(uint64_t sliceId,
                           uint64_t bytes,
                           uint8_t priorityClass,
                           Callback<void> done) = 0;
};

} // namespace ns3

#endif /* MLNET_GRADIENT_AGGREGATOR_H */
