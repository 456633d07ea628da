/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// mlnet's event schedulers (4-ary heap, timing wheel): the (time stamp, uid) order of every ns-3
// scheduler under random inserts, removals of the next event and removals of arbitrary events,
// and the same order as ns-3's PriorityQueueScheduler inside a simulation.

#include "ns3/core-module.h"
#include "ns3/quad-heap-scheduler.h"
#include "ns3/timing-wheel-scheduler.h"

#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <utility>

using namespace ns3;

namespace
{
using Key = std::pair<uint64_t, uint32_t>; //!< (time stamp, uid): the order events must leave in

Scheduler::Event
MakeEv(uint64_t ts, uint32_t uid)
{
    Scheduler::Event ev;
    ev.impl = nullptr;
    ev.key.m_ts = ts;
    ev.key.m_uid = uid;
    ev.key.m_context = uid * 7u; // carried through untouched
    return ev;
}

/// Schedules itself `left` more times, logging (time, id) of every execution.
void
Chain(std::vector<std::pair<int64_t, uint32_t>>* log, uint32_t id, uint32_t left, uint32_t seed)
{
    log->emplace_back(Simulator::Now().GetTimeStep(), id);
    if (left == 0)
    {
        return;
    }
    // Delays from a tiny set, so that many events share a time stamp.
    uint32_t d = (seed * 2654435761u + left) % 4;
    Simulator::Schedule(NanoSeconds(d), &Chain, log, id, left - 1, seed * 31u + 7u);
    if (left % 5 == 0)
    {
        Simulator::ScheduleWithContext(id, NanoSeconds(d), &Chain, log, id + 1000, left / 5, seed);
    }
}

std::vector<std::pair<int64_t, uint32_t>>
RunChains(const std::string& scheduler)
{
    ObjectFactory f;
    f.SetTypeId(scheduler);
    Simulator::SetScheduler(f);
    std::vector<std::pair<int64_t, uint32_t>> log;
    for (uint32_t id = 0; id < 64; ++id)
    {
        Simulator::Schedule(NanoSeconds(id % 3), &Chain, &log, id, 40, id + 1);
    }
    EventId victim = Simulator::Schedule(NanoSeconds(2), &Chain, &log, 999u, 0u, 1u);
    Simulator::Remove(victim);
    Simulator::Run();
    Simulator::Destroy();
    return log;
}
} // namespace

/// Random inserts (many equal time stamps), removals of the next event and of arbitrary events,
/// checked against a std::map; size() gives the scheduler's own count of pending events.
template <class S>
void
CheckRandomOrder(Ptr<S> s)
{
    std::mt19937_64 rng(12345);
    std::map<Key, uint32_t> ref; // key -> context
    uint32_t uid = 4;
    uint64_t now = 0;
    uint64_t removedNext = 0;
    uint64_t removedAny = 0;
    for (int step = 0; step < 200000; ++step)
    {
        uint64_t r = rng() % 100;
        if (r < 50 || ref.empty())
        {
            // Mostly a small range (many equal time stamps), sometimes far ahead.
            uint64_t ts = now + (rng() % 8 == 0 ? rng() % (uint64_t(1) << 40) : rng() % 64);
            s->Insert(MakeEv(ts, uid));
            ref.emplace(Key{ts, uid}, uid * 7u);
            uid++;
        }
        else if (r < 95)
        {
            Scheduler::Event peek = s->PeekNext();
            Scheduler::Event ev = s->RemoveNext();
            auto it = ref.begin();
            REQUIRE(peek.key.m_uid == ev.key.m_uid);
            REQUIRE(ev.key.m_ts == it->first.first);
            REQUIRE(ev.key.m_uid == it->first.second);
            REQUIRE(ev.key.m_context == it->second);
            now = ev.key.m_ts; // a simulator never schedules before now
            ref.erase(it);
            removedNext++;
        }
        else
        {
            auto it = ref.begin();
            std::advance(it, rng() % ref.size());
            s->Remove(MakeEv(it->first.first, it->first.second));
            ref.erase(it);
            removedAny++;
        }
        REQUIRE(s->GetSize() == ref.size());
        REQUIRE(s->IsEmpty() == ref.empty());
    }
    CHECK(removedNext > 50000);
    CHECK(removedAny > 5000);
    while (!ref.empty())
    {
        Scheduler::Event ev = s->RemoveNext();
        REQUIRE(Key{ev.key.m_ts, ev.key.m_uid} == ref.begin()->first);
        ref.erase(ref.begin());
    }
    CHECK(s->IsEmpty());
}

