/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLUID_AGGREGATOR_H
#define MLNET_FLUID_AGGREGATOR_H

#include "ns3/fluid-fabric.h"
#include "ns3/gradient-aggregator.h"
#include "ns3/object-factory.h"
#include "ns3/traced-callback.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief In-network aggregation at flow level (the flow backend's GradientAggregator): each
 * tree of a job is one fluid flow of a FluidNetwork, built by
 * AggregationHelper::InstallFluidJob from the same trees as the packet model
 * (AggregationHelper::PlanTrees).
 *
 * A tree's flow moves at one common rate r (wire bytes per second of one worker's
 * contributions): every link of the tree's edges (worker -> point, point -> parent, and the
 * results back down) carries r per edge that crosses it, and every aggregation point with a
 * finite datapath rate has a service link (FluidFabric::AddEndpoint) of its element rate,
 * loaded with (its children) x (elements per wire byte) x r. A slice's chunks are striped over
 * the trees as the workers stripe them (AggregationWorker::ChunksOnTree); a tree carries its
 * slices one after the other (as its chunks go in sequence), each delivered one unloaded
 * latency after its drain (TreeSpec::latency). The slice is done when every tree that carries
 * some of it has delivered. A tree's rate is capped at its window (TreeSpec::windowRate): the
 * workers' slot pool, one chunk per slot per unloaded round trip.
 *
 * Under DCQCN at flow level (a FluidDcqcn on the fabric's network) the trees of a job whose
 * packet workers run AggregationDcqcn (SetCongestionControl) are its owners: each tree one
 * reaction point, its flow offered at the reaction point's rate RC. At packet level every
 * worker of a tree gets the same results, each carrying the ECN-OR of the contributions
 * summed into it, so the workers see one stream of marks and cut alike: one reaction point per
 * tree is their image (doc/flow-backend.rst, *The trees' congestion control at flow level*).
 */
class FluidAggregator : public GradientAggregator
{
  public:
    /// Trace signature of slice completions: (slice id, bytes, time posted, time done).
    typedef void (*SliceTracedCallback)(uint64_t slice, uint64_t bytes, Time posted, Time done);

    /// One tree as a fluid flow.
    struct TreeSpec
    {
        std::vector<uint32_t> path;  //!< every link the tree loads (service links included)
        std::vector<double> coef;    //!< bytes on path[i] per wire byte of one worker
        Time latency;                //!< from the drain to the last worker's last result
        uint32_t points{0};          //!< aggregation points of the tree
        std::vector<uint32_t> edges; //!< per link of path: tree edges crossing it (0: service)
        uint32_t slots{0};           //!< the tree's slot pool (its window, in chunks)
        Time roundTrip;              //!< unloaded round trip: the slowest chains up and down
        /// cap of the tree's rate: slots x chunk frame / roundTrip (wire B/s; 0 = none)
        double windowRate{0};
    };

    static TypeId GetTypeId();
    FluidAggregator();
    ~FluidAggregator() override;

    /**
     * Set the job (done by AggregationHelper::InstallFluidJob).
     * \param fabric the fluid fabric \param jobId the job
     * \param workers the workers' host addresses (rank order)
     * \param trees the trees \param chunkElements elements per chunk (>= 1)
     * \param elementBytes bytes per element on the wire \param frameOverhead wire bytes of a
     *        chunk's frame beyond its elements (headers and framing)
     */
    void SetJob(Ptr<FluidFabric> fabric,
                uint16_t jobId,
                const std::vector<Ipv4Address>& workers,
                const std::vector<TreeSpec>& trees,
                uint32_t chunkElements,
                uint32_t elementBytes,
                uint32_t frameOverhead);

    /**
     * Run the trees under DCQCN at flow level where the fabric's network has a FluidDcqcn (the
     * scenario's "fluidCc"), as ns3::AggregationDcqcn runs the packet workers (done by
     * AggregationHelper::InstallFluidJob for that congestion control). Without this call (the
     * packet workers' AggregationDctcp or AggregationFixedWindow), or without a FluidDcqcn,
     * the trees take their max-min rates.
     * \param reactionPoint the factory of each tree's reaction point (an RdmaCongestionOps:
     *        AggregationDcqcn::GetReactionPointFactory())
     * \param lineRate the workers' line rate (bit/s: the slowest worker's port)
     * \throws std::invalid_argument if lineRate is not positive and finite
     */
    void SetCongestionControl(const ObjectFactory& reactionPoint, double lineRate);
    /// \return whether the trees run under DCQCN at flow level where the network models it
    bool HasCongestionControl() const;

    /// \throws std::invalid_argument if the transports are not the FluidTransports of the
    ///         job's worker hosts on its fabric
    void Setup(const std::vector<Ptr<MessageTransport>>& workers) override;
    void Aggregate(uint64_t sliceId,
                   uint64_t bytes,
                   uint8_t priorityClass,
                   Callback<void> done) override;

    uint16_t GetJobId() const;                                //!< \return the job
    const std::vector<TreeSpec>& GetTrees() const;            //!< \return the trees
    uint64_t GetSlicesDone() const;                           //!< \return slices aggregated
    const std::vector<uint64_t>& GetWireBytesPerTree() const; //!< \return per tree, so far
    /// \return true while a slice is not done
    bool IsBusy() const;

  protected:
    void DoDispose() override;

  private:
    /// A slice in progress.
    struct Slice
    {
        uint64_t id{0};
        uint64_t bytes{0};
        uint32_t pending{0}; //!< trees that have not delivered their share
        Time posted;
        Callback<void> done;
    };

    /// A slice's share waiting on, or draining through, a tree.
    struct Share
    {
        std::shared_ptr<Slice> slice;
        uint64_t wire{0};
        uint8_t cls{0};
    };

    /// Start the next share of tree t if it is idle. \param t the tree
    void StartNext(uint32_t t);
    /// A share of a slice was delivered. \param slice the slice
    void Delivered(const std::shared_ptr<Slice>& slice);

    Ptr<FluidFabric> m_fabric;
    uint16_t m_jobId{0};
    std::vector<Ipv4Address> m_workers;
    std::vector<TreeSpec> m_trees;
    std::vector<std::deque<Share>> m_queues; //!< per tree: shares not started
    std::vector<bool> m_draining;            //!< per tree: a share is draining
    std::vector<uint64_t> m_wirePerTree;
    uint32_t m_chunkElements{256};
    uint32_t m_elementBytes{4};
    uint32_t m_frameOverhead{86};
    uint32_t m_bytesPerElement{4};
    uint64_t m_chunkCounter{0}; //!< chunks posted so far (chunk g is on tree g mod trees)
    uint64_t m_slicesDone{0};
    uint64_t m_slicesOpen{0};
    bool m_cc{false};              //!< the trees run under DCQCN at flow level
    ObjectFactory m_reactionPoint; //!< each tree's reaction point (SetCongestionControl)
    std::vector<bool> m_ccGiven;   //!< per tree: its reaction point was given to the FluidDcqcn
    double m_lineRate{0};          //!< the workers' line rate (bit/s; the slowest)
    bool m_ecnOr{true};            //!< EcnOr attribute
    Time m_cnpDelay;               //!< CnpDelay attribute
    TracedCallback<uint64_t, uint64_t, Time, Time> m_sliceTrace;
};

} // namespace ns3

#endif /* MLNET_FLUID_AGGREGATOR_H */
