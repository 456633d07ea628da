/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLUID_NETWORK_H
#define MLNET_FLUID_NETWORK_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class FluidInputPortShare;

/**
 * \ingroup mlnet
 * \brief The flow-level (fluid) network of mlnet's flow backend: directed links with a
 * capacity and a propagation delay, flows with a path, and event-driven progressive filling
 * inside ns-3's event loop. No packets: a flow is a byte count draining at a rate that is
 * constant between events.
 *
 * Rates (bytes/s of the links' capacity) are recomputed only when a flow starts or finishes,
 * or when its class, weight or rate cap changes; all changes made at one instant are handled
 * by one recomputation (an event scheduled at that instant, after the events already there).
 * A recomputation fills the changed flows with the others' rates fixed and widens to the flows
 * whose max-min bottleneck conditions then fail (Incremental; or refills the whole connected
 * component); flows outside keep their rates and their completion events. The allocation is
 *  - strict priority between traffic classes (class 7 first, as in the fabric's egress),
 *  - weighted max-min fairness within a class (a flow of weight w gets w times the share of a
 *    flow of weight 1 at a common bottleneck), computed by progressive filling,
 *  - each flow limited by its rate cap (0 = none).
 *
 * A flow may also load the links of its way back (its acknowledgements): a share of its rate
 * on each of them (FlowSpec::reverseShare), carried in class 7 (the control class the packet
 * backend's acknowledgements travel in) whatever the flow's class: on every link the
 * acknowledgement loads of all flows are served first, the data of class c gets the capacity
 * less them and less the data of the classes above c, and a flow's rate is still set in its
 * own class on its path. A link that carries a flow's acknowledgements but not its data does
 * not stop the flow (its acknowledgements take what they need there; the data bottlenecked
 * there gets the rest). The acknowledgement loads depend on rates set later in the filling,
 * so the filling is repeated with each flow's acknowledgements at the rate the previous one
 * gave it until no rate moves (a fixed point; a flow's acknowledgements on a link its own
 * data crosses rise with it inside one filling, and a change on a link that bottlenecks no
 * flow of that class or above and has room for it needs no repetition).
 *
 * A flow's transmission ends when its bytes have drained (the completion event, at the ns
 * step at or after the exact fluid time); its links are free from then. The bytes are delivered
 * at the destination one unloaded path latency later (PathLatency(): the links' propagation
 * delays plus the store-and-forward serialization of one frame of FrameBytes at every hop but
 * the bottleneck, whose serialization is part of the drain; this is exactly when a packet
 * backend's last packet arrives on an idle path), and the flow completes at the sender after
 * its extra latency (e.g. the acknowledgement's way back).
 */
class FluidNetwork : public Object
{
  public:
    /// Traffic classes (0-7, strict priority, higher first).
    static constexpr uint8_t N_CLASSES = 8;

    /// A flow event: (flow id).
    typedef Callback<void, uint64_t> FlowCallback;
    /// Trace signature of FlowEnd: (flow id, bytes, started, delivered at the destination).
    typedef void (*FlowEndTracedCallback)(uint64_t id, uint64_t bytes, Time start, Time end);
    /**
     * Trace signature of AckUnconverged: (flows of the recomputation's filling, fillings run,
     * the largest move of an acknowledgement load in the last one as a share of its link's
     * capacity).
     */
    typedef void (*AckUnconvergedTracedCallback)(uint32_t flows, uint32_t fillings, double moved);

    /// What a flow is.
    struct FlowSpec
    {
        std::vector<uint32_t> path; //!< link ids from source to destination (non-empty)
        /**
         * Bytes on path[i] per byte of the flow (each > 0, finite); empty: 1 on every link.
         * A group of connections that move at one common rate (e.g. the n members of a ring
         * collective, FluidTransport's RingGranularity "collective") is one flow whose path is
         * the union of the members' links, each with its multiplicity.
         */
        std::vector<double> pathCoef;
        /// links that carry the flow's acknowledgements (the way back; none by default)
        std::vector<uint32_t> reversePath;
        /// bytes on each reversePath link per byte of the flow (e.g. one 84 B acknowledgement
        /// per 1082 B packet), in [0, 1]; carried in class 7
        double reverseShare{0};
        uint64_t bytes{0};  //!< bytes to move (>= 1), as the links count them
        uint8_t cls{3};     //!< traffic class 0..7 (7 is served first)
        double weight{1.0}; //!< share within its class (> 0)
        double rateCap{0};  //!< bytes/s, 0 = none
        Time extraLatency;  //!< from delivery to completion (>= 0)
        /// from the drain to the delivery: negative (the default) = PathLatency(path); a
        /// group sets its own (>= 0)
        Time latency{NanoSeconds(-1)};
        FlowCallback drained;   //!< its last byte left the source (may be null)
        FlowCallback delivered; //!< the bytes are at the destination (may be null)
        FlowCallback completed; //!< delivered + extraLatency (may be null)
        /**
         * Bytes on reversePath[i] per byte of the flow, one per reversePath link (each > 0,
         * finite), instead of reverseShare on each; empty: reverseShare. A group (see
         * pathCoef) sums its members' acknowledgement shares per link; a link may then be on
         * both path and reversePath (its data one way, others' acknowledgements).
         */
        std::vector<double> reverseCoef;
    };

