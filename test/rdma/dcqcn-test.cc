/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Unit tests of the RDMA congestion-control state machines (DCQCN, vendor DCQCN, fixed rate,
// aggressiveness profile), driven by hand-made CNP / timer / byte sequences and compared with
// rates computed by hand from the equations.

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/dcqcn-profile.h"
#include "ns3/dcqcn-vendor.h"
#include "ns3/dcqcn.h"
#include "ns3/double.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-fixed-rate.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

using namespace ns3;

namespace
{

constexpr double kLine = 100e9; // line rate in the tests (bit/s)
constexpr double kG = 1.0 / 256.0;
constexpr double kRai = 40e6;
constexpr double kRhai = 200e6;

Time
Us(double us)
{
    return MicroSeconds(1) * us;
}

/// A state machine under test with its queue-pair state, initialised at t = 0.
template <class T>
struct Qp
{
    Ptr<T> cc;
    RdmaCcState s;

    Qp()
        : cc(CreateObject<T>())
    {
        s.lineRate = kLine;
    }

    void Init()
    {
        cc->Init(s, Seconds(0));
    }

    void Cnp(Time t)
    {
        cc->Advance(s, t);
        cc->OnCnp(s, t);
    }

    void At(Time t)
    {
        cc->Advance(s, t);
    }

    void Send(uint32_t bytes, Time t)
    {
        cc->Advance(s, t);
        cc->OnSent(s, bytes, t);
    }
};

std::vector<double> g_rateTrace;

void
RecordRate(double oldValue, double newValue)
{
    g_rateTrace.push_back(newValue);
}

} // namespace

TEST_CASE("rdma: dcqcn cnp cuts rate by alpha/2", "[rdma]")
{
    Qp<Dcqcn> q;
    q.Init();
    REQUIRE(q.s.rate == kLine);
    REQUIRE(q.cc->GetAlpha() == 1.0);
    q.Cnp(Seconds(0));
    // alpha = 1: Rc halves, Rt keeps the rate before the cut, alpha = (1-g)*1 + g = 1
    CHECK(q.s.rate == Approx(kLine / 2));
    CHECK(q.s.targetRate == Approx(kLine));
    CHECK(q.cc->GetAlpha() == Approx(1.0));
    // A second CNP 10 us later (no timer has expired): Rt = Rc (ClampTargetRate = true), halve
    q.Cnp(Us(10));
    CHECK(q.s.targetRate == Approx(kLine / 2));
    CHECK(q.s.rate == Approx(kLine / 4));
}

TEST_CASE("rdma: dcqcn alpha decays by (1-g)^k over k alpha-timer periods", "[rdma]")
{
    Qp<Dcqcn> q;
    q.Init();
    q.At(Us(54));
    CHECK(q.cc->GetAlpha() == 1.0);
    q.At(Us(55));
    CHECK(q.cc->GetAlpha() == Approx(1.0 - kG));
    // 10 periods in total, applied lazily in one Advance call
    q.At(Us(10 * 55 + 54));
    double a10 = std::pow(1.0 - kG, 10);
    CHECK(q.cc->GetAlpha() == Approx(a10).epsilon(1e-12));

    // A CNP at 600 us cuts with the current alpha and raises it, then restarts the alpha timer
    q.Cnp(Us(600));
    CHECK(q.s.rate == Approx(kLine * (1.0 - a10 / 2)));
    double a = (1.0 - kG) * a10 + kG;
    CHECK(q.cc->GetAlpha() == Approx(a).epsilon(1e-12));
    q.At(Us(654)); // the old timer phase (605, 660 us) no longer applies
    CHECK(q.cc->GetAlpha() == Approx(a).epsilon(1e-12));
    q.At(Us(655));
    CHECK(q.cc->GetAlpha() == Approx(a * (1.0 - kG)).epsilon(1e-12));
}

TEST_CASE("rdma: dcqcn fast recovery converges towards Rt over 5 stages", "[rdma]")
{
    Qp<Dcqcn> q;
    q.Init();
    q.Cnp(Seconds(0)); // Rt = 100G, Rc = 50G
    double rt = kLine;
    double rc = kLine / 2;
    for (int k = 1; k <= 5; ++k)
    {
        q.At(Us(55 * k));
        rc = (rt + rc) / 2;
        CHECK(q.cc->GetTimerStage() == uint64_t(k));
        CHECK(q.s.rate == Approx(rc));
        CHECK(q.s.targetRate == Approx(rt));
        // distance to Rt halves each stage: Rt - Rc = 50G / 2^k
        CHECK(rt - q.s.rate == Approx(50e9 / std::pow(2.0, k)));
    }
    CHECK(q.s.rate == Approx(98.4375e9));
}

TEST_CASE("rdma: dcqcn additive increase adds R_AI to Rt after F stages", "[rdma]")
{
    Qp<Dcqcn> q;
    q.Init();
    q.Cnp(Seconds(0)); // Rt = 100G, Rc = 50G
    q.Cnp(Us(1));      // Rt = 50G, Rc = 25G (alpha still 1)
    REQUIRE(q.s.targetRate == Approx(50e9));
    REQUIRE(q.s.rate == Approx(25e9));
    double rt = 50e9;
    double rc = 25e9;
    for (int k = 1; k <= 5; ++k) // fast recovery, timer expiries at 1 + 55k us
    {
        q.At(Us(1 + 55 * k));
        rc = (rt + rc) / 2;
    }
    CHECK(q.s.rate == Approx(49.21875e9));
    CHECK(q.s.targetRate == Approx(50e9));
    for (int k = 6; k <= 8; ++k) // timer stage > F, byte stage 0: additive increase
    {
        q.At(Us(1 + 55 * k));
        rt += kRai;
        rc = (rt + rc) / 2;
        CHECK(q.s.targetRate == Approx(rt).epsilon(1e-12));
        CHECK(q.s.rate == Approx(rc).epsilon(1e-12));
    }
    CHECK(q.s.targetRate == Approx(50.12e9).epsilon(1e-12));
}

TEST_CASE("rdma: dcqcn hyper increase adds i*R_HAI when both stages pass F", "[rdma]")
{
    Qp<Dcqcn> q;
    q.cc->SetFastRecoveryStages(1);
    q.cc->SetByteCounter(1000);
    q.Init();
    q.Cnp(Seconds(0));
    q.Cnp(Us(1)); // Rt = 50G, Rc = 25G
    q.At(Us(56)); // T=1, B=0: fast recovery
    CHECK(q.s.rate == Approx(37.5e9));
    q.Send(1000, Us(57)); // T=1, B=1: fast recovery
    CHECK(q.s.rate == Approx(43.75e9));
    CHECK(q.cc->GetByteStage() == 1);
    q.At(Us(111)); // T=2, B=1: additive
    CHECK(q.s.targetRate == Approx(50.04e9).epsilon(1e-12));
    CHECK(q.s.rate == Approx(46.895e9).epsilon(1e-12));
    q.Send(1000, Us(112)); // T=2, B=2: hyper, i = 1
    CHECK(q.s.targetRate == Approx(50.24e9).epsilon(1e-12));
    CHECK(q.s.rate == Approx(48.5675e9).epsilon(1e-12));
    q.At(Us(166)); // T=3, B=2: hyper, i = min(3,2) - 1 = 1
    CHECK(q.s.targetRate == Approx(50.44e9).epsilon(1e-12));
    CHECK(q.s.rate == Approx(49.50375e9).epsilon(1e-12));
    q.Send(1000, Us(167)); // T=3, B=3: hyper, i = 2
    CHECK(q.s.targetRate == Approx(50.84e9).epsilon(1e-12));
    CHECK(q.s.rate == Approx(50.171875e9).epsilon(1e-12));
}

TEST_CASE("rdma: dcqcn byte counter advances the byte stage every B bytes", "[rdma]")
{
    Qp<Dcqcn> q;
    q.Init();
    q.Send(20000000, Us(1)); // before the first cut the byte counter does not run
    CHECK(q.cc->GetByteStage() == 0);
    q.Cnp(Us(2)); // Rt = 100G, Rc = 50G
    for (int i = 0; i < 9999; ++i)
    {
        q.Send(1000, Us(3));
    }
    CHECK(q.cc->GetByteStage() == 0);
    CHECK(q.s.rate == Approx(50e9));
    q.Send(1000, Us(3)); // the 10,000,000th byte
    CHECK(q.cc->GetByteStage() == 1);
    CHECK(q.cc->GetTimerStage() == 0);
    CHECK(q.s.rate == Approx(75e9));
    q.Send(10000000, Us(4)); // one more B: second fast-recovery step
    CHECK(q.cc->GetByteStage() == 2);
    CHECK(q.s.rate == Approx(87.5e9));
    // A CNP resets both stages
    q.Cnp(Us(5));
    CHECK(q.cc->GetByteStage() == 0);
    CHECK(q.cc->GetTimerStage() == 0);
}

TEST_CASE("rdma: dcqcn clamps rates to the minimum rate", "[rdma]")
{
    Qp<Dcqcn> q;
    q.Init();
    for (int k = 1; k <= 9; ++k)
    {
        q.Cnp(Us(k)); // alpha stays 1: halve each time
    }
    CHECK(q.s.rate == Approx(kLine / 512)); // 195.3125 Mb/s
    q.Cnp(Us(10));
    CHECK(q.s.rate == Approx(100e6)); // 97.66 Mb/s clamped to MinRate
    q.Cnp(Us(11));
    CHECK(q.s.rate == Approx(100e6));
    CHECK(q.s.targetRate == Approx(100e6));
}

TEST_CASE("rdma: dcqcn ClampTargetRate=false keeps Rt across cuts without recovery", "[rdma]")
{
    Qp<Dcqcn> q;
    q.cc->SetClampTargetRate(false);
    q.Init();
    q.Cnp(Seconds(0));
    CHECK(q.s.targetRate == Approx(kLine));
    q.Cnp(Us(1)); // no increase since the last cut: Rt unchanged
    CHECK(q.s.targetRate == Approx(kLine));
    CHECK(q.s.rate == Approx(25e9));
    q.At(Us(56)); // one fast-recovery event
    CHECK(q.s.rate == Approx(62.5e9));
    q.Cnp(Us(57)); // an increase happened: Rt = Rc
    CHECK(q.s.targetRate == Approx(62.5e9));
}

TEST_CASE("rdma: dcqcn iteration-aware gain scales the increase step", "[rdma]")
{
    auto run = [](double slope, double intercept, uint64_t sent) {
        Qp<Dcqcn> q;
        q.cc->SetFastRecoveryStages(1);
        q.cc->SetIterGainSlope(slope);
        q.cc->SetIterGainIntercept(intercept);
        q.s.iterationBytes = 1000;
        q.s.iterationSent = sent;
        q.Init();
        q.Cnp(Seconds(0));
        q.Cnp(Us(1));  // Rt = 50G
        q.At(Us(56));  // fast recovery
        q.At(Us(111)); // additive increase
        return std::make_pair(q.cc->GetIterationGain(q.s), q.s.targetRate);
    };
    auto [g0, rt0] = run(0.0, 1.0, 500); // defaults: plain DCQCN
    CHECK(g0 == 1.0);
    CHECK(rt0 == Approx(50e9 + kRai).epsilon(1e-12));
    auto [g1, rt1] = run(1.0, 0.5, 500); // F(0.5) = 1.0
    CHECK(g1 == Approx(1.0));
    CHECK(rt1 == Approx(50e9 + kRai).epsilon(1e-12));
    auto [g2, rt2] = run(1.0, 0.5, 1000); // F(1) = 1.5
    CHECK(g2 == Approx(1.5));
    CHECK(rt2 == Approx(50e9 + 1.5 * kRai).epsilon(1e-12));
    auto [g3, rt3] = run(1.0, 0.5, 0); // F(0) = 0.5
    CHECK(g3 == Approx(0.5));
    CHECK(rt3 == Approx(50e9 + 0.5 * kRai).epsilon(1e-12));
    auto [g4, rt4] = run(-2.0, 0.5, 1000); // F(1) = -1.5, clamped to 0: no increase
    CHECK(g4 == 0.0);
    CHECK(rt4 == Approx(50e9));
}

TEST_CASE("rdma: dcqcn returns to line rate after a long idle period", "[rdma]")
{
    Qp<Dcqcn> q;
    q.Init();
    q.Cnp(Seconds(0));
    g_rateTrace.clear();
    q.cc->TraceConnectWithoutContext("Rate", MakeCallback(&RecordRate));
    q.At(Seconds(1));
    CHECK(q.s.rate == kLine);
    CHECK(q.s.targetRate == kLine);
    CHECK(q.cc->GetTimerStage() == 1000000 / 55); // every expiry counted
    CHECK(q.cc->GetAlpha() == Approx(std::pow(1.0 - kG, 1000000 / 55)).epsilon(1e-9));
    REQUIRE(g_rateTrace.size() >= 2);
    CHECK(g_rateTrace[0] == Approx(75e9));
    CHECK(g_rateTrace.back() == kLine);
}

TEST_CASE("rdma: dcqcn vendor cuts at most once per decrease interval", "[rdma]")
{
    Qp<DcqcnVendor> q;
    q.Init();
    q.Cnp(Us(10)); // first CNP: alpha = 1, checks start; no cut yet
    CHECK(q.s.rate == kLine);
    CHECK(q.cc->GetAlpha() == 1.0);
    q.At(Us(14)); // the check is at 14 us + 1 ns
    CHECK(q.s.rate == kLine);
    q.At(Us(14) + NanoSeconds(1));
    CHECK(q.s.rate == Approx(50e9));
    CHECK(q.s.targetRate == Approx(kLine)); // no increase since the first CNP: Rt kept
    // Three CNPs inside one interval: one cut at 18 us + 1 ns
    q.Cnp(Us(15));
    q.Cnp(Us(16));
    q.Cnp(Us(17));
    CHECK(q.s.rate == Approx(50e9));
    q.At(Us(18) + NanoSeconds(1));
    CHECK(q.s.rate == Approx(25e9));
    CHECK(q.s.targetRate == Approx(kLine));
    q.At(Us(50)); // no further CNP: no further cut
    CHECK(q.s.rate == Approx(25e9));
    // Alpha: updates every 55 us from the first CNP. At 65 us CNPs had arrived: (1-g) + g = 1;
    // at 120 us none: 1 - g.
    q.At(Us(65));
    CHECK(q.cc->GetAlpha() == Approx(1.0));
    q.At(Us(120));
    CHECK(q.cc->GetAlpha() == Approx(1.0 - kG));
    // Rate-increase timer restarted by the cut at 18.001 us: first event at 73.001 us
    CHECK(q.s.rate == Approx(62.5e9)); // fast recovery (100 + 25) / 2 at 73.001 us
}

TEST_CASE("rdma: dcqcn vendor timer-only increase: F recoveries, one AI, then constant HAI",
          "[rdma]")
{
    Qp<DcqcnVendor> q;
    q.Init();
    q.Cnp(Seconds(0));            // checks at 4.001 + 4k us, alpha updates at 55k us
    q.At(Us(4) + NanoSeconds(1)); // cut: Rc = 50G, Rt = 100G
    CHECK(q.s.rate == Approx(50e9));
    q.At(Us(59) + NanoSeconds(1)); // increase, stage 0: fast recovery
    CHECK(q.s.rate == Approx(75e9));
    q.Cnp(Us(60));
    q.At(Us(60) + NanoSeconds(1)); // cut: stage 1 != 0 so Rt = Rc; alpha = 1 - g since 55 us
    double rt = 75e9;
    double rc = 75e9 * (1.0 - (1.0 - kG) / 2);
    CHECK(q.cc->GetAlpha() == Approx(1.0 - kG));
    CHECK(q.s.targetRate == Approx(rt));
    CHECK(q.s.rate == Approx(rc));
    // Increase events at 60.001 + 55k us; stage before each event: 0..4 FR, 5 AI, 6, 7 HAI
    for (int k = 1; k <= 8; ++k)
    {
        q.At(Us(60 + 55 * k) + NanoSeconds(1));
        int s = k - 1;
        if (s == 5)
        {
            rt += kRai;
        }
        else if (s > 5)
        {
            rt += kRhai; // constant step, not i * R_HAI
        }
        rc = (rt + rc) / 2;
        CHECK(q.s.targetRate == Approx(rt).epsilon(1e-12));
        CHECK(q.s.rate == Approx(rc).epsilon(1e-12));
    }
    CHECK(q.s.targetRate == Approx(75e9 + kRai + 2 * kRhai).epsilon(1e-12));
    // No byte counter by default: sending changes nothing
    double before = q.s.rate;
    q.Send(100000000, Us(500));
    CHECK(q.s.rate == before);
}

TEST_CASE("rdma: dcqcn vendor ClampTargetRate=true sets Rt = Rc at every cut", "[rdma]")
{
    Qp<DcqcnVendor> q;
    q.cc->SetAttributeChecked("ClampTargetRate", BooleanValue(true));
    q.Init();
    q.Cnp(Seconds(0));
    q.At(Us(4) + NanoSeconds(1));
    CHECK(q.s.rate == Approx(50e9));
    q.Cnp(Us(5));
    q.At(Us(8) + NanoSeconds(1));
    CHECK(q.s.targetRate == Approx(50e9));
    CHECK(q.s.rate == Approx(25e9));
}

TEST_CASE("rdma: fixed rate ignores CNPs", "[rdma]")
{
    Qp<RdmaFixedRate> q;
    q.Init();
    CHECK(q.s.rate == kLine);
    q.Cnp(Us(1));
    q.At(Seconds(1));
    CHECK(q.s.rate == kLine);

    Qp<RdmaFixedRate> r;
    r.cc->SetAttribute("Rate", DataRateValue(DataRate("10Gbps")));
    r.Init();
    CHECK(r.s.rate == 10e9);
    Qp<RdmaFixedRate> over;
    over.cc->SetAttribute("Rate", DataRateValue(DataRate("400Gbps")));
    over.Init();
    CHECK(over.s.rate == kLine);
}

TEST_CASE("rdma: dcqcn profile is monotonic in aggressiveness", "[rdma]")
{
    DcqcnProfile unit(1.0);
    CHECK(unit.GetRateAi().GetBitRate() == Dcqcn::DEFAULT_RATE_AI);
    CHECK(unit.GetRateHai().GetBitRate() == Dcqcn::DEFAULT_RATE_HAI);
    CHECK(unit.GetRateIncreaseTimer() == MicroSeconds(55));
    CHECK(unit.GetG() == Dcqcn::DEFAULT_G);

    std::vector<double> as{0.1, 0.5, 1.0, 2.0, 4.0, 10.0};
    for (size_t i = 1; i < as.size(); ++i)
    {
        DcqcnProfile lo(as[i - 1]);
        DcqcnProfile hi(as[i]);
        CHECK(hi.GetRateAi() > lo.GetRateAi());
        CHECK(hi.GetRateHai() > lo.GetRateHai());
        CHECK(hi.GetRateIncreaseTimer() < lo.GetRateIncreaseTimer());
        CHECK(hi.GetG() < lo.GetG());
    }
    DcqcnProfile two(2.0);
    CHECK(two.GetRateAi().GetBitRate() == 80000000);
    CHECK(two.GetRateHai().GetBitRate() == 400000000);
    CHECK(two.GetRateIncreaseTimer().GetSeconds() == Approx(55e-6 / std::sqrt(2.0)).epsilon(1e-4));
    CHECK(two.GetG() == Approx(kG / 2));

    // Applied to an instance, and through a factory, to either DCQCN variant
    Ptr<Dcqcn> d = CreateObject<Dcqcn>();
    DcqcnProfile::Apply(d, 2.0);
    CHECK(d->GetRateAi().GetBitRate() == 80000000);
    CHECK(d->GetG() == Approx(kG / 2));
    CHECK(d->GetRateIncreaseTimer() == two.GetRateIncreaseTimer());
    ObjectFactory f;
    f.SetTypeId("ns3::DcqcnVendor");
    DcqcnProfile(0.5).Configure(f);
    Ptr<DcqcnVendor> v = f.Create<DcqcnVendor>();
    CHECK(v->GetRateHai().GetBitRate() == 100000000);
    CHECK(v->GetG() == Approx(2 * kG));
    CHECK(DcqcnProfile(3.0).GetAttributes().size() == 4);

    // A more aggressive profile recovers faster after the same cut
    Qp<Dcqcn> slow;
    Qp<Dcqcn> fast;
    DcqcnProfile::Apply(fast.cc, 4.0);
    slow.Init();
    fast.Init();
    slow.Cnp(Seconds(0));
    slow.Cnp(Us(1));
    fast.Cnp(Seconds(0));
    fast.Cnp(Us(1));
    slow.At(MilliSeconds(2));
    fast.At(MilliSeconds(2));
    CHECK(fast.s.rate > slow.s.rate);
}

TEST_CASE("rdma: dcqcn invalid parameters throw std::invalid_argument", "[rdma]")
{
    Ptr<Dcqcn> d = CreateObject<Dcqcn>();
    CHECK_THROWS_AS(d->SetG(0.0), std::invalid_argument);
    CHECK_THROWS_AS(d->SetG(1.5), std::invalid_argument);
    CHECK_THROWS_AS(d->SetG(std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
    CHECK_THROWS_WITH(d->SetG(2.0), Catch::Contains("G") && Catch::Contains("(0, 1]"));
    CHECK_NOTHROW(d->SetG(1.0));
    CHECK_THROWS_AS(d->SetInitialAlpha(-0.1), std::invalid_argument);
    CHECK_THROWS_AS(d->SetFastRecoveryStages(0), std::invalid_argument);
    CHECK_THROWS_AS(d->SetByteCounter(0), std::invalid_argument);
    CHECK_THROWS_AS(d->SetAlphaTimer(Seconds(0)), std::invalid_argument);
    CHECK_THROWS_AS(d->SetRateIncreaseTimer(MicroSeconds(-1)), std::invalid_argument);
    CHECK_THROWS_AS(d->SetRateAi(DataRate(0)), std::invalid_argument);
    CHECK_THROWS_AS(d->SetRateHai(DataRate(0)), std::invalid_argument);
    CHECK_THROWS_AS(d->SetMinRate(DataRate(0)), std::invalid_argument);
    CHECK_THROWS_AS(d->SetIterGainIntercept(-1.0), std::invalid_argument);
    CHECK_THROWS_AS(d->SetIterGainSlope(std::numeric_limits<double>::infinity()),
                    std::invalid_argument);

    // The attribute path used by the Python bindings throws instead of aborting
    CHECK_THROWS_WITH(d->SetAttributeChecked("G", DoubleValue(2.0)), Catch::Contains("G"));
    CHECK_THROWS_AS(d->SetAttributeChecked("G", StringValue("-1")), std::invalid_argument);
    CHECK_THROWS_AS(d->SetAttributeChecked("RateAI", DataRateValue(DataRate(0))),
                    std::invalid_argument);
    CHECK_THROWS_AS(d->SetAttributeChecked("RateAI", StringValue("fast")), std::invalid_argument);
    CHECK_THROWS_AS(d->SetAttributeChecked("FastRecoveryStages", UintegerValue(0)),
                    std::invalid_argument);
    CHECK_THROWS_AS(d->SetAttributeChecked("NoSuchParameter", DoubleValue(1)),
                    std::invalid_argument);
    d->SetAttributeChecked("RateAI", StringValue("80Mb/s"));
    CHECK(d->GetRateAi().GetBitRate() == 80000000);
    d->SetAttributeChecked("G", StringValue("0.5"));
    CHECK(d->GetG() == 0.5);
    CHECK_NOTHROW(d->Validate());

    // MinRate above the line rate is rejected at Init
    Ptr<Dcqcn> e = CreateObject<Dcqcn>();
    e->SetMinRate(DataRate("200Gbps"));
    RdmaCcState s;
    s.lineRate = kLine;
    CHECK_THROWS_AS(e->Init(s, Seconds(0)), std::invalid_argument);

    Ptr<DcqcnVendor> v = CreateObject<DcqcnVendor>();
    CHECK_THROWS_AS(v->SetRateDecreaseInterval(Seconds(0)), std::invalid_argument);
    CHECK_THROWS_AS(v->SetRateOnFirstCnp(0.0), std::invalid_argument);
    CHECK_THROWS_AS(v->SetAttributeChecked("G", DoubleValue(0.0)), std::invalid_argument);

    CHECK_THROWS_AS(DcqcnProfile(0.05), std::invalid_argument);
    CHECK_THROWS_AS(DcqcnProfile(11.0), std::invalid_argument);
    CHECK_THROWS_WITH(DcqcnProfile(0.0), Catch::Contains("[0.1, 10]"));
    CHECK_THROWS_AS(DcqcnProfile::Apply(nullptr, 1.0), std::invalid_argument);
}
