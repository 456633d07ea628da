/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "common/flow-test-builders.h"

#include "ns3/cadent-flow-policy.h"
#include "ns3/fair-sharing-flow-policy.h"
#include "ns3/fifo-flow-policy.h"
#include "ns3/flow-policy-factory.h"
#include "ns3/fluid-flow-model.h"
#include "ns3/madd-coflow-policy.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

using namespace ns3;

using namespace mlnettest;

namespace
{

/// Decision of flow `id` in a decision list.
const FlowDecision&
Of(const std::vector<FlowDecision>& d, uint64_t id)
{
    for (const auto& x : d)
    {
        if (x.id == id)
        {
            return x;
        }
    }
    throw std::logic_error("no decision for flow " + std::to_string(id));
}

} // namespace

TEST_CASE("flow-scheduling: bad declarations are rejected with the field and range",
          "[flow-scheduling]")
{
    FlowSchedulingState s = Ports(3);
    s.DeclareGroup(Group(1));
    FlowDeclaration ok = Flow(7, 1, 0, 1, MB);

    FlowDeclaration negDeadline = ok;
    negDeadline.deadline = -0.5;
    std::string e = ErrorOf([&] { s.AddFlow(negDeadline, 0); });
    CHECK(e.find("flow 7") != std::string::npos);
    CHECK(e.find("deadline = -0.5") != std::string::npos);
    CHECK(e.find("must be >= 0") != std::string::npos);

    FlowDeclaration unknown = ok;
    unknown.group = 42;
    e = ErrorOf([&] { s.AddFlow(unknown, 0); });
    CHECK(e.find("group 42 is unknown") != std::string::npos);

    FlowDeclaration zero = ok;
    zero.bytes = 0;
    CHECK(ErrorOf([&] { s.AddFlow(zero, 0); }).find("bytes = 0") != std::string::npos);
    FlowDeclaration noPort = ok;
    noPort.dst = 9;
    CHECK(ErrorOf([&] { s.AddFlow(noPort, 0); }).find("port 9 is unknown") != std::string::npos);
    FlowDeclaration w = ok;
    w.weight = 0;
    CHECK(ErrorOf([&] { s.AddFlow(w, 0); }).find("weight = 0") != std::string::npos);
    FlowDeclaration off = ok;
    off.offset = -1;
    CHECK(ErrorOf([&] { s.AddFlow(off, 0); }).find("offset = -1") != std::string::npos);

    s.AddFlow(ok, 0);
    CHECK(ErrorOf([&] { s.AddFlow(ok, 0); }).find("already live") != std::string::npos);
    CHECK(ErrorOf([&] { s.SetRemaining(7, 2 * MB); }).find("remaining") != std::string::npos);

    FlowGroupSpec bad = Group(2, FlowArrangement::Pipeline, -1);
    CHECK(ErrorOf([&] { s.DeclareGroup(bad); }).find("stageTime = -1") != std::string::npos);
    FlowGroupSpec other = Group(1, FlowArrangement::Pipeline, 1e-3);
    CHECK(ErrorOf([&] { s.DeclareGroup(other); }).find("different spec") != std::string::npos);
    CHECK_NOTHROW(s.DeclareGroup(Group(1))); // same spec again: no-op
    CHECK(ErrorOf([&] { s.SetPort(5, 0, GB); }).find("must be finite and > 0") !=
          std::string::npos);
}

TEST_CASE("flow-scheduling: a group with expectedFlows is forgotten when they are done",
          "[flow-scheduling]")
{
    FlowSchedulingState s = Ports(2);
    FlowGroupSpec g = Group(3);
    g.expectedFlows = 2;
    s.DeclareGroup(g);
    s.AddFlow(Flow(1, 3, 0, 1, MB), 0);
    s.CompleteFlow(1);
    CHECK(s.HasGroup(3)); // one of two done
    s.AddFlow(Flow(2, 3, 0, 1, MB), 0);
    s.CompleteFlow(2);
    CHECK_FALSE(s.HasGroup(3));
    CHECK(s.GetFlows().empty());
}

