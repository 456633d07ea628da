/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-egress-scheduler.h"

namespace ns3
{

int
FabricEgressScheduler::SelectDwrr(uint8_t pausedMask)
{
    while (true)
    {
        ClassQueue& cur = m_queues[m_dwrrNext];
        bool eligible = !cur.q.Empty() && !((pausedMask >> m_dwrrNext) & 1u);
        if (eligible && cur.deficit >= int64_t(cur.q.Front().frame.GetSize()))
        {
            cur.deficit -= cur.q.Front().frame.GetSize();
            return m_dwrrNext;
        }
        if (!eligible)
        {
            cur.deficit = 0;
        }
        m_dwrrNext = uint8_t((m_dwrrNext + 1) % kNumClasses);
        ClassQueue& next = m_queues[m_dwrrNext];
        if (!next.q.Empty() && !((pausedMask >> m_dwrrNext) & 1u))
        {
            next.deficit += m_dwrrQuantum;
        }
    }
}

void
FabricEgressScheduler::Clear()
{
    for (auto& q : m_queues)
    {
        q.q.Clear();
    }
}

} // namespace ns3
