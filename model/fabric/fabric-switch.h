/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FABRIC_SWITCH_H
#define MLNET_FABRIC_SWITCH_H

#include "fabric-net-device.h"
#include "flow-key.h"
#include "flowlet-table.h"
#include "shared-buffer-mmu.h"

#include "ns3/event-id.h"
#include "ns3/fast-mod.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/reusable-timer.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Per-port counters of a switch.
 */
struct SwitchPortStats
{
    uint64_t txPackets{0};     //!< packets forwarded out of the port
    uint64_t txBytes{0};       //!< bytes forwarded out of the port
    uint64_t drops{0};         //!< packets dropped on admission (ingress port)
    uint64_t dropBytes{0};     //!< bytes dropped on admission (ingress port)
    uint64_t ecnMarks{0};      //!< packets CE-marked at this egress port
    uint64_t pauseSent{0};     //!< PFC pause frames sent out of this port
    uint64_t resumeSent{0};    //!< PFC resume frames sent out of this port
    uint64_t maxQueueBytes{0}; //!< largest egress queue seen (all classes)
};

/**
 * \ingroup mlnet
 * \brief Counters of one priority class at one switch port (port-classes.csv).
 */
struct SwitchClassStats
{
    uint64_t txPackets{0};     //!< packets of the class forwarded out of the port
    uint64_t txBytes{0};       //!< bytes of the class forwarded out of the port
    uint64_t pauseSent{0};     //!< PFC pause frames for the class sent out of the port
    uint64_t maxQueueBytes{0}; //!< largest queue of the class waiting at the port (bytes)
};

/**
 * \ingroup mlnet
 * \brief An output-queued datacenter switch: flow-hash ECMP forwarding, shared-buffer MMU,
 * PFC and RED-style ECN marking. Aggregated to an ns-3 Node whose devices are FabricNetDevices.
 *
 * Per packet: parse the 5-tuple (FlowKey; only where the packet enters the switched fabric:
 * from one switch to the next the parsed key travels beside the packet), look up the destination's
 * ECMP group (one array access for the densely numbered 10.0.0.0/12 host addresses, a hash-table
 * lookup otherwise: O(1) whatever the topology size), pick the member by hashing the 5-tuple with
 * the per-switch seed (or, with LoadBalancing = Flowlet, draw it per flowlet: FlowletTable), ask
 * the MMU for admission and queue the packet at the egress port in the
 * class given by DSCP mod 8. ECN: an ECN-capable packet is CE-marked with probability following
 * the Kmin/Kmax/Pmax curve of its egress queue (class), either when it leaves the queue (the
 * default, EcnMarkingPoint = Dequeue: the queue it leaves behind decides, and the mark reaches
 * the receiver without waiting behind that queue) or when it joins it (Enqueue: the queue it
 * finds, including itself). PFC: when an ingress queue crosses its Xoff
 * threshold the switch sends PAUSE upstream (refreshed before it expires) and RESUME when it
 * drains under Xon.
 *
 * Randomness (the ECMP seed, ECN marking) comes from ns-3 random variable streams only.
 */
class alignas(64) FabricSwitch : public Object, public FabricPortHandler
{
  public:
    /// Where ECN marking decides (attribute EcnMarkingPoint).
    enum EcnMarkingPoint
    {
        ECN_AT_ENQUEUE, //!< when the packet joins the egress queue (queue it finds)
        ECN_AT_DEQUEUE, //!< when it leaves the egress queue (queue it leaves behind)
    };

    /// How a packet picks a member of its ECMP group (attribute LoadBalancing).
    enum LoadBalancing
    {
        LB_FLOW_HASH, //!< hash of the 5-tuple: a flow keeps its path (no reordering)
        LB_FLOWLET,   //!< flowlets (FlowletTable): a new draw after a gap of FlowletTimeout
    };

    static TypeId GetTypeId();
    FabricSwitch();
    ~FabricSwitch() override;

    /**
     * Add a port (the device must be on this switch's node and attached to a channel).
     * \param dev the port device
     * \return the port index
     */
    uint32_t AddPort(Ptr<FabricNetDevice> dev);
    /// \return number of ports
    uint32_t GetNPorts() const;
    /// \return port device i
    Ptr<FabricNetDevice> GetPort(uint32_t i) const;

    /**
     * Set the equal-cost next-hop ports towards a destination host.
     * \param dst destination host address
     * \param ports egress port indices (non-empty)
     */
    void SetRoute(Ipv4Address dst, const std::vector<uint32_t>& ports);
    /// \return the ECMP group towards dst (empty if no route)
    const std::vector<uint32_t>& GetRoute(Ipv4Address dst) const;
    /**
     * The egress port of a flow with this key by the flow hash (the ECMP decision with
     * LoadBalancing = FlowHash; the flow backend routes by it whatever LoadBalancing is).
     * \param key the flow key
     * \return port index, or -1 without route
     */
    int SelectEgress(const FlowKey& key);

