/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcqcn-vendor.h"

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
constexpr int64_t kDefaultDecreaseIntervalUs = 4; //!< default RateDecreaseInterval (us)
} // namespace

TypeId
DcqcnVendor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcqcnVendor")
            .SetParent<DcqcnBase>()
            .SetGroupName("Mlnet")
            .AddConstructor<DcqcnVendor>()
            .AddAttribute("RateDecreaseInterval",
                          "Rate-decrease check period (time): at most one cut per period, > 0",
                          TimeValue(MicroSeconds(kDefaultDecreaseIntervalUs)),
                          MakeTimeAccessor(&DcqcnVendor::SetRateDecreaseInterval,
                                           &DcqcnVendor::GetRateDecreaseInterval),
                          MakeTimeChecker(TimeStep(1)))
            .AddAttribute(
                "ByteCounter",
                "Rate-increase byte counter in bytes, 0 = none (timer only)",
                UintegerValue(0),
                MakeUintegerAccessor(&DcqcnVendor::SetByteCounter, &DcqcnVendor::GetByteCounter),
                MakeUintegerChecker<uint64_t>())
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
                          MakeBooleanChecker());
    return tid;
}

DcqcnVendor::DcqcnVendor()
    : DcqcnBase("ns3::DcqcnVendor"),
      m_rateDecreaseInterval(MicroSeconds(kDefaultDecreaseIntervalUs)),
      m_byteCounter(0),
      m_rateOnFirstCnp(1.0),
      m_clampTargetRate(false)
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

Ptr<RdmaCongestionOps>
DcqcnVendor::Fork() const
{
    return CopyObject<DcqcnVendor>(Ptr<const DcqcnVendor>(this));
}

// ---- parameters ----

void
DcqcnVendor::SetRateDecreaseInterval(Time t)
{
    Check(t.IsStrictlyPositive(), "RateDecreaseInterval", "> 0 (seconds)", t.GetSeconds());
    m_rateDecreaseInterval = t;
}

void
DcqcnVendor::SetByteCounter(uint64_t bytes)
{
    m_byteCounter = bytes;
}

void
DcqcnVendor::SetRateOnFirstCnp(double fraction)
{
    Check(std::isfinite(fraction) && fraction > 0.0 && fraction <= 1.0,
          "RateOnFirstCnp",
          "in (0, 1]",
          fraction);
    m_rateOnFirstCnp = fraction;
}

void
DcqcnVendor::SetClampTargetRate(bool clamp)
{
    m_clampTargetRate = clamp;
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

void
DcqcnVendor::DoValidate() const
{
    auto self = const_cast<DcqcnVendor*>(this);
    self->SetRateDecreaseInterval(m_rateDecreaseInterval);
    self->SetRateOnFirstCnp(m_rateOnFirstCnp);
}

// ---- state ----

uint64_t
DcqcnVendor::GetTimerStage() const
{
    return m_timerStage;
}

void
DcqcnVendor::Init(RdmaCcState& state, Time now)
{
    NS_LOG_FUNCTION(this << now);
    Validate();
    CheckLineRate(state);
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
    TraceCnp(now);
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
