/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The packet-level flow scheduler: decisions applied to queue pairs, control delay, modes.

#include "common/rdma-scenario.h"

#include "ns3/flow-policy-factory.h"
#include "ns3/rdma-flow-scheduler.h"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace ns3;
using mlnettest::RdmaDumbbell;

namespace
{

/// One sender (host 0) to receivers 1..3 on a dumbbell, all installed on a scheduler.
struct OneToThree
{
    RdmaDumbbell d{1, 3};
    Ptr<RdmaFlowScheduler> s = CreateObject<RdmaFlowScheduler>();
    std::vector<Time> received = std::vector<Time>(3);

    explicit OneToThree(const std::string& policy, Time delay = Time(0))
    {
        s->SetPolicy(CreateFlowSchedulingPolicy(policy));
        s->SetAttribute("ControlDelay", TimeValue(delay));
        s->Install(d.nics);
        FlowGroupSpec g;
        g.id = 1;
        g.expectedFlows = 3;
        s->DeclareGroup(g);
    }

    /// Post 1, 2 and 4 MB from host 0 to hosts 1, 2, 3 at time `at`.
    void Post(Time at)
    {
        Simulator::Schedule(at, [this]() {
            for (uint32_t i = 0; i < 3; ++i)
            {
                FlowDeclaration f;
                f.group = 1;
                f.index = i;
                f.bytes = 1000000u << i;
                s->Post(d.nics[0],
                        d.nics[i + 1],
                        f,
                        RdmaFlowScheduler::MessageCallback(
                            [this, i]() { received[i] = Simulator::Now(); }),
                        RdmaFlowScheduler::MessageCallback());
            }
        });
    }
};

} // namespace

TEST_CASE("flow-scheduler: MADD finishes a coflow's flows within 2% of each other on an idle "
          "fabric",
          "[flow-scheduler]")
{
    OneToThree t("madd");
    t.Post(MicroSeconds(10));
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    const auto [lo, hi] = std::minmax_element(t.received.begin(), t.received.end());
    REQUIRE(lo->IsStrictlyPositive());
    const double cct = (*hi - MicroSeconds(10)).GetSeconds();
    INFO("finish " << t.received[0].GetMicroSeconds() << ", " << t.received[1].GetMicroSeconds()
                   << ", " << t.received[2].GetMicroSeconds() << " us");
    CHECK((*hi - *lo).GetSeconds() <= 0.02 * cct);
    // 7 MB through one 100 Gb/s uplink: the CCT of the coflow alone
    const double g = mlnettest::MaxGoodput(100e9, 1000) / 8;
    CHECK(cct == Approx(7e6 / g).epsilon(0.03));
    CHECK(t.s->GetQueuePairs() == 3);
    Simulator::Destroy();
}

TEST_CASE("flow-scheduler: fair sharing lets the small flow of a coflow finish first",
          "[flow-scheduler]")
{
    OneToThree t("fair");
    t.Post(MicroSeconds(10));
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    // thirds of the uplink: 1 MB done after 3 MB went out, 2 MB after 5 MB, 4 MB after 7 MB
    CHECK(t.received[0] < t.received[1]);
    CHECK(t.received[1] < t.received[2]);
    const double r = (t.received[0] - MicroSeconds(10)).GetSeconds() /
                     (t.received[2] - MicroSeconds(10)).GetSeconds();
    CHECK(r == Approx(3.0 / 7).epsilon(0.05));
    Simulator::Destroy();
}

TEST_CASE("flow-scheduler: the control delay shifts every decision by exactly the delay",
          "[flow-scheduler]")
{
    for (Time delay : {Time(0), MicroSeconds(50)})
    {
        OneToThree t("madd", delay);
        std::vector<Time> lag;
        t.s->TraceConnectWithoutContext(
            "Decision",
            MakeCallback(
                +[](std::vector<Time>* v, uint64_t, uint32_t, uint8_t, double, Time computed) {
                    v->push_back(Simulator::Now() - computed);
                })
                .Bind(&lag));
        std::vector<Time> starts;
        t.s->TraceConnectWithoutContext(
            "FlowDone",
            MakeCallback(+[](std::vector<Time>* v, const ScheduledFlowRecord& r) {
                v->push_back(r.start - r.release);
            }).Bind(&starts));
        t.Post(MicroSeconds(10));
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        REQUIRE(lag.size() >= 3);
        for (Time l : lag)
        {
            CHECK(l == delay);
        }
        REQUIRE(starts.size() == 3);
        for (Time st : starts)
        {
            CHECK(st == delay); // a message starts when its first decision arrives
        }
        Simulator::Destroy();
    }
}

TEST_CASE("flow-scheduler: modes and inputs are checked", "[flow-scheduler]")
{
    RdmaDumbbell d(1, 1);
    Ptr<RdmaFlowScheduler> s = CreateObject<RdmaFlowScheduler>();
    CHECK_THROWS_WITH(s->Install(d.nics), Catch::Contains("no policy"));
    s->SetAttribute("Mode", StringValue("Decentralised"));
    s->SetPolicy(CreateFlowSchedulingPolicy("madd"));
    CHECK_THROWS_WITH(s->Install(d.nics), Catch::Contains("needs the centralised mode"));
    s->SetPolicy(CreateFlowSchedulingPolicy("cadentflow-deadline"));
    REQUIRE_NOTHROW(s->Install(d.nics));
    CHECK(RdmaFlowScheduler::Find(d.nics[0]) == s);
    FlowDeclaration f;
    f.group = 9;
    f.bytes = 1000;
    CHECK_THROWS_WITH(s->Post(d.nics[0],
                              d.nics[1],
                              f,
                              RdmaFlowScheduler::MessageCallback(),
                              RdmaFlowScheduler::MessageCallback()),
                      Catch::Contains("group 9 is unknown"));
    FlowGroupSpec g;
    g.id = 9;
    s->DeclareGroup(g);
    f.deadline = -1;
    CHECK_THROWS_WITH(s->Post(d.nics[0],
                              d.nics[1],
                              f,
                              RdmaFlowScheduler::MessageCallback(),
                              RdmaFlowScheduler::MessageCallback()),
                      Catch::Contains("deadline = -1"));
    Ptr<RdmaFlowScheduler> other = CreateObject<RdmaFlowScheduler>();
    other->SetPolicy(CreateFlowSchedulingPolicy("fair"));
    CHECK_THROWS_WITH(other->Install(d.nics), Catch::Contains("already bound"));
    Simulator::Destroy();
}
