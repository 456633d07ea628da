/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcqcn.h"

#include "ns3/boolean.h"
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

NS_LOG_COMPONENT_DEFINE("Dcqcn");

NS_OBJECT_ENSURE_REGISTERED(Dcqcn);

TypeId
Dcqcn::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::Dcqcn")
              .SetParent<RdmaCongestionOps>()
              .SetGroupName("Mlnet")
              .AddConstructor<Dcqcn>()
              .AddAttribute("G", "EWMA gain g of alpha (dimensionless), in (0, 1]",
                            DoubleValue(DEFAULT_G), MakeDoubleAccessor(&Dcqcn::SetG, &Dcqcn::GetG),
                            MakeDoubleChecker<double>(std::numeric_limits<double>::min(), 1.0))
              .AddAttribute("InitialAlpha", "Alpha at Init() (dimensionless), in [0, 1]",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&Dcqcn::SetInitialAlpha, &Dcqcn::GetInitialAlpha),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute(
                  "AlphaTimer",
                  "Alpha timer period K (time), > 0: each expiry without CNP decays alpha",
                  TimeValue(MicroSeconds(DEFAULT_TIMER_US)),
                  MakeTimeAccessor(&Dcqcn::SetAlphaTimer, &Dcqcn::GetAlphaTimer),
                  MakeTimeChecker(TimeStep(1)))
              .AddAttribute(
                  "RateIncreaseTimer", "Rate-increase timer period T (time), > 0",
                  TimeValue(MicroSeconds(DEFAULT_TIMER_US)),
                  MakeTimeAccessor(&Dcqcn::SetRateIncreaseTimer, &Dcqcn::GetRateIncreaseTimer),
                  MakeTimeChecker(TimeStep(1)))
              .AddAttribute("ByteCounter", "Rate-increase byte counter B in bytes, >= 1",
                            UintegerValue(DEFAULT_BYTE_COUNTER),
                            MakeUintegerAccessor(&Dcqcn::SetByteCounter, &Dcqcn::GetByteCounter),
                            MakeUintegerChecker<uint64_t>(1))
              .AddAttribute("FastRecoveryStages",
                            "Number F of fast-recovery stages after a cut (count), >= 1",
                            UintegerValue(DEFAULT_F),
                            MakeUintegerAccessor(&Dcqcn::SetFastRecoveryStages,
                                                 &Dcqcn::GetFastRecoveryStages),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("RateAI", "Additive-increase step R_AI (data rate, bit/s), > 0",
                            DataRateValue(DataRate(DEFAULT_RATE_AI)),
                            MakeDataRateAccessor(&Dcqcn::SetRateAi, &Dcqcn::GetRateAi),
                            MakeDataRateChecker())
              .AddAttribute("RateHAI", "Hyper-increase step R_HAI (data rate, bit/s), > 0",
                            DataRateValue(DataRate(DEFAULT_RATE_HAI)),
                            MakeDataRateAccessor(&Dcqcn::SetRateHai, &Dcqcn::GetRateHai),
                            MakeDataRateChecker())
              .AddAttribute("MinRate",
                            "Minimum sending rate (data rate, bit/s), > 0 and <= line rate",
                            DataRateValue(DataRate(DEFAULT_MIN_RATE)),
                            MakeDataRateAccessor(&Dcqcn::SetMinRate, &Dcqcn::GetMinRate),
                            MakeDataRateChecker())
              .AddAttribute(
                  "ClampTargetRate",
                  "true: Rt = Rc on every CNP (the paper); false: only if a rate "
                  "increase happened since the previous cut (Mellanox clamp_tgt_rate=0)",
                  BooleanValue(true),
                  MakeBooleanAccessor(&Dcqcn::SetClampTargetRate, &Dcqcn::GetClampTargetRate),
                  MakeBooleanChecker())
              .AddAttribute("IterGainSlope",
                            "Slope S of the iteration-aware gain F(r) = S*r + I (dimensionless, "
                            "r = fraction of the iteration's bytes sent), finite",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&Dcqcn::SetIterGainSlope, &Dcqcn::GetIterGainSlope),
                            MakeDoubleChecker<double>())
              .AddAttribute(
                  "IterGainIntercept",
                  "Intercept I of the iteration-aware gain F(r) = S*r + I "
                  "(dimensionless), finite and >= 0",
                  DoubleValue(1.0),
                  MakeDoubleAccessor(&Dcqcn::SetIterGainIntercept, &Dcqcn::GetIterGainIntercept),
                  MakeDoubleChecker<double>(0.0))
              .AddTraceSource("Rate", "Current rate Rc changed (old, new, bit/s)",
                              MakeTraceSourceAccessor(&Dcqcn::m_rateTrace),
                              "ns3::TracedValueCallback::Double")
              .AddTraceSource("TargetRate", "Target rate Rt changed (old, new, bit/s)",
                              MakeTraceSourceAccessor(&Dcqcn::m_targetTrace),
                              "ns3::TracedValueCallback::Double")
              .AddTraceSource("Alpha", "Alpha changed (old, new)",
                              MakeTraceSourceAccessor(&Dcqcn::m_alphaTrace),
                              "ns3::TracedValueCallback::Double")
              .AddTraceSource("Cnp", "A CNP was processed (its time)",
                              MakeTraceSourceAccessor(&Dcqcn::m_cnpTrace),
                              "ns3::Time::TracedCallback");
    return tid;
}

