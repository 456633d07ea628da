/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-aggregator.h"

#include "ns3/log.h"
#include "ns3/pointer.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchAggregator");
NS_OBJECT_ENSURE_REGISTERED(SwitchAggregator);

TypeId
SwitchAggregator::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SwitchAggregator")
                            .SetParent<Object>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<SwitchAggregator>()
                            .AddAttribute("Engine",
                                          "The aggregation engine (null: a new "
                                          "ns3::AggregationEngine with a line-rate datapath)",
                                          PointerValue(),
                                          MakePointerAccessor(&SwitchAggregator::SetEngine,
                                                              &SwitchAggregator::GetEngine),
                                          MakePointerChecker<AggregationEngine>());
    return tid;
}

SwitchAggregator::SwitchAggregator()
{
    SetEngine(nullptr);
}

void
SwitchAggregator::SetEngine(Ptr<AggregationEngine> engine)
{
    m_engine = engine;
    if (!m_engine)
    {
        m_engine = CreateObject<AggregationEngine>();
        m_engine->SetTimingModel(CreateObject<LineRateTimingModel>());
    }
    if (m_switch)
    {
        m_engine->SetEmitCallback(MakeCallback(&SwitchAggregator::Emit, this));
    }
}

SwitchAggregator::~SwitchAggregator() = default;

void
SwitchAggregator::DoDispose()
{
    if (m_switch)
    {
        m_switch->SetLocalHandler(Ipv4Address(), FabricSwitch::LocalCallback());
    }
    m_switch = nullptr;
    if (m_engine)
    {
        m_engine->Dispose();
    }
    m_engine = nullptr;
    Object::DoDispose();
}

void
SwitchAggregator::Attach(Ptr<FabricSwitch> sw, Ipv4Address address)
{
    m_switch = sw;
    m_engine->SetAddress(address);
    m_engine->SetEmitCallback(MakeCallback(&SwitchAggregator::Emit, this));
    sw->SetLocalHandler(address, MakeCallback(&SwitchAggregator::Receive, this));
}

Ptr<AggregationEngine>
SwitchAggregator::GetEngine() const
{
    return m_engine;
}

Ptr<FabricSwitch>
SwitchAggregator::GetSwitch() const
{
    return m_switch;
}

void
SwitchAggregator::Receive(uint32_t inPort, Ptr<Packet> p)
{
    AggregationStackHeader h;
    if (!AggregationStackHeader::Peek(*p, h))
    {
        m_notAggregation++;
        return;
    }
    m_lastInPort = inPort;
    m_engine->Receive(p, h, false);
}

void
SwitchAggregator::Emit(Ptr<Packet> p, bool linkSide)
{
    m_switch->Inject(p, m_lastInPort);
}

} // namespace ns3
