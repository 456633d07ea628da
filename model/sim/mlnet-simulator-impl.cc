/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "mlnet-simulator-impl.h"

#include "timing-wheel-scheduler.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/make-event.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <typeinfo>

namespace ns3
{

// NS_LOG only on the rare paths (see the class documentation): the per-event path has none.
NS_LOG_COMPONENT_DEFINE("MlnetSimulatorImpl");

NS_OBJECT_ENSURE_REGISTERED(MlnetSimulatorImpl);

TypeId
MlnetSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MlnetSimulatorImpl")
                            .SetParent<SimulatorImpl>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<MlnetSimulatorImpl>()
                            .AddAttribute("HugePages",
                                          "Back the heap with transparent huge pages (Linux "
                                          "with glibc; madvise mode is enough): fewer TLB "
                                          "misses and page faults on large topologies. Off by "
                                          "default: it changes the whole process's allocator "
                                          "(mallopt M_TOP_PAD, madvise on the heap) for the "
                                          "rest of its life; mlnet's programs turn it on "
                                          "(EventSchedulerHelper::UseHugePages). Same results "
                                          "either way; speed and resident size only",
                                          BooleanValue(false),
                                          MakeBooleanAccessor(&MlnetSimulatorImpl::m_hugePages),
                                          MakeBooleanChecker());
    return tid;
}

MlnetSimulatorImpl* MlnetSimulatorImpl::s_running = nullptr;

MlnetSimulatorImpl::MlnetSimulatorImpl()
    : m_currentUid(EventId::UID::INVALID),
      m_currentContext(Simulator::NO_CONTEXT),
      m_nextUid(EventId::UID::VALID),
      m_mainThreadId(std::this_thread::get_id())
{
    NS_LOG_FUNCTION(this);
}

void
MlnetSimulatorImpl::NotifyConstructionCompleted()
{
    SimulatorImpl::NotifyConstructionCompleted();
    if (!m_preEventHookSet)
    {
        // A subclass may override PreEventHook (ns-3 calls it for every event); this class's
        // own is SimulatorImpl's empty one, not worth an EventId per event.
        m_preEventHook = typeid(*this) != typeid(MlnetSimulatorImpl);
    }
    if (m_hugePages)
    {
        m_heap.Update(); // before the topology is built, so that it lands in huge pages too
    }
}

MlnetSimulatorImpl::~MlnetSimulatorImpl()
{
    NS_LOG_FUNCTION(this);
}

void
MlnetSimulatorImpl::EnablePreEventHook(bool enable)
{
    m_preEventHook = enable;
    m_preEventHookSet = true;
}

void
MlnetSimulatorImpl::DoDispose()
{
    NS_LOG_FUNCTION(this);
    InsertForeignEvents();
    if (m_events)
    {
        // Events that never ran: the scheduler held their reference.
        while (!m_events->IsEmpty())
        {
            MlnetEvent::Untag(m_events->RemoveNext().impl)->Unref();
        }
    }
    m_queued = 0;
    m_inert = 0;
    m_events = nullptr;
    m_wheel = nullptr;
    SimulatorImpl::DoDispose();
}

void
MlnetSimulatorImpl::Destroy()
{
    NS_LOG_FUNCTION(this);
    // A destroy event may schedule further destroy events: they join the back and run too.
    while (!m_destroyEvents.empty())
    {
        Ptr<EventImpl> ev = m_destroyEvents.front().PeekEventImpl();
        m_destroyEvents.pop_front();
        NS_LOG_LOGIC("destroy event " << ev);
        if (!ev->IsCancelled())
        {
            ev->Invoke();
        }
    }
}

