/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The fluid network's acknowledgements travel in class 7 (the control class of the packet
// backend's acknowledgements): hand-solved rates where a flow's way back is loaded by data of
// a higher, the same or a lower class, groups whose acknowledgements cross their own data's
// links, the bytes per class, and the incremental recomputation against the component refill
// with acknowledgements everywhere.

#include "common/fluid-rates.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{
using Spec = FluidNetwork::FlowSpec;

const uint64_t kBig = 1000000000000ull; // 1 TB: nothing finishes in the checks below
const double kC = 10e9;                 // every link's capacity (bytes/s)

/// A flow of class `cls` on `path`, acknowledged with `share` per byte on `back`.
Spec
Acked(std::vector<uint32_t> path,
      std::vector<uint32_t> back,
      double share,
      uint8_t cls = 3,
      uint64_t bytes = kBig)
{
    Spec s;
    s.path = std::move(path);
    s.reversePath = std::move(back);
    s.reverseShare = share;
    s.bytes = bytes;
    s.cls = cls;
    return s;
}

/// A network of n links of kC bytes/s without delay.
Ptr<FluidNetwork>
Links(uint32_t n, bool incremental = true)
{
    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    net->SetAttribute("Incremental", BooleanValue(incremental));
    for (uint32_t l = 0; l < n; ++l)
    {
        net->AddLink(kC, Time(0));
    }
    return net;
}

/// Start the flows at t = 0 and return their rates 1 us later (bytes/s); `check` runs then.
std::vector<double>
Rates(Ptr<FluidNetwork> net,
      const std::vector<Spec>& specs,
      std::function<void()> check = std::function<void()>())
{
    return mlnettest::FluidRatesAt(net, specs, MicroSeconds(1), check);
}
} // namespace

TEST_CASE("flow: a low class is not starved by a higher class on its way back", "[flow]")
{
    // L (class 1) on link 0, acknowledged on link 1 with 0.1 B per byte; H (class 5) on link 1.
    // The acknowledgements are served first on link 1: L gets link 0 (10), its acknowledgements
    // take 1 of link 1, H the other 9. (With the acknowledgements in L's class, H took all of
    // link 1 and L froze at 0.)
    std::vector<double> r = Rates(Links(2), {Acked({0}, {1}, 0.1, 1), Acked({1}, {}, 0, 5)});
    CHECK(r[0] == Approx(kC));
    CHECK(r[1] == Approx(kC - 0.1 * kC));
    // The same with H in class 7 (data of the control class: the acknowledgements still first).
    r = Rates(Links(2), {Acked({0}, {1}, 0.1, 1), Acked({1}, {}, 0, 7)});
    CHECK(r[0] == Approx(kC));
    CHECK(r[1] == Approx(0.9 * kC));
}

TEST_CASE("flow: a link carrying only a flow's acknowledgements does not stop it", "[flow]")
{
    // Within one class: f on link 0 acknowledged on link 1, g on link 1. f is alone on link 0
    // (10); its acknowledgements (1) come first on link 1, g gets the rest (9). (Filled in the
    // class, f froze with g at 10 / 1.1.)
    std::vector<double> r = Rates(Links(2), {Acked({0}, {1}, 0.1), Acked({1}, {}, 0)});
    CHECK(r[0] == Approx(kC));
    CHECK(r[1] == Approx(0.9 * kC));
    // Two flows on link 0 share it (5 each); their acknowledgements take 2 x 0.5 of link 1
    // whatever their class, and g (class 2) gets 9.
    r = Rates(Links(2),
              {Acked({0}, {1}, 0.1, 4), Acked({0}, {1}, 0.1, 4), Acked({1}, {}, 0, 2)},
              std::function<void()>());
    CHECK(r[0] == Approx(kC / 2));
    CHECK(r[1] == Approx(kC / 2));
    CHECK(r[2] == Approx(0.9 * kC));
}

TEST_CASE("flow: acknowledgements both ways across classes reach a fixed point", "[flow]")
{
    // A (class 5) on link 0 acknowledged on link 1, B (class 1) on link 1 acknowledged on link
    // 0: each link carries one flow's data and the other's acknowledgements, served first:
    // a = 10 - 0.1 b, b = 10 - 0.1 a, so a = b = 10 / 1.1. (In the flows' classes A took link
    // 0 whole and B, whose acknowledgements found no room there, froze at 0.)
    Ptr<FluidNetwork> net = Links(2);
    std::vector<double> r = Rates(net, {Acked({0}, {1}, 0.1, 5), Acked({1}, {0}, 0.1, 1)}, [&]() {
        CHECK(net->GetLinkLoad(0) == Approx(kC));
        CHECK(net->GetLinkLoad(1) == Approx(kC));
        CHECK(net->GetFillings() >= 2); // the second counts B's acknowledgements at its rate
    });
    CHECK(r[0] == Approx(kC / 1.1).epsilon(1e-6));
    CHECK(r[1] == Approx(kC / 1.1).epsilon(1e-6));
    // Both in one class: the same rates.
    r = Rates(Links(2), {Acked({0}, {1}, 0.1), Acked({1}, {0}, 0.1)});
    CHECK(r[0] == Approx(kC / 1.1).epsilon(1e-6));
    CHECK(r[1] == Approx(kC / 1.1).epsilon(1e-6));
}