    /// In-switch processor: (ingress port, packet) for packets addressed to the switch itself.
    typedef Callback<void, uint32_t, Ptr<Packet>> LocalCallback;
    /**
     * Deliver packets addressed to `addr` to an in-switch processor (e.g. an aggregation
     * pipeline) instead of forwarding them.
     * \param addr the switch's own address \param cb the processor
     */
    void SetLocalHandler(Ipv4Address addr, LocalCallback cb);
    /**
     * Forward a packet generated inside the switch as if it had arrived on port inPort (buffer
     * accounting, PFC and ECN as for any packet from that port).
     * \param p the IPv4 packet \param inPort the port it is charged to
     */
    void Inject(Ptr<Packet> p, uint32_t inPort);

    /// \return the ECMP hash seed in use (drawn from the switch's random stream unless set)
    uint32_t GetEcmpSeed();
    /// \return flowlets started so far (LoadBalancing = Flowlet; 0 with FlowHash)
    uint64_t GetFlowlets() const;

    /**
     * Assign a fixed random stream index to the random variables of this switch.
     * \param stream first stream index
     * \return number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the MMU (read-only view, for statistics and tests)
    const SharedBufferMmu& GetMmu() const;
    /// \return counters of port i
    const SwitchPortStats& GetPortStats(uint32_t i) const;
    /// \return counters of class cls (0..7) at port i; they add up to GetPortStats(i)'s
    /// txPackets, txBytes and pauseSent
    SwitchClassStats GetClassStats(uint32_t i, uint8_t cls) const;
    /// \return ECN thresholds (Kmin, Kmax) in bytes in force at port i
    std::pair<uint64_t, uint64_t> GetEcnThresholds(uint32_t i) const;

    /**
     * Marking probability of the RED-style ECN curve.
     * \param q egress queue bytes \param kmin Kmin \param kmax Kmax \param pmax Pmax
     * \return probability in [0,1]
     */
    static double EcnProbability(uint64_t q, uint64_t kmin, uint64_t kmax, double pmax);

    /// Trace signature of drops: (packet, ingress port, class, reason).
    typedef void (*DropTracedCallback)(Ptr<const Packet> p,
                                       uint32_t port,
                                       uint8_t cls,
                                       const std::string& reason);
    /// Trace signature of ECN marks and PFC events: (port, class).
    typedef void (*PortClassTracedCallback)(uint32_t port, uint8_t cls);

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    bool PortReceive(uint32_t inPort,
                     FabricNetDevice* dev,
                     FabricFrame& f,
                     const FlowKey* key) override;
    void PortDequeue(uint32_t outPort,
                     FabricFrame& f,
                     uint8_t cls,
                     uint32_t meta,
                     FlowKey* key) override;
    void Forward(uint32_t inPort, const FlowKey& key, FabricFrame& f);
    /// Fire the drop trace (materialising the frame only if it has sinks); count the drop.
    void Drop(FabricFrame& f, uint32_t inPort, uint8_t cls, const char* reason);
    void EnsureConfigured();
    void Configure();
    void SendPause(uint32_t port, uint8_t cls);
    void RefreshPause(uint32_t port, uint8_t cls);

    /**
     * RED-style marking decision for an ECN-capable packet at queue length q of (port, class).
     * \return true if the packet was CE-marked
     */
    bool MaybeMark(FabricFrame& f, uint32_t outPort, uint8_t cls, uint64_t q)
    {
        // At or under Kmin (the common case) nothing is marked: no call.
        return q > m_ports[outPort].kmin && MarkAboveKmin(f, outPort, cls, q);
    }

    /// MaybeMark() over Kmin: mark with the RED probability. \return true if marked
    bool MarkAboveKmin(FabricFrame& f, uint32_t outPort, uint8_t cls, uint64_t q);

    /// Set in the device queue's per-packet value (next to the ingress port) when an
    /// ECN-capable packet is to be marked at dequeue: the switch need not parse it again.
    static constexpr uint32_t kMarkAtDequeue = 1u << 31;

    /// A port's PFC pause refresh of one class (a ReusableTimer calls a member function
    /// without arguments: this one knows its port and class). Cancelled at the resume, its
    /// queued expiry is inert, so a run to the end does not wait up to half a pause for it.
    struct PauseRefresh
    {
        FabricSwitch* sw{nullptr};
        uint32_t port{0};
        uint8_t cls{0};
        ReusableTimer timer;

        /// Due: FabricSwitch::RefreshPause(port, cls).
        void Fire()
        {
            sw->RefreshPause(port, cls);
        }
    };

