/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcqcn-vendor.h"

#include "dcqcn.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcqcnVendor");

NS_OBJECT_ENSURE_REGISTERED(DcqcnVendor);

namespace
{
const std::string kOwner = "ns3::DcqcnVendor";    //!< class name in error messages
constexpr int64_t kDefaultDecreaseIntervalUs = 4; //!< default RateDecreaseInterval (us)
} // namespace

TypeId
DcqcnVendor::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::DcqcnVendor")
              .SetParent<RdmaCongestionOps>()
              .SetGroupName("Mlnet")
              .AddConstructor<DcqcnVendor>()
              .AddAttribute("G", "EWMA gain g of alpha (dimensionless), in (0, 1]",
                            DoubleValue(Dcqcn::DEFAULT_G),
                            MakeDoubleAccessor(&DcqcnVendor::SetG, &DcqcnVendor::GetG),
                            MakeDoubleChecker<double>(std::numeric_limits<double>::min(), 1.0))
              .AddAttribute(
                  "InitialAlpha", "Alpha set at the first CNP (dimensionless), in [0, 1]",
                  DoubleValue(1.0),
                  MakeDoubleAccessor(&DcqcnVendor::SetInitialAlpha, &DcqcnVendor::GetInitialAlpha),
                  MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute(
                  "AlphaTimer", "Alpha update period (time; HPCC AlphaResumInterval), > 0",
                  TimeValue(MicroSeconds(Dcqcn::DEFAULT_TIMER_US)),
                  MakeTimeAccessor(&DcqcnVendor::SetAlphaTimer, &DcqcnVendor::GetAlphaTimer),
                  MakeTimeChecker(TimeStep(1)))
              .AddAttribute("RateIncreaseTimer",
                            "Rate-increase timer period (time; HPCC RPTimer), > 0",
                            TimeValue(MicroSeconds(Dcqcn::DEFAULT_TIMER_US)),
                            MakeTimeAccessor(&DcqcnVendor::SetRateIncreaseTimer,
                                             &DcqcnVendor::GetRateIncreaseTimer),
                            MakeTimeChecker(TimeStep(1)))
              .AddAttribute("RateDecreaseInterval",
                            "Rate-decrease check period (time): at most one cut per period, > 0",
                            TimeValue(MicroSeconds(kDefaultDecreaseIntervalUs)),
                            MakeTimeAccessor(&DcqcnVendor::SetRateDecreaseInterval,
                                             &DcqcnVendor::GetRateDecreaseInterval),
                            MakeTimeChecker(TimeStep(1)))
              .AddAttribute(
                  "ByteCounter", "Rate-increase byte counter in bytes, 0 = none (timer only)",
                  UintegerValue(0),
                  MakeUintegerAccessor(&DcqcnVendor::SetByteCounter, &DcqcnVendor::GetByteCounter),
                  MakeUintegerChecker<uint64_t>())
              .AddAttribute("FastRecoveryStages",
                            "Number F of fast-recovery stages after a cut (count), >= 1",
                            UintegerValue(Dcqcn::DEFAULT_F),
                            MakeUintegerAccessor(&DcqcnVendor::SetFastRecoveryStages,
                                                 &DcqcnVendor::GetFastRecoveryStages),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("RateAI", "Additive-increase step R_AI (data rate, bit/s), > 0",
                            DataRateValue(DataRate(Dcqcn::DEFAULT_RATE_AI)),
                            MakeDataRateAccessor(&DcqcnVendor::SetRateAi, &DcqcnVendor::GetRateAi),
                            MakeDataRateChecker())
              .AddAttribute(
                  "RateHAI", "Hyper-increase step R_HAI (data rate, bit/s), > 0",
                  DataRateValue(DataRate(Dcqcn::DEFAULT_RATE_HAI)),
                  MakeDataRateAccessor(&DcqcnVendor::SetRateHai, &DcqcnVendor::GetRateHai),
                  MakeDataRateChecker())
              .AddAttribute(
                  "MinRate", "Minimum sending rate (data rate, bit/s), > 0 and <= line rate",
                  DataRateValue(DataRate(Dcqcn::DEFAULT_MIN_RATE)),
                  MakeDataRateAccessor(&DcqcnVendor::SetMinRate, &DcqcnVendor::GetMinRate),
                  MakeDataRateChecker())
              .AddAttribute("RateOnFirstCnp",
                            "Fraction of the current rate kept at the first CNP "
                            "(dimensionless), in (0, 1]",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&DcqcnVendor::SetRateOnFirstCnp,
                                               &DcqcnVendor::GetRateOnFirstCnp),
                            MakeDoubleChecker<double>(std::numeric_limits<double>::min(), 1.0))
              .AddAttribute("ClampTargetRate",
                            "true: Rt = Rc at every cut; false: only if a rate increase "
                            "happened since the previous cut",
                            BooleanValue(false),
                            MakeBooleanAccessor(&DcqcnVendor::SetClampTargetRate,
                                                &DcqcnVendor::GetClampTargetRate),
                            MakeBooleanChecker())
              .AddAttribute("IterGainSlope",
                            "Slope S of the iteration-aware gain F(r) = S*r + I (dimensionless, "
                            "r = fraction of the iteration's bytes sent), finite",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&DcqcnVendor::SetIterGainSlope,
                                               &DcqcnVendor::GetIterGainSlope),
                            MakeDoubleChecker<double>())
              .AddAttribute("IterGainIntercept",
                            "Intercept I of the iteration-aware gain F(r) = S*r + I "
                            "(dimensionless), finite and >= 0",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&DcqcnVendor::SetIterGainIntercept,
                                               &DcqcnVendor::GetIterGainIntercept),
                            MakeDoubleChecker<double>(0.0))
              .AddTraceSource("Rate", "Current rate Rc changed (old, new, bit/s)",
                              MakeTraceSourceAccessor(&DcqcnVendor::m_rateTrace),
                              "ns3::TracedValueCallback::Double")
              .AddTraceSource("TargetRate", "Target rate Rt changed (old, new, bit/s)",
                              MakeTraceSourceAccessor(&DcqcnVendor::m_targetTrace),
                              "ns3::TracedValueCallback::Double")
              .AddTraceSource("Alpha", "Alpha changed (old, new)",
                              MakeTraceSourceAccessor(&DcqcnVendor::m_alphaTrace),
                              "ns3::TracedValueCallback::Double")
              .AddTraceSource("Cnp", "A CNP arrived (its time)",
                              MakeTraceSourceAccessor(&DcqcnVendor::m_cnpTrace),
                              "ns3::Time::TracedCallback");
    return tid;
}

