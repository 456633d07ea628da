/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcqcn-profile.h"

#include "dcqcn.h"
#include "ns3/double.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcqcnProfile");

DcqcnProfile::DcqcnProfile(double aggressiveness)
    : m_a(aggressiveness)
{
    Dcqcn::CheckParameter(std::isfinite(aggressiveness) && aggressiveness >= MIN_AGGRESSIVENESS
                              && aggressiveness <= MAX_AGGRESSIVENESS,
                          "ns3::DcqcnProfile", "aggressiveness", "in [0.1, 10]", aggressiveness);
}

double
DcqcnProfile::GetAggressiveness() const
{
    return m_a;
}

DataRate
DcqcnProfile::GetRateAi() const
{
    return DataRate(uint64_t(std::llround(m_a * double(Dcqcn::DEFAULT_RATE_AI))));
}

DataRate
DcqcnProfile::GetRateHai() const
{
    return DataRate(uint64_t(std::llround(m_a * double(Dcqcn::DEFAULT_RATE_HAI))));
}

Time
DcqcnProfile::GetRateIncreaseTimer() const
{
    return Seconds(double(Dcqcn::DEFAULT_TIMER_US) * 1e-6 / std::sqrt(m_a));
}

double
DcqcnProfile::GetG() const
{
    return std::min(1.0, Dcqcn::DEFAULT_G / m_a);
}

DcqcnProfile::AttributeList
DcqcnProfile::GetAttributes() const
{
    return {
        {"RateAI", Create<DataRateValue>(GetRateAi())},
        {"RateHAI", Create<DataRateValue>(GetRateHai())},
        {"RateIncreaseTimer", Create<TimeValue>(GetRateIncreaseTimer())},
        {"G", Create<DoubleValue>(GetG())},
    };
}

void
DcqcnProfile::Configure(ObjectFactory& factory) const
{
    for (const auto& [name, value] : GetAttributes())
    {
        factory.Set(name, *value);
    }
}

void
DcqcnProfile::ApplyTo(Ptr<RdmaCongestionOps> cc) const
{
    if (!cc)
    {
        throw std::invalid_argument("DcqcnProfile::ApplyTo: null congestion-control object");
    }
    NS_LOG_FUNCTION(this << cc << m_a);
    for (const auto& [name, value] : GetAttributes())
    {
        cc->SetAttributeChecked(name, *value);
    }
}

void
DcqcnProfile::Apply(Ptr<RdmaCongestionOps> cc, double aggressiveness)
{
    DcqcnProfile(aggressiveness).ApplyTo(cc);
}

} // namespace ns3