TEST_CASE("flow: a ring's uplinks carry each member's data and its predecessor's "
          "acknowledgements",
          "[flow]")
{
    // Three hosts on a switch: uplinks 0-2, downlinks 3-5. Member i sends from host i to host
    // i+1 (uplink i, downlink i+1) and is acknowledged back (uplink i+1, downlink i). Every
    // uplink carries a member's data and its predecessor's acknowledgements, every downlink the
    // same: r + 0.1 r = 10, r = 10 / 1.1 for each, in one class or in three.
    for (bool mixed : {false, true})
    {
        std::vector<Spec> ring;
        for (uint32_t i = 0; i < 3; ++i)
        {
            const uint32_t next = (i + 1) % 3;
            ring.push_back(
                Acked({i, 3 + next}, {next, 3 + i}, 0.1, mixed ? uint8_t(2 + i) : uint8_t(3)));
        }
        INFO("mixed classes: " << mixed);
        std::vector<double> r = Rates(Links(6), ring);
        for (double x : r)
        {
            CHECK(x == Approx(kC / 1.1).epsilon(1e-6));
        }
    }
}

TEST_CASE("flow: acknowledgements share a link with other data as before where they stop no "
          "one",
          "[flow]")
{
    // The former test "acknowledgements load the way back" with a third flow on link 1: ab
    // (link 0, acknowledged on 1), ba (link 1, acknowledged on 0), c (link 1). Acknowledgements
    // first: ab = 10 - 0.1 ba; ba and c share link 1 less ab's acknowledgements: 2 T = 10 -
    // 0.1 ab. So T = 9 / 1.99 and ab = 10 - 0.1 T. (In the class, ab froze with link 1 at
    // 10 / 2.1.)
    Ptr<FluidNetwork> net = Links(2);
    std::vector<double> r =
        Rates(net, {Acked({0}, {1}, 0.1), Acked({1}, {0}, 0.1), Acked({1}, {}, 0)}, [&]() {
            CHECK(net->GetLinkLoad(0) == Approx(kC));
            CHECK(net->GetLinkLoad(1) == Approx(kC));
        });
    const double t = 9e9 / 1.99;
    CHECK(r[1] == Approx(t).epsilon(1e-6));
    CHECK(r[2] == Approx(t).epsilon(1e-6));
    CHECK(r[0] == Approx(kC - 0.1 * t).epsilon(1e-6));
}

TEST_CASE("flow: a group's acknowledgements on its own data's links rise with it", "[flow]")
{
    // A group (FlowSpec::reverseCoef) on links 0 and 1 whose members acknowledge each other:
    // 0.1 per byte on link 0 (also its data's) and 0.2 on link 2 (not). Link 0: r + 0.1 r = 10
    // -> r = 10 / 1.1; link 2 carries 0.2 r of acknowledgements, and a flow of class 6 there the
    // rest. A later flow of class 6 on link 0 takes what the group's acknowledgements leave
    // above the group's class: the group gets nothing more of link 0's data, so its rate falls
    // to 0 and the class-6 flow gets all 10.
    Spec g;
    g.path = {0, 1};
    g.pathCoef = {1, 1};
    g.reversePath = {0, 2};
    g.reverseCoef = {0.1, 0.2};
    g.bytes = kBig;
    Ptr<FluidNetwork> net = Links(3);
    std::vector<double> r = Rates(net, {g, Acked({2}, {}, 0, 6)}, [&]() {
        CHECK(net->GetLinkLoad(0) == Approx(kC));
        CHECK(net->GetLinkLoad(2) == Approx(kC));
    });
    CHECK(r[0] == Approx(kC / 1.1));
    CHECK(r[1] == Approx(kC - 0.2 * kC / 1.1));
    r = Rates(Links(3), {g, Acked({0}, {}, 0, 6)});
    CHECK(r[0] == Approx(0).margin(1e-3));
    CHECK(r[1] == Approx(kC));
    // Bad shares are refused, naming the field.
    Ptr<FluidNetwork> bad = Links(3);
    Spec wrong = g;
    wrong.reverseCoef = {0.1};
    CHECK_THROWS_WITH(bad->StartFlow(wrong), Catch::Contains("reverseCoef"));
    wrong.reverseCoef = {0.1, -1};
    CHECK_THROWS_WITH(bad->StartFlow(wrong), Catch::Contains("reverseCoef"));
    wrong = g;
    wrong.reversePath = {2, 2};
    CHECK_THROWS_WITH(bad->StartFlow(wrong), Catch::Contains("reverse path"));
    Simulator::Destroy();
}

