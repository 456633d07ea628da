/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_AGGREGATION_TIMING_MODEL_H
#define MLNET_AGGREGATION_TIMING_MODEL_H

#include "aggregation-header.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Timing of an aggregation datapath: when does a contribution packet of n elements that
 * arrives at time t finish being summed?
 *
 * A pure state machine, like ns-3's TcpCongestionOps: arrival times and sizes in, service start
 * and completion times out, no simulator events, so it is unit-testable on its own. Packets are
 * served in arrival order.
 */
class AggregationTimingModel : public Object
{
  public:
    static TypeId GetTypeId();
    ~AggregationTimingModel() override;

    /**
     * Schedule a packet on the datapath.
     * \param arrival arrival time (non-decreasing across calls)
     * \param elements number of elements to add
     * \param start [out] when the datapath starts on it (it waits in the input buffer until then)
     * \return when its sum is complete (start + occupancy + pipeline latency)
     */
    virtual Time Schedule(Time arrival, uint32_t elements, Time& start) = 0;
    /// \return input throughput in elements per second (infinity if unlimited)
    virtual double GetElementRate() const = 0;
    /// \return pipeline latency added to every packet
    virtual Time GetLatency() const = 0;
    /// \return element type the datapath adds
    virtual AggElementType GetElementType() const = 0;
    /// Forget the state (an idle datapath at time 0).
    virtual void Reset() = 0;
    /// \return a short description for logs
    virtual std::string Describe() const = 0;

    /**
     * Whether the datapath keeps up with a port: can it sum packets of `elements` elements as
     * fast as the port delivers them back to back?
     * \param portBps port rate (bit/s)
     * \param elements elements per packet
     * \param wireBytes bytes per packet on the wire (headers, payload and framing)
     * \return true if elements / element rate <= wire time of one packet
     */
    bool KeepsLineRate(double portBps, uint32_t elements, uint32_t wireBytes) const;
};

/**
 * \ingroup mlnet
 * \brief An FPGA adder-tree datapath (PANAMA): `Lanes` adders in parallel at `ClockFrequency`,
 * pipelined with `TreeDepth` cycles of latency.
 *
 * A packet of n elements occupies the adders for ceil(n / Lanes) cycles (one beat of Lanes
 * elements per cycle); the next packet starts on the following cycle; the sum of a packet is
 * ready TreeDepth cycles after its last beat. Input throughput is Lanes x ClockFrequency
 * elements per second, i.e. Lanes x ClockFrequency x element size bytes per second. Time is
 * kept as an integer cycle count, so throughput is exact whatever the simulator's time
 * resolution.
 */
class AdderTreeTimingModel : public AggregationTimingModel
{
  public:
    static TypeId GetTypeId();
    AdderTreeTimingModel();
    ~AdderTreeTimingModel() override;

    /**
     * Check a hardware configuration.
     * \param clockHz clock frequency (Hz), in [1e6, 1e10]
     * \param lanes parallel adders, in [1, 65536]
     * \param depth pipeline latency in cycles, in [0, 4096]
     * \throws std::invalid_argument naming the parameter and its accepted range
     */
    static void Validate(double clockHz, uint32_t lanes, uint32_t depth);

    Time Schedule(Time arrival, uint32_t elements, Time& start) override;
    double GetElementRate() const override;
    Time GetLatency() const override;
    AggElementType GetElementType() const override;
    void Reset() override;
    std::string Describe() const override;

    /// \return input throughput in bytes per second: Lanes x ClockFrequency x element size
    double GetByteRate() const;
    /// \return cycles a packet of n elements occupies the adders: ceil(n / Lanes)
    uint64_t GetBeats(uint32_t elements) const;

  private:
    uint64_t CycleAtOrAfter(Time t) const;
    Time TimeOfCycle(uint64_t c) const;

    double m_clockHz{300e6};
    uint32_t m_lanes{16};
    uint32_t m_depth{12};
    AggElementType m_type{AggElementType::FP32};
    uint64_t m_freeCycle{0}; //!< first cycle at which the adders are free
};

/**
 * \ingroup mlnet
 * \brief A datapath that never limits: every packet is summed on arrival, with no latency.
 * Models a switch pipeline that aggregates at the speed of its ports (SwitchML on a Tofino)
 * and the ideal aggregator.
 */
class LineRateTimingModel : public AggregationTimingModel
{
  public:
    static TypeId GetTypeId();
    LineRateTimingModel();
    ~LineRateTimingModel() override;

    Time Schedule(Time arrival, uint32_t elements, Time& start) override;
    double GetElementRate() const override;
    Time GetLatency() const override;
    AggElementType GetElementType() const override;
    void Reset() override;
    std::string Describe() const override;

  private:
    AggElementType m_type{AggElementType::FP32};
};

} // namespace ns3

#endif /* MLNET_AGGREGATION_TIMING_MODEL_H */
