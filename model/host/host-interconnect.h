/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_HOST_INTERCONNECT_H
#define MLNET_HOST_INTERCONNECT_H

#include "host-path-timing.h"
#include "iotlb.h"

#include "ns3/event-id.h"
#include "ns3/fabric-frame.h"
#include "ns3/host-path-stats.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <deque>
#include <map>
#include <memory>
#include <vector>

namespace ns3
{

class RdmaNic;
class FabricNetDevice;

/**
 * \ingroup mlnet
 * \brief The path between a host's RDMA NIC and its memory: NIC receive buffer, PCIe link,
 * IOMMU with its IOTLB, memory bus shared with a co-located memory-intensive application;
 * with optional PFC back-pressure and a hostCC-style host-congestion response.
 *
 * Receive path: every data packet the NIC receives enters the NIC buffer (or is dropped when
 * it is full); a DMA engine writes the buffered packets to memory one after the other, each
 * taking the time HostPathTiming gives for the current memory load (plus a page walk per
 * IOTLB miss of its pages), and hands each to the NIC transport (acknowledgement, CNP,
 * completion) when it is in memory. One event per packet. The receive buffers of the queue
 * pairs are RxBufferPerQp bytes each, page-aligned and written cyclically, so the IOTLB's
 * working set is (active queue pairs) x (pages per buffer).
 *
 * Full buffer: with Pfc false the packet is dropped; with Pfc true the host pauses the classes
 * it receives on its upstream link (FabricNetDevice::SendPfc, the frames the switch MMU uses)
 * when the occupancy passes RxBufferBytes minus the headroom, refreshes the pause while it
 * stays high and resumes below the threshold minus PfcResumeOffset.
 *
 * Host-congestion response (hostCC, Agarwal et al. SIGCOMM 2023): the host congestion signal
 * is an EWMA, updated every HostCcInterval, of the write-credit occupancy (hostCC's IIO
 * occupancy: by Little's law the DMA rate of the interval times the request latency, over
 * the credits). Above HostCcThreshold, with at least HostCcMarkBytes buffered, the host
 * ECN-marks (CE) arriving ECN-capable packets before the NIC's notification point sees them
 * (HostCcMarking), and/or raises the memory application's throttle level by one per interval while
 * the DMA rate is below HostCcTarget x line rate (HostCcThrottling; level k of L lets it use 1 -
 * k/L of its demand, as Intel's memory bandwidth allocation levels), lowering it again once the
 * host is not congested and the target is met (or no traffic arrives).
 *
 * Transmit path: the NIC reads each data packet from memory before sending it, at the DMA
 * read rate of the same path; the next packet cannot leave before it is read.
 *
 * Installed by HostInterconnectHelper (Attach). With Enabled false Attach does nothing and the
 * NIC behaves exactly as without a host model.
 */
class HostInterconnect : public Object
{
  public:
    /// Trace signature of DmaWrite: (payload bytes, arrival-to-memory time).
    typedef void (*DmaTracedCallback)(uint32_t bytes, Time delay);
    /// Trace signature of Utilization: (PCIe utilisation, memory-bus utilisation) in [0, 1].
    typedef void (*UtilizationTracedCallback)(double pcie, double memory);
    /// Trace signature of HostDrop: (dropped packet).
    typedef void (*DropTracedCallback)(Ptr<const Packet> p);
    /// Trace signature of OperatingPoint: (DMA write rate, DMA read rate), bit/s of payload.
    typedef void (*OperatingTracedCallback)(double writeRate, double readRate);

    static TypeId GetTypeId();
    HostInterconnect();
    ~HostInterconnect() override;

    /**
     * Put this path between a NIC and memory (nothing if Enabled is false).
     * \param nic the host's RDMA NIC (bound to its device)
     * \throws std::invalid_argument if the parameters do not make a valid path
     */
    void Attach(Ptr<RdmaNic> nic);
    /// \return true if attached to a NIC (enabled)
    bool IsActive() const;
    /**
     * Build the path's models (PCIe link, memory bus, IOTLB geometry) from the attributes and
     * solve the operating point, without a NIC: what Attach() does first, and all the flow
     * backend needs (FluidHost: GetOperatingPoint(), GetStreamWriteRate(), the
     * OperatingPoint trace). Called again, it rebuilds them from the attributes.
     * \throws std::invalid_argument if the parameters do not make a valid path
     */
    void Configure();

    /// \param fraction memory bandwidth the co-located application asks for, in [0, 1]
    void SetMemoryAppDemand(double fraction);
    double GetMemoryAppDemand() const; //!< \return the demand fraction

