/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_AGGREGATION_DEVICE_H
#define MLNET_AGGREGATION_DEVICE_H

#include "aggregation-engine.h"

#include "ns3/enum.h"
#include "ns3/fabric-net-device.h"
#include "ns3/object.h"
#include "ns3/reusable-timer.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Counters of a bump-in-the-wire aggregation device.
 */
struct AggregationDeviceStats
{
    uint64_t passThrough[2]{0, 0}; //!< packets passed through, from the switch / link side
    uint64_t aggregationRx{0};     //!< aggregation packets addressed to the device
    uint64_t waited{0};            //!< aggregation packets that waited for the datapath
    uint64_t maxInputBytes{0};     //!< largest input-buffer occupancy (either side)
    uint64_t pauses{0};            //!< PFC pause frames sent (input buffer or pass-through)
    uint64_t resumes{0};           //!< PFC resume frames sent
    uint64_t drops{0};             //!< aggregation packets dropped (input buffer full)
    uint64_t results{0};           //!< result / partial-sum packets the engine sent out
    uint64_t maxResultBytes{0};    //!< most result bytes waiting for a port (BYPASS, either side)
};

/**
 * \ingroup mlnet
 * \brief PANAMA's in-network aggregation accelerator as a bump in the wire: a node with two
 * FabricNetDevices spliced between a switch port and its link (AggregationHelper does it),
 * holding an AggregationEngine.
 *
 * Packets addressed to the device's aggregation address (UDP port AggregationHeader::kUdpPort)
 * go to the engine; everything else crosses to the other port unchanged, in its class, with
 * the device's latency (the delay of the short link to the switch). The device is not an IP
 * hop: routing and ECMP see the switch port as connected to the far end.
 *
 * Contributions wait in a per-side input buffer until the adder datapath takes them (the
 * engine's timing model). When the waiting bytes of a side pass InputBufferBytes minus the
 * PFC headroom of that side, the device pauses the sender (the switch, or the far end) in the
 * packet's class, and resumes it when the buffer has drained by two frames; without
 * BackPressure, packets that do not fit are dropped. Pass-through traffic that cannot leave
 * (the far end pauses the device) backs up in the device's class queue, and past
 * PassThroughPauseBytes the device pauses the sending side in that class too, so PFC crosses
 * the device.
 *
 * Output of the two paths (PassThroughPath): with BYPASS (default; PANAMA's datapath, where
 * non-aggregation packets bypass the aggregation logic and only meet its output at the port's
 * transmit mux) a pass-through frame is queued in its class queue and the results of the
 * engine wait in the device's own result queue; the port's mux takes the two in turn, frame by
 * frame, while both have a frame of an unpaused class waiting (after a pass-through frame the
 * oldest sendable result, after a result the class queues): a pass-through frame waits at most
 * for the frame on the wire and one result, never behind a backlog of results, and a stream of
 * pass-through traffic at line rate cannot starve the results (it gets half the port; its class
 * queue backs up and past PassThroughPauseBytes pauses its sender). With SHARED_FIFO both go
 * into the port's class queue in arrival order (one FIFO per class), so a pass-through frame
 * waits behind every result queued before it in its class.
 */
class AggregationDevice : public Object, public FabricPortHandler
{
  public:
    /// How pass-through frames and the engine's results share a port (PassThroughPath).
    enum PassThroughPath
    {
        BYPASS,      //!< pass-through frames first; results when no pass-through frame waits
        SHARED_FIFO, //!< one FIFO per class for both, in arrival order
    };

    /// Trace signature of input-buffer occupancy: (side: 0 switch, 1 link, bytes waiting).
    typedef void (*InputTracedCallback)(uint8_t side, uint64_t bytes);

    static TypeId GetTypeId();
    AggregationDevice();
    ~AggregationDevice() override;

    /**
     * Bind the two ports (done by AggregationHelper).
     * \param switchSide port connected to the switch
     * \param linkSide port connected to the far end of the original link
     */
    void SetPorts(Ptr<FabricNetDevice> switchSide, Ptr<FabricNetDevice> linkSide);
    Ptr<FabricNetDevice> GetSwitchPort() const; //!< \return the switch-side port
    Ptr<FabricNetDevice> GetLinkPort() const;   //!< \return the link-side port
    Ptr<AggregationEngine> GetEngine() const;   //!< \return the engine
    /// \param engine the engine (null: a new AggregationEngine)
    void SetEngine(Ptr<AggregationEngine> engine);

