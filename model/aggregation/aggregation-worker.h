/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_AGGREGATION_WORKER_H
#define MLNET_AGGREGATION_WORKER_H

#include "aggregation-congestion-ops.h"
#include "aggregation-stack-header.h"

#include "ns3/callback.h"
#include "ns3/fabric-net-device.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/rdma-nic.h"
#include "ns3/reusable-timer.h"
#include "ns3/traced-callback.h"
#include "ns3/tx-time-accumulator.h"

#include <array>
#include <deque>
#include <map>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Where one tree of a job starts for one worker.
 */
struct AggWorkerTree
{
    uint16_t treeId{0};        //!< tree of the job
    Ipv4Address parent;        //!< the first aggregation point above the worker
    uint16_t indexAtParent{0}; //!< the worker's child index there
    uint32_t slots{1};         //!< slot pool of the tree (window cap)
};

/**
 * \ingroup mlnet
 * \brief Counters of an aggregation worker.
 */
struct AggregationWorkerStats
{
    uint64_t chunksSent{0};    //!< contributions sent (first time)
    uint64_t retransmitted{0}; //!< contributions sent again
    uint64_t timeouts{0};      //!< retransmission timer expiries with chunks outstanding
    uint64_t results{0};       //!< new results received
    uint64_t markedResults{0}; //!< of which marked (ECN-OR or CE)
    uint64_t duplicates{0};    //!< results received again
    uint64_t bytesSent{0};     //!< wire bytes of contributions (IPv4 datagrams)
};

/**
 * \ingroup mlnet
 * \brief The aggregation transport of one worker of one job: splits the gradient it is given
 * into chunks of ChunkElements elements, stripes the chunks over the job's trees (chunk i on
 * tree i mod T, PANAMA's load balancing), sends each as a contribution to the tree's first
 * aggregation point, and collects the results.
 *
 * Per tree: chunks carry consecutive sequence numbers; at most min(window, slot pool) chunks
 * are in flight beyond the oldest one without result; results are the acknowledgements and
 * carry the congestion signal to the tree's congestion control (an AggregationCongestionOps,
 * DCTCP-style window by default); rate-based algorithms are paced. A tree that gets no new
 * result for RetransmitTimeout sends every chunk still without result again (the aggregation
 * points answer duplicates with the stored result, or re-aggregate).
 *
 * On a host without an RDMA NIC the worker plays the NIC's transmit ring itself: at most
 * TxRingFrames of its frames per priority class wait in the host port's queue, and the next
 * one is made (paced, its congestion control consulted) when one of them leaves the queue, so
 * a rate cut applies from the next frame made, as with a NIC that pulls frames.
 *
 * Every worker of a job must post the same sequence of gradients (sizes and order): chunk
 * numbers are what the aggregation points match. Values mode (PostValues) carries real numbers
 * and returns the element-wise sum; size-only (Post) carries virtual payload.
 */
class AggregationWorker : public Object, public RdmaNicSource
{
  public:
    /// Completion of a post: (post id, sum of every worker's values; empty in size-only mode).
    typedef Callback<void, uint64_t, const std::vector<float>&> DoneCallback;
    /// Trace signature of window/rate changes: (tree, window in chunks, rate in bit/s).
    typedef void (*CcTracedCallback)(uint16_t tree, double cwnd, double rate);
    /// Trace signature of post completions: (post id, elements, time posted, time done).
    typedef void (*PostTracedCallback)(uint64_t id, uint64_t elements, Time posted, Time done);

    static TypeId GetTypeId();
    AggregationWorker();
    ~AggregationWorker() override;

    /**
     * Bind the worker (done by AggregationHelper).
     * \param dev the host's fabric port \param jobId the job \param trees its trees
     * \param cc factory of the congestion control (an AggregationCongestionOps)
     * \param rp reaction point of ns3::AggregationDcqcn (null: its default, ns3::Dcqcn)
     * \throws std::invalid_argument if there is no tree or a tree has no slot
     */
    void Setup(Ptr<FabricNetDevice> dev,
               uint16_t jobId,
               const std::vector<AggWorkerTree>& trees,
               const ObjectFactory& cc,
               const ObjectFactory* rp = nullptr);

    /**
     * Aggregate `elements` elements (size-only).
     * \param elements >= 1 \param cls priority class \param cb completion
     * \return the post id
     * \throws std::invalid_argument if elements is 0 or cls > 7
     */
    uint64_t Post(uint64_t elements, uint8_t cls, DoneCallback cb);
    /// Aggregate real values; the completion gets the sum. \return the post id
    uint64_t PostValues(const std::vector<float>& values, uint8_t cls, DoneCallback cb);

    // RdmaNicSource: the host's RDMA NIC pulls contributions in its transmit rotation.
    Time GetNextSendTime(uint8_t& cls) override;
    Ptr<Packet> Dequeue() override;

    /// Handle a result addressed to this worker (called by the host's AggregationEndpoint).
    void Receive(Ptr<const Packet> p, const AggregationStackHeader& h);

    uint16_t GetJobId() const;                      //!< \return the job
    Ptr<FabricNetDevice> GetDevice() const;         //!< \return the host port
    const AggregationWorkerStats& GetStats() const; //!< \return counters
    uint32_t GetNTrees() const;                     //!< \return number of trees
    uint32_t GetChunkElements() const;              //!< \return elements per chunk
    AggElementType GetElementType() const;          //!< \return element type of the payloads
    /// \return the congestion-control state of tree i
    const AggregationCcState& GetCcState(uint32_t i) const;
    /// \return the congestion control of tree i
    Ptr<AggregationCongestionOps> GetCongestionOps(uint32_t i) const;
    /// \return true while some post is not complete
    bool IsBusy() const;
    /// \return contribution payload bytes sent per tree (first transmissions)
    std::vector<uint64_t> GetBytesPerTree() const;

