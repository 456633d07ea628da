/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_HOST_PATH_TIMING_H
#define MLNET_HOST_PATH_TIMING_H

#include "memory-bus-model.h"
#include "pcie-link-model.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Throughput and latency of the NIC-to-memory path (PCIe, IOMMU, memory bus) for a
 * given memory load of the co-located application (pure model, no simulator).
 *
 * Why the host congests although the memory bandwidth (hundreds of Gb/s) far exceeds the
 * NIC's: DMA writes travel with a bounded number of requests in flight (the root complex's
 * write credits, one cache line each), so by Little's law their throughput is
 * credits x line / request latency, whatever the memory bandwidth. The request latency is the
 * fixed I/O part plus the memory access latency, which grows with the memory bus utilisation
 * (MemoryBusModel); the co-located application's load raises the utilisation, hence the
 * latency, hence lowers the DMA throughput. The operating point is the fixed point
 * R = min(PCIe rate, credits x line x 8 / (ioLatency + memLatency((app + R) / bandwidth))),
 * unique because the right side decreases with R.
 *
 * IOTLB misses: posted PCIe writes are delivered in order, so the page walk of a missing
 * translation (walkAccesses memory accesses at the loaded latency) stalls the writes behind
 * it: each miss adds its walk time to the packet's service time.
 */
class HostPathTiming
{
  public:
    /// Parameters of the path besides the PCIe link and the memory bus.
    struct Config
    {
        uint32_t writeCredits{128};     //!< DMA write requests in flight (cache lines)
        uint32_t requestBytes{64};      //!< bytes per write request (a cache line)
        double ioLatency{250e-9};       //!< fixed part of a write request's latency, seconds
        double walkAccesses{1.0};       //!< memory accesses per IOTLB miss
        uint32_t readRequests{64};      //!< DMA read requests in flight (transmit path)
        uint32_t readRequestBytes{512}; //!< bytes per read request
    };

    /// The path's state for one memory load.
    struct Operating
    {
        double writeRate{0};  //!< DMA write throughput, bit/s of payload
        double pcieRate{0};   //!< PCIe payload rate (full TLPs), bit/s
        double creditRate{0}; //!< credits x line / request latency, bit/s
        double memUtil{0};    //!< memory bus utilisation (capped at its maximum)
        double memLatency{0}; //!< memory access latency, seconds
        double appRate{0};    //!< memory bandwidth the application gets, bit/s
        double readRate{0};   //!< DMA read throughput (transmit path), bit/s
    };

    /**
     * \param pcie the link \param mem the memory bus \param cfg the rest
     * \throws std::invalid_argument naming the parameter and the accepted range
     */
    HostPathTiming(const PcieLinkModel& pcie, const MemoryBusModel& mem, const Config& cfg);

    /**
     * \param appLoad memory bandwidth the co-located application asks for, bit/s (>= 0)
     * \return the path's operating point while the NIC writes as fast as it can
     */
    Operating Solve(double appLoad) const;
    /**
     * Service time of one received packet's DMA write.
     * \param bytes payload written \param misses IOTLB misses of its pages
     * \param op the operating point
     * \return seconds
     */
    double PacketTime(uint64_t bytes, uint32_t misses, const Operating& op) const;
    /**
     * DMA write throughput of a long stream with a given IOTLB miss density: every byte costs
     * 8 / writeRate, every miss walkAccesses x memLatency (PacketTime per byte), so the rate is
     * 8 / (8 / writeRate + missesPerByte x walkAccesses x memLatency). With one miss per page of
     * P bytes (missesPerByte = 1 / P) this is 8P / (8P / writeRate + walkAccesses x memLatency).
     * \param missesPerByte IOTLB misses per payload byte (>= 0; 0: the write rate)
     * \param op the operating point
     * \return bit/s of payload
     * \throws std::invalid_argument if missesPerByte is negative or not finite
     */
    double MissLimitedRate(double missesPerByte, const Operating& op) const;

    const PcieLinkModel& GetPcie() const;    //!< \return the link
    const MemoryBusModel& GetMemory() const; //!< \return the memory bus
    const Config& GetConfig() const;         //!< \return the other parameters

  private:
    PcieLinkModel m_pcie;
    MemoryBusModel m_mem;
    Config m_cfg;
};

} // namespace ns3

#endif /* MLNET_HOST_PATH_TIMING_H */