TEST_CASE("flow-scheduling: fair sharing gives one level and no caps", "[flow-scheduling]")
{
    FlowSchedulingState s = Ports(3);
    s.DeclareGroup(Group(1));
    s.AddFlow(Flow(1, 1, 0, 1, MB), 0);
    s.AddFlow(Flow(2, 1, 2, 1, 3 * MB), 1e-3);
    auto d = CreateObject<FairSharingFlowPolicy>()->Decide(s, 1e-3);
    REQUIRE(d.size() == 2);
    for (const auto& x : d)
    {
        CHECK(x.level == 0);
        CHECK(x.rank == 0);
        CHECK(std::isinf(x.rateCap));
    }
    // and the fluid model shares the common downlink max-min fairly: 0.5 GB/s each
    auto rates = FluidFlowModel::Allocate(s, d);
    CHECK(rates[0] == Approx(0.5 * GB));
    CHECK(rates[1] == Approx(0.5 * GB));
}

TEST_CASE("flow-scheduling: FIFO ranks by release and serves the ranks in order through rates",
          "[flow-scheduling]")
{
    FlowSchedulingState s = Ports(4);
    s.DeclareGroup(Group(1));
    s.AddFlow(Flow(10, 1, 0, 1, MB), 2.0);
    s.AddFlow(Flow(11, 1, 2, 1, MB), 1.0);
    s.AddFlow(Flow(12, 1, 3, 1, MB), 1.0);
    s.AddFlow(Flow(13, 1, 0, 2, MB), 3.0);
    Ptr<FifoFlowPolicy> p = CreateObject<FifoFlowPolicy>();
    auto d = p->Decide(s, 3.0);
    CHECK(Of(d, 11).rank == 0);
    CHECK(Of(d, 12).rank == 0); // same release: same rank
    CHECK(Of(d, 10).rank == 1);
    CHECK(Of(d, 13).rank == 2);
    // rank 0 shares downlink 1 (MADD: 0.5 GB/s each); rank 1 needs downlink 1 too: paused;
    // rank 2 (0->2) has its whole path: no cap
    CHECK(Of(d, 11).rateCap == Approx(0.5 * GB));
    CHECK(Of(d, 12).rateCap == Approx(0.5 * GB));
    CHECK(Of(d, 10).rateCap == 0);
    CHECK(std::isinf(Of(d, 13).rateCap));
    for (const auto& x : d)
    {
        CHECK(x.level == 0);
    }
    CHECK_THROWS_AS(p->SetPriorityLevels(9), std::invalid_argument);
}

TEST_CASE("flow-scheduling: MADD orders coflows by bottleneck and sizes rates to finish "
          "together",
          "[flow-scheduling]")
{
    // Coflow A (group 1): 0->1 1 MB, 0->2 3 MB: bottleneck uplink 0, Gamma = 4 ms.
    // Coflow B (group 2): 3->1 1 MB with a 2 GB/s downlink at 1: Gamma = 1 ms (uplink 3).
    FlowSchedulingState s = Ports(4);
    s.SetPort(1, GB, 2 * GB);
    s.DeclareGroup(Group(1));
    s.DeclareGroup(Group(2));
    s.AddFlow(Flow(1, 1, 0, 1, 1 * MB), 0);
    s.AddFlow(Flow(2, 1, 0, 2, 3 * MB), 0);
    s.AddFlow(Flow(3, 2, 3, 1, 1 * MB), 0);
    CHECK(MaddCoflowPolicy::Bottleneck(s, 1) == Approx(4e-3));
    CHECK(MaddCoflowPolicy::Bottleneck(s, 2) == Approx(1e-3));
    Ptr<MaddCoflowPolicy> p = CreateObject<MaddCoflowPolicy>();
    CHECK_FALSE(p->SupportsDecentralised());
    auto d = p->Decide(s, 0);
    // SEBF: B first
    CHECK(Of(d, 3).rank == 0);
    CHECK(Of(d, 1).rank == 1);
    CHECK(Of(d, 2).rank == 1);
    // B alone on its path at 1 GB/s = the path capacity: no cap
    CHECK(std::isinf(Of(d, 3).rateCap));
    // A from what B left (downlink 1: 1 GB/s left; uplink 0: 1 GB/s): Gamma' = 4 ms,
    // rates 1 MB / 4 ms = 0.25 GB/s and 3 MB / 4 ms = 0.75 GB/s
    CHECK(Of(d, 1).rateCap == Approx(0.25 * GB));
    CHECK(Of(d, 2).rateCap == Approx(0.75 * GB));
    CHECK(Of(d, 1).idealFinish == Approx(4e-3));
    CHECK(Of(d, 3).idealFinish == Approx(1e-3));
}