    /**
     * Check the configuration (done by the helper before the run).
     * \throws std::invalid_argument if the input buffer minus the PFC headroom of a side cannot
     *         hold one maximum-size packet
     */
    void Validate() const;

    const AggregationDeviceStats& GetStats() const; //!< \return counters
    /// \return bytes waiting for the datapath now, from a side (0 switch, 1 link)
    uint64_t GetInputBytes(uint8_t side);
    /// \return result bytes waiting in the device's result queue of a side (BYPASS; 0 switch,
    /// 1 link); with SHARED_FIFO results wait in the port's class queue instead
    uint64_t GetResultBytes(uint8_t side) const;

  protected:
    void DoDispose() override;

  private:
    /// The result queue of one side, pulled by its port when its class queues are empty.
    class ResultSource : public FabricPullSource
    {
      public:
        bool PortPull(uint8_t pausedMask, FabricFrame& f, const FlowKey*& key) override;
        bool MayPull() const override;
        /// \return true after a pass-through frame left while results wait (their turn)
        bool PullFirst() const override;

        std::deque<std::pair<Ptr<Packet>, uint8_t>> queue; //!< (result, class), arrival order
        uint64_t bytes{0};                                 //!< bytes in queue
        bool turn{false}; //!< a pass-through frame left last: a waiting result goes next
    };

    /// A side's timer (a ReusableTimer calls a member function without arguments: this one
    /// knows its side and class).
    struct SideTimer
    {
        AggregationDevice* device{nullptr};
        uint8_t side{0};
        uint8_t cls{0};
        ReusableTimer timer;

        /// The pause's refresh is due: AggregationDevice::Refresh(side, cls).
        void Refresh()
        {
            device->Refresh(side, cls);
        }

        /// Enough may have left the input buffer: AggregationDevice::CheckDrain(side).
        void Drain()
        {
            device->CheckDrain(side);
        }
    };

    struct Side
    {
        Ptr<FabricNetDevice> dev;
        std::deque<std::pair<Time, uint32_t>> waiting; //!< (leaves the buffer at, bytes)
        uint64_t bytes{0};                             //!< waiting bytes
        uint64_t xoff{0};                              //!< pause threshold
        std::array<bool, 8> inputPaused{};             //!< we paused this side (input buffer)
        std::array<bool, 8> passPaused{};              //!< we paused this side (pass-through)
        std::array<SideTimer, 8> refresh;              //!< per class: the pause's refresh
        SideTimer drain;                               //!< the input buffer's drain check
        ResultSource results; //!< BYPASS: results waiting for this side's port
    };

    /// A frame arrived on side `port`: aggregation packets to the engine (as an ns3::Packet),
    /// everything else passes through as it came (a compact frame stays compact).
    bool PortReceive(uint32_t port,
                     FabricNetDevice* dev,
                     FabricFrame& f,
                     const FlowKey* key) override;
    /// A frame left side `port`: lift the pass-through pause of the other side.
    void PortDequeue(uint32_t port,
                     FabricFrame& f,
                     uint8_t cls,
                     uint32_t meta,
                     FlowKey* key) override;
    void Emit(Ptr<Packet> p, bool linkSide);
    void Expire(Side& s);
    void CheckDrain(uint8_t side);
    void Pause(uint8_t side, uint8_t cls);
    void Resume(uint8_t side, uint8_t cls);
    void Refresh(uint8_t side, uint8_t cls);
    uint64_t Headroom(const Side& s) const;

    std::array<Side, 2> m_sides;
    Ptr<AggregationEngine> m_engine;
    uint32_t m_address{0};
    uint64_t m_inputBuffer{0};
    bool m_backPressure{true};
    uint64_t m_passPause{0};
    uint16_t m_pauseQuanta{0xffff};
    PassThroughPath m_path{BYPASS};
    AggregationDeviceStats m_stats;

    TracedCallback<uint8_t, uint64_t> m_inputTrace;
    TracedCallback<Ptr<const Packet>> m_dropTrace;
};

} // namespace ns3

#endif /* MLNET_AGGREGATION_DEVICE_H */