    /// A port; what a frame touches (the device, the pause state, the ECN thresholds, the
    /// transmit counters) is in its first cache line.
    struct alignas(64) Port
    {
        Ptr<FabricNetDevice> dev;
        std::array<bool, 8> pausing{};
        uint64_t kmin{0};
        uint64_t kmax{0};
        /// Counters; maxQueueBytes is the MMU's and txPackets, txBytes the sums of txClass
        /// (GetPortStats copies them in).
        mutable SwitchPortStats stats;
        Time pauseDuration;
        std::array<std::unique_ptr<PauseRefresh>, 8> refresh; //!< made at the class's first pause
        /// Per class: packets and bytes sent (a frame counts once, in its class's pair).
        std::array<std::array<uint64_t, 2>, 8> txClass{};
        std::array<uint64_t, 8> pauseClass{}; //!< PFC pauses sent, per class
    };

    /**
     * \param dst a destination address
     * \return its route word: kSinglePort | the port for a route of one port, else the ECMP
     * group's offset in m_groupData; kNoGroup if none
     */
    uint32_t RouteWord(uint32_t dst) const;
    /**
     * The route of a flow's destination, the prologue SelectEgress and SelectFlowletEgress share.
     * \param key the flow
     * \param port set to the port of a one-port route, or -1 without a route
     * \return the ECMP group's words in m_groupData, or nullptr (then \p port is the answer)
     */
    const uint32_t* EcmpGroup(const FlowKey& key, int* port) const;
    /// \return the egress port of a packet with LoadBalancing = Flowlet (-1 without route)
    int SelectFlowletEgress(const FlowKey& key);
    /**
     * Append a new group to m_groupData.
     * \param g its index in m_groups \param ports its ports
     * \return its offset (its route word)
     */
    uint32_t AppendGroupData(uint32_t g, const std::vector<uint32_t>& ports);

    static constexpr uint32_t kDenseBase = 0x0a000000; //!< 10.0.0.0: host addresses
    static constexpr uint32_t kDenseSpan = 1u << 20;   //!< dense table covers 10.0.0.0/12
    static constexpr uint32_t kNoGroup = 0xffffffffu;  //!< no route
    static constexpr uint32_t kSinglePort = 1u << 31;  //!< route word of a one-port route

    /// Where a group's index in m_groups is in its m_groupData (after its FastModulus, 4 words).
    static constexpr uint32_t kGroupIndexWord = 4;
    /// Words of m_groupData before a group's ports.
    static constexpr uint32_t kGroupHeadWords = kGroupIndexWord + 1;

    // What forwarding a frame reads, first and together: a switch-hop touches these few cache
    // lines of the switch rather than a line per member (doc/performance.rst, step 38).
    std::vector<Port> m_ports;
    /// dst - 10.0.0.0 -> route word (RouteWord()): the topology helpers number hosts densely
    /// from 10.0.0.1, so the lookup is one array access (4 bytes per host per switch)
    std::vector<uint32_t> m_denseRoute;
    /**
     * The groups end to end (SetRoute appends each new group to m_groups and here), each at an
     * offset that is a multiple of 4 words (its route word): its number of ports as a
     * FastModulus (4 words), its index in m_groups, its ports. A lookup reads one small array,
     * usually one cache line, for the divisor and the port.
     */
    std::vector<uint32_t> m_groupData;
    bool m_configured{false};
    bool m_ecnEnabled{true};
    LoadBalancing m_loadBalancing{LB_FLOW_HASH};
    EcnMarkingPoint m_ecnPoint{ECN_AT_DEQUEUE};
    uint32_t m_seedInUse{0};
    uint32_t m_localAddr{0};
    SharedBufferMmu m_mmu; //!< its per-frame state next, in the third and fourth lines
    LocalCallback m_local;
    double m_pmax{0.2};
    Ptr<UniformRandomVariable> m_rng;

    std::unordered_map<uint32_t, uint32_t> m_routeOf;       //!< other addresses -> route word
    std::vector<std::vector<uint32_t>> m_groups;            //!< ECMP groups (deduplicated)
    std::map<std::vector<uint32_t>, uint32_t> m_groupIndex; //!< ports -> offset in m_groupData

    // attributes (those read per frame are above)
    uint64_t m_bufferBytes{0};
    uint32_t m_reserveBytes{0};
    bool m_pfcEnabled{true};
    uint8_t m_pfcMask{0xff};
    double m_pfcAlpha{0.125};
    uint32_t m_pfcResumeOffset{0};
    double m_egressAlpha{1.0};
    uint32_t m_headroom{0};
    uint16_t m_pauseQuanta{0xffff};
    uint64_t m_kmin{400 * 1000};
    uint64_t m_kmax{1600 * 1000};
    bool m_ecnScale{true};
    uint32_t m_ecmpSeed{0};
    Time m_flowletTimeout;
    uint32_t m_flowletTableSize{4096};
    FlowletTable m_flowlets; //!< LoadBalancing = Flowlet

    TracedCallback<Ptr<const Packet>, uint32_t, uint8_t, const std::string&> m_dropTrace;
    TracedCallback<uint32_t, uint8_t> m_ecnTrace;
    TracedCallback<uint32_t, uint8_t> m_pauseTrace;
    TracedCallback<uint32_t, uint8_t> m_resumeTrace;
};

} // namespace ns3

#endif /* MLNET_FABRIC_SWITCH_H */