namespace
{
/// \return a state of `ids` ports (1 GB/s, downlink 2 GB/s at ids[1]) with MADD's coflows of
/// the test above (group 1: ids[0] -> ids[1] 1 MB, ids[0] -> ids[2] 3 MB; group 2: ids[3] ->
/// ids[1] 1 MB) and a coflow whose bottleneck leaves room that the backfill takes (group 3:
/// ids[4] -> ids[5] 1 MB, ids[4] -> ids[6] 1 MB, ids[7] -> ids[6] 2 MB)
FlowSchedulingState
BackfillState(const std::vector<uint32_t>& ids)
{
    FlowSchedulingState s;
    for (uint32_t p : ids)
    {
        s.SetPort(p, GB, p == ids[1] ? 2 * GB : GB);
    }
    for (uint64_t g = 1; g <= 3; ++g)
    {
        s.DeclareGroup(Group(g));
    }
    s.AddFlow(Flow(1, 1, ids[0], ids[1], 1 * MB), 0);
    s.AddFlow(Flow(2, 1, ids[0], ids[2], 3 * MB), 0);
    s.AddFlow(Flow(3, 2, ids[3], ids[1], 1 * MB), 0);
    s.AddFlow(Flow(4, 3, ids[4], ids[5], 1 * MB), 0);
    s.AddFlow(Flow(5, 3, ids[4], ids[6], 1 * MB), 0);
    s.AddFlow(Flow(6, 3, ids[7], ids[6], 2 * MB), 0);
    return s;
}
} // namespace

TEST_CASE("flow-scheduling: MADD's tier rates and backfill are the same for any port ids",
          "[flow-scheduling]")
{
    // SequentialRates numbers the ports densely: sparse ids must give the same rates to the bit
    Ptr<MaddCoflowPolicy> p = CreateObject<MaddCoflowPolicy>();
    const auto d = p->Decide(BackfillState({0, 1, 2, 3, 4, 5, 6, 7}), 0);
    const auto e = p->Decide(BackfillState({7, 1000, 4000000000u, 3, 12, 5, 99, 0}), 0);
    REQUIRE(d.size() == e.size());
    for (uint64_t id = 1; id <= 6; ++id)
    {
        INFO("flow " << id);
        CHECK(Of(d, id).rank == Of(e, id).rank);
        CHECK(Of(d, id).rateCap == Of(e, id).rateCap);
        CHECK(Of(d, id).idealFinish == Of(e, id).idealFinish);
    }
    // groups 1 and 2 as above
    CHECK(std::isinf(Of(d, 3).rateCap));
    CHECK(Of(d, 1).rateCap == Approx(0.25 * GB));
    CHECK(Of(d, 2).rateCap == Approx(0.75 * GB));
    // group 3: loads uplink 4: 2 MB, uplink 7: 2 MB, downlink 6: 3 MB -> Gamma = 3 ms, MADD
    // rates 1/3, 1/3, 2/3 GB/s; the backfill gives flow 4 what uplink 4 and downlink 5 have
    // left (1/3 GB/s more); downlink 6 is full, so flows 5 and 6 keep their MADD rates
    // SEBF: group 2 (1 ms), group 3 (3 ms), group 1 (4 ms)
    CHECK(Of(d, 3).rank == 0);
    CHECK(Of(d, 4).rank == 1);
    CHECK(Of(d, 1).rank == 2);
    CHECK(Of(d, 4).rateCap == Approx(2.0 / 3 * GB));
    CHECK(Of(d, 5).rateCap == Approx(1.0 / 3 * GB));
    CHECK(Of(d, 6).rateCap == Approx(2.0 / 3 * GB));
    CHECK(Of(d, 4).idealFinish == Approx(3e-3));
}