    static TypeId GetTypeId();
    FluidNetwork();
    ~FluidNetwork() override;

    /**
     * Add a directed link.
     * \param capacity bytes/s (> 0, finite)
     * \param delay propagation delay (>= 0)
     * \return the link id (consecutive from 0)
     * \throws std::invalid_argument for a bad capacity or delay
     */
    uint32_t AddLink(double capacity, Time delay);
    /// \return the number of links
    uint32_t GetNLinks() const;
    /// \param link a link id \return its capacity (bytes/s)
    double GetLinkCapacity(uint32_t link) const;
    /// \param link a link id \return its propagation delay
    Time GetLinkDelay(uint32_t link) const;
    /**
     * \param link a link id
     * \return bytes the link has carried so far (flows' progress up to the last
     *         recomputation that covered the link, or up to now after Advance())
     */
    double GetLinkBytes(uint32_t link) const;
    /**
     * \param link a link id \param cls a traffic class (0..7)
     * \return bytes of flows of that class the link has carried so far (as GetLinkBytes();
     *         acknowledgements count in class 7, in which they are carried)
     */
    double GetLinkClassBytes(uint32_t link, uint8_t cls) const;
    /// \param link a link id \return the sum of the rates of its flows and reserves now
    /// (bytes/s)
    double GetLinkLoad(uint32_t link) const;
    /**
     * Change a link's capacity from now on (its flows are recomputed at this instant). The
     * unloaded path latency keeps the capacity given to AddLink (a frame's serialization).
     * \param link a link id \param capacity bytes/s (> 0, finite)
     * \throws std::invalid_argument for a bad link or capacity
     */
    void SetLinkCapacity(uint32_t link, double capacity);
    /**
     * Reserve a rate on a link for a class: a constant offered load that takes its share of
     * the link as one flow of weight 1 in that class, capped at `rate` and never draining,
     * would (strict priority below the classes above, max-min with the flows of its class),
     * without a flow: a change recomputes the flows on the link, none if it has none. A link
     * has at most one reserve per class. FluidAggregate carries the background's load on the
     * main network this way. GetLinkShare() does not count the reserves (they are the load of
     * whoever asks for the share); GetLinkLoad() and the carried bytes do.
     * \param link a link id \param cls a traffic class (0..7)
     * \param rate bytes/s (>= 0, finite; 0 = no reserve)
     * \throws std::invalid_argument for a bad link, class or rate
     */
    void SetLinkReserve(uint32_t link, uint8_t cls, double rate);
    /// \param link a link id \param cls a traffic class (0..7) \return the rate reserved
    /// (bytes/s)
    double GetLinkReserve(uint32_t link, uint8_t cls) const;
    /**
     * \param link a link id \param cls a traffic class (0..7)
     * \return the rate the reserve gets now (bytes/s; below the rate reserved where the link is
     *         full for its class)
     */
    double GetLinkReserveRate(uint32_t link, uint8_t cls) const;
    /// \param link a link id \param cls a traffic class (0..7) \return bytes the reserve has
    /// carried up to now
    double GetLinkReserveBytes(uint32_t link, uint8_t cls) const;
    /**
     * What flows of class `cls` and total weight `weight` joining a link would get of it now,
     * with the other flows at their current rates: the capacity less the acknowledgement
     * loads, the rates of the classes above and of the flows of the class bottlenecked
     * elsewhere, shared by weight with the
     * flows of the class bottlenecked at this link (one step of the progressive filling). A
     * flow of the class bottlenecked elsewhere whose rate per weight is above the level a
     * newcomer of weight 1 would get shares here too (max-min would cut it to that level).
     * \param link a link id \param cls a traffic class (0..7) \param weight > 0
     * \param ignore flows counted as absent (ids)
     * \return bytes/s (>= 0)
     */
    double GetLinkShare(uint32_t link,
                        uint8_t cls,
                        double weight,
                        const std::vector<uint64_t>& ignore) const;
    /**
     * The two terms of GetLinkShare(): the share of weight w is free * w / (w + sharing).
     * \param link a link id \param cls a traffic class (0..7)
     * \param ignore flows counted as absent (ids)
     * \param[out] free the capacity less the rates of the classes above and of the flows of
     *        the class bottlenecked elsewhere below a newcomer's level (bytes/s, >= 0)
     * \param[out] sharing the weights of the flows of the class bottlenecked at the link or
     *        above a newcomer's level
     */
    void GetLinkShareTerms(uint32_t link,
                           uint8_t cls,
                           const std::vector<uint64_t>& ignore,
                           double& free,
                           double& sharing) const;
    /**
     * A counter that changes whenever something GetLinkShare() reads of the link may have
     * changed (a flow on it started, drained or changed, a recomputation covered it, its
     * capacity changed): equal counters mean equal shares.
     * \param link a link id \return the counter
     */
    uint64_t GetLinkVersion(uint32_t link) const;
    /**
     * Ask the memory for a link's state ahead of reading it: a hint, without effect on any
     * result. A caller that visits many links in a random order (FluidAggregate's intervals
     * and batches) asks a few links ahead, so that its reads of one link do not wait on the
     * memory one after the other.
     * \param link a link id (nothing is done for an unknown one)
     */
    void PrefetchLink(uint32_t link) const;

