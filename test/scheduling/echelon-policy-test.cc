/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "common/flow-test-builders.h"

#include "ns3/boolean.h"
#include "ns3/echelon-flow-policy.h"
#include "ns3/fluid-flow-model.h"
#include "ns3/madd-coflow-policy.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <vector>

using namespace ns3;

using namespace mlnettest;

namespace
{

const double ms = 1e-3;

/// Ideal finish times of every flow of a group (in history order).
std::vector<double>
Ideal(const FlowSchedulingState& s, Ptr<EchelonFlowPolicy> p, uint64_t g)
{
    auto ref = p->ComputeReference(s, g);
    std::vector<double> d;
    for (const auto& f : s.GetGroupHistory(g))
    {
        d.push_back(EchelonFlowPolicy::IdealFinish(s, f, ref));
    }
    return d;
}

} // namespace

TEST_CASE("echelon: ideal finish times of pipeline, coflow and layer-wise EchelonFlows",
          "[flow-scheduling]")
{
    Ptr<EchelonFlowPolicy> p = CreateObject<EchelonFlowPolicy>();
    SECTION("pipeline limited by compute: D_i = r_0 + s/C + i x t_mb")
    {
        // 1 MB micro-batches (1 ms each at 1 GB/s) released every 2 ms
        FlowSchedulingState s = Ports(2);
        s.DeclareGroup(Group(1, FlowArrangement::Pipeline, 2 * ms));
        for (uint32_t i = 0; i < 4; ++i)
        {
            s.AddFlow(Flow(i, 1, 0, 1, MB, i), 2 * ms * i);
        }
        auto ref = p->ComputeReference(s, 1);
        CHECK(ref.start == 0);
        CHECK(ref.stageTime == Approx(2 * ms));
        CHECK(ref.dref == Approx(1 * ms));
        auto d = Ideal(s, p, 1);
        CHECK(d[0] == Approx(1 * ms));
        CHECK(d[1] == Approx(3 * ms));
        CHECK(d[2] == Approx(5 * ms));
        CHECK(d[3] == Approx(7 * ms));
    }
    SECTION("pipeline limited by the network: the last micro-batch governs")
    {
        // micro-batches every 0.5 ms: d_ref = 4 ms - 3 x 0.5 ms = 2.5 ms
        FlowSchedulingState s = Ports(2);
        s.DeclareGroup(Group(1, FlowArrangement::Pipeline, 0.5 * ms));
        for (uint32_t i = 0; i < 4; ++i)
        {
            s.AddFlow(Flow(i, 1, 0, 1, MB, i), 0.5 * ms * i);
        }
        auto d = Ideal(s, p, 1);
        CHECK(d[0] == Approx(2.5 * ms));
        CHECK(d[1] == Approx(3.0 * ms));
        CHECK(d[2] == Approx(3.5 * ms));
        CHECK(d[3] == Approx(4.0 * ms));
    }
    SECTION("coflow: every flow at r + Gamma, as Varys")
    {
        FlowSchedulingState s = Ports(3);
        s.DeclareGroup(Group(1, FlowArrangement::Coflow));
        s.AddFlow(Flow(1, 1, 0, 1, 1 * MB), 1 * ms);
        s.AddFlow(Flow(2, 1, 0, 2, 3 * MB), 1 * ms);
        auto d = Ideal(s, p, 1);
        CHECK(d[0] == Approx(5 * ms));
        CHECK(d[1] == Approx(5 * ms));
    }
    SECTION("parameter server with layer-wise forward: A(k) = forward time before layer k")
    {
        // 2, 1, 1 MB needed at 0, 1 and 3 ms of the forward pass: d_ref = 2 ms
        FlowSchedulingState s = Ports(2);
        s.DeclareGroup(Group(1, FlowArrangement::Offsets));
        const double size[] = {2 * MB, 1 * MB, 1 * MB};
        const double offset[] = {0, 1 * ms, 3 * ms};
        for (uint32_t k = 0; k < 3; ++k)
        {
            FlowDeclaration f = Flow(k, 1, 0, 1, size[k], k);
            f.offset = offset[k];
            s.AddFlow(f, 0);
        }
        auto d = Ideal(s, p, 1);
        CHECK(d[0] == Approx(2 * ms));
        CHECK(d[1] == Approx(3 * ms));
        CHECK(d[2] == Approx(5 * ms));
    }
}

TEST_CASE("echelon: earliest ideal finish first across EchelonFlows, MADD inside a tier",
          "[flow-scheduling]")
{
    // EchelonFlow 1: pipeline, micro-batch 0 (1 MB, 0->1) released at 0: D = 1 ms.
    // EchelonFlow 2: coflow 0->2 1 MB and 3->2 3 MB at 0: Gamma = 4 ms (downlink 2).
    FlowSchedulingState s = Ports(4);
    s.DeclareGroup(Group(1, FlowArrangement::Pipeline, 1 * ms));
    s.DeclareGroup(Group(2, FlowArrangement::Coflow));
    s.AddFlow(Flow(10, 1, 0, 1, MB, 0), 0);
    s.AddFlow(Flow(20, 2, 0, 2, 1 * MB), 0);
    s.AddFlow(Flow(21, 2, 3, 2, 3 * MB), 0);
    Ptr<EchelonFlowPolicy> p = CreateObject<EchelonFlowPolicy>();
    CHECK_FALSE(p->SupportsDecentralised());
    auto d = p->Decide(s, 0);
    REQUIRE(d.size() == 3);
    std::map<uint64_t, FlowDecision> by;
    for (const auto& x : d)
    {
        by[x.id] = x;
    }
    CHECK(by[10].rank == 0);
    CHECK(by[20].rank == 1);
    CHECK(by[21].rank == 1);
    CHECK(by[10].idealFinish == Approx(1 * ms));
    CHECK(by[20].idealFinish == Approx(4 * ms));
    CHECK(std::isinf(by[10].rateCap)); // alone on its tier at path capacity
    // the coflow tier: uplink 0 is taken by the pipeline, so the coflow gets no MADD rates;
    // backfill gives 3->2 its free path (no cap) and 0->2 nothing (paused)
    CHECK(by[20].rateCap == 0);
    CHECK(std::isinf(by[21].rateCap));
}

