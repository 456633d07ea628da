/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MLNET_EVENT_H
#define MLNET_EVENT_H

#include "ns3/event-impl.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlnet
 * An event that MlnetSimulatorImpl runs through a plain function pointer instead of ns-3's
 * EventImpl::Invoke() (a call into libns3-core) and the virtual Notify(): a model's per-packet
 * events (a port's arrival and transmit-complete events) cost a few instructions less each.
 *
 * Scheduled with MlnetSimulatorImpl::ScheduleInRun() or ScheduleReserved(), which hand out no
 * EventId, so it is never cancelled; the scheduler holds its pointer marked (Tag(): the low
 * bit, free since events are aligned) and MlnetSimulatorImpl removes the mark (Untag()) before
 * it uses the pointer, so other schedulers carry it unread. Under any other simulator
 * implementation, or scheduled through Simulator::Schedule, it is an ordinary EventImpl:
 * Notify() calls the same function.
 */
class MlnetEvent : public EventImpl
{
  public:
    /// What the event does; called with the event itself.
    using FireFunction = void (*)(MlnetEvent* self);

    /// \param fire what the event does
    explicit MlnetEvent(FireFunction fire)
        : m_fire(fire)
    {
    }

    /// Run the event (MlnetSimulatorImpl's loop).
    void Fire()
    {
        m_fire(this);
    }

    /// \param e an event \return e's pointer, marked as an MlnetEvent
    static EventImpl* Tag(MlnetEvent* e)
    {
        return reinterpret_cast<EventImpl*>(
            reinterpret_cast<uintptr_t>(static_cast<EventImpl*>(e)) | uintptr_t(1));
    }

    /// \param p an event pointer from a scheduler \return true if it is a marked MlnetEvent
    static bool IsTagged(const EventImpl* p)
    {
        return (reinterpret_cast<uintptr_t>(p) & uintptr_t(1)) != 0;
    }

    /// \param p an event pointer from a scheduler, marked or not \return the event's pointer
    static EventImpl* Untag(EventImpl* p)
    {
        return reinterpret_cast<EventImpl*>(reinterpret_cast<uintptr_t>(p) & ~uintptr_t(1));
    }

  protected:
    void Notify() override
    {
        m_fire(this);
    }

  private:
    FireFunction m_fire; //!< what the event does
};

/**
 * \ingroup mlnet
 * A member-function event of an object that is scheduled again and again (ns-3 reference
 * counts events, so one object can sit in the scheduler several times): no allocation per
 * use. The object detaches it in its destructor; a detached event does nothing.
 * \tparam T the object's class
 */
template <class T>
class alignas(32) MlnetMemberEvent : public MlnetEvent
{
  public:
    /// \tparam fn the member function to call \param obj the object \return the event
    template <void (T::*fn)()>
    static Ptr<MlnetMemberEvent> Make(T* obj)
    {
        return Create<MlnetMemberEvent>(obj, &Call<fn>);
    }

    /// \param obj the object \param fire the trampoline that calls the object
    MlnetMemberEvent(T* obj, FireFunction fire)
        : MlnetEvent(fire),
          m_obj(obj)
    {
    }

    /// The object is going away.
    void Detach()
    {
        m_obj = nullptr;
    }

  private:
    /// \param self the event: call fn on its object, if it still has one
    template <void (T::*fn)()>
    static void Call(MlnetEvent* self)
    {
        T* obj = static_cast<MlnetMemberEvent*>(self)->m_obj;
        if (obj)
        {
            (obj->*fn)();
        }
    }

    T* m_obj; //!< the object (null once it is destroyed)
};

} // namespace ns3

#endif /* MLNET_EVENT_H */
