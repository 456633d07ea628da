/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "reusable-timer.h"

#include "mlnet-simulator-impl.h"

#include "ns3/simulator.h"

namespace ns3
{

/// The timer's event object: scheduled again and again; a detached one does nothing.
class ReusableTimer::TimerEvent : public EventImpl
{
  public:
    /// \param timer the timer
    explicit TimerEvent(ReusableTimer* timer)
        : m_timer(timer)
    {
    }

    /// The timer is going away.
    void Detach()
    {
        m_timer = nullptr;
    }

  protected:
    void Notify() override
    {
        if (m_timer)
        {
            m_timer->OnEvent();
        }
    }

  private:
    ReusableTimer* m_timer;
};

ReusableTimer::ReusableTimer() = default;

ReusableTimer::~ReusableTimer()
{
    if (m_event)
    {
        m_event->Detach();
    }
    Cancel();
}

void
ReusableTimer::Schedule(const Time& delay)
{
    Cancel();
    MlnetSimulatorImpl* sim = MlnetSimulatorImpl::Running();
    if (!sim)
    {
        m_fallback = Simulator::Schedule(delay, &ReusableTimer::OnFallback, this);
        m_hasFallback = true;
        return;
    }
    if (!m_event)
    {
        m_event = Create<TimerEvent>(this);
    }
    const int64_t d = delay.GetTimeStep();
    NS_ABORT_MSG_IF(d < 0,
                    "ReusableTimer::Schedule: delay must be >= 0; got " << d << " time steps");
    // The uid Simulator::Schedule would take now, in the current event's context.
    m_sim = sim;
    m_uid = sim->ReserveUid();
    m_ts = sim->NowStep() + uint64_t(d);
    m_live = true;
    m_event->Ref(); // the scheduler releases one reference after the event ran
    sim->ScheduleReserved(m_ts, m_uid, sim->CurrentContext(), PeekPointer(m_event));
}

void
ReusableTimer::Cancel()
{
    m_live = false; // a queued copy of m_event now does nothing when it comes
    if (m_hasFallback)
    {
        m_fallback.Cancel();
        m_fallback = EventId();
        m_hasFallback = false;
    }
}

bool
ReusableTimer::IsPending() const
{
    if (m_live)
    {
        // Every queued copy holds a reference; none left means the simulator dropped them
        // (Simulator::Destroy) before the expiry ran.
        return m_event->GetReferenceCount() > 1 && !m_sim->HasPassed(m_ts, m_uid);
    }
    return m_hasFallback && !m_fallback.IsExpired();
}

int64_t
ReusableTimer::GetTsStep() const
{
    return m_live ? int64_t(m_ts) : int64_t(m_fallback.GetTs());
}

void
ReusableTimer::OnEvent()
{
    // Only the live expiry runs the owner's function: a replaced one has another (ts, uid).
    if (m_live && m_sim == MlnetSimulatorImpl::Running() && m_sim->CurrentUid() == m_uid &&
        m_sim->NowStep() == m_ts)
    {
        m_live = false;
        m_call(m_obj);
    }
}

void
ReusableTimer::OnFallback()
{
    m_fallback = EventId();
    m_hasFallback = false;
    m_call(m_obj);
}

} // namespace ns3