TEST_CASE("helper: the 4-ary heap scheduler returns events by (time, uid) under random inserts "
          "and removals",
          "[helper]")
{
    CheckRandomOrder(CreateObject<QuadHeapScheduler>());
}

TEST_CASE("helper: the timing wheel scheduler returns events by (time, uid) under random inserts "
          "and removals, whatever its width and size",
          "[helper]")
{
    // The default wheel; one time step per bucket with the smallest wheel (most events in the
    // overflow heap, many slot advances); a bucket wider than most delays (long sorted runs).
    CheckRandomOrder(CreateObject<TimingWheelScheduler>());
    CheckRandomOrder(CreateObjectWithAttributes<TimingWheelScheduler>("BucketWidth",
                                                                      TimeValue(TimeStep(1)),
                                                                      "Buckets",
                                                                      UintegerValue(64)));
    CheckRandomOrder(CreateObjectWithAttributes<TimingWheelScheduler>("BucketWidth",
                                                                      TimeValue(TimeStep(100)),
                                                                      "Buckets",
                                                                      UintegerValue(256)));
}

TEST_CASE("helper: the timing wheel keeps the (time, uid) order while it adapts its width",
          "[helper]")
{
    // A decision every 16 events: the random mix (1/8 of inserts far ahead) makes the
    // wheel widen and narrow over and over, re-bucketing pending events each time.
    for (int64_t w : {1, 32, 100000})
    {
        CheckRandomOrder(CreateObjectWithAttributes<TimingWheelScheduler>("BucketWidth",
                                                                          TimeValue(TimeStep(w)),
                                                                          "Buckets",
                                                                          UintegerValue(64),
                                                                          "AdaptInterval",
                                                                          UintegerValue(16)));
    }
}

namespace
{
/**
 * Keep `pending` events in the scheduler, each removal replaced by an event `delay` plus up to
 * `spread` steps later; check the order against a std::map all along.
 * \return the width the wheel settled at
 */
Time
RunSteady(Ptr<TimingWheelScheduler> s, uint32_t pending, uint64_t delay, uint64_t spread)
{
    std::mt19937_64 rng(7);
    std::map<Key, uint32_t> ref;
    uint32_t uid = 1;
    for (uint32_t i = 0; i < pending; ++i)
    {
        uint64_t ts = delay + rng() % spread;
        s->Insert(MakeEv(ts, uid));
        ref.emplace(Key{ts, uid}, uid * 7u);
        uid++;
    }
    for (int step = 0; step < 400000; ++step)
    {
        Scheduler::Event ev = s->RemoveNext();
        REQUIRE(Key{ev.key.m_ts, ev.key.m_uid} == ref.begin()->first);
        ref.erase(ref.begin());
        uint64_t ts = ev.key.m_ts + delay + rng() % spread;
        s->Insert(MakeEv(ts, uid));
        ref.emplace(Key{ts, uid}, uid * 7u);
        uid++;
    }
    return s->GetCurrentWidth();
}
} // namespace

TEST_CASE("helper: the timing wheel narrows crowded slots and widens a wheel too short for "
          "the delays",
          "[helper]")
{
    // ~16 events per time step: from 32 steps per bucket down to one.
    auto crowded = CreateObjectWithAttributes<TimingWheelScheduler>("BucketWidth",
                                                                    TimeValue(TimeStep(32)),
                                                                    "Buckets",
                                                                    UintegerValue(1024));
    CHECK(RunSteady(crowded, 1024, 0, 64) == TimeStep(1));
    // Every event 2^20 steps ahead: the wheel must span that, 2^11 steps per bucket or more.
    auto sparse = CreateObjectWithAttributes<TimingWheelScheduler>("BucketWidth",
                                                                   TimeValue(TimeStep(32)),
                                                                   "Buckets",
                                                                   UintegerValue(1024));
    Time w = RunSteady(sparse, 8, uint64_t(1) << 20, 1000);
    CHECK(w >= TimeStep(2048));
    CHECK(w <= TimeStep(4096)); // and no wider than it takes
    // AdaptWidth off: the width stays.
    auto fixed = CreateObjectWithAttributes<TimingWheelScheduler>("BucketWidth",
                                                                  TimeValue(TimeStep(32)),
                                                                  "AdaptWidth",
                                                                  BooleanValue(false));
    CHECK(RunSteady(fixed, 1024, 0, 64) == TimeStep(32));
}