DcqcnVendor::DcqcnVendor()
    : m_g(Dcqcn::DEFAULT_G)
    , m_initialAlpha(1.0)
    , m_alphaTimer(MicroSeconds(Dcqcn::DEFAULT_TIMER_US))
    , m_rateIncreaseTimer(MicroSeconds(Dcqcn::DEFAULT_TIMER_US))
    , m_rateDecreaseInterval(MicroSeconds(kDefaultDecreaseIntervalUs))
    , m_byteCounter(0)
    , m_fastRecovery(Dcqcn::DEFAULT_F)
    , m_rateAi(Dcqcn::DEFAULT_RATE_AI)
    , m_rateHai(Dcqcn::DEFAULT_RATE_HAI)
    , m_minRate(Dcqcn::DEFAULT_MIN_RATE)
    , m_rateOnFirstCnp(1.0)
    , m_clampTargetRate(false)
    , m_iterGainSlope(0.0)
    , m_iterGainIntercept(1.0)
{
    NS_LOG_FUNCTION(this);
}

DcqcnVendor::~DcqcnVendor()
{
    NS_LOG_FUNCTION(this);
}

std::string
DcqcnVendor::GetName() const
{
    return "DcqcnVendor";
}

// ---- parameters ----

void
DcqcnVendor::SetG(double g)
{
    Dcqcn::CheckParameter(std::isfinite(g) && g > 0.0 && g <= 1.0, kOwner, "G", "in (0, 1]", g);
    m_g = g;
}

void
DcqcnVendor::SetInitialAlpha(double alpha)
{
    Dcqcn::CheckParameter(std::isfinite(alpha) && alpha >= 0.0 && alpha <= 1.0, kOwner,
                          "InitialAlpha", "in [0, 1]", alpha);
    m_initialAlpha = alpha;
}