TEST_CASE("flow: acknowledgements are carried and shared as class 7", "[flow]")
{
    // f (class 1, 1 MB) on link 0 acknowledged on link 1 with 0.1: link 1 carries 0.1 MB in
    // class 7 and nothing in class 1. A newcomer of class 5 on link 1 would get 10 - 1.
    Ptr<FluidNetwork> net = Links(2);
    Simulator::ScheduleNow([&]() { net->StartFlow(Acked({0}, {1}, 0.1, 1, 1000000)); });
    Simulator::Schedule(NanoSeconds(50000), [&]() {
        CHECK(net->GetLinkShare(1, 5, 1, {}) == Approx(0.9 * kC));
        CHECK(net->GetLinkShare(1, 0, 1, {}) == Approx(0.9 * kC));
    });
    Simulator::Run();
    net->Advance();
    CHECK(net->GetLinkClassBytes(0, 1) == Approx(1e6));
    CHECK(net->GetLinkClassBytes(1, 1) == 0);
    CHECK(net->GetLinkClassBytes(1, 7) == Approx(1e5));
    CHECK(net->GetLinkBytes(1) == Approx(1e5));
    Simulator::Destroy();
}

namespace
{
/// Per flow: when it was delivered (ns), for a random run on a small network where every flow
/// is acknowledged on another random path, in random classes; the links' bytes per class are
/// checked against the flows' (acknowledgements in class 7), and the links' loads against
/// their capacities at every start.
std::vector<int64_t>
AckedRun(bool incremental, uint64_t* fillings)
{
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(21);
    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    net->SetAttribute("Incremental", BooleanValue(incremental));
    const uint32_t nLinks = 24;
    for (uint32_t l = 0; l < nLinks; ++l)
    {
        net->AddLink(u->GetValue(2e9, 10e9), NanoSeconds(u->GetInteger(0, 1000)));
    }
    auto path = [&u, nLinks](uint32_t hops, const std::vector<uint32_t>& avoid) {
        std::vector<uint32_t> p;
        while (p.size() < hops)
        {
            const uint32_t l = u->GetInteger(0, nLinks - 1);
            if (std::find(p.begin(), p.end(), l) == p.end() &&
                std::find(avoid.begin(), avoid.end(), l) == avoid.end())
            {
                p.push_back(l);
            }
        }
        return p;
    };
    const uint32_t nFlows = 300;
    std::vector<int64_t> delivered(nFlows, -1);
    std::vector<std::vector<double>> byClass(nLinks, std::vector<double>(8, 0.0));
    double overload = 0;
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        Spec s;
        s.path = path(u->GetInteger(1, 4), {});
        s.reversePath = path(u->GetInteger(0, 4), s.path);
        s.reverseShare = u->GetValue() < 0.8 ? 84.0 / 1082 : u->GetValue(0.01, 0.5);
        s.bytes = u->GetInteger(1000, 3000000);
        s.cls = uint8_t(u->GetValue() < 0.5 ? 3 : u->GetInteger(0, 7));
        s.weight = u->GetValue() < 0.7 ? 1.0 : u->GetValue(0.5, 4);
        s.rateCap = u->GetValue() < 0.2 ? u->GetValue(1e8, 5e9) : 0;
        s.delivered = Callback<void, uint64_t>(
            [&delivered, i](uint64_t) { delivered[i] = Simulator::Now().GetNanoSeconds(); });
        for (uint32_t l : s.path)
        {
            byClass[l][s.cls] += double(s.bytes);
        }
        for (uint32_t l : s.reversePath)
        {
            byClass[l][7] += double(s.bytes) * s.reverseShare;
        }
        Simulator::Schedule(NanoSeconds(u->GetInteger(0, 2000000)), [net, s, &overload, nLinks]() {
            net->StartFlow(s);
            Simulator::ScheduleNow([net, &overload, nLinks]() {
                // after the recomputation of this instant
                for (uint32_t l = 0; l < nLinks; ++l)
                {
                    overload = std::max(overload, net->GetLinkLoad(l) / net->GetLinkCapacity(l));
                }
            });
        });
    }
    Simulator::Run();
    net->Advance();
    CHECK(overload <= 1.0 + 1e-6); // the acknowledgements are solved to 1e-7 of a link
    for (uint32_t l = 0; l < nLinks; ++l)
    {
        for (uint8_t c = 0; c < 8; ++c)
        {
            INFO("link " << l << " class " << int(c));
            CHECK(net->GetLinkClassBytes(l, c) == Approx(byClass[l][c]).epsilon(1e-9).margin(1e-3));
        }
    }
    *fillings = net->GetFillings();
    // One filling of the incremental run (a fifth of the flows have acknowledgement shares of
    // 0.01-0.5, far above a packet's 84/1082) stops at MaxAckFillings unconverged: counted.
    CHECK(net->GetUnconvergedFillings() <= 1);
    Simulator::Destroy();
    return delivered;
}
} // namespace

TEST_CASE("flow: with acknowledgements everywhere the incremental recomputation gives the "
          "component refill's times",
          "[flow]")
{
    uint64_t incremental = 0;
    uint64_t reference = 0;
    const std::vector<int64_t> a = AckedRun(true, &incremental);
    const std::vector<int64_t> b = AckedRun(false, &reference);
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
    {
        INFO("flow " << i);
        REQUIRE(a[i] > 0);
        CHECK(std::abs(a[i] - b[i]) <= 1); // ns: up to the rounding of the rates
    }
    CHECK(incremental > 0);
    CHECK(reference > 0);
}
