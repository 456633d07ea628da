/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLUID_DCQCN_H
#define MLNET_FLUID_DCQCN_H

#include "fluid-network.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <memory>

namespace ns3
{

class FluidFabric;

/**
 * \ingroup mlnet
 * \brief DCQCN at flow level (opt-in): a fluid model in the manner of Zhu et al., "ECN or
 * Delay: Lessons Learnt from Analysis of DCQCN and TIMELY" (CoNEXT 2016), stepped on a fixed
 * time step beside the FluidNetwork's event-driven max-min rates (doc/flow-backend.rst, *DCQCN
 * at flow level*).
 *
 * Per switch egress link (a FluidFabric link whose sending device is a FabricSwitch port with
 * ECN on) and traffic class (the switch marks on its egress queue per class) a virtual queue
 * holds the controlled flows' own bytes first in, first out: one batch of (flow, bytes) per
 * step (cut where a sender starts or runs out of bytes within it), served oldest first at the
 * capacity the classes above leave (strict priority), a batch served in part giving each flow
 * its share of it; what leaves a link arrives at the next one of the flow's path in the same
 * step, and a flow offers at its DCQCN rate RC only the bytes it has not queued yet. With
 * OtherLoad the link's other load (acknowledgements, uncontrolled flows, at their fluid rates)
 * is served first; by default it is left to the max-min rates. Its marking probability is the
 * switch's own RED curve (FabricSwitch::EcnProbability with the port's Kmin, Kmax and EcnPmax).
 *
 * Per controlled flow owner (a FluidConnection: a queue pair's image) the reaction point is
 * the packet NIC's own RdmaCongestionOps (ns3::Dcqcn by default; SetCongestionControl), with its
 * attributes, so both backends run one state machine with one set of parameters: rate RC,
 * target RT, alpha, the alpha timer, the rate-increase timer and byte counter stages (fast
 * recovery, additive, hyper increase). Each step, a flow that sent n frames over a path whose
 * links mark with probabilities p_l gets a CNP with probability \f$1 - (1 - P)^{n}\f$,
 * \f$P = 1 - \prod_l (1 - p_l)\f$, n counting the frames after its CnpInterval (RdmaNic's by
 * default) has passed since its last CNP; the CNP is sent at its first marked frame within the
 * step and cuts the rate one way back later (propagation), not at the step's end (OnSent first).
 *
 * A flow's rate in the network is what leaves its path (its bytes out of the last queue, or RC
 * where none queues them), corrected each step against what the network carried (bytes the
 * model released and the network did not carry go back to the head of the flow's last queue),
 * applied as the flow's rate cap
 * (FluidNetwork::SetRateCap), combined with the owner's own cap (a scheduler's) by the
 * minimum; a cap at or above line rate is no cap, so a flow alone on its path runs exactly as
 * without this model. A cap is applied again only when it moves by more than CapTolerance
 * (relative), so recomputations stay bounded: at most one per flow and step. Flows start at
 * line rate (or at the rate the owner's state has recovered to), as the packet NIC's queue
 * pairs do; an owner keeps its state from message to message.
 *
 * The steps run while a controlled flow transmits or a virtual queue is not empty. Randomness
 * (the CNP draws) comes from one ns-3 random variable stream (AssignStreams).
 */
class FluidDcqcn : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    FluidDcqcn();
    ~FluidDcqcn() override;

    /**
     * Attach to a fabric's network, with a marking link for every link sent by a switch port
     * whose ECN marking is on (the port's Kmin, Kmax and the switch's EcnPmax). The fabric's
     * FluidConnections then start their flows through this object (FluidDcqcn::Of()).
     * \param fabric a built FluidFabric
     * \throws std::logic_error if already attached
     */
    void Install(Ptr<FluidFabric> fabric);
    /**
     * Attach to a bare network (no marking link until SetMarking()).
     * \param net the network
     * \throws std::logic_error if already attached
     */
    void Attach(Ptr<FluidNetwork> net);
    /**
     * \param net a network
     * \return the FluidDcqcn attached to it, or null
     */
    static Ptr<FluidDcqcn> Of(Ptr<FluidNetwork> net);
    /**
     * Make a link mark (RED: 0 at or below kmin, pmax (q - kmin) / (kmax - kmin) up to kmax, 1
     * above).
     * \param link a link id \param kmin bytes \param kmax bytes (>= kmin) \param pmax in [0, 1]
     * \throws std::invalid_argument for a bad link or parameter
     */
    void SetMarking(uint32_t link, uint64_t kmin, uint64_t kmax, double pmax);
    /**
     * The reaction point's algorithm (a factory of an RdmaCongestionOps, e.g. the scenario's
     * "cc": CongestionControlConfig::Factory()); default ns3::Dcqcn with its attributes'
     * defaults. Owners that already have a state keep theirs.
     * \param factory the factory
     */
    void SetCongestionControl(const ObjectFactory& factory);