Dcqcn::Dcqcn()
    : m_g(DEFAULT_G)
    , m_initialAlpha(1.0)
    , m_alphaTimer(MicroSeconds(DEFAULT_TIMER_US))
    , m_rateIncreaseTimer(MicroSeconds(DEFAULT_TIMER_US))
    , m_byteCounter(DEFAULT_BYTE_COUNTER)
    , m_fastRecovery(DEFAULT_F)
    , m_rateAi(DEFAULT_RATE_AI)
    , m_rateHai(DEFAULT_RATE_HAI)
    , m_minRate(DEFAULT_MIN_RATE)
    , m_clampTargetRate(true)
    , m_iterGainSlope(0.0)
    , m_iterGainIntercept(1.0)
{
    NS_LOG_FUNCTION(this);
}

Dcqcn::~Dcqcn()
{
    NS_LOG_FUNCTION(this);
}

void
Dcqcn::CheckParameter(bool ok, const std::string& owner, const std::string& name,
                      const std::string& range, double value)
{
    if (!ok)
    {
        std::ostringstream os;
        os.precision(17);
        os << owner << "::" << name << " must be " << range << ", got " << value;
        throw std::invalid_argument(os.str());
    }
}

std::string
Dcqcn::GetName() const
{
    return "Dcqcn";
}

// ---- parameters ----

void
Dcqcn::SetG(double g)
{
    CheckParameter(std::isfinite(g) && g > 0.0 && g <= 1.0, "ns3::Dcqcn", "G", "in (0, 1]", g);
    m_g = g;
}

void
Dcqcn::SetInitialAlpha(double alpha)
{
    CheckParameter(std::isfinite(alpha) && alpha >= 0.0 && alpha <= 1.0, "ns3::Dcqcn",
                   "InitialAlpha", "in [0, 1]", alpha);
    m_initialAlpha = alpha;
}

void
Dcqcn::SetAlphaTimer(Time period)
{
    CheckParameter(period.IsStrictlyPositive(), "ns3::Dcqcn", "AlphaTimer", "> 0 (seconds)",
                   period.GetSeconds());
    m_alphaTimer = period;
}

void
Dcqcn::SetRateIncreaseTimer(Time t)
{
    CheckParameter(t.IsStrictlyPositive(), "ns3::Dcqcn", "RateIncreaseTimer", "> 0 (seconds)",
                   t.GetSeconds());
    m_rateIncreaseTimer = t;
}

void
Dcqcn::SetByteCounter(uint64_t bytes)
{
    CheckParameter(bytes >= 1, "ns3::Dcqcn", "ByteCounter", ">= 1 (bytes)", double(bytes));
    m_byteCounter = bytes;
}

void
Dcqcn::SetFastRecoveryStages(uint32_t f)
{
    CheckParameter(f >= 1, "ns3::Dcqcn", "FastRecoveryStages", ">= 1", double(f));
    m_fastRecovery = f;
}

void
Dcqcn::SetRateAi(DataRate rate)
{
    CheckParameter(rate.GetBitRate() > 0, "ns3::Dcqcn", "RateAI", "> 0 (bit/s)",
                   double(rate.GetBitRate()));
    m_rateAi = double(rate.GetBitRate());
}