    /**
     * \param path link ids
     * \return the unloaded latency of the path beyond the drain time (see the class doc)
     * \throws std::invalid_argument for an unknown link
     */
    Time PathLatency(const std::vector<uint32_t>& path) const;

    /**
     * Start a flow now (its rate is set by the recomputation at this instant).
     * \param spec the flow (by value: a caller that moves it in saves the copy)
     * \return its id (consecutive from 0)
     * \throws std::invalid_argument naming the bad field
     */
    uint64_t StartFlow(FlowSpec spec);
    /**
     * \param id a flow in transmission \param cap its rate cap (bytes/s, 0 = none)
     * \throws std::invalid_argument for a negative cap or an unknown flow
     */
    void SetRateCap(uint64_t id, double cap);
    /// \param id a flow in transmission \param cls its traffic class (0..7)
    void SetClass(uint64_t id, uint8_t cls);
    /// \param id a flow in transmission \param weight its weight (> 0)
    void SetWeight(uint64_t id, double weight);
    /**
     * Add bytes to a flow in transmission (it drains them after the ones it has).
     * \param id a flow in transmission \param bytes >= 1
     * \throws std::invalid_argument for 0 bytes or an unknown flow
     */
    void AddBytes(uint64_t id, uint64_t bytes);

    /// \param id a flow \return true while its bytes are draining
    bool IsTransmitting(uint64_t id) const;
    /// \param id a flow in transmission \return its rate now (bytes/s)
    double GetRate(uint64_t id) const;
    /// \param id a flow in transmission \return bytes left to drain now
    double GetRemaining(uint64_t id) const;
    /// \return the flows whose bytes are draining
    uint32_t GetNTransmitting() const;

    /// \return recomputations so far
    uint64_t GetRecomputations() const;
    /// \return flows whose rate was computed, summed over the recomputations (the work done)
    uint64_t GetFlowsRecomputed() const;
    /// \return the most flows one recomputation computed
    uint64_t GetMaxFlowsRecomputed() const;
    /// \return bytes of the flows whose transmission has ended
    uint64_t GetBytesDrained() const;
    /**
     * \return progressive fillings run so far: one per round of a recomputation, more where
     *         the acknowledgement loads needed repeated fillings (see the class doc)
     */
    uint64_t GetFillings() const;
    /**
     * The acknowledgement loads (see the class doc) are solved as a fixed point, to 1e-7 of
     * their links' capacity, in at most MaxAckFillings fillings; a filling that reaches that
     * number without converging keeps the rates of its last filling (the acknowledgement
     * loads then differ from their flows' rates by more than the tolerance) and fires the
     * AckUnconverged trace source.
     * \return the fillings (one per round of a recomputation) that ended so, since the start
     */
    uint64_t GetUnconvergedFillings() const;
    /**
     * \return a one-line warning naming GetUnconvergedFillings(), the FluidNetwork's
     *         MaxAckFillings attribute and what it means for the rates, or an empty string if
     *         every filling converged (for a run's summary, as RdmaTimeoutReport's)
     */
    std::string GetUnconvergedWarning() const;

