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
    Dcqcn::CheckParameter(std::isfinite(aggressiveness) && aggressiveness >= MIN_AGGRESSIVENESS &&
                              aggressiveness <= MAX_AGGRESSIVENESS,
                          "ns3::DcqcnProfile",
                          "aggressiveness",
                          "in [0.1, 10]",
                          aggressiveness);
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

DcqcnProfile::AttributeList
DcqcnProfile::ScaleFrom(Ptr<const RdmaCongestionOps> base) const
{
    if (!base)
    {
        throw std::invalid_argument("DcqcnProfile: null congestion-control object");
    }
    DataRateValue rateAi;
    DataRateValue rateHai;
    TimeValue timer;
    DoubleValue g;
    if (!base->GetAttributeFailSafe("RateAI", rateAi) ||
        !base->GetAttributeFailSafe("RateHAI", rateHai) ||
        !base->GetAttributeFailSafe("RateIncreaseTimer", timer) ||
        !base->GetAttributeFailSafe("G", g))
    {
        throw std::invalid_argument("DcqcnProfile: " + base->GetInstanceTypeId().GetName() +
                                    " has no DCQCN attributes (RateAI, RateHAI, "
                                    "RateIncreaseTimer, G)");
    }
    const auto scaleRate = [this](const DataRate& r) {
        return DataRate(uint64_t(std::llround(m_a * double(r.GetBitRate()))));
    };
    return {
        {"RateAI", Create<DataRateValue>(scaleRate(rateAi.Get()))},
        {"RateHAI", Create<DataRateValue>(scaleRate(rateHai.Get()))},
        {"RateIncreaseTimer",
         Create<TimeValue>(
             std::max(TimeStep(1), Seconds(timer.Get().GetSeconds() / std::sqrt(m_a))))},
        {"G", Create<DoubleValue>(std::min(1.0, g.Get() / m_a))},
    };
}

void
DcqcnProfile::Configure(ObjectFactory& factory) const
{
    if (m_a == 1.0)
    {
        return; // the identity: leave the factory (and the global defaults) alone
    }
    // The base is what the factory would create now: its own settings, else the attribute
    // defaults (Config::SetDefault, --ns3::DcqcnBase::RateAI=...).
    for (const auto& [name, value] : ScaleFrom(factory.Create<RdmaCongestionOps>()))
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
    for (const auto& [name, value] : ScaleFrom(cc))
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
