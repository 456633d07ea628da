/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ReusableTimer against what it replaces (an EventId, Simulator::Schedule and EventId::Cancel):
// the same script gives the same firings, the same order among other events at the same time,
// the same answers of IsPending/GetTs and the same executed-event count, under
// MlnetSimulatorImpl (the reusable event) and DefaultSimulatorImpl (the fallback); and a
// pending expiry dropped by Simulator::Destroy() reads as not pending; under MlnetSimulatorImpl a
// Run() out of events drops the idle, replaced or cancelled expiries left (SetIdle).

#include "common/simulator-impl-guard.h"

#include "ns3/core-module.h"
#include "ns3/reusable-timer.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

using namespace ns3;
using mlnettest::ImplGuard;

namespace
{
std::vector<std::string> g_log;

void
Log(std::string tag)
{
    g_log.push_back(tag + "@" + std::to_string(Simulator::Now().GetNanoSeconds()));
}

/// The timer under test, behind one interface: the reference (EventId) or ReusableTimer.
struct AnyTimer
{
    virtual ~AnyTimer() = default;
    virtual void Schedule(Time delay) = 0;
    virtual void Cancel() = 0;
    virtual bool IsPending() const = 0;
    virtual int64_t GetTsStep() const = 0;
    uint32_t fired{0};
    uint32_t rearm{0}; //!< re-arm this many more times from the expiry itself (every 3 ns)

    void Fire()
    {
        ++fired;
        Log("fire");
        g_log.push_back("pendingInFire=" + std::to_string(IsPending()));
        if (rearm > 0)
        {
            --rearm;
            Schedule(NanoSeconds(3));
        }
    }
};

struct EventIdTimer : AnyTimer
{
    EventId id;

    void Schedule(Time delay) override
    {
        id.Cancel();
        id = Simulator::Schedule(delay, &EventIdTimer::Fire, this);
    }

    void Cancel() override
    {
        id.Cancel();
    }

    bool IsPending() const override
    {
        return !id.IsExpired();
    }

    int64_t GetTsStep() const override
    {
        return int64_t(id.GetTs());
    }
};

struct LeanTimer : AnyTimer
{
    ReusableTimer timer;

    LeanTimer()
    {
        timer.Bind<AnyTimer, &AnyTimer::Fire>(this);
    }

    void Schedule(Time delay) override
    {
        timer.Schedule(delay);
    }

    void Cancel() override
    {
        timer.Cancel();
    }

    bool IsPending() const override
    {
        return timer.IsPending();
    }

    int64_t GetTsStep() const override
    {
        return timer.GetTsStep();
    }
};

void
Probe(const AnyTimer* t, const std::string& tag)
{
    const bool pending = t->IsPending();
    g_log.push_back(tag + ".pending=" + std::to_string(pending));
    if (pending)
    {
        g_log.push_back(tag + ".ts=" + std::to_string(TimeStep(t->GetTsStep()).GetNanoSeconds()));
    }
}

/// The script: armed before Run() (outside any Run: ns-3's path), replaced by an earlier and a
/// later expiry, replaced at the same time with another event between the two schedulings,
/// cancelled, re-armed from its own expiry; other events at the same times show the order.
std::vector<std::string>
RunScript(const std::string& impl, bool lean)
{
    ImplGuard guard;
    guard.Use(impl);
    g_log.clear();
    std::unique_ptr<AnyTimer> t;
    if (lean)
    {
        t = std::make_unique<LeanTimer>();
    }
    else
    {
        t = std::make_unique<EventIdTimer>();
    }
    AnyTimer* p = t.get();
    Probe(p, "init");
    p->Schedule(NanoSeconds(4)); // before Run()
    Probe(p, "beforeRun");
    Simulator::Schedule(NanoSeconds(1), [p]() {
        Probe(p, "t1");
        p->Schedule(NanoSeconds(9)); // later: fires at 10, not 4
        Simulator::Schedule(NanoSeconds(9), &Log, "a10");
        Probe(p, "t1b");
    });
    Simulator::Schedule(NanoSeconds(2), [p]() {
        Simulator::Schedule(NanoSeconds(5), &Log, "b7");
        p->Schedule(NanoSeconds(5)); // earlier: 7, after b7
        Simulator::Schedule(NanoSeconds(5), &Log, "c7");
        p->Schedule(NanoSeconds(5)); // same time, now after c7
        Simulator::Schedule(NanoSeconds(5), &Log, "d7");
        Probe(p, "t2");
    });
    Simulator::Schedule(NanoSeconds(8), [p]() {
        Probe(p, "t8");
        p->Schedule(NanoSeconds(12));
    });
    Simulator::Schedule(NanoSeconds(15), [p]() {
        p->Cancel();
        Probe(p, "t15");
        p->Cancel(); // twice: nothing more
    });
    Simulator::Schedule(NanoSeconds(30), [p]() {
        p->rearm = 2;
        p->Schedule(NanoSeconds(0)); // now, after this event and before now30
        Simulator::ScheduleNow(&Log, "now30");
    });
    Simulator::Stop(NanoSeconds(34)); // between the re-armed expiries: 30, 33, 36
    Simulator::Run();
    Probe(p, "stopped");
    Simulator::Run();
    Probe(p, "end");
    g_log.push_back("fired=" + std::to_string(p->fired));
    g_log.push_back("events=" + std::to_string(Simulator::GetEventCount()));
    return g_log;
}
} // namespace