TEST_CASE("helper: the timing wheel scheduler rejects a bucket count that is not a power of two",
          "[helper]")
{
    CHECK_THROWS_WITH(
        CreateObjectWithAttributes<TimingWheelScheduler>("Buckets", UintegerValue(100)),
        Catch::Contains("Buckets must be a power of two in [64, 65536], got 100"));
}

TEST_CASE("helper: the timing wheel honours BucketWidth and Buckets set after construction "
          "while it is empty, and rejects them with events pending",
          "[helper]")
{
    // Set after construction (SetAttribute, as Config::Set would): the wheel is sized again.
    auto wheel =
        CreateObjectWithAttributes<TimingWheelScheduler>("AdaptWidth", BooleanValue(false));
    REQUIRE(wheel->GetCurrentWidth() == NanoSeconds(32)); // the default
    wheel->SetAttribute("BucketWidth", TimeValue(TimeStep(1)));
    wheel->SetAttribute("Buckets", UintegerValue(64));
    CHECK(wheel->GetCurrentWidth() == TimeStep(1));
    UintegerValue buckets;
    wheel->GetAttribute("Buckets", buckets);
    CHECK(buckets.Get() == 64);
    CHECK_THROWS_WITH(wheel->SetAttribute("Buckets", UintegerValue(100)),
                      Catch::Contains("Buckets must be a power of two in [64, 65536], got 100"));
    wheel->GetAttribute("Buckets", buckets);
    CHECK(buckets.Get() == 64); // unchanged
    // The resized wheel keeps the order (a one-step, 64-bucket wheel: mostly overflow).
    CheckRandomOrder(wheel);
    CHECK(wheel->GetCurrentWidth() == TimeStep(1));

    // With an event pending the size cannot change: a clear error, and the wheel as it was.
    auto busy = CreateObject<TimingWheelScheduler>();
    busy->Insert(MakeEv(1000, 1));
    busy->Insert(MakeEv(5000, 2));
    CHECK_THROWS_WITH(busy->SetAttribute("BucketWidth", TimeValue(TimeStep(8))),
                      Catch::Contains("BucketWidth can be set only while no event is pending") &&
                          Catch::Contains("2 events are pending"));
    CHECK_THROWS_WITH(busy->SetAttribute("Buckets", UintegerValue(64)),
                      Catch::Contains("Buckets can be set only while no event is pending"));
    CHECK(busy->GetCurrentWidth() == NanoSeconds(32));
    CHECK(busy->RemoveNext().key.m_uid == 1);
    CHECK(busy->RemoveNext().key.m_uid == 2);
    // Drained: it may be sized again, and carries on from the time it reached.
    busy->SetAttribute("BucketWidth", TimeValue(TimeStep(4)));
    CHECK(busy->GetCurrentWidth() == TimeStep(4));
    busy->Insert(MakeEv(5003, 4));
    busy->Insert(MakeEv(5000, 3));
    busy->Insert(MakeEv(900000, 5)); // beyond the wheel
    CHECK(busy->RemoveNext().key.m_uid == 3);
    CHECK(busy->RemoveNext().key.m_uid == 4);
    CHECK(busy->RemoveNext().key.m_uid == 5);
    CHECK(busy->IsEmpty());
}

TEST_CASE("helper: mlnet's schedulers run a simulation's events in the same order as ns-3's "
          "PriorityQueueScheduler",
          "[helper]")
{
    auto ref = RunChains("ns3::PriorityQueueScheduler");
    // 64 chains of 41 events, plus the chains they spawn; the removed event never runs.
    REQUIRE(ref.size() > 64 * 41);
    for (const auto& e : ref)
    {
        REQUIRE(e.second != 999u);
    }
    for (const std::string t : {"ns3::QuadHeapScheduler", "ns3::TimingWheelScheduler"})
    {
        INFO(t);
        CHECK(RunChains(t) == ref);
    }
}
