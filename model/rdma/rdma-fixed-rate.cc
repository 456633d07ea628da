/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-fixed-rate.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFixedRate");

NS_OBJECT_ENSURE_REGISTERED(RdmaFixedRate);

TypeId
RdmaFixedRate::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaFixedRate")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Mlnet")
            .AddConstructor<RdmaFixedRate>()
            .AddAttribute("Rate",
                          "Constant sending rate (data rate, bit/s); 0 = the line rate, a rate "
                          "above the line rate is clamped to it",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&RdmaFixedRate::SetRate, &RdmaFixedRate::GetRate),
                          MakeDataRateChecker())
            .AddTraceSource("Cnp",
                            "A CNP arrived and was ignored (its time)",
                            MakeTraceSourceAccessor(&RdmaFixedRate::m_cnpTrace),
                            "ns3::Time::TracedCallback");
    return tid;
}

RdmaFixedRate::RdmaFixedRate()
    : m_rate(0)
{
    NS_LOG_FUNCTION(this);
}

RdmaFixedRate::~RdmaFixedRate()
{
    NS_LOG_FUNCTION(this);
}

std::string
RdmaFixedRate::GetName() const
{
    return "RdmaFixedRate";
}

Ptr<RdmaCongestionOps>
RdmaFixedRate::Fork() const
{
    return CopyObject<RdmaFixedRate>(Ptr<const RdmaFixedRate>(this));
}

void
RdmaFixedRate::SetRate(DataRate rate)
{
    m_rate = rate;
}

DataRate
RdmaFixedRate::GetRate() const
{
    return m_rate;
}

void
RdmaFixedRate::Init(RdmaCcState& state, Time now)
{
    NS_LOG_FUNCTION(this << now);
    double r = m_rate.GetBitRate() == 0 ? state.lineRate
                                        : std::min(double(m_rate.GetBitRate()), state.lineRate);
    state.rate = r;
    state.targetRate = r;
}

void
RdmaFixedRate::OnCnp(RdmaCcState& state, Time now)
{
    m_cnpTrace(now);
}

} // namespace ns3