TEST_CASE("flow-scheduling: MADD in the fluid model finishes a coflow's flows together",
          "[flow-scheduling]")
{
    FluidFlowModel m(CreateObject<MaddCoflowPolicy>());
    for (uint32_t p = 0; p < 4; ++p)
    {
        m.SetPort(p, GB, p == 1 ? 2 * GB : GB);
    }
    m.DeclareGroup(Group(1));
    m.DeclareGroup(Group(2));
    m.AddFlow(Flow(1, 1, 0, 1, 1 * MB), 0);
    m.AddFlow(Flow(2, 1, 0, 2, 3 * MB), 0);
    m.AddFlow(Flow(3, 2, 3, 1, 1 * MB), 0);
    auto r = m.Run();
    CHECK(r[2].finish == Approx(1e-3)); // B first, alone
    CHECK(r[0].finish == Approx(4e-3)); // A's two flows together at Gamma = 4 ms
    CHECK(r[1].finish == Approx(4e-3));

    // fair sharing instead: 0->1 and 0->2 halve uplink 0, so the 1 MB flow is done at 2 ms
    FluidFlowModel f(CreateObject<FairSharingFlowPolicy>());
    for (uint32_t p = 0; p < 4; ++p)
    {
        f.SetPort(p, GB, p == 1 ? 2 * GB : GB);
    }
    f.DeclareGroup(Group(1));
    f.DeclareGroup(Group(2));
    f.AddFlow(Flow(1, 1, 0, 1, 1 * MB), 0);
    f.AddFlow(Flow(2, 1, 0, 2, 3 * MB), 0);
    f.AddFlow(Flow(3, 2, 3, 1, 1 * MB), 0);
    auto q = f.Run();
    CHECK(q[0].finish == Approx(2e-3));
    CHECK(q[1].finish == Approx(4e-3));
    CHECK(q[2].finish == Approx(1e-3));
}

TEST_CASE("flow-scheduling: CadentFlow ranks by priority/weight or by deadline",
          "[flow-scheduling]")
{
    FlowSchedulingState s = Ports(3);
    s.DeclareGroup(Group(1));
    FlowDeclaration a = Flow(1, 1, 0, 1, MB);
    a.priority = 2;
    a.deadline = 0.3;
    FlowDeclaration b = Flow(2, 1, 0, 2, MB);
    b.priority = 0;
    b.deadline = 0.5;
    FlowDeclaration c = Flow(3, 1, 2, 1, MB);
    c.priority = 4;
    c.weight = 2; // 4 / 2 = 2: ties with a
    FlowDeclaration e = Flow(4, 1, 2, 0, MB);
    e.priority = 1;
    e.deadline = 0.1;
    for (const auto& x : {a, b, c, e})
    {
        s.AddFlow(x, 0);
    }
    Ptr<CadentFlowPolicy> p = CreateObject<CadentFlowPolicy>();
    CHECK(p->GetName() == "cadentflow-priority");
    auto d = p->Decide(s, 0);
    CHECK(Of(d, 2).rank == 0);
    CHECK(Of(d, 4).rank == 1);
    CHECK(Of(d, 1).rank == 2);
    CHECK(Of(d, 3).rank == 2);
    // no priority range declared: levels from the 3 ranks, floor(r x 7 / 3) = 0, 2, 4
    CHECK(Of(d, 2).level == 0);
    CHECK(Of(d, 4).level == 2);
    CHECK(Of(d, 1).level == 4);
    CHECK(Of(d, 3).level == 4);
    for (const auto& x : d)
    {
        CHECK(std::isinf(x.rateCap));
    }
    p->SetObjective(CadentFlowPolicy::DEADLINE);
    CHECK(p->GetName() == "cadentflow-deadline");
    d = p->Decide(s, 0);
    CHECK(Of(d, 4).rank == 0); // 0.1 s
    CHECK(Of(d, 1).rank == 1); // 0.3 s
    CHECK(Of(d, 2).rank == 2); // 0.5 s
    CHECK(Of(d, 3).rank == 3); // no deadline: last
    CHECK(Of(d, 1).idealFinish == Approx(0.3));
    // EDD through rates: 2->0 (0.1 s) and 0->1 (0.3 s) get their paths; 0->2 (0.5 s) needs the
    // taken uplink 0 and 2->1 (none) the taken uplink 2: paused
    CHECK(std::isinf(Of(d, 4).rateCap));
    CHECK(std::isinf(Of(d, 1).rateCap));
    CHECK(Of(d, 2).rateCap == 0);
    CHECK(Of(d, 3).rateCap == 0);
    CHECK(p->SupportsDecentralised());
}

