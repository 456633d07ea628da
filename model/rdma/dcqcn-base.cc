/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcqcn-base.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcqcnBase");

NS_OBJECT_ENSURE_REGISTERED(DcqcnBase);

TypeId
DcqcnBase::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcqcnBase")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Mlnet")
            .AddAttribute("G",
                          "EWMA gain g of alpha (dimensionless), in (0, 1]",
                          DoubleValue(DEFAULT_G),
                          MakeDoubleAccessor(&DcqcnBase::SetG, &DcqcnBase::GetG),
                          MakeDoubleChecker<double>(std::numeric_limits<double>::min(), 1.0))
            .AddAttribute(
                "InitialAlpha",
                "Initial alpha (dimensionless; at Init() for ns3::Dcqcn, at the first CNP "
                "for ns3::DcqcnVendor), in [0, 1]",
                DoubleValue(1.0),
                MakeDoubleAccessor(&DcqcnBase::SetInitialAlpha, &DcqcnBase::GetInitialAlpha),
                MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AlphaTimer",
                          "Alpha timer period K (time; HPCC AlphaResumInterval), > 0: each "
                          "expiry without CNP decays alpha",
                          TimeValue(MicroSeconds(DEFAULT_TIMER_US)),
                          MakeTimeAccessor(&DcqcnBase::SetAlphaTimer, &DcqcnBase::GetAlphaTimer),
                          MakeTimeChecker(TimeStep(1)))
            .AddAttribute("RateIncreaseTimer",
                          "Rate-increase timer period T (time; HPCC RPTimer), > 0",
                          TimeValue(MicroSeconds(DEFAULT_TIMER_US)),
                          MakeTimeAccessor(&DcqcnBase::SetRateIncreaseTimer,
                                           &DcqcnBase::GetRateIncreaseTimer),
                          MakeTimeChecker(TimeStep(1)))
            .AddAttribute("FastRecoveryStages",
                          "Number F of fast-recovery stages after a cut (count), >= 1",
                          UintegerValue(DEFAULT_F),
                          MakeUintegerAccessor(&DcqcnBase::SetFastRecoveryStages,
                                               &DcqcnBase::GetFastRecoveryStages),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RateAI",
                          "Additive-increase step R_AI (data rate, bit/s), > 0",
                          DataRateValue(DataRate(DEFAULT_RATE_AI)),
                          MakeDataRateAccessor(&DcqcnBase::SetRateAi, &DcqcnBase::GetRateAi),
                          MakeDataRateChecker())
            .AddAttribute("RateHAI",
                          "Hyper-increase step R_HAI (data rate, bit/s), > 0",
                          DataRateValue(DataRate(DEFAULT_RATE_HAI)),
                          MakeDataRateAccessor(&DcqcnBase::SetRateHai, &DcqcnBase::GetRateHai),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Minimum sending rate (data rate, bit/s), > 0 and <= line rate",
                          DataRateValue(DataRate(DEFAULT_MIN_RATE)),
                          MakeDataRateAccessor(&DcqcnBase::SetMinRate, &DcqcnBase::GetMinRate),
                          MakeDataRateChecker())
            .AddAttribute(
                "IterGainSlope",
                "Slope S of the iteration-aware gain F(r) = S*r + I (dimensionless, "
                "r = fraction of the iteration's bytes sent), finite",
                DoubleValue(0.0),
                MakeDoubleAccessor(&DcqcnBase::SetIterGainSlope, &DcqcnBase::GetIterGainSlope),
                MakeDoubleChecker<double>())
            .AddAttribute("IterGainIntercept",
                          "Intercept I of the iteration-aware gain F(r) = S*r + I "
                          "(dimensionless), finite and >= 0",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&DcqcnBase::SetIterGainIntercept,
                                             &DcqcnBase::GetIterGainIntercept),
                          MakeDoubleChecker<double>(0.0))
            .AddTraceSource("Rate",
                            "Current rate Rc changed (old, new, bit/s)",
                            MakeTraceSourceAccessor(&DcqcnBase::m_rateTrace),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("TargetRate",
                            "Target rate Rt changed (old, new, bit/s)",
                            MakeTraceSourceAccessor(&DcqcnBase::m_targetTrace),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("Alpha",
                            "Alpha changed (old, new)",
                            MakeTraceSourceAccessor(&DcqcnBase::m_alphaTrace),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("Cnp",
                            "A CNP arrived (its time)",
                            MakeTraceSourceAccessor(&DcqcnBase::m_cnpTrace),
                            "ns3::Time::TracedCallback");
    return tid;
}

DcqcnBase::DcqcnBase(const std::string& owner)
    : m_g(DEFAULT_G),
      m_initialAlpha(1.0),
      m_alphaTimer(MicroSeconds(DEFAULT_TIMER_US)),
      m_rateIncreaseTimer(MicroSeconds(DEFAULT_TIMER_US)),
      m_fastRecovery(DEFAULT_F),
      m_rateAi(DEFAULT_RATE_AI),
      m_rateHai(DEFAULT_RATE_HAI),
      m_minRate(DEFAULT_MIN_RATE),
      m_iterGainSlope(0.0),
      m_iterGainIntercept(1.0),
      m_owner(owner)
{
    NS_LOG_FUNCTION(this << owner);
}

DcqcnBase::~DcqcnBase()
{
    NS_LOG_FUNCTION(this);
}

void
DcqcnBase::CheckParameter(bool ok,
                          const std::string& owner,
                          const std::string& name,
                          const std::string& range,
                          double value)
{
    if (!ok)
    {
        std::ostringstream os;
        os.precision(17);
        os << owner << "::" << name << " must be " << range << ", got " << value;
        throw std::invalid_argument(os.str());
    }
}

void
DcqcnBase::Check(bool ok, const std::string& name, const std::string& range, double value) const
{
    CheckParameter(ok, m_owner, name, range, value);
}

// ---- parameters ----

void
DcqcnBase::SetG(double g)
{
    Check(std::isfinite(g) && g > 0.0 && g <= 1.0, "G", "in (0, 1]", g);
    m_g = g;
}

void
DcqcnBase::SetInitialAlpha(double alpha)
{
    Check(std::isfinite(alpha) && alpha >= 0.0 && alpha <= 1.0, "InitialAlpha", "in [0, 1]", alpha);
    m_initialAlpha = alpha;
}

void
DcqcnBase::SetAlphaTimer(Time period)
{
    Check(period.IsStrictlyPositive(), "AlphaTimer", "> 0 (seconds)", period.GetSeconds());
    m_alphaTimer = period;
}

void
DcqcnBase::SetRateIncreaseTimer(Time t)
{
    Check(t.IsStrictlyPositive(), "RateIncreaseTimer", "> 0 (seconds)", t.GetSeconds());
    m_rateIncreaseTimer = t;
}

void
DcqcnBase::SetFastRecoveryStages(uint32_t f)
{
    Check(f >= 1, "FastRecoveryStages", ">= 1", double(f));
    m_fastRecovery = f;
}

void
DcqcnBase::SetRateAi(DataRate rate)
{
    Check(rate.GetBitRate() > 0, "RateAI", "> 0 (bit/s)", double(rate.GetBitRate()));
    m_rateAi = double(rate.GetBitRate());
}

void
DcqcnBase::SetRateHai(DataRate rate)
{
    Check(rate.GetBitRate() > 0, "RateHAI", "> 0 (bit/s)", double(rate.GetBitRate()));
    m_rateHai = double(rate.GetBitRate());
}

void
DcqcnBase::SetMinRate(DataRate rate)
{
    Check(rate.GetBitRate() > 0, "MinRate", "> 0 (bit/s)", double(rate.GetBitRate()));
    m_minRate = double(rate.GetBitRate());
}

void
DcqcnBase::SetIterGainSlope(double s)
{
    Check(std::isfinite(s), "IterGainSlope", "finite", s);
    m_iterGainSlope = s;
}

void
DcqcnBase::SetIterGainIntercept(double i)
{
    Check(std::isfinite(i) && i >= 0.0, "IterGainIntercept", "finite and >= 0", i);
    m_iterGainIntercept = i;
}

double
DcqcnBase::GetG() const
{
    return m_g;
}

double
DcqcnBase::GetInitialAlpha() const
{
    return m_initialAlpha;
}

Time
DcqcnBase::GetAlphaTimer() const
{
    return m_alphaTimer;
}

Time
DcqcnBase::GetRateIncreaseTimer() const
{
    return m_rateIncreaseTimer;
}

uint32_t
DcqcnBase::GetFastRecoveryStages() const
{
    return m_fastRecovery;
}

DataRate
DcqcnBase::GetRateAi() const
{
    return DataRate(uint64_t(m_rateAi));
}

DataRate
DcqcnBase::GetRateHai() const
{
    return DataRate(uint64_t(m_rateHai));
}

DataRate
DcqcnBase::GetMinRate() const
{
    return DataRate(uint64_t(m_minRate));
}

double
DcqcnBase::GetIterGainSlope() const
{
    return m_iterGainSlope;
}

double
DcqcnBase::GetIterGainIntercept() const
{
    return m_iterGainIntercept;
}

void
DcqcnBase::Validate() const
{
    // Re-run every setter's check on the stored value (setting a value to itself is a no-op).
    auto self = const_cast<DcqcnBase*>(this);
    self->SetG(m_g);
    self->SetInitialAlpha(m_initialAlpha);
    self->SetAlphaTimer(m_alphaTimer);
    self->SetRateIncreaseTimer(m_rateIncreaseTimer);
    self->SetFastRecoveryStages(m_fastRecovery);
    self->SetRateAi(GetRateAi());
    self->SetRateHai(GetRateHai());
    self->SetMinRate(GetMinRate());
    self->SetIterGainSlope(m_iterGainSlope);
    self->SetIterGainIntercept(m_iterGainIntercept);
    DoValidate();
}

void
DcqcnBase::DoValidate() const
{
}

void
DcqcnBase::CheckLineRate(const RdmaCcState& state) const
{
    Check(std::isfinite(state.lineRate) && state.lineRate > 0.0,
          "line rate",
          "> 0 (bit/s)",
          state.lineRate);
    Check(m_minRate <= state.lineRate,
          "MinRate",
          "<= the line rate " + std::to_string(state.lineRate) + " (bit/s)",
          m_minRate);
}

// ---- state ----

double
DcqcnBase::GetAlpha() const
{
    return m_alpha;
}

double
DcqcnBase::GetIterationGain(const RdmaCcState& state) const
{
    double f = m_iterGainSlope * state.IterationFraction() + m_iterGainIntercept;
    return f > 0.0 ? f : 0.0;
}

double
DcqcnBase::Clamp(const RdmaCcState& state, double rate) const
{
    return std::min(std::max(rate, m_minRate), state.lineRate);
}

bool
DcqcnBase::AtLineRate(const RdmaCcState& state) const
{
    return state.rate >= state.lineRate && state.targetRate >= state.lineRate;
}

void
DcqcnBase::SetRate(RdmaCcState& state, double rate)
{
    rate = Clamp(state, rate);
    if (rate != state.rate)
    {
        double old = state.rate;
        state.rate = rate;
        m_rateTrace(old, rate);
    }
}

void
DcqcnBase::SetTarget(RdmaCcState& state, double rate)
{
    rate = Clamp(state, rate);
    if (rate != state.targetRate)
    {
        double old = state.targetRate;
        state.targetRate = rate;
        m_targetTrace(old, rate);
    }
}

void
DcqcnBase::SetAlpha(double alpha)
{
    if (alpha != m_alpha)
    {
        double old = m_alpha;
        m_alpha = alpha;
        m_alphaTrace(old, alpha);
    }
}

void
DcqcnBase::TraceCnp(Time now)
{
    m_cnpTrace(now);
}

} // namespace ns3
