/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Echelon's claim on the case it was designed for (Pan et al., HotNets 2022): a pipeline's
// micro-batch flows are consumed one after the other (A(i) = i x t_mb), so finishing them all
// together, as coflow scheduling does, delays the consumer. Fluid model, every number derived
// by hand below.

#include "common/flow-test-builders.h"

#include "ns3/echelon-flow-policy.h"
#include "ns3/fluid-flow-model.h"
#include "ns3/madd-coflow-policy.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

using namespace ns3;
using namespace mlnettest;

namespace
{

const double ms = 1e-3;

/**
 * Two EchelonFlows on ports at 1 GB/s (1 MB = 1 ms):
 *  - group 1, a network-bound pipeline link 0 -> 1: micro-batches p0, p1, p2 of 1 MB released
 *    at 0, 0.5 and 1.0 ms (the producer's stage time t_mb = 0.5 ms is shorter than a transfer);
 *  - group 2, a coflow of another job released at 0.25 ms: c1 = 2 -> 1 (1 MB, on the consumer's
 *    downlink) and c2 = 3 -> 4 (1 MB, on ports of its own).
 * \return fluid results in the order p0, p1, p2, c1, c2
 */
std::vector<FluidFlowResult>
StaggeredCase(Ptr<FlowSchedulingPolicy> policy)
{
    FluidFlowModel m(policy);
    for (uint32_t q = 0; q < 5; ++q)
    {
        m.SetPort(q, GB, GB);
    }
    m.DeclareGroup(Group(1, FlowArrangement::Pipeline, 0.5 * ms));
    m.DeclareGroup(Group(2, FlowArrangement::Coflow));
    for (uint32_t i = 0; i < 3; ++i)
    {
        m.AddFlow(Flow(i, 1, 0, 1, MB, i), 0.5 * ms * i);
    }
    m.AddFlow(Flow(10, 2, 2, 1, MB), 0.25 * ms);
    m.AddFlow(Flow(11, 2, 3, 4, MB), 0.25 * ms);
    return m.Run();
}

/// \return when the consumer (stage 1, forward 0.5 ms per micro-batch, in order) is done
double
ConsumerEnd(const std::vector<FluidFlowResult>& r)
{
    double t = 0;
    for (uint32_t i = 0; i < 3; ++i)
    {
        t = std::max(t, r[i].finish) + 0.5 * ms;
    }
    return t;
}

} // namespace

TEST_CASE("echelon: staggered micro-batches reach the consumer one by one, coflow scheduling "
          "holds them to the end",
          "[flow-scheduling]")
{
    // Ideal finish times over the whole groups: the pipeline's d_ref = max_i (0 + (i+1) ms -
    // i x 0.5 ms) = 2 ms (the last micro-batch governs), so D = 2, 2.5, 3 ms; the coflow's
    // D = 0.25 ms + Gamma (1 ms) = 1.25 ms.
    const std::vector<double> ideal = {2 * ms, 2.5 * ms, 3 * ms, 1.25 * ms, 1.25 * ms};
    //
    // Echelon (EDD across tiers, tier = equal D in a group; D as known at each decision):
    //  0    : only p0 known, D0 = 1 ms: p0 at 1 GB/s on 0 -> 1.
    //  0.25 : coflow D = 1.25 > D0: p0 keeps downlink 1; c1 (needs downlink 1) is paused,
    //         c2 is backfilled on its free ports and ends at 1.25 ms.
    //  0.5  : p1 known: d_ref = max(1, 2 - 0.5) = 1.5, D0 = 1.5, D1 = 2 > 1.25: the coflow's
    //         tier comes first, c1 takes downlink 1 (0.5-1.5 ms); p0 (0.5 MB left) waits.
    //  1.0  : p2 known: D = 2, 2.5, 3 ms.
    //  1.5  : c1 done; p0 1.5-2.0, p1 2.0-3.0, p2 3.0-4.0 ms, one after the other.
    // Tardiness: c1 1.5 - 1.25 = 0.25, p2 4 - 3 = 1 ms (the optimum: downlink 1 carries 4 MB
    // from 0, so the last flow ends at 4 ms; ending p2 there costs 1 ms, any other flow more).
    auto e = StaggeredCase(CreateObject<EchelonFlowPolicy>());
    for (std::size_t i = 0; i < ideal.size(); ++i)
    {
        CHECK(e[i].idealFinish == Approx(ideal[i]));
    }
    CHECK(e[0].finish == Approx(2 * ms)); // the consumer starts at 2 ms
    CHECK(e[1].finish == Approx(3 * ms));
    CHECK(e[2].finish == Approx(4 * ms));
    CHECK(e[3].finish == Approx(1.5 * ms));
    CHECK(e[4].finish == Approx(1.25 * ms));
    CHECK(MaxTardiness(e, ideal) == Approx(1 * ms));
    // consumer: forwards 2.0-2.5, 3.0-3.5, 4.0-4.5 ms
    CHECK(ConsumerEnd(e) == Approx(4.5 * ms));
    //
    // MADD (smallest bottleneck first, flows of a coflow finish together):
    //  0    : p0 alone.
    //  0.25 : pipeline Gamma 0.75 < coflow 1: p0 first, c1 paused, c2 backfilled.
    //  0.5  : pipeline {0.5, 1} MB: Gamma 1.5 > coflow {c1 1, c2 0.75}: Gamma 1: coflow first,
    //         c1 takes downlink 1 until 1.5 ms (c2 ends at 1.25 ms).
    //  1.0  : pipeline {0.5, 1, 1} MB: 2.5 ms > c1's 0.5 ms: c1 keeps going.
    //  1.5  : the pipeline alone, MADD rates 0.2, 0.4, 0.4 GB/s: p0, p1, p2 all end at 4 ms.
    // Tardiness: p0 4 - 2 = 2 ms; the consumer starts at 4 ms and ends at 5.5 ms.
    auto c = StaggeredCase(CreateObject<MaddCoflowPolicy>());
    CHECK(c[0].finish == Approx(4 * ms));
    CHECK(c[1].finish == Approx(4 * ms));
    CHECK(c[2].finish == Approx(4 * ms));
    CHECK(c[3].finish == Approx(1.5 * ms));
    CHECK(c[4].finish == Approx(1.25 * ms));
    CHECK(MaxTardiness(c, ideal) == Approx(2 * ms));
    CHECK(ConsumerEnd(c) == Approx(5.5 * ms));
    // the claim: same bytes, same last finish (4 ms), but Echelon hands micro-batch 0 to the
    // consumer 2 ms earlier and halves the maximum tardiness
    CHECK(e[0].finish < c[0].finish);
    CHECK(MaxTardiness(e, ideal) < MaxTardiness(c, ideal));
}
