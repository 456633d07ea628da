/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcqcn.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Dcqcn");

NS_OBJECT_ENSURE_REGISTERED(Dcqcn);

TypeId
Dcqcn::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Dcqcn")
            .SetParent<DcqcnBase>()
            .SetGroupName("Mlnet")
            .AddConstructor<Dcqcn>()
            .AddAttribute("ByteCounter",
                          "Rate-increase byte counter B in bytes, >= 1",
                          UintegerValue(DEFAULT_BYTE_COUNTER),
                          MakeUintegerAccessor(&Dcqcn::SetByteCounter, &Dcqcn::GetByteCounter),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute(
                "ClampTargetRate",
                "true: Rt = Rc on every CNP (the paper); false: only if a rate "
                "increase happened since the previous cut (Mellanox clamp_tgt_rate=0)",
                BooleanValue(true),
                MakeBooleanAccessor(&Dcqcn::SetClampTargetRate, &Dcqcn::GetClampTargetRate),
                MakeBooleanChecker());
    return tid;
}

Dcqcn::Dcqcn()
    : DcqcnBase("ns3::Dcqcn"),
      m_byteCounter(DEFAULT_BYTE_COUNTER),
      m_clampTargetRate(true)
{
    NS_LOG_FUNCTION(this);
}

Dcqcn::~Dcqcn()
{
    NS_LOG_FUNCTION(this);
}

std::string
Dcqcn::GetName() const
{
    return "Dcqcn";
}

Ptr<RdmaCongestionOps>
Dcqcn::Fork() const
{
    return CopyObject<Dcqcn>(Ptr<const Dcqcn>(this));
}

// ---- parameters ----

void
Dcqcn::SetByteCounter(uint64_t bytes)
{
    Check(bytes >= 1, "ByteCounter", ">= 1 (bytes)", double(bytes));
    m_byteCounter = bytes;
}

void
Dcqcn::SetClampTargetRate(bool clamp)
{
    m_clampTargetRate = clamp;
}

uint64_t
Dcqcn::GetByteCounter() const
{
    return m_byteCounter;
}

bool
Dcqcn::GetClampTargetRate() const
{
    return m_clampTargetRate;
}

void
Dcqcn::DoValidate() const
{
    const_cast<Dcqcn*>(this)->SetByteCounter(m_byteCounter);
}

// ---- state ----

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

void
Dcqcn::Init(RdmaCcState& state, Time now)
{
    NS_LOG_FUNCTION(this << now);
    Validate();
    CheckLineRate(state);
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
            int64_t k =
                (now - m_nextIncrease).GetTimeStep() / m_rateIncreaseTimer.GetTimeStep() + 1;
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
    TraceCnp(now);
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