void
Dcqcn::SetRateHai(DataRate rate)
{
    CheckParameter(rate.GetBitRate() > 0, "ns3::Dcqcn", "RateHAI", "> 0 (bit/s)",
                   double(rate.GetBitRate()));
    m_rateHai = double(rate.GetBitRate());
}

void
Dcqcn::SetMinRate(DataRate rate)
{
    CheckParameter(rate.GetBitRate() > 0, "ns3::Dcqcn", "MinRate", "> 0 (bit/s)",
                   double(rate.GetBitRate()));
    m_minRate = double(rate.GetBitRate());
}

void
Dcqcn::SetClampTargetRate(bool clamp)
{
    m_clampTargetRate = clamp;
}

void
Dcqcn::SetIterGainSlope(double s)
{
    CheckParameter(std::isfinite(s), "ns3::Dcqcn", "IterGainSlope", "finite", s);
    m_iterGainSlope = s;
}

void
Dcqcn::SetIterGainIntercept(double i)
{
    CheckParameter(std::isfinite(i) && i >= 0.0, "ns3::Dcqcn", "IterGainIntercept",
                   "finite and >= 0", i);
    m_iterGainIntercept = i;
}

double
Dcqcn::GetG() const
{
    return m_g;
}

double
Dcqcn::GetInitialAlpha() const
{
    return m_initialAlpha;
}

Time
Dcqcn::GetAlphaTimer() const
{
    return m_alphaTimer;
}

Time
Dcqcn::GetRateIncreaseTimer() const
{
    return m_rateIncreaseTimer;
}

uint64_t
Dcqcn::GetByteCounter() const
{
    return m_byteCounter;
}

uint32_t
Dcqcn::GetFastRecoveryStages() const
{
    return m_fastRecovery;
}

DataRate
Dcqcn::GetRateAi() const
{
    return DataRate(uint64_t(m_rateAi));
}

DataRate
Dcqcn::GetRateHai() const
{
    return DataRate(uint64_t(m_rateHai));
}

DataRate
Dcqcn::GetMinRate() const
{
    return DataRate(uint64_t(m_minRate));
}

bool
Dcqcn::GetClampTargetRate() const
{
    return m_clampTargetRate;
}

double
Dcqcn::GetIterGainSlope() const
{
    return m_iterGainSlope;
}

double
Dcqcn::GetIterGainIntercept() const
{
    return m_iterGainIntercept;
}

void
Dcqcn::Validate() const
{
    // Re-run every setter's check on the stored value (setting a value to itself is a no-op).
    auto self = const_cast<Dcqcn*>(this);
    self->SetG(m_g);
    self->SetInitialAlpha(m_initialAlpha);
    self->SetAlphaTimer(m_alphaTimer);
    self->SetRateIncreaseTimer(m_rateIncreaseTimer);
    self->SetByteCounter(m_byteCounter);
    self->SetFastRecoveryStages(m_fastRecovery);
    self->SetRateAi(GetRateAi());
    self->SetRateHai(GetRateHai());
    self->SetMinRate(GetMinRate());
    self->SetIterGainSlope(m_iterGainSlope);
    self->SetIterGainIntercept(m_iterGainIntercept);
}

// ---- state ----

double
Dcqcn::GetAlpha() const
{
    return m_alpha;
}

uint64_t
Dcqcn::GetTimerStage() const
{
    return m_timerStage;
}

uint64_t
Dcqcn::GetByteStage() const
{
    return m_byteStage;
}

double
Dcqcn::GetIterationGain(const RdmaCcState& state) const
{
    double f = m_iterGainSlope * state.IterationFraction() + m_iterGainIntercept;
    return f > 0.0 ? f : 0.0;
}

double
Dcqcn::Clamp(const RdmaCcState& state, double rate) const
{
    return std::min(std::max(rate, m_minRate), state.lineRate);
}

void
Dcqcn::SetRate(RdmaCcState& state, double rate)
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
Dcqcn::SetTarget(RdmaCcState& state, double rate)
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
Dcqcn::SetAlpha(double alpha)
{
    if (alpha != m_alpha)
    {
        double old = m_alpha;
        m_alpha = alpha;
        m_alphaTrace(old, alpha);
    }
}

bool
Dcqcn::AtLineRate(const RdmaCcState& state) const
{
    return state.rate >= state.lineRate && state.targetRate >= state.lineRate;
}