void
DcqcnVendor::SetAlphaTimer(Time period)
{
    Dcqcn::CheckParameter(period.IsStrictlyPositive(), kOwner, "AlphaTimer", "> 0 (seconds)",
                          period.GetSeconds());
    m_alphaTimer = period;
}

void
DcqcnVendor::SetRateIncreaseTimer(Time t)
{
    Dcqcn::CheckParameter(t.IsStrictlyPositive(), kOwner, "RateIncreaseTimer", "> 0 (seconds)",
                          t.GetSeconds());
    m_rateIncreaseTimer = t;
}

void
DcqcnVendor::SetRateDecreaseInterval(Time t)
{
    Dcqcn::CheckParameter(t.IsStrictlyPositive(), kOwner, "RateDecreaseInterval", "> 0 (seconds)",
                          t.GetSeconds());
    m_rateDecreaseInterval = t;
}

void
DcqcnVendor::SetByteCounter(uint64_t bytes)
{
    m_byteCounter = bytes;
}

void
DcqcnVendor::SetFastRecoveryStages(uint32_t f)
{
    Dcqcn::CheckParameter(f >= 1, kOwner, "FastRecoveryStages", ">= 1", double(f));
    m_fastRecovery = f;
}

void
DcqcnVendor::SetRateAi(DataRate rate)
{
    Dcqcn::CheckParameter(rate.GetBitRate() > 0, kOwner, "RateAI", "> 0 (bit/s)",
                          double(rate.GetBitRate()));
    m_rateAi = double(rate.GetBitRate());
}

void
DcqcnVendor::SetRateHai(DataRate rate)
{
    Dcqcn::CheckParameter(rate.GetBitRate() > 0, kOwner, "RateHAI", "> 0 (bit/s)",
                          double(rate.GetBitRate()));
    m_rateHai = double(rate.GetBitRate());
}

void
DcqcnVendor::SetMinRate(DataRate rate)
{
    Dcqcn::CheckParameter(rate.GetBitRate() > 0, kOwner, "MinRate", "> 0 (bit/s)",
                          double(rate.GetBitRate()));
    m_minRate = double(rate.GetBitRate());
}

void
DcqcnVendor::SetRateOnFirstCnp(double fraction)
{
    Dcqcn::CheckParameter(std::isfinite(fraction) && fraction > 0.0 && fraction <= 1.0, kOwner,
                          "RateOnFirstCnp", "in (0, 1]", fraction);
    m_rateOnFirstCnp = fraction;
}

void
DcqcnVendor::SetClampTargetRate(bool clamp)
{
    m_clampTargetRate = clamp;
}

void
DcqcnVendor::SetIterGainSlope(double s)
{
    Dcqcn::CheckParameter(std::isfinite(s), kOwner, "IterGainSlope", "finite", s);
    m_iterGainSlope = s;
}

void
DcqcnVendor::SetIterGainIntercept(double i)
{
    Dcqcn::CheckParameter(std::isfinite(i) && i >= 0.0, kOwner, "IterGainIntercept",
                          "finite and >= 0", i);
    m_iterGainIntercept = i;
}

double
DcqcnVendor::GetG() const
{
    return m_g;
}

double
DcqcnVendor::GetInitialAlpha() const
{
    return m_initialAlpha;
}

Time
DcqcnVendor::GetAlphaTimer() const
{
    return m_alphaTimer;
}

Time
DcqcnVendor::GetRateIncreaseTimer() const
{
    return m_rateIncreaseTimer;
}

Time
DcqcnVendor::GetRateDecreaseInterval() const
{
    return m_rateDecreaseInterval;
}

uint64_t
DcqcnVendor::GetByteCounter() const
{
    return m_byteCounter;
}

uint32_t
DcqcnVendor::GetFastRecoveryStages() const
{
    return m_fastRecovery;
}

DataRate
DcqcnVendor::GetRateAi() const
{
    return DataRate(uint64_t(m_rateAi));
}

DataRate
DcqcnVendor::GetRateHai() const
{
    return DataRate(uint64_t(m_rateHai));
}

