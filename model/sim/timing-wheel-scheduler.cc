/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "timing-wheel-scheduler.h"

#include "ns3/assert.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TimingWheelScheduler");
NS_OBJECT_ENSURE_REGISTERED(TimingWheelScheduler);

TypeId
TimingWheelScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TimingWheelScheduler")
            .SetParent<Scheduler>()
            .SetGroupName("Mlnet")
            .AddConstructor<TimingWheelScheduler>()
            .AddAttribute("BucketWidth",
                          "Time covered by one bucket of the wheel (rounded down to a power of "
                          "two of time steps; > 0). Same results for any width; speed is best "
                          "with a few events per bucket",
                          TimeValue(NanoSeconds(32)),
                          MakeTimeAccessor(&TimingWheelScheduler::SetBucketWidth,
                                           &TimingWheelScheduler::GetBucketWidth),
                          MakeTimeChecker(TimeStep(1)))
            .AddAttribute("Buckets",
                          "Buckets in the wheel (a power of two in [64, 65536]): the wheel "
                          "spans Buckets x BucketWidth; later events wait in a heap",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&TimingWheelScheduler::SetBuckets,
                                               &TimingWheelScheduler::GetBuckets),
                          MakeUintegerChecker<uint32_t>(64, 65536))
            .AddAttribute("AdaptWidth",
                          "Adapt the bucket width as the simulation runs (BucketWidth is then "
                          "the starting width): halve it while slots average more than 8 "
                          "events, double it while more than 1/8 of events go past the wheel. "
                          "Same results either way; speed only",
                          BooleanValue(true),
                          MakeBooleanAccessor(&TimingWheelScheduler::m_adapt),
                          MakeBooleanChecker())
            .AddAttribute("AdaptInterval",
                          "Events between two decisions of AdaptWidth (in [16, 2^30])",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&TimingWheelScheduler::m_adaptEvery),
                          MakeUintegerChecker<uint32_t>(16, uint32_t(1) << 30));
    return tid;
}

TimingWheelScheduler::TimingWheelScheduler()
    : m_overflow(CreateObject<QuadHeapScheduler>())
{
    NS_LOG_FUNCTION(this);
}

TimingWheelScheduler::~TimingWheelScheduler()
{
    NS_LOG_FUNCTION(this);
}

void
TimingWheelScheduler::NotifyConstructionCompleted()
{
    Scheduler::NotifyConstructionCompleted();
    Configure();
}

void
TimingWheelScheduler::SetBucketWidth(Time width)
{
    CheckReconfigurable("BucketWidth");
    m_width = width;
    Reconfigure();
}

Time
TimingWheelScheduler::GetBucketWidth() const
{
    return m_width;
}

void
TimingWheelScheduler::SetBuckets(uint32_t buckets)
{
    CheckReconfigurable("Buckets");
    const uint32_t old = m_nBuckets;
    m_nBuckets = buckets;
    try
    {
        Reconfigure();
    }
    catch (const std::invalid_argument&)
    {
        m_nBuckets = old; // the wheel stays as it was
        throw;
    }
}

uint32_t
TimingWheelScheduler::GetBuckets() const
{
    return m_nBuckets;
}

void
TimingWheelScheduler::CheckReconfigurable(const char* attribute) const
{
    if (m_configured && m_size != 0)
    {
        throw std::invalid_argument(std::string("TimingWheelScheduler: ") + attribute +
                                    " can be set only while no event is pending (at "
                                    "construction, or on an empty wheel); " +
                                    std::to_string(m_size) + " events are pending");
    }
}

void
TimingWheelScheduler::Reconfigure()
{
    if (!m_configured)
    {
        return; // during construction: NotifyConstructionCompleted() sizes the wheel
    }
    // An empty wheel, sized again as at construction from the time it has reached.
    Configure();
    m_run.clear();
    m_head = 0;
    m_slot = m_lastTs >> m_shift;
    m_overflowSlot = kNoSlot;
    m_minShift = 0;
    m_advances = 0;
    m_runEvents = 0;
    m_inserts = 0;
    m_toHeap = 0;
}

void
TimingWheelScheduler::Configure()
{
    if ((m_nBuckets & (m_nBuckets - 1)) != 0)
    {
        throw std::invalid_argument("TimingWheelScheduler: Buckets must be a power of two in "
                                    "[64, 65536], got " +
                                    std::to_string(m_nBuckets));
    }
    uint64_t steps = std::max<int64_t>(m_width.GetTimeStep(), 1);
    m_shift = 63u - unsigned(__builtin_clzll(steps));
    m_mask = m_nBuckets - 1;
    m_buckets.assign(m_nBuckets, std::vector<Event>());
    m_occupied.assign(m_nBuckets / 64, 0);
    m_configured = true;
    NS_LOG_LOGIC("slot width 2^" << m_shift << " steps, " << m_nBuckets << " buckets");
}