TEST_CASE("sim: ReusableTimer fires, replaces and cancels as an EventId does, same event order "
          "and count",
          "[sim]")
{
    const std::vector<std::string> expected = RunScript("ns3::DefaultSimulatorImpl", false);
    // The script's own expectation, independent of either timer.
    const std::vector<std::string> firings = {"fire@7", "fire@30", "fire@33", "fire@36"};
    std::vector<std::string> got;
    for (const std::string& line : expected)
    {
        if (line.rfind("fire@", 0) == 0)
        {
            got.push_back(line);
        }
    }
    CHECK(got == firings);
    const auto at = [&](const std::string& what) {
        return std::find(expected.begin(), expected.end(), what) - expected.begin();
    };
    CHECK(at("b7@7") < at("c7@7"));
    CHECK(at("c7@7") < at("fire@7"));
    CHECK(at("fire@7") < at("d7@7"));
    CHECK(at("fire@30") < at("now30@30")); // scheduled in that order
    CHECK(at("t15.pending=0") < int(expected.size()));
    CHECK(at("t8.pending=0") < int(expected.size())); // fired at 7
    CHECK(at("t2.ts=7") < int(expected.size()));
    CHECK(at("t1b.ts=10") < int(expected.size()));
    CHECK(at("stopped.ts=36") < int(expected.size()));
    for (const std::string impl : {"ns3::MlnetSimulatorImpl", "ns3::DefaultSimulatorImpl"})
    {
        INFO(impl);
        CHECK(RunScript(impl, true) == expected);
        CHECK(RunScript(impl, false) == expected);
    }
}

TEST_CASE("sim: a ReusableTimer expiry dropped by Simulator::Destroy is not pending", "[sim]")
{
    ImplGuard guard;
    guard.Use("ns3::MlnetSimulatorImpl");
    LeanTimer t;
    Simulator::Schedule(NanoSeconds(1), [&t]() { t.Schedule(NanoSeconds(100)); });
    Simulator::Stop(NanoSeconds(50));
    Simulator::Run();
    REQUIRE(t.IsPending());
    CHECK(t.GetTsStep() == NanoSeconds(101).GetTimeStep());
    Simulator::Destroy(); // drops the pending expiry
    CHECK_FALSE(t.IsPending());
    // The next simulator: the timer works again, inside Run() and outside.
    Simulator::Schedule(NanoSeconds(2), [&t]() { t.Schedule(NanoSeconds(3)); });
    Simulator::Run();
    CHECK(t.fired == 1);
    CHECK(Simulator::Now() == NanoSeconds(5));
    CHECK_FALSE(t.IsPending());
    t.Schedule(NanoSeconds(1));
    CHECK(t.IsPending());
    Simulator::Run();
    CHECK(t.fired == 2);
}

