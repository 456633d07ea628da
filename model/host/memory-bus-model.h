/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_MEMORY_BUS_MODEL_H
#define MLNET_MEMORY_BUS_MODEL_H

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The host's memory bus, shared by the NIC's DMA and the CPUs (pure model, no
 * simulator): per-access latency that grows with utilisation.
 *
 * latency(u) = idle + scale * u' / (2 (1 - u')), u' = min(u, maxUtilisation): the waiting
 * time of an M/D/1 queue whose service time is `scale` (the effective occupancy of the memory
 * controller per access), added to the idle latency. This is the loaded-latency curve of a
 * memory controller (flat at low load, a knee near saturation), as Intel's Memory Latency
 * Checker measures it; maxUtilisation keeps it finite when the offered load exceeds the
 * bandwidth (the controller then runs saturated).
 */
class MemoryBusModel
{
  public:
    /**
     * \param bandwidth sustainable bandwidth, bit/s (> 0)
     * \param idleLatency unloaded access latency, seconds (> 0)
     * \param queueingScale M/D/1 service time of the loaded-latency term, seconds (>= 0)
     * \param maxUtilisation utilisation at which the curve is capped, in (0, 1)
     * \throws std::invalid_argument naming the parameter and the accepted range
     */
    MemoryBusModel(double bandwidth = 600e9,
                   double idleLatency = 80e-9,
                   double queueingScale = 50e-9,
                   double maxUtilisation = 0.98);

    /// \param utilisation offered load / bandwidth (>= 0) \return access latency, seconds
    double Latency(double utilisation) const;
    /// \param load offered bit/s \return load / bandwidth
    double Utilisation(double load) const;

    double GetBandwidth() const;      //!< \return bandwidth, bit/s
    double GetIdleLatency() const;    //!< \return idle latency, seconds
    double GetQueueingScale() const;  //!< \return service time of the queueing term, seconds
    double GetMaxUtilisation() const; //!< \return utilisation cap

  private:
    double m_bandwidth;
    double m_idle;
    double m_scale;
    double m_maxUtil;
};

} // namespace ns3

#endif /* MLNET_MEMORY_BUS_MODEL_H */