void
TimingWheelScheduler::Mark(std::size_t b)
{
    m_occupied[b >> 6] |= uint64_t(1) << (b & 63);
}

void
TimingWheelScheduler::Unmark(std::size_t b)
{
    m_occupied[b >> 6] &= ~(uint64_t(1) << (b & 63));
}

void
TimingWheelScheduler::InsertCurrent(const Event& ev)
{
    if (m_head == m_run.size() || m_run.back() < ev)
    {
        m_run.push_back(ev); // the common case: later than everything pending in this slot
        return;
    }
    auto pos = std::upper_bound(m_run.begin() + m_head, m_run.end(), ev);
    m_run.insert(pos, ev);
}

void
TimingWheelScheduler::Place(const Event& ev)
{
    uint64_t slot = ev.key.m_ts >> m_shift;
    if (slot == m_slot)
    {
        InsertCurrent(ev);
    }
    else if (slot - m_slot <= m_mask)
    {
        std::size_t b = slot & m_mask;
        m_buckets[b].push_back(ev);
        Mark(b);
    }
    else
    {
        m_overflow->Insert(ev);
        m_overflowSlot = std::min(m_overflowSlot, slot);
        m_toHeap++;
    }
}

void
TimingWheelScheduler::Insert(const Event& ev)
{
    NS_ASSERT_MSG(ev.key.m_ts >= m_lastTs,
                  "TimingWheelScheduler: event at " << ev.key.m_ts
                                                    << " before the last removed one");
    Place(ev);
    m_inserts++;
    m_size++;
}

bool
TimingWheelScheduler::IsEmpty() const
{
    return m_size == 0;
}

bool
TimingWheelScheduler::NextOccupied(uint64_t& slot) const
{
    const std::size_t words = m_occupied.size();
    const std::size_t start = (m_slot + 1) & m_mask; // buckets after the current slot, in order
    std::size_t w = start >> 6;
    uint64_t bits = m_occupied[w] & (~uint64_t(0) << (start & 63));
    for (std::size_t i = 0; i <= words; ++i)
    {
        if (bits != 0)
        {
            std::size_t b = (w << 6) + unsigned(__builtin_ctzll(bits));
            slot = m_slot + ((b - m_slot) & m_mask); // the slot of the wheel in bucket b
            return true;
        }
        w = (w + 1) % words;
        bits = m_occupied[w];
    }
    return false;
}

void
TimingWheelScheduler::Adapt()
{
    if (8 * m_toHeap > m_inserts && m_shift < kMaxShift)
    {
        // The wheel is too short for the delays scheduled: never this narrow again (so that
        // crowded slots and a short wheel do not make it swing between two widths).
        m_minShift = m_shift + 1;
        Rescale(m_shift + 1);
    }
    else if (m_runEvents > 8 * m_advances && 64 * m_toHeap < m_inserts && m_shift > m_minShift)
    {
        Rescale(m_shift - 1); // slots too crowded: long sorts
    }
    m_advances = 0;
    m_runEvents = 0;
    m_inserts = 0;
    m_toHeap = 0;
}

void
TimingWheelScheduler::Rescale(unsigned shift)
{
    NS_LOG_LOGIC("bucket width 2^" << m_shift << " -> 2^" << shift << " steps");
    std::vector<Event> pending;
    for (std::size_t w = 0; w < m_occupied.size(); ++w)
    {
        for (uint64_t bits = m_occupied[w]; bits != 0; bits &= bits - 1)
        {
            std::vector<Event>& v = m_buckets[(w << 6) + unsigned(__builtin_ctzll(bits))];
            pending.insert(pending.end(), v.begin(), v.end());
            v.clear();
        }
        m_occupied[w] = 0;
    }
    m_shift = shift;
    // Every pending event is at or after the last one removed: with the wheel one slot before
    // that one's, all of them go to buckets (or beyond the wheel) and Advance() resumes there.
    m_slot = (m_lastTs >> m_shift) - 1;
    UpdateOverflowSlot();
    for (const Event& ev : pending)
    {
        Place(ev);
    }
}