void
MlnetSimulatorImpl::SetScheduler(ObjectFactory schedulerFactory)
{
    NS_LOG_FUNCTION(this << schedulerFactory);
    Ptr<Scheduler> next = schedulerFactory.Create<Scheduler>();
    if (!next)
    {
        // A configuration error (doc/architecture.rst, error policy): thrown, so that Python gets
        // a ValueError. The engine stays usable: on first use it keeps its default scheduler.
        if (!m_events)
        {
            SetScheduler(ObjectFactory(TimingWheelScheduler::GetTypeId().GetName()));
        }
        throw std::invalid_argument("MlnetSimulatorImpl::SetScheduler: SchedulerType '" +
                                    schedulerFactory.GetTypeId().GetName() +
                                    "' is not an ns-3 event scheduler (a subclass of "
                                    "ns3::Scheduler, e.g. ns3::MapScheduler)");
    }
    if (m_events)
    {
        // (timestamp, uid) keys are kept: the order does not change.
        while (!m_events->IsEmpty())
        {
            next->Insert(m_events->RemoveNext());
        }
    }
    m_events = next;
    // mlnet's own wheel is called directly (it is final: no virtual call, and the linker may
    // inline it); any other scheduler through the Scheduler interface.
    m_wheel = dynamic_cast<TimingWheelScheduler*>(PeekPointer(next));
}

uint32_t
MlnetSimulatorImpl::GetSystemId() const
{
    return 0; // not distributed
}

bool
MlnetSimulatorImpl::IsFinished() const
{
    return m_queued == m_inert || m_stop;
}

void
MlnetSimulatorImpl::InsertForeignEvents()
{
    if (!m_foreignPending.load(std::memory_order_relaxed))
    {
        return;
    }
    std::vector<ForeignEvent> events;
    {
        std::lock_guard<std::mutex> lock(m_foreignMutex);
        events.swap(m_foreign);
        m_foreignPending.store(false, std::memory_order_relaxed);
    }
    for (const ForeignEvent& e : events)
    {
        // As ns-3: the delay counts from the main thread's current time when it inserts them.
        Enqueue(m_currentTs + e.delay, e.context, e.event);
    }
}

void
MlnetSimulatorImpl::Run()
{
    NS_LOG_FUNCTION(this);
    m_mainThreadId = std::this_thread::get_id(); // the thread that runs is the main thread
    InsertForeignEvents();
    m_stop = false;
    // Model code inside an event may ask Running() for this implementation (reserved uids).
    MlnetSimulatorImpl* outer = s_running;
    s_running = this;
    if (m_hugePages)
    {
        m_heap.Update();
    }
    try
    {
        // Until only inert events are left (AddInert): they would do nothing.
        while (m_queued != m_inert && !m_stop)
        {
            // m_events is read every time: an event may call SetScheduler().
            const Scheduler::Event next = m_wheel ? m_wheel->RemoveNext() : m_events->RemoveNext();
            EventImpl* const impl = MlnetEvent::Untag(next.impl);
            if (m_preEventHook)
            {
                // Before the clock moves, as DefaultSimulatorImpl calls it.
                PreEventHook(EventId(impl, next.key.m_ts, next.key.m_context, next.key.m_uid));
            }
            --m_queued;
            if ((++m_eventCount & 0xfff) == 0 && m_hugePages)
            {
                m_heap.Update(); // mark what the heap grew by since
            }
            m_currentTs = next.key.m_ts;
            m_currentContext = next.key.m_context;
            m_currentUid = next.key.m_uid;
            if (MlnetEvent::IsTagged(next.impl))
            {
                static_cast<MlnetEvent*>(impl)->Fire(); // never cancelled (it has no EventId)
            }
            else
            {
                impl->Invoke(); // does nothing if the event was cancelled
            }
            impl->Unref();
            if (m_foreignPending.load(std::memory_order_relaxed))
            {
                InsertForeignEvents();
            }
        }
    }
    catch (...)
    {
        s_running = outer; // an event threw (to a Python caller, say): not running any more
        throw;
    }
    s_running = outer;
    if (!m_stop && m_queued != 0)
    {
        DropInert();
    }
    NS_LOG_LOGIC("run ends at " << m_currentTs << " with " << m_queued << " events queued");
}

