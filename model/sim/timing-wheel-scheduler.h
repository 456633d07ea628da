/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_TIMING_WHEEL_SCHEDULER_H
#define MLNET_TIMING_WHEEL_SCHEDULER_H

#include "quad-heap-scheduler.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/scheduler.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief An ns-3 event scheduler on a timing wheel: a ring of time buckets sorted when they
 * come due, with a heap for the events beyond the ring.
 *
 * Events leave in the order every ns-3 scheduler gives them: by time stamp, then by the uid
 * the simulator assigned when the event was scheduled, so a run's results do not depend on the
 * choice. Time is cut into slots of BucketWidth (rounded down to a power of two of time steps);
 * the wheel holds the Buckets slots from the current one on. An event in a future slot of the
 * wheel is appended to its bucket (no comparison); when the current slot is exhausted, the next
 * non-empty one (found with a bitmap) is sorted once and consumed in order; an event for the
 * current slot is inserted into its sorted run (usually at its end: later than everything
 * pending there). Events beyond the wheel wait in a 4-ary heap (QuadHeapScheduler) and move to
 * their bucket when the wheel reaches them. A packet simulation schedules almost everything a
 * serialisation or a propagation delay ahead, so its events cost a bitmap lookup, an append
 * and a share of one small sort, instead of a binary heap's log2(n) levels of comparisons and
 * moves over ~10^3 pending events. PeekNext() moves nothing; Remove() searches one bucket.
 * Events must not be inserted before the last one removed (a simulator never does), checked
 * by NS_ASSERT.
 *
 * The best width gives a few events per slot: many make every slot a long sort, few make the
 * wheel short (events pass it into the heap). With AdaptWidth (the default) the wheel finds it
 * as the simulation runs: every AdaptInterval events it halves the width while sorted
 * runs average more than 8 events (and under 1/64 of insertions went to the heap), and doubles
 * it while more than 1/8 of insertions went to the heap (and then never narrows below that
 * width again, so that it settles instead of swinging); the pending events are re-bucketed
 * (when a slot is exhausted, so the order is untouched). BucketWidth is then the starting
 * width. A 100 Gb/s fat-tree packet simulation settles at a few nanoseconds.
 *
 * BucketWidth and Buckets may be set after construction while no event is pending (the wheel
 * is sized again); with events pending, setting them throws std::invalid_argument. AdaptWidth
 * and AdaptInterval take effect at the next decision.
 * Select it with the "SchedulerType" GlobalValue
 * (`--SchedulerType=ns3::TimingWheelScheduler`, or EventSchedulerHelper).
 */
class TimingWheelScheduler final : public Scheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    TimingWheelScheduler();
    ~TimingWheelScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /// \return the number of pending events
    std::size_t GetSize() const;

    /// \return the current bucket width (AdaptWidth may have changed it from BucketWidth)
    Time GetCurrentWidth() const;

  protected:
    void NotifyConstructionCompleted() override;

  private:
    /// Events a bucket's array may keep room for once emptied (more is freed).
    static constexpr std::size_t kKeptCapacity = 64;
    /// Runs up to this long are sorted by insertion, longer ones by std::sort.
    static constexpr std::size_t kInsertionSortMax = 16;
    /// m_overflowSlot when the overflow heap is empty (after every slot).
    static constexpr uint64_t kNoSlot = ~uint64_t(0);
    /// AdaptWidth widens to at most 2^kMaxShift time steps per bucket.
    static constexpr unsigned kMaxShift = 40;

    /// Size the wheel from the attributes (at construction, or again on an empty wheel).
    void Configure();
    /// \param width the BucketWidth attribute (see CheckReconfigurable)
    void SetBucketWidth(Time width);
    /// \return the BucketWidth attribute
    Time GetBucketWidth() const;
    /// \param buckets the Buckets attribute (see CheckReconfigurable)
    void SetBuckets(uint32_t buckets);
    /// \return the Buckets attribute
    uint32_t GetBuckets() const;
    /**
     * Throw std::invalid_argument naming the attribute if the wheel was sized and holds events
     * (its size cannot change under them).
     * \param attribute the attribute being set
     */
    void CheckReconfigurable(const char* attribute) const;
    /// After construction: size the (empty) wheel again from the attributes.
    void Reconfigure();
    /// \param ev insert ev into the current slot's sorted run
    void InsertCurrent(const Event& ev);
    /// \param ev put ev in its bucket or, beyond the wheel, in the overflow heap
    void Place(const Event& ev);
    /**
     * \param[out] slot the first non-empty slot after the current one, within the wheel
     * \return false if every bucket is empty
     */
    bool NextOccupied(uint64_t& slot) const;
    /// The current run is exhausted: make the slot of the next event current and sort it.
    void Advance();
    /// Sort the current run by (time, uid).
    void SortRun();
    /// Every AdaptInterval events: halve or double the width (see the class comment).
    void Adapt();
    /**
     * Change the width (the current run must be exhausted): re-bucket every pending event.
     * \param shift the new width, 2^shift time steps
     */
    void Rescale(unsigned shift);
    /// Set m_overflowSlot from the overflow heap's earliest event.
    void UpdateOverflowSlot();
    /// \param b mark bucket b non-empty
    void Mark(std::size_t b);
    /// \param b mark bucket b empty
    void Unmark(std::size_t b);

    Time m_width;             //!< BucketWidth attribute
    uint32_t m_nBuckets;      //!< Buckets attribute
    bool m_adapt;             //!< AdaptWidth attribute
    uint32_t m_adaptEvery;    //!< AdaptInterval attribute
    bool m_configured{false}; //!< Configure() ran (construction completed)
    uint64_t m_advances{0};   //!< slot advances since the last Adapt()
    uint64_t m_runEvents{0};  //!< events in the runs sorted since then
    uint64_t m_inserts{0};    //!< insertions since then
    uint64_t m_toHeap{0};     //!< of which beyond the wheel
    unsigned m_minShift{0};   //!< AdaptWidth narrows no further (once the wheel was too short)

    unsigned m_shift{0};                       //!< slot = time stamp >> m_shift
    uint64_t m_mask{0};                        //!< bucket = slot & m_mask
    std::vector<std::vector<Event>> m_buckets; //!< future slots of the wheel, unsorted
    std::vector<uint64_t> m_occupied;          //!< bit b: bucket b is non-empty
    std::vector<Event> m_run;                  //!< the current slot's events, sorted
    std::size_t m_head{0};                     //!< next event of m_run
    uint64_t m_slot{0};                        //!< the current slot
    Ptr<QuadHeapScheduler> m_overflow;         //!< events at or beyond m_slot + Buckets
    uint64_t m_overflowSlot{kNoSlot};          //!< slot of its earliest event
    std::size_t m_size{0};                     //!< pending events
    uint64_t m_lastTs{0};                      //!< time stamp of the last removed event
};

} // namespace ns3

#endif /* MLNET_TIMING_WHEEL_SCHEDULER_H */
