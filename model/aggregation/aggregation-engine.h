/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_AGGREGATION_ENGINE_H
#define MLNET_AGGREGATION_ENGINE_H

#include "aggregation-context.h"
#include "aggregation-stack-header.h"
#include "aggregation-timing-model.h"

#include "ns3/callback.h"
#include "ns3/ipv4-address.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief One tree of one job as installed on an aggregation point: its slot state plus where
 * its parent and children are.
 */
struct AggTreeConfig
{
    AggTreeSpec spec;                     //!< the tree as seen by this point
    Ipv4Address parent;                   //!< parent point (non-root)
    bool parentOnLinkSide{true};          //!< bump devices: the parent is across the link
    uint16_t indexAtParent{0};            //!< this point's child index at its parent
    std::vector<Ipv4Address> children;    //!< children (workers or points), by child index
    std::vector<bool> childrenOnLinkSide; //!< bump devices: child across the link
    uint32_t chunkElements{256};          //!< elements per chunk (pool sizing)
};

/**
 * \ingroup mlnet
 * \brief Counters of an aggregation engine.
 */
struct AggregationEngineStats
{
    uint64_t contributionsRx{0}; //!< contribution packets received
    uint64_t resultsRx{0};       //!< result packets received from parents
    uint64_t partialsTx{0};      //!< partial sums sent up (first time)
    uint64_t resultsTx{0};       //!< result packets sent down (multicast copies + unicasts)
    uint64_t resends{0};         //!< partial sums sent again / results sent by unicast
    uint64_t duplicates{0};      //!< duplicate contributions
    uint64_t stale{0};           //!< stale packets ignored
    uint64_t unknown{0};         //!< packets for a (job, tree) not installed here
    uint64_t overflows{0};       //!< INT32 additions that overflowed
    uint64_t elementsSummed{0};  //!< elements through the adders
};

/**
 * \ingroup mlnet
 * \brief The aggregation engine of an in-network aggregation point (a bump-in-the-wire device or
 * a switch): per-job on-chip slot pools (one AggregationContext per tree), the datapath timing
 * (an AggregationTimingModel) and the packets it sends.
 *
 * Its host hands it every packet addressed to it (Receive) and gets back, through the emit
 * callback, the partial sums, results and resends it produces; a contribution that completes a
 * slot is emitted when the timing model says its sum is ready, everything else at once (results
 * are replicated, not added). Each job gets BufferBytesPerJob of on-chip memory for the slot
 * pools of its trees (2 versions x slots x chunk bytes per tree); at most MaxJobs jobs.
 */
class AggregationEngine : public Object
{
  public:
    /// Emit: (packet, true if towards the link side of a bump device).
    typedef Callback<void, Ptr<Packet>, bool> EmitCallback;
    /// Trace signature of slot completions: (job, tree, chunk sequence number).
    typedef void (*SlotTracedCallback)(uint16_t job, uint16_t tree, uint32_t seq);

    static TypeId GetTypeId();
    AggregationEngine();
    ~AggregationEngine() override;

    void SetAddress(Ipv4Address a);        //!< \param a the address aggregation packets are sent to
    Ipv4Address GetAddress() const;        //!< \return the address
    void SetEmitCallback(EmitCallback cb); //!< \param cb where produced packets go
    /// \param name a name for error messages (e.g. "device on core-3 port 1")
    void SetName(const std::string& name);
    const std::string& GetName() const;                 //!< \return the name
    Ptr<AggregationTimingModel> GetTimingModel() const; //!< \return the datapath timing
    /// \param timing the datapath timing, not shared with another engine (null: a new
    /// AdderTreeTimingModel)
    void SetTimingModel(Ptr<AggregationTimingModel> timing);

    /**
     * Install one tree of a job.
     * \param cfg the tree
     * \throws std::invalid_argument if the job would exceed MaxJobs, its pools exceed
     *         BufferBytesPerJob (the message says how many bytes they need), the pool holds no
     *         slot, the tree is installed already, or the child lists are inconsistent
     */
    void AddTree(const AggTreeConfig& cfg);
    /// \return true if the (job, tree) is installed
    bool HasTree(uint16_t job, uint16_t tree) const;
    /// \return on-chip bytes the job's pools use here
    uint64_t GetJobBufferBytes(uint16_t job) const;
    /// \return number of jobs installed
    uint32_t GetNJobs() const;
    /// \return the largest slot count a tree can have here if `trees` trees of the job share
    /// the job's buffer, with chunks of `chunkBytes`
    uint32_t MaxSlots(uint32_t trees, uint32_t chunkBytes) const;

    /**
     * Handle a packet addressed to this point.
     * \param p the packet \param h its decoded header stack
     * \param fromLinkSide bump devices: it arrived from the link side
     * \return when the packet leaves the input buffer (its summing starts); now if it does not
     *         wait
     */
    Time Receive(Ptr<Packet> p, const AggregationStackHeader& h, bool fromLinkSide);

    const AggregationEngineStats& GetStats() const; //!< \return counters

  protected:
    void DoDispose() override;

  private:
    struct Tree
    {
        AggTreeConfig cfg;
        std::unique_ptr<AggregationContext> ctx;
    };

    void Emit(Tree& t,
              AggregationContext::Action a,
              const AggregationContext::Slot& s,
              uint16_t child,
              uint8_t dscp);
    void EmitPacket(Ptr<Packet> p, bool linkSide);
    Ptr<Packet> Make(const Tree& t,
                     Ipv4Address dst,
                     uint8_t type,
                     const AggregationContext::Slot& s,
                     bool ecn,
                     uint16_t sender,
                     uint16_t fanIn,
                     uint8_t dscp,
                     bool retransmit) const;

    Ipv4Address m_address;
    std::string m_name{"aggregation point"};
    EmitCallback m_emit;
    Ptr<AggregationTimingModel> m_timing;
    uint64_t m_bufferPerJob{0};
    uint32_t m_maxJobs{0};
    std::map<uint32_t, Tree> m_trees;         //!< key: job << 16 | tree
    std::map<uint16_t, uint64_t> m_jobBuffer; //!< bytes used per job
    AggregationEngineStats m_stats;

    TracedCallback<uint16_t, uint16_t, uint32_t> m_completeTrace;
    TracedCallback<Ptr<const Packet>> m_rxTrace;
    TracedCallback<Ptr<const Packet>> m_txTrace;
};

} // namespace ns3

#endif /* MLNET_AGGREGATION_ENGINE_H */