    /**
     * PANAMA's striping: chunk g of a worker's sequence of chunks (over all its posts) goes
     * on tree g mod trees.
     * \param first the global index of a post's first chunk \param chunks the post's chunks
     * \param trees the job's trees (>= 1) \param tree one of them
     * \return how many of the post's chunks go on that tree
     */
    static uint64_t ChunksOnTree(uint64_t first, uint64_t chunks, uint64_t trees, uint64_t tree);

  protected:
    void DoDispose() override;

  private:
    /// The dequeue notifications of a host port without RDMA NIC, passed to the workers whose
    /// frames leave its queue (defined in the .cc; aggregated to the port).
    class HostPort;

    struct Chunk
    {
        uint64_t post{0};
        uint64_t offset{0};
        uint16_t elements{0};
        uint8_t cls{0};
        bool received{false};
        bool queuedRetx{false};
    };

    /// A tree's retransmission timer (a ReusableTimer calls a member function without
    /// arguments: this one knows its tree).
    struct RtoTimer
    {
        AggregationWorker* worker{nullptr};
        uint32_t tree{0};
        ReusableTimer timer;

        /// The timer expired: the worker's OnRto for this tree.
        void Fire()
        {
            worker->OnRto(tree);
        }
    };

    struct Tree
    {
        AggWorkerTree cfg;
        uint32_t nextSeq{0};       //!< chunks assigned to the tree so far (posts seen)
        uint32_t una{0};           //!< oldest sequence number without result
        uint32_t nxt{0};           //!< next sequence number to send the first time
        std::deque<Chunk> chunks;  //!< chunks una .. nxt - 1 (in flight or answered)
        std::deque<uint32_t> retx; //!< sequence numbers to send again
        AggregationCcState cc;
        Ptr<AggregationCongestionOps> ops;
        Time nextAvail;
        TxTimeAccumulator pace;        //!< exact paced intervals below the line rate
        std::unique_ptr<RtoTimer> rto; //!< on the heap: a ReusableTimer does not move
        uint16_t sport{0};
        uint64_t bytes{0};
        double lastCwnd{-1};
        double lastRate{-1};
    };

    struct PostRec
    {
        uint64_t elements{0};
        uint64_t remaining{0};
        uint64_t firstChunk{0};       //!< global index of its first chunk
        uint8_t cls{0};               //!< priority class
        std::vector<uint32_t> values; //!< this worker's words (values mode)
        std::vector<uint32_t> result; //!< the sum's words
        bool hasValues{false};
        Time posted;
        DoneCallback cb;
    };

    uint64_t DoPost(uint64_t elements, uint8_t cls, DoneCallback cb, const std::vector<float>* v);
    void TrySend();
    /**
     * \return the next tree ready to send (round robin), or -1; earliest: when one will be
     * \param blocked bit c set: skip trees whose next chunk is of class c (its ring is full)
     */
    int PickTree(Time now, Time& earliest, uint8_t blocked = 0);
    /// One of this worker's frames of class cls left the host port's queue (no RDMA NIC).
    void PortDequeued(uint8_t cls);
    /// \return bit c set: class c has TxRingFrames frames in the port's queue
    uint8_t FullClasses() const;
    uint8_t NextClass(uint32_t idx) const;
    Ptr<Packet> MakeNext(uint32_t idx);
    Ptr<Packet> BuildChunk(Tree& t, uint32_t seq, bool retransmit);
    void ArmRto(Tree& t);
    void OnRto(uint32_t tree);
    void Wake();
    void TraceCc(Tree& t);

    Ptr<FabricNetDevice> m_dev;
    Ptr<RdmaNic> m_nic; //!< the host's NIC, if any: it pulls our packets
    uint16_t m_jobId{0};
    std::vector<Tree> m_trees;
    std::map<uint16_t, uint32_t> m_treeIndex;
    std::map<uint64_t, PostRec> m_posts;
    uint64_t m_nextPost{0};
    uint64_t m_chunkCounter{0};            //!< global chunks posted (chunk g is on tree g mod T)
    std::map<uint64_t, uint64_t> m_postAt; //!< global index of a post's first chunk -> post
    uint32_t m_rr{0};
    ReusableTimer m_wake;               //!< sends again when a tree's pacing allows (no RDMA NIC)
    HostPort* m_hostPort{nullptr};      //!< the port's notifications (no RDMA NIC)
    uint32_t m_portMeta{0};             //!< this worker's tag on the port's frames
    std::array<uint32_t, 8> m_onPort{}; //!< frames per class in the port's queue
    uint32_t m_txRing{1};               //!< TxRingFrames (0: no limit)
    bool m_sending{false};              //!< inside TrySend's loop
    AggregationWorkerStats m_stats;

    uint32_t m_chunkElements{256};
    AggElementType m_type{AggElementType::FP32};
    int32_t m_scaleExponent{20};
    Time m_rtoTime;

    TracedCallback<uint16_t, double, double> m_ccTrace;
    TracedCallback<uint64_t, uint64_t, Time, Time> m_postTrace;
};

} // namespace ns3

#endif /* MLNET_AGGREGATION_WORKER_H */
