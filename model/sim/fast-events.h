/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MLNET_FAST_EVENTS_H
#define MLNET_FAST_EVENTS_H

#include "mlnet-event.h"
#include "mlnet-simulator-impl.h"

#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The one door from model code to the fast paths of mlnet's event engine, each with
 * ns-3's Simulator as its fallback (doc/architecture.rst, "model/sim").
 *
 * Models name FastEvents, never the engine class: under another SimulatorImpl (ns-3's
 * DefaultSimulatorImpl, a user's own) every call here does what ns-3's Simulator does, with the
 * same results; under MlnetSimulatorImpl, inside its Run(), the calls skip ns-3's static wrapper
 * and the thread check, and an event may hold a *reserved* uid (its place in the event order)
 * without being scheduled. Everything is inline: a call costs what the engine's own call costs.
 */
class FastEvents
{
  public:
    /// The engine, opaque to models: a handle for Schedule() and the reservations.
    using Engine = MlnetSimulatorImpl;

    /**
     * \return mlnet's engine if its Run() is executing events now, or nullptr (outside Run(),
     *         or another implementation is installed): the calls below then fall back
     */
    static Engine* Running()
    {
        return MlnetSimulatorImpl::Running();
    }

    /// \return Simulator::Now() (read directly inside mlnet's Run())
    static Time Now()
    {
        return MlnetSimulatorImpl::CurrentTime();
    }

    /**
     * Schedule an MlnetEvent in a context after a delay: on engine directly, or through
     * Simulator::ScheduleWithContext if engine is nullptr. The same uid and order either way.
     * \param engine Running() \param context the event's context \param delay >= 0
     * \param event the event; the caller has taken the reference the scheduler releases
     */
    static void Schedule(Engine* engine, uint32_t context, const Time& delay, MlnetEvent* event)
    {
        if (engine)
        {
            engine->ScheduleInRun(context, uint64_t(delay.GetTimeStep()), event);
        }
        else
        {
            Simulator::ScheduleWithContext(context, delay, event);
        }
    }

    /**
     * A place in the event order held for an event that may never be scheduled (an event that
     * often turns out to have nothing to do): the uid the event would have had, at ts.
     * Only on mlnet's engine (Reserve() needs Running()).
     */
    struct Reservation
    {
        Engine* engine{nullptr}; //!< the engine that handed it out (nullptr: none)
        uint64_t ts{0};          //!< the event's time, in time steps
        uint32_t uid{0};         //!< the reserved uid
    };

    /**
     * \param engine Running(), not nullptr \param delay the event's delay (>= 0)
     * \return the reservation of an event after delay
     */
    static Reservation Reserve(Engine* engine, const Time& delay)
    {
        Reservation r;
        r.engine = engine;
        r.ts = engine->NowStep() + uint64_t(delay.GetTimeStep());
        r.uid = engine->ReserveUid();
        return r;
    }

    /**
     * \param r a reservation
     * \return true if r's engine is still the one in use (running, or installed): false after
     *         Simulator::Destroy(), when ns-3 dropped its pending events
     */
    static bool IsCurrent(const Reservation& r)
    {
        return r.engine && (MlnetSimulatorImpl::Running() == r.engine ||
                            PeekPointer(Simulator::GetImplementation()) ==
                                static_cast<SimulatorImpl*>(r.engine));
    }

    /**
     * \param r a reservation of a current engine
     * \return true if its event would already have run (it orders before the current event)
     */
    static bool HasPassed(const Reservation& r)
    {
        return r.engine->HasPassed(r.ts, r.uid);
    }

    /**
     * Schedule the event of a reservation that has not passed, at its place in the order.
     * \param r the reservation \param context the event's context
     * \param event the event; the caller has taken the reference the scheduler releases
     */
    static void ScheduleReserved(const Reservation& r, uint32_t context, MlnetEvent* event)
    {
        r.engine->ScheduleReserved(r.ts, r.uid, context, event);
    }

    /// Counts a kind of model object's reservations that are held and not passed on an engine.
    using ReservationCounter = MlnetSimulatorImpl::ReservationCounter;

    /**
     * Register a ReservationCounter (at static initialisation, once per kind of object that may
     * leave a reservation unscheduled), so that GetEventCount() counts the events ns-3's engine
     * would have run for them.
     * \param counter the function
     */
    static void AddReservationCounter(ReservationCounter counter)
    {
        MlnetSimulatorImpl::AddReservationCounter(counter);
    }
};

} // namespace ns3

#endif /* MLNET_FAST_EVENTS_H */