void
MlnetSimulatorImpl::DropInert()
{
    NS_LOG_LOGIC("dropping " << m_queued << " inert events after " << m_currentTs);
    while (m_queued != 0)
    {
        const Scheduler::Event next = m_wheel ? m_wheel->RemoveNext() : m_events->RemoveNext();
        MlnetEvent::Untag(next.impl)->Unref(); // the scheduler's reference
        --m_queued;
    }
    m_inert = 0;
}

void
MlnetSimulatorImpl::Stop()
{
    NS_LOG_FUNCTION(this);
    m_stop = true;
}

void
MlnetSimulatorImpl::StopEvent()
{
    Stop();
}

MlnetSimulatorImpl::StopResult
MlnetSimulatorImpl::Stop(const Time& delay)
{
    NS_LOG_FUNCTION(this << delay.GetTimeStep());
    // An ordinary event, as ns-3 schedules Simulator::Stop: it takes a uid and counts as an
    // executed event. void in ns-3.37, the EventId from 3.38 on.
    return static_cast<StopResult>(
        Schedule(delay, MakeEvent(&MlnetSimulatorImpl::StopEvent, this)));
}

void
MlnetSimulatorImpl::OffMainThread(const char* call)
{
    NS_FATAL_ERROR("MlnetSimulatorImpl::"
                   << call
                   << " called from a thread other than the simulation's main thread (the one "
                      "running Run()); ns-3 allows only ScheduleWithContext from other threads");
}

void
MlnetSimulatorImpl::CheckDelay(int64_t delay, const char* call)
{
    NS_ABORT_MSG_IF(delay < 0,
                    "MlnetSimulatorImpl::" << call << ": delay must be >= 0 (an event cannot be "
                                           << "scheduled in the past); got " << delay
                                           << " time steps");
}

void
MlnetSimulatorImpl::Insert(uint64_t ts, uint32_t uid, uint32_t context, EventImpl* event)
{
    Scheduler::Event ev;
    ev.impl = event;
    ev.key.m_ts = ts;
    ev.key.m_context = context;
    ev.key.m_uid = uid;
    ++m_queued;
    if (m_wheel)
    {
        m_wheel->Insert(ev);
    }
    else
    {
        m_events->Insert(ev);
    }
}

uint32_t
MlnetSimulatorImpl::Enqueue(uint64_t ts, uint32_t context, EventImpl* event)
{
    const uint32_t uid = m_nextUid++;
    Insert(ts, uid, context, event);
    return uid;
}

void
MlnetSimulatorImpl::ScheduleReserved(uint64_t ts, uint32_t uid, uint32_t context, EventImpl* event)
{
    NS_ASSERT_MSG(!HasPassed(ts, uid),
                  "ScheduleReserved: (" << ts << ", " << uid << ") has passed");
    --m_reservedOpen; // it will run, and count as it runs
    Insert(ts, uid, context, event);
}

EventId
MlnetSimulatorImpl::Schedule(const Time& delay, EventImpl* event)
{
    const int64_t d = delay.GetTimeStep();
    if (d < 0)
    {
        CheckDelay(d, "Schedule");
    }
    if (s_running == this && std::this_thread::get_id() != m_mainThreadId)
    {
        OffMainThread("Schedule");
    }
    const uint64_t ts = m_currentTs + uint64_t(d);
    const uint32_t uid = Enqueue(ts, m_currentContext, event);
    return EventId(event, ts, m_currentContext, uid);
}

void
MlnetSimulatorImpl::ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event)
{
    const int64_t d = delay.GetTimeStep();
    if (d < 0)
    {
        CheckDelay(d, "ScheduleWithContext");
    }
    if (std::this_thread::get_id() == m_mainThreadId)
    {
        Enqueue(m_currentTs + uint64_t(d), context, event);
        return;
    }
    // Another thread: the main thread inserts it after its current event (time and uid are
    // given then), as ns-3 does.
    std::lock_guard<std::mutex> lock(m_foreignMutex);
    m_foreign.push_back(ForeignEvent{context, uint64_t(d), event});
    m_foreignPending.store(true, std::memory_order_relaxed);
}