TEST_CASE("flow-scheduling: CadentFlow maps a declared priority range onto levels stably",
          "[flow-scheduling]")
{
    FlowSchedulingState s = Ports(2);
    FlowGroupSpec g = Group(1);
    g.priorities = 10; // values 0..9 on 7 levels: floor(v x 7 / 10)
    s.DeclareGroup(g);
    const uint32_t values[] = {0, 1, 2, 5, 9};
    for (uint32_t i = 0; i < 5; ++i)
    {
        FlowDeclaration f = Flow(i, 1, 0, 1, MB);
        f.priority = values[i];
        s.AddFlow(f, 0);
    }
    Ptr<CadentFlowPolicy> p = CreateObject<CadentFlowPolicy>();
    auto d = p->Decide(s, 0);
    CHECK(Of(d, 0).level == 0);
    CHECK(Of(d, 1).level == 0);
    CHECK(Of(d, 2).level == 1);
    CHECK(Of(d, 3).level == 3);
    CHECK(Of(d, 4).level == 6);
    // a flow finishing does not move the others' levels
    s.CompleteFlow(0);
    d = p->Decide(s, 0);
    CHECK(Of(d, 2).level == 1);
    CHECK(Of(d, 4).level == 6);
}

TEST_CASE("flow-scheduling: CadentFlow's deadline order minimises the maximum lateness on one "
          "link",
          "[flow-scheduling]")
{
    // Three 1 MB flows on one 1 GB/s uplink (1 ms each), deadlines 3, 1 and 2 ms.
    // EDD: finishes 1, 2, 3 ms in deadline order: max lateness 0. Fair sharing: all at 3 ms,
    // lateness 2 ms for the 1 ms deadline.
    auto run = [](Ptr<FlowSchedulingPolicy> p) {
        FluidFlowModel m(p);
        for (uint32_t q = 0; q < 4; ++q)
        {
            m.SetPort(q, GB, GB);
        }
        m.DeclareGroup(Group(1));
        const double deadlines[] = {3e-3, 1e-3, 2e-3};
        for (uint32_t i = 0; i < 3; ++i)
        {
            FlowDeclaration d = Flow(i, 1, 0, i + 1, MB);
            d.deadline = deadlines[i];
            m.AddFlow(d, 0);
        }
        double worst = -1;
        auto r = m.Run();
        for (uint32_t i = 0; i < 3; ++i)
        {
            worst = std::max(worst, r[i].finish - deadlines[i]);
        }
        return worst;
    };
    Ptr<CadentFlowPolicy> edd = CreateObject<CadentFlowPolicy>();
    edd->SetObjective(CadentFlowPolicy::DEADLINE);
    CHECK(run(edd) == Approx(0).margin(1e-12));
    CHECK(run(CreateObject<FairSharingFlowPolicy>()) == Approx(2e-3));
}

TEST_CASE("flow-scheduling: the factory knows every policy by name", "[flow-scheduling]")
{
    for (const auto& n : FlowSchedulingPolicyNames())
    {
        CHECK(CreateFlowSchedulingPolicy(n)->GetName() == n);
    }
    std::string e = ErrorOf([] { CreateFlowSchedulingPolicy("sjf"); });
    CHECK(e.find("'sjf'") != std::string::npos);
    CHECK(e.find("echelon") != std::string::npos);
}
