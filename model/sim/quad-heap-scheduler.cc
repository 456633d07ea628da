/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quad-heap-scheduler.h"

#include "ns3/assert.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuadHeapScheduler");
NS_OBJECT_ENSURE_REGISTERED(QuadHeapScheduler);

TypeId
QuadHeapScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QuadHeapScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<QuadHeapScheduler>();
    return tid;
}

QuadHeapScheduler::QuadHeapScheduler()
{
    NS_LOG_FUNCTION(this);
    m_heap.reserve(256);
}

QuadHeapScheduler::~QuadHeapScheduler()
{
    NS_LOG_FUNCTION(this);
}

void
QuadHeapScheduler::SiftUp(std::size_t i, const Event& ev)
{
    while (i > 0)
    {
        std::size_t parent = (i - 1) / kArity;
        if (!(ev < m_heap[parent]))
        {
            break;
        }
        m_heap[i] = m_heap[parent];
        i = parent;
    }
    m_heap[i] = ev;
}

void
QuadHeapScheduler::SiftDown(std::size_t i, const Event& ev)
{
    const std::size_t n = m_heap.size();
    while (true)
    {
        std::size_t first = kArity * i + 1;
        if (first >= n)
        {
            break;
        }
        std::size_t best = first;
        std::size_t last = first + kArity < n ? first + kArity : n;
        for (std::size_t c = first + 1; c < last; ++c)
        {
            if (m_heap[c] < m_heap[best])
            {
                best = c;
            }
        }
        if (!(m_heap[best] < ev))
        {
            break;
        }
        m_heap[i] = m_heap[best];
        i = best;
    }
    m_heap[i] = ev;
}

void
QuadHeapScheduler::Insert(const Event& ev)
{
    m_heap.emplace_back();
    SiftUp(m_heap.size() - 1, ev);
}

bool
QuadHeapScheduler::IsEmpty() const
{
    return m_heap.empty();
}

Scheduler::Event
QuadHeapScheduler::PeekNext() const
{
    NS_ASSERT_MSG(!m_heap.empty(), "QuadHeapScheduler::PeekNext: no event pending");
    return m_heap.front();
}

Scheduler::Event
QuadHeapScheduler::RemoveNext()
{
    NS_ASSERT_MSG(!m_heap.empty(), "QuadHeapScheduler::RemoveNext: no event pending");
    Event next = m_heap.front();
    Event last = m_heap.back();
    m_heap.pop_back();
    if (!m_heap.empty())
    {
        SiftDown(0, last);
    }
    return next;
}

void
QuadHeapScheduler::Remove(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    for (std::size_t i = 0; i < m_heap.size(); ++i)
    {
        if (m_heap[i].key.m_uid != ev.key.m_uid)
        {
            continue;
        }
        NS_ASSERT(m_heap[i].impl == ev.impl);
        Event last = m_heap.back();
        m_heap.pop_back();
        if (i == m_heap.size())
        {
            return; // it was the last element
        }
        if (i > 0 && last < m_heap[(i - 1) / kArity])
        {
            SiftUp(i, last);
        }
        else
        {
            SiftDown(i, last);
        }
        return;
    }
    NS_ASSERT_MSG(false, "QuadHeapScheduler::Remove: event uid " << ev.key.m_uid << " not pending");
}

std::size_t
QuadHeapScheduler::GetSize() const
{
    return m_heap.size();
}

} // namespace ns3