EventId
MlnetSimulatorImpl::ScheduleNow(EventImpl* event)
{
    if (s_running == this && std::this_thread::get_id() != m_mainThreadId)
    {
        OffMainThread("ScheduleNow");
    }
    const uint32_t uid = Enqueue(m_currentTs, m_currentContext, event);
    return EventId(event, m_currentTs, m_currentContext, uid);
}

EventId
MlnetSimulatorImpl::ScheduleDestroy(EventImpl* event)
{
    if (s_running == this && std::this_thread::get_id() != m_mainThreadId)
    {
        OffMainThread("ScheduleDestroy");
    }
    // Not queued: run by Destroy(). It still consumes a uid, as in ns-3, so that the events
    // scheduled after it get the same uids as under DefaultSimulatorImpl.
    EventId id(Ptr<EventImpl>(event, false), m_currentTs, 0xffffffff, EventId::UID::DESTROY);
    m_destroyEvents.push_back(id);
    ++m_nextUid;
    return id;
}

Time
MlnetSimulatorImpl::Now() const
{
    return TimeStep(m_currentTs);
}

Time
MlnetSimulatorImpl::GetDelayLeft(const EventId& id) const
{
    if (IsExpired(id))
    {
        return TimeStep(0);
    }
    return TimeStep(id.GetTs() - m_currentTs);
}

void
MlnetSimulatorImpl::Remove(const EventId& id)
{
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        auto it = std::find(m_destroyEvents.begin(), m_destroyEvents.end(), id);
        if (it != m_destroyEvents.end())
        {
            m_destroyEvents.erase(it);
        }
        return;
    }
    if (IsExpired(id))
    {
        return;
    }
    Scheduler::Event ev;
    ev.impl = id.PeekEventImpl();
    ev.key.m_ts = id.GetTs();
    ev.key.m_context = id.GetContext();
    ev.key.m_uid = id.GetUid();
    m_events->Remove(ev);
    --m_queued;
    ev.impl->Cancel(); // the caller's EventId now reads as expired
    ev.impl->Unref();  // the scheduler's reference
}

void
MlnetSimulatorImpl::Cancel(const EventId& id)
{
    if (!IsExpired(id))
    {
        id.PeekEventImpl()->Cancel();
    }
}

bool
MlnetSimulatorImpl::IsExpired(const EventId& id) const
{
    EventImpl* impl = id.PeekEventImpl();
    if (impl == nullptr || impl->IsCancelled())
    {
        return true;
    }
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        // Pending until Destroy() runs it (or Remove() takes it out).
        return std::find(m_destroyEvents.begin(), m_destroyEvents.end(), id) ==
               m_destroyEvents.end();
    }
    // Expired once it ran earlier, or it is the current event.
    return HasPassed(id.GetTs(), id.GetUid()) ||
           (id.GetTs() == m_currentTs && id.GetUid() == m_currentUid);
}

Time
MlnetSimulatorImpl::GetMaximumSimulationTime() const
{
    return TimeStep(std::numeric_limits<int64_t>::max());
}

uint32_t
MlnetSimulatorImpl::GetContext() const
{
    return m_currentContext;
}

namespace
{
/// The registered MlnetSimulatorImpl::ReservationCounter functions (never destroyed: model
/// objects may outlive static destruction).
std::vector<MlnetSimulatorImpl::ReservationCounter>&
ReservationCounters()
{
    static auto* counters = new std::vector<MlnetSimulatorImpl::ReservationCounter>();
    return *counters;
}
} // namespace

void
MlnetSimulatorImpl::AddReservationCounter(ReservationCounter counter)
{
    ReservationCounters().push_back(counter);
}

uint64_t
MlnetSimulatorImpl::GetEventCount() const
{
    // A reserved uid never scheduled is an event ns-3's engine runs (and that would have done
    // nothing): it counts once its time has passed, so both engines give the same count.
    uint64_t ahead = 0;
    for (ReservationCounter count : ReservationCounters())
    {
        ahead += count(*this);
    }
    return m_eventCount + m_reservedOpen - ahead;
}

} // namespace ns3
