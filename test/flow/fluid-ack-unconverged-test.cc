/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The acknowledgement loads' fixed point (class 7) is solved in at most
// FluidNetwork::MaxAckFillings fillings: a filling that stops there unconverged is counted
// (GetUnconvergedFillings()), fires AckUnconverged and puts one warning in the run's summary;
// where it converges nothing is counted.

#include "common/fluid-rates.h"
#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{
using Spec = FluidNetwork::FlowSpec;

const double kC = 10e9; // every link's capacity (bytes/s)

/// A flow of class `cls` on link `data`, acknowledged with 0.1 B per byte on link `back`.
Spec
Acked(uint32_t data, uint32_t back, uint8_t cls)
{
    Spec s;
    s.path = {data};
    s.reversePath = {back};
    s.reverseShare = 0.1;
    s.bytes = 1000000000000ull; // nothing finishes in the checks
    s.cls = cls;
    return s;
}

/// The solver's counters after the two flows of the fixed-point case (see below) started.
struct Solved
{
    std::vector<double> rates; //!< A's and B's (bytes/s)
    uint64_t fillings{0};
    uint64_t unconverged{0};
    std::string warning;
    std::vector<std::tuple<uint32_t, uint32_t, double>> traced; //!< AckUnconverged's
};

/// AckUnconverged's sink: the call kept in `o`.
void
Traced(Solved* o, uint32_t flows, uint32_t fillings, double moved)
{
    o->traced.emplace_back(flows, fillings, moved);
}

/// A (class 5) on link 0 acknowledged on link 1, B (class 1) on link 1 acknowledged on link
/// 0, solved with at most `maxFillings` fillings: the fixed point a = b = 10 / 1.1 is reached
/// by a factor 0.1 per filling.
Solved
BothWays(uint32_t maxFillings)
{
    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    net->SetAttribute("MaxAckFillings", UintegerValue(maxFillings));
    net->AddLink(kC, Time(0));
    net->AddLink(kC, Time(0));
    Solved out;
    net->TraceConnectWithoutContext("AckUnconverged", MakeBoundCallback(&Traced, &out));
    out.rates = mlnettest::FluidRatesAt(net, {Acked(0, 1, 5), Acked(1, 0, 1)}, MicroSeconds(1));
    out.fillings = net->GetFillings();
    out.unconverged = net->GetUnconvergedFillings();
    out.warning = net->GetUnconvergedWarning();
    return out;
}
} // namespace

TEST_CASE("flow: acknowledgement loads that converge count no unconverged filling", "[flow]")
{
    const Solved s = BothWays(40); // the default
    CHECK(s.rates[0] == Approx(kC / 1.1).epsilon(1e-6));
    CHECK(s.rates[1] == Approx(kC / 1.1).epsilon(1e-6));
    CHECK(s.fillings >= 3); // (a factor 0.1 per filling down to 1e-7 of a link)
    CHECK(s.fillings < 40);
    CHECK(s.unconverged == 0);
    CHECK(s.warning.empty());
    CHECK(s.traced.empty());
}

TEST_CASE("flow: acknowledgement loads stopped at MaxAckFillings are counted, traced and "
          "warned of",
          "[flow]")
{
    // One filling: B's acknowledgements rose with it on link 0, which A (class 5) had filled;
    // they are taken as they are: A keeps 10 and B gets 10 - 0.1 x 10 = 9 on link 1.
    const Solved one = BothWays(1);
    CHECK(one.fillings == 1);
    CHECK(one.unconverged == 1);
    CHECK(one.rates[0] == Approx(kC));
    CHECK(one.rates[1] == Approx(0.9 * kC));
    REQUIRE(one.traced.size() == 1);
    CHECK(std::get<0>(one.traced[0]) == 2); // flows
    CHECK(std::get<1>(one.traced[0]) == 1); // fillings
    // B's acknowledgements (0.1 x 9) overfill link 0: 0.09 of it
    CHECK(std::get<2>(one.traced[0]) == Approx(0.09));
    INFO(one.warning);
    CHECK(one.warning.find("did not converge within FluidNetwork::MaxAckFillings = 1 fillings "
                           "1 times") != std::string::npos);
    CHECK(one.warning.find("--ns3::FluidNetwork::MaxAckFillings") != std::string::npos);
    // Three: closer (a factor 0.1 per filling), still counted.
    const Solved three = BothWays(3);
    CHECK(three.fillings == 3);
    CHECK(three.unconverged == 1);
    CHECK(three.rates[0] == Approx(kC / 1.1).epsilon(1e-3));
    REQUIRE(three.traced.size() == 1);
    CHECK(std::get<2>(three.traced[0]) > 1e-7);
    CHECK(std::get<2>(three.traced[0]) < std::get<2>(one.traced[0]));
}

TEST_CASE("flow: MaxAckFillings accepts 1 to 1000", "[flow]")
{
    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    CHECK_FALSE(net->SetAttributeFailSafe("MaxAckFillings", UintegerValue(0)));
    CHECK_FALSE(net->SetAttributeFailSafe("MaxAckFillings", UintegerValue(1001)));
    CHECK(net->SetAttributeFailSafe("MaxAckFillings", UintegerValue(1)));
    CHECK(net->SetAttributeFailSafe("MaxAckFillings", UintegerValue(1000)));
}

TEST_CASE("flow: a run whose acknowledgement loads did not converge says so in its summary",
          "[flow]")
{
    // Host 0 sends to host 1 in class 5, host 1 to host 0 in class 1: each uplink carries one
    // flow's data and the other's acknowledgements (the fixed point of the case above).
    const std::string text =
        R"({"topology": {"type": "dumbbell", "left": 1, "right": 1}, "backend": "flow",
            "traffic": [{"type": "rdma", "src": 0, "dst": 1, "bytes": "1MB", "class": 5},
                        {"type": "rdma", "src": 1, "dst": 0, "bytes": "1MB", "class": 1}],
            "duration": "100us", "drain": "1s"})";
    auto ackWarnings = [](const RunSummary& s) {
        std::vector<std::string> w;
        for (const std::string& x : s.warnings)
        {
            if (x.find("acknowledgement loads (class 7)") != std::string::npos)
            {
                w.push_back(x);
            }
        }
        return w;
    };
    const ScenarioResult converged = mlnettest::RunScenarioText(text);
    CHECK(converged.summary.drained);
    CHECK(ackWarnings(converged.summary).empty());
    Config::SetDefault("ns3::FluidNetwork::MaxAckFillings", UintegerValue(1));
    const ScenarioResult stopped = mlnettest::RunScenarioText(text);
    Config::SetDefault("ns3::FluidNetwork::MaxAckFillings", UintegerValue(40));
    CHECK(stopped.summary.drained);
    const std::vector<std::string> w = ackWarnings(stopped.summary);
    REQUIRE(w.size() == 1);
    INFO(w[0]);
    CHECK(w[0].find("MaxAckFillings = 1 ") != std::string::npos);
}