DataRate
DcqcnVendor::GetMinRate() const
{
    return DataRate(uint64_t(m_minRate));
}

double
DcqcnVendor::GetRateOnFirstCnp() const
{
    return m_rateOnFirstCnp;
}

bool
DcqcnVendor::GetClampTargetRate() const
{
    return m_clampTargetRate;
}

double
DcqcnVendor::GetIterGainSlope() const
{
    return m_iterGainSlope;
}

double
DcqcnVendor::GetIterGainIntercept() const
{
    return m_iterGainIntercept;
}

void
DcqcnVendor::Validate() const
{
    // Re-run every setter's check on the stored value (setting a value to itself is a no-op).
    auto self = const_cast<DcqcnVendor*>(this);
    self->SetG(m_g);
    self->SetInitialAlpha(m_initialAlpha);
    self->SetAlphaTimer(m_alphaTimer);
    self->SetRateIncreaseTimer(m_rateIncreaseTimer);
    self->SetRateDecreaseInterval(m_rateDecreaseInterval);
    self->SetFastRecoveryStages(m_fastRecovery);
    self->SetRateAi(GetRateAi());
    self->SetRateHai(GetRateHai());
    self->SetMinRate(GetMinRate());
    self->SetRateOnFirstCnp(m_rateOnFirstCnp);
    self->SetIterGainSlope(m_iterGainSlope);
    self->SetIterGainIntercept(m_iterGainIntercept);
}

// ---- state ----

double
DcqcnVendor::GetAlpha() const
{
    return m_alpha;
}

uint64_t
DcqcnVendor::GetTimerStage() const
{
    return m_timerStage;
}

double
DcqcnVendor::GetIterationGain(const RdmaCcState& state) const
{
    double f = m_iterGainSlope * state.IterationFraction() + m_iterGainIntercept;
    return f > 0.0 ? f : 0.0;
}

double
DcqcnVendor::Clamp(const RdmaCcState& state, double rate) const
{
    return std::min(std::max(rate, m_minRate), state.lineRate);
}

void
DcqcnVendor::SetRate(RdmaCcState& state, double rate)
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
DcqcnVendor::SetTarget(RdmaCcState& state, double rate)
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
DcqcnVendor::SetAlpha(double alpha)
{
    if (alpha != m_alpha)
    {
        double old = m_alpha;
        m_alpha = alpha;
        m_alphaTrace(old, alpha);
    }
}

bool
DcqcnVendor::AtLineRate(const RdmaCcState& state) const
{
    return state.rate >= state.lineRate && state.targetRate >= state.lineRate;
}

void
DcqcnVendor::Init(RdmaCcState& state, Time now)
{
    NS_LOG_FUNCTION(this << now);
    Validate();
    Dcqcn::CheckParameter(std::isfinite(state.lineRate) && state.lineRate > 0.0, kOwner,
                          "line rate", "> 0 (bit/s)", state.lineRate);
    Dcqcn::CheckParameter(m_minRate <= state.lineRate, kOwner, "MinRate",
                          "<= the line rate " + std::to_string(state.lineRate) + " (bit/s)",
                          m_minRate);
    state.rate = state.lineRate;
    state.targetRate = state.lineRate;
    m_alpha = m_initialAlpha;
    m_started = false;
    m_alphaCnpArrived = false;
    m_decreaseCnpArrived = false;
    m_increaseActive = false;
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytesCounted = 0;
}

