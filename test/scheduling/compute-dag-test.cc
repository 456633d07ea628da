/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "common/flow-test-builders.h"

#include "ns3/compute-dag.h"

#include <catch2/catch.hpp>
#include <stdexcept>

using namespace ns3;
using mlnettest::ErrorOf;

namespace
{

/// The three-op example: tensors of 0.5, 0.25 and 0.25 s at the link rate (1 s in all), read by
/// three chained ops of 0.5 s each.
ComputeDag
ThreeOps()
{
    ComputeDag g;
    uint32_t a = g.AddTensor("w1", 500);
    uint32_t b = g.AddTensor("w2", 250);
    uint32_t c = g.AddTensor("w3", 250);
    uint32_t o1 = g.AddOp("op1", 0.5, {}, {a});
    uint32_t o2 = g.AddOp("op2", 0.5, {o1}, {b});
    g.AddOp("op3", 0.5, {o2}, {c});
    return g;
}

} // namespace

TEST_CASE("compute-dag: the three-op example has best CCT 1 s, tolerable 1.5 s, ratio 1.5",
          "[flow-scheduling]")
{
    DagSchedule s = ThreeOps().IdealSchedule(1000); // 1000 B/s: tensors take 0.5, 0.25, 0.25 s
    CHECK(s.arrival[0] == Approx(0.5));
    CHECK(s.arrival[1] == Approx(0.75));
    CHECK(s.arrival[2] == Approx(1.0));
    CHECK(s.opStart[0] == Approx(0.5));
    CHECK(s.opStart[1] == Approx(1.0));
    CHECK(s.opStart[2] == Approx(1.5));
    CHECK(s.makespan == Approx(2.0));
    CHECK(s.deadline[0] == Approx(0.5));
    CHECK(s.deadline[1] == Approx(1.0));
    CHECK(s.deadline[2] == Approx(1.5));
    CHECK(s.minCct == Approx(1.0));
    CHECK(s.maxTolerableCct == Approx(1.5));
    CHECK(s.FlexibilityRatio() == Approx(1.5));
}

TEST_CASE("compute-dag: slack in compute raises the deadlines of later tensors",
          "[flow-scheduling]")
{
    // op1 reads w1 and computes 2 s; op2 reads w2. w2 may arrive as late as 2.5 s (when op1
    // ends), although the best transfer finishes at 1 s: ratio 2.5.
    ComputeDag g;
    uint32_t a = g.AddTensor("w1", 500);
    uint32_t b = g.AddTensor("w2", 500);
    uint32_t o1 = g.AddOp("op1", 2.0, {}, {a});
    g.AddOp("op2", 0.1, {o1}, {b});
    DagSchedule s = g.IdealSchedule(1000);
    CHECK(s.makespan == Approx(2.6));
    CHECK(s.deadline[0] == Approx(0.5));
    CHECK(s.deadline[1] == Approx(2.5));
    CHECK(s.FlexibilityRatio() == Approx(2.5));
}

TEST_CASE("compute-dag: tensors crossing several links arrive when their busiest link is done",
          "[flow-scheduling]")
{
    // Two 1000-byte tensors pulled by 2 workers from two servers: each server uplink (links 1,
    // 2) carries its tensor twice (2 s at 1000 B/s), the worker downlink (link 0) both once.
    // Both arrive at 2 s; op1 (0.5 s) 2-2.5, op2 (0.5 s) 2.5-3: deadlines 2 and 2.5 s,
    // min CCT 2 s: ratio 1.25.
    ComputeDag g;
    uint32_t a = g.AddTensor("a", 1000);
    uint32_t b = g.AddTensor("b", 1000);
    uint32_t o1 = g.AddOp("op1", 0.5, {}, {a});
    g.AddOp("op2", 0.5, {o1}, {b});
    DagSchedule s =
        g.IdealSchedule({{{0, 1.0}, {1, 2.0}}, {{0, 1.0}, {2, 2.0}}}, {1000, 1000, 1000});
    CHECK(s.arrival[a] == Approx(2.0));
    CHECK(s.arrival[b] == Approx(2.0));
    CHECK(s.minCct == Approx(2.0));
    CHECK(s.makespan == Approx(3.0));
    CHECK(s.deadline[b] == Approx(2.5));
    CHECK(s.FlexibilityRatio() == Approx(1.25));
    CHECK_THROWS_WITH(g.IdealSchedule({{{0, 1.0}}}, {1000}), Catch::Contains("one per tensor"));
    CHECK_THROWS_WITH(g.IdealSchedule({{{5, 1.0}}, {{0, 1.0}}}, {1000}),
                      Catch::Contains("link 5 is unknown"));
}

TEST_CASE("compute-dag: execution and consumption orders follow the dependencies",
          "[flow-scheduling]")
{
    ComputeDag g;
    uint32_t t0 = g.AddTensor("a", 1);
    uint32_t t1 = g.AddTensor("b", 1);
    uint32_t t2 = g.AddTensor("unused", 1);
    // op0 depends on op2; op1 has no dependency; op2 reads b, op0 reads a
    g.AddOp("op0", 1, {2}, {t0});
    g.AddOp("op1", 1, {}, {});
    g.AddOp("op2", 1, {1}, {t1});
    CHECK(g.ExecutionOrder() == std::vector<uint32_t>{1, 2, 0});
    auto rank = g.ConsumptionOrder();
    CHECK(rank[t1] == 0);
    CHECK(rank[t0] == 1);
    CHECK(rank[t2] == 2);
}

TEST_CASE("compute-dag: cycles, unknown ids and bad values are rejected", "[flow-scheduling]")
{
    ComputeDag g;
    g.AddOp("fwd1", 1, {2});
    g.AddOp("fwd2", 1, {0});
    g.AddOp("fwd3", 1, {1});
    std::string e = ErrorOf([&] { g.Validate(); });
    CHECK(e.find("cycle") != std::string::npos);
    CHECK(e.find("fwd1") != std::string::npos);
    CHECK(e.find("fwd3") != std::string::npos);
    CHECK_THROWS_AS(g.IdealSchedule(1), std::invalid_argument);

    ComputeDag self;
    self.AddOp("x", 1, {0});
    CHECK(ErrorOf([&] { self.Validate(); }).find("depends on itself") != std::string::npos);
    ComputeDag unknown;
    unknown.AddOp("x", 1, {5});
    CHECK(ErrorOf([&] { unknown.Validate(); }).find("dependency 5 is not an op") !=
          std::string::npos);
    ComputeDag tensor;
    tensor.AddOp("x", 1, {}, {3});
    CHECK(ErrorOf([&] { tensor.Validate(); }).find("tensor 3 is unknown") != std::string::npos);
    CHECK(ErrorOf([&] { tensor.AddOp("y", -1); }).find("seconds = -1") != std::string::npos);
    CHECK(ErrorOf([&] { tensor.AddTensor("z", 0); }).find("bytes = 0") != std::string::npos);
    CHECK(ErrorOf([&] { ThreeOps().IdealSchedule(0); }).find("bytesPerSecond") !=
          std::string::npos);
}