    /**
     * How a link is shared among the flows of a class that it bottlenecks (the Sharing
     * attribute): "flow" (the default) shares it by the flows' weights (max-min); "input-port"
     * models a packet switch without congestion control, whose congested egress port is shared
     * equally among its input ports and recursively upstream (PFC), by giving each flow a
     * weight computed from the paths of the flows bottlenecked with it, iterated with the
     * filling to a fixed point (FluidInputPortShare, fluid-input-port-share.cc;
     * doc/flow-backend.rst, *Sharing by input port at flow level*). Takes effect at the next
     * recomputation (every flow is recomputed).
     * \param mode one of SharingModes()
     * \throws std::invalid_argument naming the mode and the accepted ones
     */
    void SetSharing(const std::string& mode);
    /// \return the Sharing mode ("flow" or "input-port")
    std::string GetSharing() const;
    /// \return the accepted Sharing modes ("flow", "input-port")
    static const std::vector<std::string>& SharingModes();
    /// \return fillings redone so far to bring the input-port weights to their fixed point
    /// (0 in the "flow" mode)
    uint64_t GetSharingRounds() const;
    /**
     * \return recomputations whose input-port weights had not reached their fixed point after
     *         the MaxSharingRounds attribute's rounds (their last weights kept; the run's
     *         summary warns through GetUnconvergedWarning())
     */
    uint64_t GetSharingUnconverged() const;

    /// Bring every link's carried bytes up to now (for statistics at the end of a run).
    void Advance();

  protected:
    void DoDispose() override;

  private:
    friend class FluidInputPortShare; // the "input-port" Sharing (fluid-input-port-share.cc)

    /// A link's state for one traffic class (what an interval or a recomputation reads of a
    /// class together: one class's in half a cache line).
    struct ClassState
    {
        double reserve{0};      //!< SetLinkReserve(): the rate
        double granted{0};      //!< what the reserve gets
        double reserveBytes{0}; //!< bytes the reserve carried up to Link::reserveLast
        double carried{0};      //!< bytes of flows and reserve of the class carried so far
    };

    /// A directed link. Its record starts a cache line (alignas): the first line holds what
    /// every recomputation covering it reads (capacity, flows), the second its bookkeeping,
    /// then the classes, two to a line.
    struct alignas(64) Link
    {
        double capacity{0};
        std::vector<uint32_t> flows; //!< slots of the flows crossing it
        /// their bytes on this link per byte (as flows); < 0: -share of an acknowledgement
        /// entry (class 7)
        std::vector<double> coefs;
        double load{0};         //!< sum of the rates of its flows (bytes/s)
        uint64_t stamp{0};      //!< last recomputation that visited it
        uint32_t local{0};      //!< index in the recomputation's arrays
        uint8_t reserveMask{0}; //!< classes with a reserve (bit c)
        uint8_t reserveHeld{0}; //!< classes whose reserve the link holds below its rate
        uint64_t version{0};    //!< GetLinkVersion()
        Time reserveLast;       //!< the reserves' bytes are as of this time
        double carried{0};      //!< bytes carried so far
        double nominal{0};      //!< the capacity given to AddLink (for the path latency)
        Time delay;
        double frameTime{0};           //!< FrameBytes / capacity (s)
        ClassState byClass[N_CLASSES]; //!< per traffic class
    };

    /// A flow. Its record starts a cache line (alignas): the specification's class, weight
    /// and cap share the second line, and its rate, stamp and bottleneck the third, so that a
    /// recomputation reads two lines of a flow on a link it covers (was three).
    struct alignas(64) Flow
    {
        FlowSpec spec;
        double rate{0};
        uint64_t stamp{0}; //!< last recomputation that visited it
        uint32_t local{0}; //!< index in the recomputation's arrays
        /// what stopped its rate in the last filling: a link id, or kCapped (its rate cap)
        uint32_t bottleneck{0};
        bool live{false};     //!< the slot holds a transmitting flow
        bool finished{false}; //!< drained, waiting for the recomputation to detach it
        uint32_t nPath{0};    //!< links[0, nPath) are its path, the rest acknowledgements'
        uint64_t id{0};
        /// path, then reversePath if it has acknowledgement shares (from nPath on)
        std::vector<uint32_t> links;
        /**
         * Bytes on links[i] per byte of the flow. An acknowledgement entry (i >= nPath) is
         * > 0 where the flow's path crosses the same link (filled with the flow: its own rate
         * sets it) and -share elsewhere (at the rate of the previous filling).
         */
        std::vector<double> coef;
        std::vector<uint32_t> posInLink; //!< its index in each of links' flows
        double remaining{0};
        Time last;    //!< remaining is as of this time
        Time start;   //!< when it started
        EventId done; //!< its drain-completion event
    };

