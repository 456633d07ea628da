/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_SIMULATOR_IMPL_H
#define MLNET_SIMULATOR_IMPL_H

#include "huge-page-heap.h"
#include "mlnet-event.h"

#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/ptr.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"

#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace ns3
{

class TimingWheelScheduler;

/**
 * \ingroup mlnet
 * \brief A sequential ns-3 simulator implementation with the same event order as
 * ns3::DefaultSimulatorImpl and less work per event.
 *
 * Selected like any ns-3 simulator implementation, before the simulator is first used (or after
 * Simulator::Destroy()):
 * \code
 *   GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::MlnetSimulatorImpl"));
 *   // or NS_GLOBAL_VALUE="SimulatorImplementationType=ns3::MlnetSimulatorImpl"
 *   // or --SimulatorImplementationType=ns3::MlnetSimulatorImpl on a CommandLine
 * \endcode
 * The "SchedulerType" GlobalValue (any ns-3 Scheduler) and Simulator::SetScheduler() work as
 * with the default implementation.
 *
 * Same results: events run in (timestamp, uid) order; uids are handed out in scheduling order
 * from EventId::UID::VALID, and ScheduleDestroy() consumes one as ns-3 does, so every event gets
 * the uid it would get under DefaultSimulatorImpl, and a simulation computes the same things in
 * the same order: its outputs are the same but for what measures the host (wall-clock time,
 * speed). GetEventCount() is the same too: a cancelled event still runs its turn (it advances
 * the clock and counts), as in ns-3 (one exception below: the inert events at the end); Stop(delay)
 * schedules an ordinary event (one uid, one counted event); and an event that model code skipped
 * with a reserved uid (ReserveUid() never followed by ScheduleReserved(), see there) counts once
 * its (time, uid) has passed, as the event ns-3's engine runs in its place.
 *
 * The exception: a Run() that runs out of events ends at the last event that did something.
 * mlnet's models keep timers that would do nothing when they fire queued (a ReusableTimer's
 * replaced, cancelled or idle expiry, e.g. an RDMA queue pair's retransmission timeout once
 * everything is acknowledged: up to RdmaNic::RetransmitTimeout, 67.1 ms, after the last
 * packet), because re-arming them costs nothing then. They are counted (AddInert), and when
 * only they are left, Run() drops them without running them: no clock advance, not in
 * GetEventCount(), IsFinished() true. Under DefaultSimulatorImpl the clock would go on to the
 * last of them. A run with a stop time (Stop(delay): an ordinary event) runs through them up to
 * it, as before; ns-3 events cancelled with EventId::Cancel are not inert (they still run
 * their turn, as in ns-3).
 *
 * What it saves per event, compared with DefaultSimulatorImpl:
 *  - no NS_LOG_FUNCTION / NS_LOG_LOGIC on the per-event path (Schedule, ScheduleWithContext,
 *    ScheduleNow, the event loop): each is a LogComponent::IsEnabled() call even when logging
 *    is off. The rare paths (construction, Run, Stop, SetScheduler, Destroy) still log under
 *    the "MlnetSimulatorImpl" component;
 *  - no EventId built for every executed event: DefaultSimulatorImpl builds one (a reference
 *    count increment and decrement, and EventId's own NS_LOG_FUNCTION) to pass it to
 *    SimulatorImpl::PreEventHook(), which is empty in ns-3. This class calls PreEventHook()
 *    for every event in a subclass (which may override it), as ns-3 does, and not in itself,
 *    whose hook is SimulatorImpl's empty one; a subclass that does not override it may turn
 *    it off with EnablePreEventHook(false);
 *  - no scheduler IsEmpty() call per event (the number of queued events is counted here), time
 *    arithmetic on raw time steps instead of Time temporaries;
 *  - no lock and no read-modify-write atomic on the common path. Events that another thread
 *    schedules with ScheduleWithContext() (the only call ns-3 allows off the main thread) wait
 *    in a queue under a mutex and are inserted by the main thread after the current event, as
 *    in ns-3; the main thread notices them through one relaxed atomic flag load per event (a
 *    plain load on x86 and ARM).
 *
 * Threads, as in ns-3: while Run() executes, Schedule(), ScheduleNow() and ScheduleDestroy()
 * from a thread other than the one running it are a fatal error naming the call
 * (DefaultSimulatorImpl asserts it where asserts are compiled in); ScheduleWithContext() is the
 * call other threads use. Outside Run() the simulator is idle and any one thread may use it
 * (Python runs a simulation in one thread and sets up the next in another).
 *
 * The scheduler holds tagged pointers: an MlnetEvent (see mlnet-event.h) is queued with the
 * low bit of Scheduler::Event::impl set, which this class clears before running it. A
 * scheduler (SchedulerType, SetScheduler) must therefore treat impl as an opaque value, as
 * every ns-3 scheduler and mlnet's do (they order by key only): one that dereferences impl
 * (to read the event, or to prefetch through it without masking the bit) breaks on mlnet's
 * models. Under another implementation no pointer is tagged.
 *
 * Contracts as in ns-3's Simulator API (simulator.h): Remove() and Cancel() of an expired,
 * cancelled or already removed event do nothing; Remove() of a destroy event takes it out of
 * the destroy list; IsExpired() of a destroy event is false until Destroy() runs it or it is
 * cancelled or removed; GetDelayLeft() of an expired event is zero. Bad input: scheduling with
 * a negative delay (an event in the past) is a fatal error naming the call and the delay in
 * every build (DefaultSimulatorImpl asserts it in Schedule() only, and only in builds with
 * asserts, which Debian's libns3 is not), and so is a SchedulerType that is not an ns-3
 * Scheduler.
 *
 * The process is left as it was found: with the HugePages attribute (off by default; mlnet's
 * programs turn it on, EventSchedulerHelper::UseHugePages()) the process's heap is backed by
 * transparent huge pages from the moment this implementation is created (see HugePageHeap): a
 * large topology's per-packet state then costs far fewer TLB misses and page faults, but the
 * allocator setting outlives Simulator::Destroy(), so a library user must ask for it. Results
 * do not depend on it.
 *
 * Builds against ns-3.37 and later: SimulatorImpl::Stop(const Time&) returns void in 3.37 and
 * the EventId of the stop event from 3.38; StopResult is whichever the installed ns-3 declares.
 */
class MlnetSimulatorImpl : public SimulatorImpl
{
  public:
    /// What SimulatorImpl::Stop(const Time&) returns in the ns-3 being built against.
    using StopResult = decltype(std::declval<SimulatorImpl&>().Stop(std::declval<const Time&>()));

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MlnetSimulatorImpl();
    ~MlnetSimulatorImpl() override;

    // Inherited from SimulatorImpl (semantics of ns-3's Simulator API)
    void Destroy() override;
    bool IsFinished() const override;
    void Stop() override;
    /**
     * Stop the simulation after delay (an ordinary event: one uid, one counted event).
     * \param delay the time from now; must be >= 0
     * \return the stop event's EventId where ns-3's SimulatorImpl declares one (3.38+)
     */
    StopResult Stop(const Time& delay) override;
    EventId Schedule(const Time& delay, EventImpl* event) override;
    void ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event) override;
    EventId ScheduleNow(EventImpl* event) override;
    EventId ScheduleDestroy(EventImpl* event) override;
    void Remove(const EventId& id) override;
    void Cancel(const EventId& id) override;
    bool IsExpired(const EventId& id) const override;
    void Run() override;
    Time Now() const override;
    Time GetDelayLeft(const EventId& id) const override;
    Time GetMaximumSimulationTime() const override;
    void SetScheduler(ObjectFactory schedulerFactory) override;
    uint32_t GetSystemId() const override;
    uint32_t GetContext() const override;
    uint64_t GetEventCount() const override;

    /**
     * \return the implementation whose Run() is executing events now, or nullptr (outside
     *         Run(), or another implementation is installed). Model code running inside an
     *         event may use the reserved-uid calls below on it.
     */
    static MlnetSimulatorImpl* Running()
    {
        return s_running;
    }

    /**
     * Take the uid that the next scheduled event would get, without scheduling anything. The
     * caller may later schedule an event with it (ScheduleReserved) or never: either way every
     * other event gets the uid it would have had, so the order of events is unchanged. A model
     * uses it for an event that often turns out to have nothing to do.
     * \return the reserved uid
     */
    uint32_t ReserveUid()
    {
        ++m_reservedOpen;
        return m_nextUid++;
    }

    /**
     * How many uids a kind of model object holds reserved (ReserveUid) and not scheduled, whose
     * (time, uid) has not passed on sim. GetEventCount() counts every other reserved uid that
     * was never scheduled as an executed event: it stands for an event that would have done
     * nothing, which ns-3's engine runs.
     */
    using ReservationCounter = uint64_t (*)(const MlnetSimulatorImpl& sim);

    /**
     * Register a ReservationCounter (once per kind of object that may leave a reserved uid
     * unscheduled, at static initialisation; FabricNetDevice's transmit-complete event).
     * \param counter the function
     */
    static void AddReservationCounter(ReservationCounter counter);

    /**
     * \param ts a time in time steps \param uid a uid
     * \return true if an event at (ts, uid) would already have run: it orders before the
     *         current (inside Run) or the last executed event
     */
    bool HasPassed(uint64_t ts, uint32_t uid) const
    {
        return ts < m_currentTs || (ts == m_currentTs && uid < m_currentUid);
    }

    /**
     * One more queued event that will do nothing when it runs: a ReusableTimer's expiry that
     * was replaced or cancelled, or that its owner marked idle (ReusableTimer::SetIdle). When
     * only such events are left, Run() drops them without running them (the clock stays at the
     * last event that ran; see Run()).
     */
    void AddInert()
    {
        ++m_inert;
    }

    /// One of the AddInert() events ran, or its owner made it live again.
    void RemoveInert()
    {
        --m_inert;
    }

    /// \return the current simulation time in time steps
    uint64_t NowStep() const
    {
        return m_currentTs;
    }

    /**
     * Simulator::Now() for model code on a hot path: read directly inside this
     * implementation's Run(), through ns-3's Simulator otherwise (same value).
     * \return the current simulation time
     */
    static Time CurrentTime()
    {
        const MlnetSimulatorImpl* sim = s_running;
        return sim ? TimeStep(sim->m_currentTs) : Simulator::Now();
    }

    /// \return the uid of the event being executed (or of the last one)
    uint32_t CurrentUid() const
    {
        return m_currentUid;
    }

    /// \return the context of the event being executed (GetContext() without a virtual call)
    uint32_t CurrentContext() const
    {
        return m_currentContext;
    }

    /**
     * ScheduleWithContext() for model code running inside this implementation's Run() (so in
     * the main thread; see Running()): the same uid and place in the event order, without
     * ns-3's static Simulator wrapper and the thread check.
     * \param context the event's context \param delay the delay in time steps (>= 0)
     * \param event the event; its reference passes to the simulator
     */
    void ScheduleInRun(uint32_t context, uint64_t delay, EventImpl* event)
    {
        Enqueue(m_currentTs + delay, context, event);
    }

    /**
     * ScheduleInRun for an MlnetEvent: the loop runs it through its function pointer (see
     * MlnetEvent). Same order and results as the plain overload.
     * \param context the event's context \param delay in time steps (>= 0)
     * \param event the event; its reference passes to the simulator
     */
    void ScheduleInRun(uint32_t context, uint64_t delay, MlnetEvent* event)
    {
        Enqueue(m_currentTs + delay, context, MlnetEvent::Tag(event));
    }

    /**
     * Schedule an event at an absolute time with a uid from ReserveUid(): it takes the place in
     * the event order it would have had if scheduled when the uid was reserved. (ts, uid) must
     * not have passed (asserted).
     * \param ts absolute time in time steps \param uid the reserved uid
     * \param context the event's context \param event the event; its reference passes to the
     *        simulator
     */
    void ScheduleReserved(uint64_t ts, uint32_t uid, uint32_t context, EventImpl* event);

    /**
     * ScheduleReserved for an MlnetEvent (see ScheduleInRun).
     * \param ts absolute time in time steps \param uid the reserved uid
     * \param context the event's context \param event the event; its reference passes to the
     *        simulator
     */
    void ScheduleReserved(uint64_t ts, uint32_t uid, uint32_t context, MlnetEvent* event)
    {
        ScheduleReserved(ts, uid, context, MlnetEvent::Tag(event));
    }

  protected:
    /**
     * Whether the event loop calls PreEventHook() before every event, with the event's
     * EventId, as DefaultSimulatorImpl always does (it costs an EventId per event). Without a
     * call, it does in any subclass (decided when construction completes) and not in this
     * class itself, whose PreEventHook() is SimulatorImpl's empty one; a subclass that does not
     * override the hook may turn it off here, in its constructor or later.
     * \param enable whether to call the hook
     */
    void EnablePreEventHook(bool enable = true);

    void DoDispose() override;
    void NotifyConstructionCompleted() override;

  private:
    /// An event that a thread other than the main one scheduled with ScheduleWithContext.
    struct ForeignEvent
    {
        uint32_t context; //!< the event's context
        uint64_t delay;   //!< time steps from the simulation time at which it is inserted
        EventImpl* event; //!< the event (its reference now belongs to the simulator)
    };

    /**
     * Queue an event in the scheduler with the next uid.
     * \param ts absolute time in time steps
     * \param context the event's context
     * \param event the event; its reference passes to the scheduler
     * \return the uid given to the event
     */
    uint32_t Enqueue(uint64_t ts, uint32_t context, EventImpl* event);

    /**
     * Queue an event in the scheduler with a given uid (Enqueue, ScheduleReserved).
     * \param ts absolute time in time steps \param uid its uid
     * \param context the event's context \param event the event; its reference passes to the
     *        scheduler
     */
    void Insert(uint64_t ts, uint32_t uid, uint32_t context, EventImpl* event);

    /// Insert the events other threads queued (main thread; rare: only when the flag is set).
    void InsertForeignEvents();

    /// The stop event of Stop(delay).
    void StopEvent();

    /// Drop the queued events, all inert (AddInert), without running them: the end of Run().
    void DropInert();

    /**
     * Abort with a message naming the call: it came from a thread other than the main one.
     * \param call the API call, for the message
     */
    [[noreturn]] static void OffMainThread(const char* call);

    /**
     * Abort with a message naming the call if delay is negative.
     * \param delay the delay in time steps
     * \param call the API call, for the message
     */
    static void CheckDelay(int64_t delay, const char* call);

    Ptr<Scheduler> m_events; //!< the pending events
    /// m_events if it is a TimingWheelScheduler (called without virtual dispatch), else null
    TimingWheelScheduler* m_wheel{nullptr};
    uint64_t m_queued{0};          //!< events in m_events
    uint64_t m_inert{0};           //!< of those, the events that will do nothing (AddInert)
    uint64_t m_currentTs{0};       //!< time of the current event, in time steps
    uint32_t m_currentUid;         //!< uid of the current event
    uint32_t m_currentContext;     //!< context of the current event
    uint32_t m_nextUid;            //!< the uid the next scheduled event gets
    uint64_t m_eventCount{0};      //!< events executed (cancelled ones included)
    uint64_t m_reservedOpen{0};    //!< uids reserved and not (yet) scheduled
    bool m_stop{false};            //!< Stop() was called: Run() returns after the current event
    bool m_preEventHook{false};    //!< call PreEventHook() per event (EnablePreEventHook)
    bool m_preEventHookSet{false}; //!< EnablePreEventHook() was called
    bool m_hugePages{false};       //!< HugePages attribute
    HugePageHeap m_heap;           //!< marks the heap for huge pages as it grows
    std::deque<EventId> m_destroyEvents; //!< ScheduleDestroy() events, in order
    std::thread::id m_mainThreadId;      //!< the thread that runs the simulation

    std::atomic<bool> m_foreignPending{false}; //!< m_foreign may be non-empty
    std::mutex m_foreignMutex;                 //!< guards m_foreign
    std::vector<ForeignEvent> m_foreign;       //!< events from other threads, in arrival order

    static MlnetSimulatorImpl* s_running; //!< the implementation inside Run(), if any
};

} // namespace ns3

#endif /* MLNET_SIMULATOR_IMPL_H */