void
DcqcnVendor::Advance(RdmaCcState& state, Time now)
{
    if (!m_started)
    {
        return;
    }
    const Time never = Time::Max();
    // Merge the three periodic processes in time order. Only a pending CNP flag makes an alpha
    // update or a decrease check do more than decay alpha / nothing, and flags are only set by
    // OnCnp() (after Advance), so runs of plain ticks are applied in closed form.
    while (true)
    {
        Time tA = m_nextAlpha;
        Time tI = m_increaseActive ? m_nextIncrease : never;
        Time tD = m_decreaseCnpArrived ? m_nextDecrease : never;
        Time t = std::min(tA, std::min(tI, tD));
        if (t > now)
        {
            break;
        }
        if (tA == t)
        {
            if (m_alphaCnpArrived)
            {
                SetAlpha((1.0 - m_g) * m_alpha + m_g);
                m_alphaCnpArrived = false;
                m_nextAlpha += m_alphaTimer;
            }
            else
            {
                // Plain decays up to the next other event (alpha goes first on ties).
                Time limit = std::min(now, std::min(tI, tD));
                int64_t k = (limit - tA).GetTimeStep() / m_alphaTimer.GetTimeStep() + 1;
                SetAlpha(m_alpha * std::pow(1.0 - m_g, double(k)));
                m_nextAlpha += m_alphaTimer * k;
            }
            continue;
        }
        if (tI == t)
        {
            if (AtLineRate(state))
            {
                // Increase events change nothing but the stage (increase goes before decrease).
                Time limit = std::min(now, tD);
                int64_t k = (limit - tI).GetTimeStep() / m_rateIncreaseTimer.GetTimeStep() + 1;
                m_timerStage += uint64_t(k);
                m_nextIncrease += m_rateIncreaseTimer * k;
            }
            else
            {
                uint64_t s = std::max(m_timerStage, m_byteStage);
                IncreaseEvent(state, s);
                ++m_timerStage;
                m_nextIncrease += m_rateIncreaseTimer;
            }
            continue;
        }
        Decrease(state, t);
        m_nextDecrease += m_rateDecreaseInterval;
    }
    // Keep the decrease check's phase: its next tick is the first one after now.
    if (m_nextDecrease <= now)
    {
        int64_t k = (now - m_nextDecrease).GetTimeStep() / m_rateDecreaseInterval.GetTimeStep() + 1;
        m_nextDecrease += m_rateDecreaseInterval * k;
    }
}

void
DcqcnVendor::OnCnp(RdmaCcState& state, Time now)
{
    NS_LOG_FUNCTION(this << now << state.rate << state.targetRate << m_alpha);
    m_alphaCnpArrived = true;
    m_decreaseCnpArrived = true;
    if (!m_started)
    {
        m_started = true;
        SetAlpha(m_initialAlpha);
        m_alphaCnpArrived = false;
        m_nextAlpha = now + m_alphaTimer;
        // 1 ns later, so that a decrease check never coincides with an alpha update.
        m_nextDecrease = now + m_rateDecreaseInterval + NanoSeconds(1);
        double r = state.rate * m_rateOnFirstCnp;
        SetTarget(state, r);
        SetRate(state, r);
    }
    m_cnpTrace(now);
}

void
DcqcnVendor::Decrease(RdmaCcState& state, Time t)
{
    NS_LOG_LOGIC(this << " cut at " << t << " alpha " << m_alpha);
    if (m_clampTargetRate || m_timerStage != 0 || m_byteStage != 0)
    {
        SetTarget(state, state.rate);
    }
    SetRate(state, state.rate * (1.0 - m_alpha / 2.0));
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytesCounted = 0;
    m_decreaseCnpArrived = false;
    m_increaseActive = true;
    m_nextIncrease = t + m_rateIncreaseTimer;
}

void
DcqcnVendor::OnSent(RdmaCcState& state, uint32_t bytes, Time now)
{
    if (m_byteCounter == 0 || !m_increaseActive)
    {
        return;
    }
    m_bytesCounted += bytes;
    while (m_bytesCounted >= m_byteCounter)
    {
        m_bytesCounted -= m_byteCounter;
        uint64_t s = std::max(m_timerStage, m_byteStage);
        IncreaseEvent(state, s);
        ++m_byteStage;
    }
}

void
DcqcnVendor::IncreaseEvent(RdmaCcState& state, uint64_t s)
{
    double gain = GetIterationGain(state);
    if (s < m_fastRecovery)
    {
        NS_LOG_LOGIC(this << " fast recovery");
    }
    else if (s == m_fastRecovery)
    {
        NS_LOG_LOGIC(this << " additive increase");
        SetTarget(state, state.targetRate + m_rateAi * gain);
    }
    else
    {
        NS_LOG_LOGIC(this << " hyper increase");
        SetTarget(state, state.targetRate + m_rateHai * gain);
    }
    SetRate(state, (state.targetRate + state.rate) / 2.0);
}

} // namespace ns3