    const HostPathStats& GetStats() const; //!< \return the counters
    uint64_t GetBufferBytes() const;       //!< \return bytes in the NIC buffer now
    double GetIotlbHitRate() const;        //!< \return IOTLB hits / lookups (0: none)
    /// \return the path's operating point at the current memory load (after Attach)
    HostPathTiming::Operating GetOperatingPoint() const;
    /**
     * \return the path's timing model built from the attributes (after Attach or Configure):
     * what a replay of packet times (HostPathTiming::PacketTime) needs
     * \throws std::invalid_argument if not configured
     */
    const HostPathTiming& GetTiming() const;
    /// \return memory bandwidth the application is allowed now (demand x throttle), bit/s
    double GetAppLoad() const;
    /**
     * Analytical DMA write throughput of `flows` queue pairs receiving long messages at the
     * current operating point (after Attach): the write rate, lowered by one page walk per page
     * when their receive buffers' pages do not fit in the IOTLB (Iotlb::CyclicMissesPerByte,
     * HostPathTiming::MissLimitedRate); the write rate itself with the IOMMU off.
     * Beyond IotlbEntries / 2 queue pairs (no closed form) the misses per byte are those of
     * the round-robin replay Iotlb::InterleavedMissesPerByte with writes of `writeBytes`.
     * \param flows active queue pairs (>= 1)
     * \param writeBytes payload of one DMA write (a packet: the NIC's Mtu, 1000 by default), in
     *        [1, RxBufferPerQp]; used only beyond IotlbEntries / 2 queue pairs
     * \return bit/s of payload
     * \throws std::invalid_argument if not configured (Attach, Configure) or a parameter is out
     *         of range
     */
    double GetStreamWriteRate(uint32_t flows, uint32_t writeBytes = 1000) const;
    /**
     * The write-credit occupancy hostCC reads at a DMA rate (Little's law: rate x request
     * latency over the credits, i.e. rate / creditRate of the operating point), capped at 1.
     * \param rate DMA payload rate, bit/s \return the occupancy in [0, 1]
     */
    double CreditOccupancy(double rate) const;
    /**
     * The hostCC throttle's rule for one control interval: one level more while
     * host-congested (occupancy above HostCcThreshold) and the DMA rate is below HostCcTarget
     * x line rate, one less once not congested and the target is met (or no traffic arrived),
     * else the same; between 0 and HostCcLevels - 1.
     * \param level the level now \param occupancy the congestion signal (EWMA of
     *        CreditOccupancy) \param rateEwma the DMA rate's EWMA, bit/s \param rate the
     *        interval's DMA rate, bit/s \param lineRate the NIC's line rate, bit/s
     * \return the next level
     */
    uint32_t NextThrottleLevel(uint32_t level,
                               double occupancy,
                               double rateEwma,
                               double rate,
                               double lineRate) const;
    /**
     * Set the memory application's throttle level (hostCC: it may use 1 - level / HostCcLevels
     * of its demand) and solve the operating point again.
     * \param level in [0, HostCcLevels - 1]
     * \throws std::invalid_argument if out of range
     */
    void SetThrottleLevel(uint32_t level);
    uint32_t GetThrottleLevel() const; //!< \return the throttle level now

  protected:
    void DoDispose() override;

  private:
    struct Entry
    {
        FabricFrame frame; //!< the packet, as it arrived (a compact frame stays compact)
        uint32_t qp;
        uint32_t payload;
        Time arrival;
    };

    void Receive(FabricFrame f, uint32_t qp, uint32_t payload);
    Time TransmitReady(uint32_t payload);
    void StartDma();
    void CompleteDma();
    void Recompute();
    void Control();
    void SendPause();
    void RefreshPause();
    void MaybeResume();

    // parameters
    bool m_enabled{true};
    uint64_t m_bufferBytes;
    uint32_t m_pcieGen;
    uint32_t m_pcieLanes;
    uint32_t m_mps;
    uint32_t m_tlpOverhead;
    uint32_t m_writeCredits{128};
    uint32_t m_readRequests{64};
    uint32_t m_readRequestBytes{512};
    double m_walkAccesses{1.0};
    Time m_ioLatency;
    bool m_iommu{true};
    uint32_t m_iotlbEntries;
    uint64_t m_pageBytes;
    uint64_t m_perQpBytes;
    double m_memBandwidth;
    Time m_memIdle;
    Time m_memScale;
    double m_memMaxUtil;
    double m_demand{0};
    bool m_pfc{false};
    uint64_t m_pfcHeadroom{0};
    uint64_t m_pfcResumeOffset{0};
    uint16_t m_pauseQuanta{65535};
    bool m_txPath{true};
    bool m_ccMarking{false};
    bool m_ccThrottling{false};
    double m_ccThreshold{0.7};
    double m_ccTarget{0.8};
    uint64_t m_ccMarkBytes{64 * 1024};
    double m_ccGain{0.125};
    Time m_ccInterval;
    uint32_t m_ccLevels{10};

    // state
    Ptr<RdmaNic> m_nic;
    Ptr<FabricNetDevice> m_dev;
    std::unique_ptr<HostPathTiming> m_timing;
    std::unique_ptr<Iotlb> m_iotlb;
    HostPathTiming::Operating m_op;
    std::deque<Entry> m_queue;
    std::vector<uint64_t> m_qpOffset;
    uint64_t m_qpSpan{0};
    EventId m_dma;
    Time m_dmaStart;
    double m_carry{0};
    Time m_txReady;
    uint64_t m_pauseAt{0};
    uint64_t m_resumeAt{0};
    Time m_pauseDuration;
    bool m_pausing{false};
    uint8_t m_classes{0};
    EventId m_refresh;
    double m_ewma{0};          //!< EWMA of the write-credit occupancy
    double m_rateEwma{0};      //!< EWMA of the DMA payload rate, bit/s
    uint64_t m_ccLastBytes{0}; //!< dmaPayloadBytes at the last control tick
    uint32_t m_level{0};
    EventId m_ctrl;
    HostPathStats m_stats;
    /// GetStreamWriteRate(): replayed misses per byte by (queue pairs, write bytes)
    mutable std::map<std::pair<uint32_t, uint32_t>, double> m_missCache;

    TracedValue<uint64_t> m_occupancy;
    TracedValue<double> m_hitRate;
    TracedValue<uint32_t> m_levelTrace;
    TracedCallback<double, double> m_utilTrace;
    TracedCallback<uint32_t, Time> m_dmaTrace;
    TracedCallback<Ptr<const Packet>> m_dropTrace;
    TracedCallback<double, double> m_opTrace;
};

} // namespace ns3

#endif /* MLNET_HOST_INTERCONNECT_H */