void
Dcqcn::Init(RdmaCcState& state, Time now)
{
    NS_LOG_FUNCTION(this << now);
    Validate();
    CheckParameter(std::isfinite(state.lineRate) && state.lineRate > 0.0, "ns3::Dcqcn", "line rate",
                   "> 0 (bit/s)", state.lineRate);
    CheckParameter(m_minRate <= state.lineRate, "ns3::Dcqcn", "MinRate",
                   "<= the line rate " + std::to_string(state.lineRate) + " (bit/s)", m_minRate);
    state.rate = state.lineRate;
    state.targetRate = state.lineRate;
    m_alpha = m_initialAlpha;
    m_nextAlpha = now + m_alphaTimer;
    m_nextIncrease = now + m_rateIncreaseTimer;
    m_increaseActive = false;
    m_increasedSinceCut = true;
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytesCounted = 0;
}

void
Dcqcn::Advance(RdmaCcState& state, Time now)
{
    // Alpha timer: k expiries without CNP, closed form (1-g)^k.
    if (m_nextAlpha <= now)
    {
        int64_t k = (now - m_nextAlpha).GetTimeStep() / m_alphaTimer.GetTimeStep() + 1;
        SetAlpha(m_alpha * std::pow(1.0 - m_g, double(k)));
        m_nextAlpha += m_alphaTimer * k;
        NS_LOG_LOGIC(this << " " << k << " alpha expiries, alpha " << m_alpha);
    }
    // Rate-increase timer: one event per expiry, until the rates reach line rate; from there on
    // events change nothing but the stage count, which is advanced in one step.
    while (m_increaseActive && m_nextIncrease <= now)
    {
        if (AtLineRate(state))
        {
            int64_t k
                = (now - m_nextIncrease).GetTimeStep() / m_rateIncreaseTimer.GetTimeStep() + 1;
            m_timerStage += uint64_t(k);
            m_nextIncrease += m_rateIncreaseTimer * k;
            m_increasedSinceCut = true;
            break;
        }
        ++m_timerStage;
        m_nextIncrease += m_rateIncreaseTimer;
        IncreaseEvent(state);
    }
}

void
Dcqcn::OnCnp(RdmaCcState& state, Time now)
{
    NS_LOG_FUNCTION(this << now << state.rate << state.targetRate << m_alpha);
    double rc = state.rate;
    if (m_clampTargetRate || m_increasedSinceCut)
    {
        SetTarget(state, rc);
    }
    SetRate(state, rc * (1.0 - m_alpha / 2.0));
    SetAlpha((1.0 - m_g) * m_alpha + m_g);
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytesCounted = 0;
    m_increasedSinceCut = false;
    m_increaseActive = true;
    m_nextAlpha = now + m_alphaTimer;
    m_nextIncrease = now + m_rateIncreaseTimer;
    m_cnpTrace(now);
}

void
Dcqcn::OnSent(RdmaCcState& state, uint32_t bytes, Time now)
{
    if (!m_increaseActive)
    {
        return;
    }
    m_bytesCounted += bytes;
    if (m_bytesCounted < m_byteCounter)
    {
        return;
    }
    if (AtLineRate(state))
    {
        uint64_t k = m_bytesCounted / m_byteCounter;
        m_byteStage += k;
        m_bytesCounted -= k * m_byteCounter;
        m_increasedSinceCut = true;
        return;
    }
    while (m_bytesCounted >= m_byteCounter)
    {
        m_bytesCounted -= m_byteCounter;
        ++m_byteStage;
        IncreaseEvent(state);
    }
}

void
Dcqcn::IncreaseEvent(RdmaCcState& state)
{
    uint64_t hi = std::max(m_timerStage, m_byteStage);
    uint64_t lo = std::min(m_timerStage, m_byteStage);
    if (hi <= m_fastRecovery)
    {
        NS_LOG_LOGIC(this << " fast recovery");
    }
    else if (lo > m_fastRecovery)
    {
        double i = double(lo - m_fastRecovery);
        NS_LOG_LOGIC(this << " hyper increase i=" << i);
        SetTarget(state, state.targetRate + i * m_rateHai * GetIterationGain(state));
    }
    else
    {
        NS_LOG_LOGIC(this << " additive increase");
        SetTarget(state, state.targetRate + m_rateAi * GetIterationGain(state));
    }
    SetRate(state, (state.targetRate + state.rate) / 2.0);
    m_increasedSinceCut = true;
}

} // namespace ns3
