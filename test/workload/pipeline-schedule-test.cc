/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/pipeline-schedule.h"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/// Check every dependency on the executed timeline of a schedule.
void
CheckDependencies(const PipelineSchedule& sched, double f, double b)
{
    const uint32_t S = sched.GetNStages();
    const uint32_t M = sched.GetNMicroBatches();
    const auto timing = sched.Execute(f, b);
    std::vector<std::vector<double>> fs(S, std::vector<double>(M, -1));
    std::vector<std::vector<double>> fe(S, std::vector<double>(M, -1));
    std::vector<std::vector<double>> bs(S, std::vector<double>(M, -1));
    std::vector<std::vector<double>> be(S, std::vector<double>(M, -1));
    for (uint32_t s = 0; s < S; ++s)
    {
        REQUIRE(timing[s].size() == 2 * M);
        double prevEnd = 0;
        for (const auto& t : timing[s])
        {
            CHECK(t.start >= prevEnd); // one op at a time per stage, in list order
            prevEnd = t.end;
            const bool fwd = t.op.type == PipelineOp::FORWARD;
            (fwd ? fs : bs)[s][t.op.microBatch] = t.start;
            (fwd ? fe : be)[s][t.op.microBatch] = t.end;
        }
    }
    for (uint32_t s = 0; s < S; ++s)
    {
        for (uint32_t m = 0; m < M; ++m)
        {
            if (s > 0)
            {
                CHECK(fs[s][m] >= fe[s - 1][m]); // F(s,m) after F(s-1,m)
            }
            if (s + 1 < S)
            {
                CHECK(bs[s][m] >= be[s + 1][m]); // B(s,m) after B(s+1,m)
            }
            CHECK(bs[s][m] >= fe[s][m]); // B(s,m) after F(s,m)
        }
    }
}

} // namespace

TEST_CASE("workload: gpipe schedule respects pipeline dependencies", "[workload]")
{
    for (uint32_t S : {1U, 2U, 4U, 7U})
    {
        for (uint32_t M : {1U, 3U, 8U})
        {
            const auto g = PipelineSchedule::Gpipe(S, M);
            CHECK(g.Check().empty());
            CheckDependencies(g, 1.0, 2.0);
            for (uint32_t s = 0; s < S; ++s)
            {
                CHECK(g.GetOps(s).size() == 2 * M);
                CHECK(g.GetMaxInFlight(s) == M);
            }
            // GPipe makespan: (M + S - 1) x (tf + tb)
            CHECK(g.GetMakespan(1.0, 2.0) == Approx((M + S - 1) * 3.0));
        }
    }
    const auto g = PipelineSchedule::Gpipe(2, 3);
    const std::vector<PipelineOp> expected = {PipelineOp::Forward(0),
                                              PipelineOp::Forward(1),
                                              PipelineOp::Forward(2),
                                              PipelineOp::Backward(2),
                                              PipelineOp::Backward(1),
                                              PipelineOp::Backward(0)};
    CHECK(g.GetOps(0) == expected);
    CHECK(g.GetOps(1) == expected);
}

TEST_CASE("workload: 1f1b schedule respects dependencies and limits in-flight micro-batches",
          "[workload]")
{
    for (uint32_t S : {1U, 2U, 4U, 7U})
    {
        for (uint32_t M : {1U, 3U, 4U, 8U, 16U})
        {
            const auto p = PipelineSchedule::OneFOneB(S, M);
            CHECK(p.Check().empty());
            CheckDependencies(p, 1.0, 2.0);
            for (uint32_t s = 0; s < S; ++s)
            {
                uint32_t nf = 0;
                uint32_t nb = 0;
                for (const auto& op : p.GetOps(s))
                {
                    (op.type == PipelineOp::FORWARD ? nf : nb)++;
                }
                CHECK(nf == M);
                CHECK(nb == M);
                CHECK(p.GetMaxInFlight(s) == std::min(S - s, M));
            }
            // same bubble as GPipe with uniform stages
            CHECK(p.GetMakespan(1.0, 2.0) == Approx((M + S - 1) * 3.0));
        }
    }
    // stage 0 of 4 stages, 6 micro-batches: 3 warm-up forwards, then 1F1B, then drain
    const auto p = PipelineSchedule::OneFOneB(4, 6);
    std::string s0;
    for (const auto& op : p.GetOps(0))
    {
        s0 += op.ToString() + " ";
    }
    CHECK(s0 == "F0 F1 F2 F3 B0 F4 B1 F5 B2 B3 B4 B5 ");
    std::string s3;
    for (const auto& op : p.GetOps(3))
    {
        s3 += op.ToString() + " ";
    }
    CHECK(s3 == "F0 B0 F1 B1 F2 B2 F3 B3 F4 B4 F5 B5 ");
}

TEST_CASE("workload: pipeline checker rejects invalid schedules", "[workload]")
{
    using Op = PipelineOp;
    // backward before forward on one stage
    PipelineSchedule bad1({{Op::Backward(0), Op::Forward(0)}}, 1);
    CHECK(bad1.Check().find("backward before the forward") != std::string::npos);
    // missing op
    PipelineSchedule bad2({{Op::Forward(0)}}, 1);
    CHECK(bad2.Check().find("missing B0") != std::string::npos);
    // cross-stage deadlock: stage 0 waits for B0 before sending F1, stage 1 runs F1 before B0
    PipelineSchedule bad3({{Op::Forward(0), Op::Backward(0), Op::Forward(1), Op::Backward(1)},
                           {Op::Forward(0), Op::Forward(1), Op::Backward(0), Op::Backward(1)}},
                          2);
    CHECK(bad3.Check().find("deadlock") != std::string::npos);
    CHECK_THROWS_AS(bad3.Execute(1, 2), std::invalid_argument);
    CHECK_THROWS_WITH(PipelineSchedule::Gpipe(0, 4), Catch::Contains("stages"));
    CHECK_THROWS_WITH(PipelineSchedule::OneFOneB(4, 0), Catch::Contains("microBatches"));
    CHECK_THROWS_WITH(PipelineSchedule::Gpipe(2, 2).Execute(-1, 1), Catch::Contains("forwardTime"));
}
