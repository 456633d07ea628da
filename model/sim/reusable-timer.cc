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
        else if (MlnetSimulatorImpl* sim = MlnetSimulatorImpl::Running())
        {
            sim->RemoveInert(); // the timer's destructor cancelled it: counted inert then
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
    if (m_live && !m_idle && LiveQueued())
    {
        m_sim->AddInert(); // the queued copy now does nothing when it comes (an idle one is
                           // counted already)
    }
    m_live = false;
    m_idle = false;
    if (m_hasFallback)
    {
        m_fallback.Cancel();
        m_fallback = EventId();
        m_hasFallback = false;
    }
}

bool
ReusableTimer::LiveQueued() const
{
    // Every queued copy holds a reference; none left means the simulator dropped them
    // (Simulator::Destroy, or Run() dropping inert events) before the expiry ran. m_sim is
    // read only while a copy is queued on it (it is alive then).
    return m_event->GetReferenceCount() > 1 && !m_sim->HasPassed(m_ts, m_uid);
}

void
ReusableTimer::ChangeIdle(bool idle)
{
    if (!m_live || !LiveQueued())
    {
        m_idle = false; // nothing of m_event queued (or under ns-3's Simulator): nothing to mark
        return;
    }
    m_idle = idle;
    if (idle)
    {
        m_sim->AddInert();
    }
    else
    {
        m_sim->RemoveInert();
    }
}

bool
ReusableTimer::IsPending() const
{
    if (m_live)
    {
        return LiveQueued();
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
    MlnetSimulatorImpl* sim = MlnetSimulatorImpl::Running();
    if (m_live && m_sim == sim && m_sim->CurrentUid() == m_uid && m_sim->NowStep() == m_ts)
    {
        if (m_idle)
        {
            m_sim->RemoveInert();
        }
        m_live = false;
        m_idle = false;
        m_call(m_obj);
    }
    else if (sim)
    {
        sim->RemoveInert(); // a replaced or cancelled copy: counted inert then (Cancel)
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
