/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_REUSABLE_TIMER_H
#define MLNET_REUSABLE_TIMER_H

#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class MlnetSimulatorImpl;

/**
 * \ingroup mlnet
 * \brief A one-shot timer that its owner arms again and again (an RDMA NIC's wake-up, a
 * retransmission timeout), with the semantics of an ns-3 EventId kept by the owner.
 *
 * Schedule() replaces the pending expiry, as `id.Cancel(); id = Simulator::Schedule(...)`
 * does; Cancel() drops it; IsPending() and GetTsStep() tell whether one is pending and when.
 *
 * Inside MlnetSimulatorImpl's Run() the timer schedules one event object of its own again and
 * again (ns-3 events are reference counted, so one object can sit in the scheduler several
 * times) with the uid that Simulator::Schedule would have given: no allocation, no EventId, and
 * IsPending() is two comparisons instead of ns-3's out-of-line EventId accessors. A replaced
 * expiry stays queued and does nothing when its time comes, exactly as a cancelled ns-3 event
 * does; so the uids, the order of events and the count of executed events are those of
 * Simulator::Schedule and EventId::Cancel. Outside that Run() (before the simulation starts,
 * or under any other simulator implementation) the timer is exactly that: Simulator::Schedule
 * and an EventId.
 *
 * The owner binds a member function once (Bind) and must outlive the timer's pending expiry
 * or destroy the timer first (the destructor detaches the event: it then does nothing).
 *
 * Inside that Run() the copies of m_event that will do nothing (replaced, cancelled, or the
 * live one marked idle with SetIdle) are counted on the simulator (AddInert): a Run() whose
 * queue holds only such events ends at once instead of running them (see MlnetSimulatorImpl),
 * so the simulated end time is the last event that did something.
 */
class ReusableTimer
{
  public:
    ReusableTimer();
    ~ReusableTimer();
    ReusableTimer(const ReusableTimer&) = delete;
    ReusableTimer& operator=(const ReusableTimer&) = delete;

    /**
     * Call obj->Fn() at each expiry.
     * \tparam T the owner's class \tparam Fn its member function \param obj the owner
     */
    template <class T, void (T::*Fn)()>
    void Bind(T* obj)
    {
        m_obj = obj;
        m_call = &Thunk<T, Fn>;
    }

    /**
     * Expire after delay (in the current event's context), replacing any pending expiry.
     * \param delay the delay (>= 0)
     */
    void Schedule(const Time& delay);

    /// Drop the pending expiry, if any.
    void Cancel();

    /**
     * Mark the pending expiry idle (its owner's function will do nothing then: a
     * retransmission timer once everything is acknowledged) or live again. Inside
     * MlnetSimulatorImpl's Run() an idle expiry, like a replaced or cancelled one, is inert:
     * when only inert events are left, Run() drops them and ends at the last event that did
     * something, instead of at the expiry. Until then it stays queued and runs as before, so
     * re-arming costs nothing. No effect without a pending expiry, nor outside that Run()
     * (ns-3's Simulator runs it in its turn). Schedule() and Cancel() clear it.
     * \param idle true: idle; false: live again
     */
    void SetIdle(bool idle)
    {
        if (idle != m_idle)
        {
            ChangeIdle(idle);
        }
    }

    /// \return true if an expiry is pending (scheduled, not yet run, not cancelled)
    bool IsPending() const;

    /// \return the time of the pending expiry in time steps (meaningful if IsPending())
    int64_t GetTsStep() const;

  private:
    class TimerEvent;

    /// Call obj->Fn().
    template <class T, void (T::*Fn)()>
    static void Thunk(void* obj)
    {
        (static_cast<T*>(obj)->*Fn)();
    }

    /// The timer's own event came due: run the owner's function if it is the live expiry.
    void OnEvent();
    /// The fallback event (Simulator::Schedule) came due.
    void OnFallback();
    /// SetIdle's change. \param idle the new state
    void ChangeIdle(bool idle);
    /// \return true if the live expiry of m_event is still queued on m_sim
    bool LiveQueued() const;

    void* m_obj{nullptr};               //!< the owner
    void (*m_call)(void*){nullptr};     //!< calls the owner's bound member function
    Ptr<TimerEvent> m_event;            //!< the reusable event (created on first use)
    MlnetSimulatorImpl* m_sim{nullptr}; //!< where the live expiry is queued
    uint64_t m_ts{0};                   //!< the live expiry's time, in time steps
    uint32_t m_uid{0};                  //!< the live expiry's uid
    bool m_live{false};                 //!< an expiry of m_event is live
    bool m_idle{false};                 //!< the live expiry is idle (counted inert on m_sim)
    bool m_hasFallback{false};          //!< m_fallback was scheduled (may have expired since)
    EventId m_fallback;                 //!< the expiry scheduled through ns-3's Simulator
};

} // namespace ns3

#endif /* MLNET_REUSABLE_TIMER_H */