TEST_CASE("sim: a Run() out of events ends at the last event that did something, not at an "
          "idle, replaced or cancelled ReusableTimer expiry",
          "[sim]")
{
    // Each script: an event at 1 ns arms the timer for 100 ns, one at 10 ns makes that expiry
    // do nothing (idle, replaced then idle, cancelled, the timer destroyed). MlnetSimulatorImpl
    // drops it (Run() ends at 10 ns, two events counted, the owner not called); ns-3's
    // DefaultSimulatorImpl runs it in its turn (Run() ends at 100 ns or 200 ns).
    enum Script
    {
        IDLE,
        REPLACED_IDLE,
        CANCELLED,
        DESTROYED
    };

    for (const std::string scheduler : {"ns3::TimingWheelScheduler", "ns3::MapScheduler"})
    {
        for (Script script : {IDLE, REPLACED_IDLE, CANCELLED, DESTROYED})
        {
            INFO(scheduler << " script " << int(script));
            ImplGuard guard;
            guard.Use("ns3::MlnetSimulatorImpl", scheduler);
            auto t = std::make_unique<LeanTimer>();
            LeanTimer* p = t.get();
            Simulator::Schedule(NanoSeconds(1), [p, script]() {
                p->Schedule(NanoSeconds(99));
                if (script == REPLACED_IDLE)
                {
                    p->Schedule(NanoSeconds(199)); // the copy at 100 ns stays queued
                }
            });
            Simulator::Schedule(NanoSeconds(10), [&t, script]() {
                switch (script)
                {
                case IDLE:
                case REPLACED_IDLE:
                    t->timer.SetIdle(true);
                    CHECK(t->IsPending()); // idle is still pending
                    break;
                case CANCELLED:
                    t->Cancel();
                    break;
                case DESTROYED:
                    t.reset();
                    break;
                }
            });
            Simulator::Run();
            CHECK(Simulator::Now() == NanoSeconds(10));
            CHECK(Simulator::IsFinished());
            CHECK(Simulator::GetEventCount() == 2);
            if (t)
            {
                CHECK(t->fired == 0);
                CHECK_FALSE(t->IsPending());
                // The timer works again after its expiry was dropped: idle then live again,
                // it fires.
                Simulator::Schedule(NanoSeconds(5), [p]() {
                    p->Schedule(NanoSeconds(20));
                    p->timer.SetIdle(true);
                    p->timer.SetIdle(false);
                });
                Simulator::Run();
                CHECK(t->fired == 1);
                CHECK(Simulator::Now() == NanoSeconds(35));
                CHECK(Simulator::GetEventCount() == 4);
            }
        }
    }

    ImplGuard guard;
    for (const std::string impl : {"ns3::MlnetSimulatorImpl", "ns3::DefaultSimulatorImpl"})
    {
        INFO(impl);
        // Idle among live events: it runs in its turn (the owner is called, the clock passes
        // it), the same under both; a stop time is run to.
        guard.Use(impl);
        LeanTimer t;
        Simulator::Schedule(NanoSeconds(1), [&t]() { t.Schedule(NanoSeconds(99)); });
        Simulator::Schedule(NanoSeconds(10), [&t]() { t.timer.SetIdle(true); });
        Simulator::Schedule(NanoSeconds(150), &Log, "later");
        Simulator::Stop(NanoSeconds(500));
        Simulator::Run();
        CHECK(t.fired == 1);
        CHECK(Simulator::Now() == NanoSeconds(500));
        CHECK(Simulator::GetEventCount() == 5);
        // Idle at the end: ns-3's engine runs it, mlnet's drops it.
        guard.Use(impl);
        LeanTimer u;
        Simulator::Schedule(NanoSeconds(1), [&u]() { u.Schedule(NanoSeconds(99)); });
        Simulator::Schedule(NanoSeconds(10), [&u]() { u.timer.SetIdle(true); });
        Simulator::Run();
        const bool mlnet = impl == "ns3::MlnetSimulatorImpl";
        CHECK(u.fired == (mlnet ? 0 : 1));
        CHECK(Simulator::Now() == NanoSeconds(mlnet ? 10 : 100));
    }
}