    static constexpr uint32_t kCapped = 0xffffffffu; //!< Flow::bottleneck: the rate cap

    /// \return the link \throws std::invalid_argument for an unknown link
    const Link& LinkAt(uint32_t link) const;
    Flow& LiveFlow(uint64_t id);
    const Flow& LiveFlow(uint64_t id) const;
    /// Mark the flow for the next recomputation (and schedule it).
    void Touch(uint32_t slot);
    /// Schedule the recomputation at this instant (the Sharing mode's) unless it is pending.
    void ScheduleRecompute();
    void Recompute();
    /// Progress of a flow up to now (bytes moved credited to its links).
    void Progress(Flow& f, Time now);
    /// Bytes of a link's reserves up to now (credited to the link).
    void ProgressReserves(Link& l, Time now);
    /// Set the rates of the reserves of a link without flows.
    void GrantAlone(Link& l);
    /// \param link a link id \param cls a class \throws std::invalid_argument if out of range
    void CheckLinkClass(uint32_t link, uint8_t cls, const char* what) const;
    /**
     * Weighted max-min with strict priority and caps over `flows` (the flows of this
     * recomputation), the other flows of `links` keeping their rates (what they take of a
     * link is not available). Sets each flow's rate and bottleneck.
     */
    void Fill(const std::vector<uint32_t>& flows, const std::vector<uint32_t>& links);
    /**
     * One progressive filling of Fill(): the acknowledgements a flow sends over links its
     * data does not cross at the rate Scratch::guess holds for it, served before every class.
     * \return true if the rates are those of a filling with the acknowledgements at the rates
     *         it set (no acknowledgement load moved on a link where it changes a rate)
     */
    bool FillOnce(const std::vector<uint32_t>& flows, const std::vector<uint32_t>& links);
    /**
     * The max-min conditions on the links whose flows or rates changed: every flow whose
     * bottleneck is such a link must still be bottlenecked there (the link full for its class
     * and above, no flow of its class above its level). Sets the links' loads.
     * \return the flows outside the recomputation on the links where a condition fails
     *         (Scratch::more, valid until the next call)
     */
    const std::vector<uint32_t>& Violations(const std::vector<uint32_t>& links);
    void Drained(uint32_t slot);
    void Deliver(uint64_t id,
                 uint64_t bytes,
                 Time start,
                 FlowCallback delivered,
                 FlowCallback completed,
                 Time extra);
    void Detach(uint32_t slot);

    std::vector<Link> m_links;
    std::vector<Flow> m_flows;                       //!< slots
    std::vector<uint32_t> m_freeSlots;               //!< free slots
    std::unordered_map<uint64_t, uint32_t> m_slotOf; //!< live flow id -> slot
    std::vector<uint32_t> m_touched; //!< flows started, changed or drained since then

    /// The rate solver's working arrays (fluid-network-solver.cc), kept between
    /// recomputations so that one allocates nothing; made by the first recomputation.
    struct Scratch;

    /// Deletes the Scratch (a type complete in the solver's file only).
    struct ScratchDeleter
    {
        /// \param s the scratch arrays (may be null)
        void operator()(Scratch* s) const;
    };

    std::unique_ptr<Scratch, ScratchDeleter> m_scratch;
    bool m_incremental{true}; //!< Incremental attribute
    EventId m_recompute;
    uint64_t m_nextId{0};
    uint64_t m_stamp{0};
    uint32_t m_frameBytes{1082};
    uint64_t m_recomputations{0};
    uint64_t m_flowsRecomputed{0};
    uint64_t m_maxFlowsRecomputed{0};
    uint64_t m_bytesDrained{0};
    uint64_t m_fillings{0};
    uint32_t m_maxAckFillings{40};     //!< MaxAckFillings attribute
    uint64_t m_unconvergedFillings{0}; //!< GetUnconvergedFillings()

    TracedCallback<uint64_t, uint64_t> m_startTrace;
    TracedCallback<uint64_t, uint64_t, Time, Time> m_endTrace;
    /// AckUnconverged: (flows, fillings, largest move / capacity)
    TracedCallback<uint32_t, uint32_t, double> m_ackUnconvergedTrace;
    /// the "input-port" Sharing's state (null in the "flow" mode)
    std::shared_ptr<FluidInputPortShare> m_inputPort;
    uint32_t m_maxSharingRounds{16}; //!< MaxSharingRounds attribute
};

} // namespace ns3

#endif /* MLNET_FLUID_NETWORK_H */
