/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_SWITCH_AGGREGATOR_H
#define MLNET_SWITCH_AGGREGATOR_H

#include "aggregation-engine.h"

#include "ns3/fabric-switch.h"
#include "ns3/object.h"

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Aggregation inside a switch (SwitchML on a programmable switch, or the ideal
 * aggregator): an AggregationEngine attached to a FabricSwitch as its in-switch processor.
 *
 * Packets addressed to the switch's aggregation address are consumed at ingress (they never
 * occupy an egress queue); the partial sums, results and resends the engine produces are
 * forwarded by the switch like packets arriving on the port of the contribution that produced
 * them (buffer accounting, ECN, PFC). The default datapath keeps up with the ports
 * (LineRateTimingModel), as a switch pipeline does.
 */
class SwitchAggregator : public Object
{
  public:
    static TypeId GetTypeId();
    SwitchAggregator();
    ~SwitchAggregator() override;

    /**
     * Attach to a switch (done by AggregationHelper).
     * \param sw the switch \param address the aggregation address of the switch
     */
    void Attach(Ptr<FabricSwitch> sw, Ipv4Address address);
    Ptr<AggregationEngine> GetEngine() const; //!< \return the engine
    /// \param engine the engine (null: a new AggregationEngine with a line-rate datapath)
    void SetEngine(Ptr<AggregationEngine> engine);
    Ptr<FabricSwitch> GetSwitch() const; //!< \return the switch

  protected:
    void DoDispose() override;

  private:
    void Receive(uint32_t inPort, Ptr<Packet> p);
    void Emit(Ptr<Packet> p, bool linkSide);

    Ptr<FabricSwitch> m_switch;
    Ptr<AggregationEngine> m_engine;
    uint32_t m_lastInPort{0};
    uint64_t m_notAggregation{0};
};

} // namespace ns3

#endif /* MLNET_SWITCH_AGGREGATOR_H */