    /**
     * Start a flow of an owner under its reaction point (made at the owner's first flow).
     * \param owner the flow's owner (e.g. a FluidConnection), one flow at a time
     * \param spec the flow (its rateCap is the owner's own cap, 0 = none)
     * \param lineRate the owner's line rate (bit/s, > 0)
     * \param payloadPerWire payload bytes per wire byte (for the byte counter), in (0, 1]
     * \return the flow's id in the network
     * \throws std::invalid_argument for a bad rate, as FluidNetwork::StartFlow, or if not
     *         attached
     */
    uint64_t StartFlow(const void* owner,
                       FluidNetwork::FlowSpec spec,
                       double lineRate,
                       double payloadPerWire);
    /**
     * The owner's own rate cap (a scheduler's), applied with the DCQCN rate to its flow.
     * \param owner an owner \param cap bytes/s (0 = none)
     */
    void SetRateCap(const void* owner, double cap);
    /**
     * The owner's traffic class changed (FluidNetwork::SetClass on its flow): the virtual
     * queues are per link and class, as the switch's ECN marking is per egress queue.
     * \param owner an owner \param cls the class (0..7; 7 is served first)
     * \throws std::invalid_argument for a class above 7
     */
    void SetClass(const void* owner, uint8_t cls);
    /// Drop an owner's state (e.g. when it is disposed). \param owner an owner
    void Forget(const void* owner);
    /**
     * An owner's own reaction-point algorithm, as RdmaNic::Connect's per-queue-pair factory (a
     * job's DcqcnProfile, MLTCP's IterGainSlope / IterGainIntercept): used at the owner's first
     * flow, or at once if it has a state (a new reaction point at line rate, the iteration's
     * bytes kept). Owners without one use SetCongestionControl()'s.
     * \param owner an owner \param factory a factory of an RdmaCongestionOps
     */
    void SetOwnerCongestionControl(const void* owner, const ObjectFactory& factory);

    /// How an owner's congestion notifications reach its reaction point.
    struct Feedback
    {
        /// from a marked frame to the reaction point (negative, the default: the receiver's
        /// CNP over a way back as long as the path, from the link likeliest to mark)
        Time delay{NanoSeconds(-1)};
        /**
         * The flow's unit (a chunk of an aggregation tree) is marked if any of the frames it
         * makes on its path is (the ECN-OR of a tree's results): a link of the path with
         * coefficient c (frames per unit) marks it with probability 1 - (1 - p)^c. False (the
         * default): each link of the path once, as for one queue pair's frames.
         */
        bool ecnOr{false};
    };

    /**
     * An owner's feedback (an aggregation tree's: FluidAggregator), used from its next step;
     * kept for an owner without a flow yet.
     * \param owner an owner \param feedback its feedback
     */
    void SetOwnerFeedback(const void* owner, const Feedback& feedback);

    /**
     * A training iteration of `bytes` starts for an owner (RdmaQueuePair::StartIteration): the
     * reaction point's iteration fraction r (RdmaCcState::IterationFraction, MLTCP's gain F(r))
     * counts the payload sent from now on against it.
     * \param owner an owner \param bytes the iteration's bytes (0: not declared)
     */
    void StartIteration(const void* owner, uint64_t bytes);

    /// \return the owners with a reaction point
    uint32_t GetNOwners() const;
    /// \param owner an owner \return its reaction point (null if none)
    Ptr<RdmaCongestionOps> GetOps(const void* owner) const;
    /// \param owner an owner \return its rates (bit/s; line rate if it has none)
    RdmaCcState GetState(const void* owner) const;
    /**
     * \param link a link id \param cls a traffic class (0..7; default the data class 3)
     * \return its virtual queue of that class (bytes; 0 if the link does not mark)
     */
    double GetQueue(uint32_t link, uint8_t cls = 3) const;
    /**
     * \param link a link id \param cls a traffic class (0..7; default the data class 3)
     * \return its marking probability of that class now
     */
    double GetMarkProbability(uint32_t link, uint8_t cls = 3) const;
    /// \return the links that mark
    uint32_t GetNMarkingLinks() const;
    /// \return CNPs so far
    uint64_t GetCnps() const;
    /// \return steps so far
    uint64_t GetSteps() const;
    /// \return rate caps applied to the network so far
    uint64_t GetCapChanges() const;

    /**
     * \param stream first stream index \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * The virtual queue's step: max(0, q + (arrival - capacity) dt).
     * \param q bytes \param arrival bytes/s \param capacity bytes/s \param dt seconds
     * \return the queue after dt (bytes)
     */
    static double QueueStep(double q, double arrival, double capacity, double dt);
    /**
     * What a link passes in the next step: min(capacity, arrival + q / dt) (its capacity while
     * the queue lasts).
     * \param q bytes \param arrival bytes/s \param capacity bytes/s \param dt seconds (> 0)
     * \return bytes/s
     */
    static double LinkOutput(double q, double arrival, double capacity, double dt);
    /**
     * \param mark the probability that a frame is marked on the path
     * \param frames frames sent (>= 0, may be fractional)
     * \return the probability that at least one is marked: 1 - (1 - mark)^frames
     */
    static double CnpProbability(double mark, double frames);

    /**
     * TracedCallback signature of a CNP.
     * \param flow the flow's id in the network
     * \param rate the reaction point's rate RC after the CNP (bit/s)
     */
    typedef void (*CnpTracedCallback)(uint64_t flow, double rate);

  protected:
    void DoDispose() override;

  private:
    struct Impl; //!< the owners' and links' state (fluid-dcqcn.cc)

    /// Schedule the next step if none is pending.
    void Wake();
    /// One step: queues, marks, CNPs, rates, caps.
    void Step();

    std::unique_ptr<Impl> m_impl;
    Time m_step;                                 //!< Step attribute
    Time m_cnpInterval;                          //!< CnpInterval attribute (negative: the NIC's)
    double m_tolerance;                          //!< CapTolerance attribute
    bool m_otherLoad;                            //!< OtherLoad attribute
    EventId m_event;                             //!< the next step
    TracedCallback<uint64_t, double> m_cnpTrace; //!< Cnp trace source
};

} // namespace ns3

#endif /* MLNET_FLUID_DCQCN_H */