void
TimingWheelScheduler::Advance()
{
    if (m_adapt && m_runEvents >= m_adaptEvery)
    {
        Adapt();
    }
    m_run.clear();
    m_head = 0;
    uint64_t next = 0;
    m_slot = NextOccupied(next) ? std::min(next, m_overflowSlot) : m_overflowSlot;
    // The wheel now spans [m_slot, m_slot + Buckets): bring in what the overflow holds there.
    while (m_overflowSlot - m_slot <= m_mask)
    {
        Place(m_overflow->RemoveNext());
        UpdateOverflowSlot();
    }
    // The slot's bucket becomes the run (a swap: the vectors' capacities circulate), joined by
    // what the overflow placed directly in the run above, and is sorted once.
    std::size_t b = m_slot & m_mask;
    m_run.swap(m_buckets[b]);
    std::vector<Event>& fromOverflow = m_buckets[b];
    m_run.insert(m_run.end(), fromOverflow.begin(), fromOverflow.end());
    fromOverflow.clear();
    if (fromOverflow.capacity() > kKeptCapacity)
    {
        // A burst left a large array here: free it, so that bursts do not leave every bucket
        // holding the largest one's capacity.
        std::vector<Event>().swap(fromOverflow);
    }
    Unmark(b);
    m_advances++;
    m_runEvents += m_run.size();
    SortRun();
}

void
TimingWheelScheduler::SortRun()
{
    const std::size_t n = m_run.size();
    if (n > kInsertionSortMax)
    {
        std::sort(m_run.begin(), m_run.end());
        return;
    }
    // A slot holds a few events in a packet simulation: a plain insertion sort, inline.
    for (std::size_t i = 1; i < n; ++i)
    {
        Event ev = m_run[i];
        std::size_t j = i;
        while (j > 0 && ev < m_run[j - 1])
        {
            m_run[j] = m_run[j - 1];
            --j;
        }
        m_run[j] = ev;
    }
}

void
TimingWheelScheduler::UpdateOverflowSlot()
{
    m_overflowSlot = m_overflow->IsEmpty() ? kNoSlot : m_overflow->PeekNext().key.m_ts >> m_shift;
}

Scheduler::Event
TimingWheelScheduler::RemoveNext()
{
    NS_ASSERT_MSG(m_size > 0, "TimingWheelScheduler::RemoveNext: no event pending");
    if (m_head == m_run.size())
    {
        Advance();
    }
    const Event& ev = m_run[m_head++];
    if (m_head < m_run.size())
    {
        // The event after this one is known: start loading its object (its vtable and the
        // model object it points to) while this one runs.
        __builtin_prefetch(m_run[m_head].impl);
    }
    m_size--;
    m_lastTs = ev.key.m_ts;
    return ev;
}

Scheduler::Event
TimingWheelScheduler::PeekNext() const
{
    NS_ASSERT_MSG(m_size > 0, "TimingWheelScheduler::PeekNext: no event pending");
    if (m_head < m_run.size())
    {
        return m_run[m_head];
    }
    uint64_t slot = 0;
    if (!NextOccupied(slot))
    {
        return m_overflow->PeekNext();
    }
    // Overflow events are all beyond the wheel, hence after every bucket's events.
    const std::vector<Event>& v = m_buckets[slot & m_mask];
    return *std::min_element(v.begin(), v.end());
}

void
TimingWheelScheduler::Remove(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    auto same = [&ev](const Event& e) { return e.key.m_uid == ev.key.m_uid; };
    uint64_t slot = ev.key.m_ts >> m_shift;
    if (slot == m_slot)
    {
        auto it = std::find_if(m_run.begin() + m_head, m_run.end(), same);
        NS_ASSERT_MSG(it != m_run.end(), "TimingWheelScheduler::Remove: event not pending");
        m_run.erase(it);
    }
    else if (slot - m_slot <= m_mask)
    {
        std::size_t b = slot & m_mask;
        std::vector<Event>& v = m_buckets[b];
        auto it = std::find_if(v.begin(), v.end(), same);
        NS_ASSERT_MSG(it != v.end(), "TimingWheelScheduler::Remove: event not pending");
        *it = v.back();
        v.pop_back();
        if (v.empty())
        {
            Unmark(b);
        }
    }
    else
    {
        m_overflow->Remove(ev);
        UpdateOverflowSlot();
    }
    m_size--;
}

std::size_t
TimingWheelScheduler::GetSize() const
{
    return m_size;
}

Time
TimingWheelScheduler::GetCurrentWidth() const
{
    return TimeStep(int64_t(1) << m_shift);
}

} // namespace ns3
