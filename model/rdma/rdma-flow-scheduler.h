/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_RDMA_FLOW_SCHEDULER_H
#define MLNET_RDMA_FLOW_SCHEDULER_H

#include "rdma-nic.h"

#include "ns3/echelon-flow-policy.h"
#include "ns3/flow-scheduling-policy.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief A finished flow as the scheduler saw it, with its Echelon ideal finish time
 * (EchelonFlowPolicy's reference over the whole group, whatever policy ran) so that tardiness
 * compares across policies.
 */
struct ScheduledFlowRecord
{
    FlowDeclaration decl;     //!< what the application declared (ports = scheduler ports)
    Time release;             //!< declared (posted to the scheduler)
    Time start;               //!< posted to a queue pair (after the first decision)
    Time received;            //!< last byte received
    Time completed;           //!< acknowledged (the sender knows it is done)
    Time idealFinish;         //!< Echelon ideal finish time D_i of the flow
    uint32_t level{0};        //!< last priority level applied
    uint8_t priorityClass{0}; //!< last NIC/fabric class applied

    /// \return received - idealFinish (Echelon tardiness; negative when early)
    Time Tardiness() const
    {
        return received - idealFinish;
    }
};

/**
 * \ingroup mlnet
 * \brief Applies a FlowSchedulingPolicy to the messages of a MessageTransport: the enforcement
 * piece beside the NICs (packet level) or the FluidTransports (flow level, where a level is the
 * fluid flow's class and a rate cap its FluidNetwork rate cap).
 *
 * Applications (the training jobs) Post() each message with what they know about it (a
 * FlowDeclaration: job, group, index, deadline, arrangement offset, priority, weight). The
 * scheduler keeps the policy's FlowSchedulingState (ports = the installed transports, in
 * Install() order, with their goodput capacities: line rate / wire bytes per payload byte), asks
 * the policy for decisions whenever a message arrives or completes, and applies them: level l
 * becomes the priority class TopClass - l of the message's queue pair (NIC strict priority and the
 * fabric's strict-priority queues), a rate cap becomes the queue pair's MaxRate (converted from
 * payload to wire rate; a paused flow that has not started waits, one that has started is slowed to
 * a standstill). Each live message has a queue pair of its own, taken from a per-peer pool, so
 * decisions apply per message.
 *
 * Modes:
 *  - Centralised: one scheduler sees every flow; a decision computed at time t takes effect at
 *    t + ControlDelay (a message starts only once its first decision has arrived), so the cost
 *    of central coordination is visible.
 *  - Decentralised: each sender runs the policy on its own flows only (a local
 *    FlowSchedulingState per port) and applies it at once; only policies whose
 *    SupportsDecentralised() is true are accepted.
 *
 * The scheduler binds itself to each installed NIC; Find() returns the scheduler of a NIC, so
 * jobs that find one post through it and otherwise use their own queue pairs. Message arrival
 * is observed through the receiving NIC's MessageRx trace.
 */
class RdmaFlowScheduler : public Object
{
  public:
    /// Where decisions are taken.
    enum Mode
    {
        CENTRALISED,   //!< one controller, ControlDelay
        DECENTRALISED, //!< each sender on its own flows, no delay
    };

    /// Called when a posted message was received / acknowledged.
    typedef Callback<void> MessageCallback;
    /// Trace of an applied decision: (flow id, level, class, rate cap in payload bytes/s
    /// (infinity = none, 0 = paused), time the decision was computed).
    typedef void (*DecisionTracedCallback)(uint64_t id,
                                           uint32_t level,
                                           uint8_t cls,
                                           double rateCap,
                                           Time computed);
    /// Trace of a finished flow.
    typedef void (*FlowTracedCallback)(const ScheduledFlowRecord& r);

    /// \return the TypeId
    static TypeId GetTypeId();
    RdmaFlowScheduler();
    ~RdmaFlowScheduler() override;

    /// \param policy the policy (checked against Mode and TopClass by Install)
    void SetPolicy(Ptr<FlowSchedulingPolicy> policy);
    /// \return the policy
    Ptr<FlowSchedulingPolicy> GetPolicy() const;

    /**
     * Bind to transports: transport i becomes port i (one bound to another scheduler is an
     * error). RDMA NICs (packet level) or FluidTransports (flow level), not both.
     * \param transports the transports (each bound to a host link)
     * \throws std::invalid_argument on a bad or unbound transport, transports of two backends,
     * a policy that does not fit the mode, or PriorityLevels > TopClass + 1
     */
    void Install(const std::vector<Ptr<MessageTransport>>& transports);
    /// \param nics the NICs (each bound to an addressed FabricNetDevice); as Install() above
    void Install(const std::vector<Ptr<RdmaNic>>& nics);
    /// \param t a transport \return the scheduler bound to it, or null
    static Ptr<RdmaFlowScheduler> Find(Ptr<MessageTransport> t);
    /// \param t an installed transport \return its port id
    uint32_t GetPort(Ptr<MessageTransport> t) const;

    /**
     * Declare a group (no-op if declared with the same spec; see FlowSchedulingState).
     * \param g the group
     */
    void DeclareGroup(const FlowGroupSpec& g);
    /// \param id group id \return true if declared and not finished
    bool HasGroup(uint64_t id) const;

    /**
     * Post a message through the scheduler.
     * \param src sending transport (installed) \param dst receiving transport (installed)
     * \param decl the declaration (id, src and dst are filled in by the scheduler; bytes >= 1;
     * its group must have been declared)
     * \param onReceived called when the message has arrived at dst
     * \param onCompleted called when the sender knows it arrived (acknowledged)
     * \return the flow id
     * \throws std::invalid_argument on bad input (see FlowSchedulingState::AddFlow)
     */
    uint64_t Post(Ptr<MessageTransport> src,
                  Ptr<MessageTransport> dst,
                  FlowDeclaration decl,
                  MessageCallback onReceived,
                  MessageCallback onCompleted);

    /// \return messages posted so far
    uint64_t GetPostedFlows() const;
    /// \return decisions applied so far
    uint64_t GetAppliedDecisions() const;
    /// \return policy evaluations so far
    uint64_t GetEvaluations() const;
    /// \return class changes applied to messages already on a queue pair
    uint64_t GetClassChanges() const;
    /// \return rate-cap changes applied to messages already on a queue pair
    uint64_t GetCapChanges() const;
    /// \return rate-cap changes left out as within CapTolerance
    uint64_t GetCapChangesSkipped() const;
    /// \return queue pairs created for scheduled messages
    uint32_t GetQueuePairs() const;
    /**
     * \param port a port
     * \return its capacities (payload bytes/s) as the policy sees them: (up, down)
     */
    std::pair<double, double> GetPortCapacity(uint32_t port) const;

    /**
     * \brief Pack a group id from a job, an iteration and a phase (stage, direction, ...).
     * \param job job id (< 2^20) \param iteration iteration (kept modulo 2^20)
     * \param phase phase (< 2^24)
     * \return the id
     */
    static uint64_t MakeGroupId(uint32_t job, uint64_t iteration, uint32_t phase);
    /// \param group an id from MakeGroupId \return its job
    static uint32_t GroupJob(uint64_t group);
    /// \param group an id from MakeGroupId \return its iteration (modulo 2^20)
    static uint32_t GroupIteration(uint64_t group);
    /// \param group an id from MakeGroupId \return its phase
    static uint32_t GroupPhase(uint64_t group);

  protected:
    void DoDispose() override;

  private:
    /// A message from post to acknowledgement.
    struct Message
    {
        FlowDeclaration decl;
        Ptr<MessageTransport> src;
        Ptr<MessageTransport> dst;
        MessageCallback onReceived;
        MessageCallback onCompleted;
        Ptr<MessageConnection> qp; //!< null until started
        uint64_t sentBase{0};      //!< qp's bytesSent when the message was posted on it
        ScheduledFlowRecord record;
        uint8_t cls{0};    //!< class last applied
        double capBps{0};  //!< wire cap last applied (0 = none)
        uint32_t scope{0}; //!< evaluation scope (sender port, or kAll)
    };

    /// Queue pairs of one (src, dst) pair: idle ones, ready for the next message.
    struct Peer
    {
        std::vector<Ptr<MessageConnection>> idle;
    };

    /// Per group bookkeeping for the records.
    struct GroupBook
    {
        FlowGroupSpec spec;
        uint32_t added{0};
        uint32_t done{0};
        std::vector<ScheduledFlowRecord> waiting; //!< finished, emitted when the group is done
    };

    FlowSchedulingState& StateOf(uint32_t port);
    void Trigger(uint32_t port);
    void Evaluate(uint32_t port);
    void Apply(std::vector<FlowDecision> decisions, Time computed);
    void ApplyOne(Message& m, const FlowDecision& d, Time computed);
    void Start(Message& m, uint8_t cls, double capBps);
    void OnMessageRx(Ipv4Address src, uint32_t srcQpn, uint64_t bytes);
    void OnCompleted(uint64_t id);
    void Finish(GroupBook& g, uint64_t groupId, bool all);
    uint8_t ClassOf(uint32_t level) const;
    double WireRate(double payloadBytesPerSecond) const;

    Ptr<FlowSchedulingPolicy> m_policy;
    Mode m_mode{CENTRALISED};
    Time m_controlDelay;
    uint8_t m_topClass{6};
    std::vector<Ptr<MessageTransport>> m_nics;
    std::map<MessageTransport*, uint32_t> m_ports;
    FlowSchedulingState m_central;                   //!< every flow (decisions if centralised)
    std::map<uint32_t, FlowSchedulingState> m_local; //!< per sender (decentralised)
    std::map<uint64_t, GroupBook> m_groups;
    std::unordered_map<uint64_t, Message> m_msgs;
    std::map<std::pair<MessageTransport*, MessageTransport*>, Peer> m_peers;
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> m_onQp; //!< (src addr, qpn) -> message
    std::map<uint32_t, bool> m_pending;                       //!< evaluation scheduled per scope
    uint64_t m_nextId{1};
    uint64_t m_posted{0};
    uint64_t m_applied{0};
    uint64_t m_evaluations{0};
    uint64_t m_classChanges{0};
    uint64_t m_capChanges{0};
    uint64_t m_capSkipped{0};
    double m_capTolerance{0}; //!< relative cap change below which a running cap stands
    uint32_t m_qps{0};
    std::vector<double> m_wirePerPayload; //!< per port: wire bytes per payload byte
    Ptr<EchelonFlowPolicy> m_reference;   //!< Echelon ideal finish times for the records
    TracedCallback<uint64_t, uint32_t, uint8_t, double, Time> m_decisionTrace;
    TracedCallback<const ScheduledFlowRecord&> m_flowTrace;
};

} // namespace ns3

#endif /* MLNET_RDMA_FLOW_SCHEDULER_H */
