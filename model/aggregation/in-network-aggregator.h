/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_IN_NETWORK_AGGREGATOR_H
#define MLNET_IN_NETWORK_AGGREGATOR_H

#include "aggregation-worker.h"

#include "ns3/gradient-aggregator.h"
#include "ns3/node.h"
#include "ns3/traced-callback.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief One aggregation tree of a job, as built by AggregationHelper.
 */
struct AggregationTreeInfo
{
    uint16_t treeId{0};     //!< tree
    uint32_t rootSwitch{0}; //!< node id of the switch the tree is rooted at
    Ipv4Address root;       //!< address of the root aggregation point
    uint32_t slots{0};      //!< slot pool (window cap) of the tree
    uint32_t points{0};     //!< aggregation points in the tree (root included)
    uint32_t depth{0};      //!< aggregation points on the longest worker-to-root chain
};

/**
 * \ingroup mlnet
 * \brief In-network aggregation for a DataParallelJob (its GradientAggregator hook): every
 * slice is posted to the AggregationWorker of every worker (same size, same order); the slice
 * is done when every worker holds the aggregated result. Built by AggregationHelper::InstallJob.
 */
class InNetworkAggregator : public GradientAggregator
{
  public:
    /// Trace signature of slice completions: (slice id, bytes, time posted, time done).
    typedef void (*SliceTracedCallback)(uint64_t slice, uint64_t bytes, Time posted, Time done);

    static TypeId GetTypeId();
    InNetworkAggregator();
    ~InNetworkAggregator() override;

    /**
     * Set the job (done by AggregationHelper).
     * \param jobId job \param workers one per worker host (rank order)
     * \param trees the job's trees
     */
    void SetJob(uint16_t jobId,
                const std::vector<Ptr<AggregationWorker>>& workers,
                const std::vector<AggregationTreeInfo>& trees);

    /// \throws std::invalid_argument if the transports are not the RDMA NICs of the job's
    ///         worker hosts
    void Setup(const std::vector<Ptr<MessageTransport>>& workers) override;
    void Aggregate(uint64_t sliceId,
                   uint64_t bytes,
                   uint8_t priorityClass,
                   Callback<void> done) override;

    uint16_t GetJobId() const;                                     //!< \return the job
    const std::vector<Ptr<AggregationWorker>>& GetWorkers() const; //!< \return the workers
    const std::vector<AggregationTreeInfo>& GetTrees() const;      //!< \return the trees
    uint64_t GetSlicesDone() const;                                //!< \return slices aggregated

  protected:
    void DoDispose() override;

  private:
    uint16_t m_jobId{0};
    std::vector<Ptr<AggregationWorker>> m_workers;
    std::vector<AggregationTreeInfo> m_trees;
    uint32_t m_bytesPerElement{4};
    uint64_t m_slicesDone{0};
    TracedCallback<uint64_t, uint64_t, Time, Time> m_sliceTrace;
};

} // namespace ns3

#endif /* MLNET_IN_NETWORK_AGGREGATOR_H */