namespace
{

/// Pipeline of 4 x 1 MB on 0->1 released at the given times, plus one competing flow on
/// 0->2; returns the fluid results (pipeline first).
std::vector<FluidFlowResult>
PipelineAgainstFlow(Ptr<FlowSchedulingPolicy> policy,
                    const std::vector<double>& releases,
                    double declaredStage,
                    double otherBytes,
                    double otherRelease)
{
    FluidFlowModel m(policy);
    for (uint32_t q = 0; q < 3; ++q)
    {
        m.SetPort(q, GB, GB);
    }
    m.DeclareGroup(Group(1, FlowArrangement::Pipeline, declaredStage));
    m.DeclareGroup(Group(2, FlowArrangement::Coflow));
    for (uint32_t i = 0; i < releases.size(); ++i)
    {
        m.AddFlow(Flow(i, 1, 0, 1, MB, i), releases[i]);
    }
    m.AddFlow(Flow(100, 2, 0, 2, otherBytes), otherRelease);
    return m.Run();
}

} // namespace

TEST_CASE("echelon: a pipeline finishes in staggered order with max tardiness no worse than "
          "coflow scheduling",
          "[flow-scheduling]")
{
    // Micro-batches (1 ms of transfer each) released every 1 ms: D = 1, 2, 3, 4 ms. A 2 MB flow
    // of another job released at 0: D = 2 ms. EDD: p0 0-1, p1 1-2, other 2-4, p2 4-5, p3 5-6:
    // max tardiness 2 ms (optimal: 6 ms of work, the last D is 4 ms). MADD treats the pipeline
    // as one coflow and serves it first (smaller bottleneck): other ends at 6 ms, tardiness 4 ms.
    const std::vector<double> rel = {0, 1 * ms, 2 * ms, 3 * ms};
    const std::vector<double> ideal = {1 * ms, 2 * ms, 3 * ms, 4 * ms, 2 * ms};
    auto e = PipelineAgainstFlow(CreateObject<EchelonFlowPolicy>(), rel, 1 * ms, 2 * MB, 0);
    auto c = PipelineAgainstFlow(CreateObject<MaddCoflowPolicy>(), rel, 1 * ms, 2 * MB, 0);
    for (uint32_t i = 0; i < 4; ++i)
    {
        CHECK(e[i].idealFinish == Approx(ideal[i]));
    }
    CHECK(e[4].idealFinish == Approx(ideal[4]));
    CHECK(e[0].finish < e[1].finish);
    CHECK(e[1].finish < e[2].finish);
    CHECK(e[2].finish < e[3].finish);
    std::vector<double> all(ideal);
    CHECK(MaxTardiness(e, all) == Approx(2 * ms));
    CHECK(MaxTardiness(c, all) == Approx(4 * ms));
    CHECK(MaxTardiness(e, all) <= MaxTardiness(c, all));
}

TEST_CASE("echelon: a wrong stage-time estimate is corrected from the observed releases",
          "[flow-scheduling]")
{
    // Micro-batches every 2 ms (1 ms of transfer each): true D = 1, 3, 5, 7 ms. A 10 MB flow of
    // another job (D = 10 ms) competes from t = 0. With the right estimate every micro-batch
    // preempts the big flow on arrival: pipeline on time, the big flow ends at 14 ms (max
    // tardiness 4 ms). Declared 20 ms without correction: D = 1, 21, 41, 61 ms, so micro-batches
    // 1..3 wait behind the big flow until 11 ms: tardiness 9 ms.
    const std::vector<double> rel = {0, 2 * ms, 4 * ms, 6 * ms};
    const std::vector<double> ideal = {1 * ms, 3 * ms, 5 * ms, 7 * ms, 10 * ms};
    auto right = PipelineAgainstFlow(CreateObject<EchelonFlowPolicy>(), rel, 2 * ms, 10 * MB, 0);
    auto fixed = PipelineAgainstFlow(CreateObject<EchelonFlowPolicy>(), rel, 20 * ms, 10 * MB, 0);
    Ptr<EchelonFlowPolicy> stubborn = CreateObject<EchelonFlowPolicy>();
    stubborn->SetAttribute("CorrectEstimates", BooleanValue(false));
    auto wrong = PipelineAgainstFlow(stubborn, rel, 20 * ms, 10 * MB, 0);
    CHECK(MaxTardiness(right, ideal) == Approx(4 * ms));
    CHECK(MaxTardiness(fixed, ideal) == Approx(4 * ms));
    CHECK(MaxTardiness(wrong, ideal) == Approx(9 * ms));
    for (uint32_t i = 0; i < 4; ++i)
    {
        CHECK(fixed[i].finish == Approx(ideal[i])); // on time once corrected
        CHECK(fixed[i].idealFinish == Approx(ideal[i]));
    }
    CHECK(wrong[3].idealFinish == Approx(61 * ms));
}
