/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_QUAD_HEAP_SCHEDULER_H
#define MLNET_QUAD_HEAP_SCHEDULER_H

#include "ns3/scheduler.h"

#include <cstddef>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief An ns-3 event scheduler on an implicit 4-ary min-heap in one contiguous array.
 *
 * Events leave in the order every ns-3 scheduler gives them: by time stamp, then by the uid
 * the simulator assigned when the event was scheduled, so a run's results do not depend on the
 * choice. Compared with ns-3's binary heaps (HeapScheduler, and PriorityQueueScheduler's
 * std::priority_queue), a node's four children share one or two cache lines and the tree is
 * half as deep: RemoveNext() moves the hole down log4(n) levels instead of log2(n), for three
 * more key comparisons per level, and Insert() of an event later than most pending ones (the
 * common case in a packet simulation) stops after one or two comparisons. No allocation per
 * event: the array grows by doubling and never shrinks while the simulator lives. Nothing on
 * the per-event path logs (NS_LOG_FUNCTION would cost a check per call); Remove() is linear in
 * the number of pending events, as in HeapScheduler (ns-3 calls it only for
 * Simulator::Remove()).
 *
 * Select it with the "SchedulerType" GlobalValue
 * (`--SchedulerType=ns3::QuadHeapScheduler`, or EventSchedulerHelper).
 */
class QuadHeapScheduler final : public Scheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    QuadHeapScheduler();
    ~QuadHeapScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /// \return the number of pending events
    std::size_t GetSize() const;

  private:
    /// Children per node.
    static constexpr std::size_t kArity = 4;

    /**
     * Move ev up from the hole at i to its place and store it there.
     * \param i the hole \param ev the event to place
     */
    void SiftUp(std::size_t i, const Event& ev);
    /**
     * Move ev down from the hole at i to its place and store it there.
     * \param i the hole \param ev the event to place
     */
    void SiftDown(std::size_t i, const Event& ev);

    std::vector<Event> m_heap; //!< the heap, root at index 0, children of i at 4i+1 .. 4i+4
};

} // namespace ns3

#endif /* MLNET_QUAD_HEAP_SCHEDULER_H */
