/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// A link's reserve (FluidNetwork::SetLinkReserve: the aggregate background's load on the main
// network, without a flow) against hand-solved max-min rates and against the capped flow it
// stands for; FluidAggregate's LoadTolerance within its stated bound of the exact coupling;
// bad values rejected.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace ns3;

namespace
{
const uint64_t kBig = 1000000000000ull; // 1 TB: nothing finishes in the checks below

FluidNetwork::FlowSpec
Flow(std::vector<uint32_t> path, uint8_t cls, double cap = 0)
{
    FluidNetwork::FlowSpec s;
    s.path = std::move(path);
    s.bytes = kBig;
    s.cls = cls;
    s.rateCap = cap;
    return s;
}

/// \return the message of the std::invalid_argument f throws ("" if none)
std::string
Message(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}
} // namespace

TEST_CASE("flow: a link reserve takes the max-min share of a capped flow of weight 1", "[flow]")
{
    // Two 1000 B/s links. A (class 3) crosses l0 and l1, B (class 3) l0 only, C (class 3) l1.
    for (bool incremental : {true, false})
    {
        Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
        net->SetAttribute("Incremental", BooleanValue(incremental));
        const uint32_t l0 = net->AddLink(1000, Time(0));
        const uint32_t l1 = net->AddLink(1000, Time(0));
        uint64_t a = 0;
        uint64_t b = 0;
        uint64_t c = 0;
        std::vector<std::vector<double>> rates; // per check: A, B, C, reserve of l0 (class 6, 3)
        auto sample = [&]() {
            rates.push_back({net->GetRate(a),
                             net->GetRate(b),
                             net->GetRate(c),
                             net->GetLinkReserveRate(l0, 6),
                             net->GetLinkReserveRate(l0, 3)});
        };
        Simulator::Schedule(Seconds(0), [&]() {
            a = net->StartFlow(Flow({l0, l1}, 3));
            b = net->StartFlow(Flow({l0}, 3));
            c = net->StartFlow(Flow({l1}, 3));
        });
        Simulator::Schedule(Seconds(1), sample); // no reserve: 500 each
        // a class-6 reserve of 300 on l0: above class 3, A and B share 700
        Simulator::Schedule(Seconds(2), [&]() { net->SetLinkReserve(l0, 6, 300); });
        Simulator::Schedule(Seconds(3), sample);
        // then a class-3 reserve of 600 there too: A, B and it share 700 (233.3 each); C takes
        // the rest of l1
        Simulator::Schedule(Seconds(4), [&]() { net->SetLinkReserve(l0, 3, 600); });
        Simulator::Schedule(Seconds(5), sample);
        // the class-3 reserve lowered to 100: below the share, A and B 300 each
        Simulator::Schedule(Seconds(6), [&]() { net->SetLinkReserve(l0, 3, 100); });
        Simulator::Schedule(Seconds(7), sample);
        // the class-6 reserve asks for more than the link: it takes it all, class 3 nothing
        Simulator::Schedule(Seconds(8), [&]() { net->SetLinkReserve(l0, 6, 5000); });
        Simulator::Schedule(Seconds(9), sample);
        // both gone: back to 500 each
        Simulator::Schedule(Seconds(10), [&]() {
            net->SetLinkReserve(l0, 6, 0);
            net->SetLinkReserve(l0, 3, 0);
        });
        Simulator::Schedule(Seconds(11), sample);
        double bytes6 = -1;
        double bytes3 = -1;
        Simulator::Schedule(MilliSeconds(11500), [&]() {
            bytes6 = net->GetLinkReserveBytes(l0, 6);
            bytes3 = net->GetLinkReserveBytes(l0, 3);
        });
        Simulator::Stop(Seconds(12));
        Simulator::Run();
        REQUIRE(rates.size() == 6);
        const double third = 700.0 / 3;
        const std::vector<std::vector<double>> expected = {{500, 500, 500, 0, 0},
                                                           {350, 350, 650, 300, 0},
                                                           {third, third, 1000 - third, 300, third},
                                                           {300, 300, 700, 300, 100},
                                                           {0, 0, 1000, 1000, 0},
                                                           {500, 500, 500, 0, 0}};
        for (size_t i = 0; i < rates.size(); ++i)
        {
            for (size_t j = 0; j < 5; ++j)
            {
                INFO("incremental " << incremental << ", check " << i << ", rate " << j);
                CHECK(rates[i][j] == Approx(expected[i][j]).margin(1e-6));
            }
        }
        // bytes: class 6 at 300 B/s for 6 s and 1000 B/s for 2 s; class 3 at 233.3 for 2 s and
        // 100 for 2 s; the link counts them in its carried bytes per class
        CHECK(bytes6 == Approx(300 * 6 + 1000 * 2));
        CHECK(bytes3 == Approx(third * 2 + 100 * 2));
        CHECK(net->GetLinkReserve(l0, 6) == 0);
        Simulator::Destroy();
    }
}

TEST_CASE("flow: a reserve gives the rates of the capped flow it stands for", "[flow]")
{
    // A 4-link chain with flows of classes 3 and 6 across it, and on every link a load of class
    // 6 (and 3 on l2) as a reserve in one network, as a capped flow on that link in the other.
    struct Load
    {
        uint32_t link;
        uint8_t cls;
        double rate;
    };

    const std::vector<Load> loads = {{0, 6, 150}, {1, 6, 420}, {2, 6, 90}, {2, 3, 700}, {3, 6, 10}};
    const std::vector<std::pair<std::vector<uint32_t>, uint8_t>> flows =
        {{{0, 1, 2, 3}, 3}, {{0, 1}, 6}, {{1, 2}, 3}, {{2, 3}, 3}, {{3}, 3}, {{0}, 3}};
    auto run = [&](bool reserves) {
        Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
        for (int i = 0; i < 4; ++i)
        {
            net->AddLink(1000, Time(0));
        }
        std::vector<uint64_t> ids;
        std::vector<double> rates;
        Simulator::ScheduleNow([&]() {
            for (const auto& f : flows)
            {
                ids.push_back(net->StartFlow(Flow(f.first, f.second)));
            }
            for (const Load& l : loads)
            {
                if (reserves)
                {
                    net->SetLinkReserve(l.link, l.cls, l.rate);
                }
                else
                {
                    net->StartFlow(Flow({l.link}, l.cls, l.rate));
                }
            }
        });
        Simulator::Schedule(Seconds(1), [&]() {
            for (uint64_t id : ids)
            {
                rates.push_back(net->GetRate(id));
            }
            for (const Load& l : loads)
            {
                rates.push_back(reserves ? net->GetLinkReserveRate(l.link, l.cls) : l.rate);
            }
        });
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        Simulator::Destroy();
        return rates;
    };
    const std::vector<double> withReserves = run(true);
    const std::vector<double> withFlows = run(false);
    REQUIRE(withReserves.size() == withFlows.size());
    for (size_t i = 0; i < flows.size(); ++i)
    {
        INFO("flow " << i);
        CHECK(withReserves[i] == Approx(withFlows[i]).margin(1e-6));
    }
    // by hand: l1 is full in class 6 (its load 420 and flow 1 at 580), so flows 0 and 2 get
    // nothing; l2 leaves 910 below its class-6 load to flow 3 and its class-3 load, 455 each
    // (flow 3 would get 495 on l3 with flow 4), so that load is held below its 700
    CHECK(withReserves[0] == Approx(0).margin(1e-6));
    CHECK(withReserves[1] == Approx(580));
    CHECK(withReserves[3] == Approx(455));
    CHECK(withReserves[4] == Approx(1000 - 10 - 455));
    CHECK(withReserves[flows.size() + 3] == Approx(455));
}

TEST_CASE("flow: a reserve alone in its class on its link takes what the classes above leave, "
          "up to its rate",
          "[flow]")
{
    // Five 1000 B/s links. Each reserve below is the only one of its class among the flows
    // recomputed on its link (the filling grants it min(left, rate) without the heap); on l3 a
    // flow of its class is on the link but outside the later recomputations.
    //   l0: A (class 3), reserve class 6 of 300 (1200 from t = 6 s: more than the link)
    //   l1: B (class 7, cap 800, 300 from t = 2 s), E (class 3), reserve class 6 of 500
    //   l2: C (class 7, no cap; cap 950 from t = 6 s), D (class 3), reserve class 5 of 100
    //   l3, l4: H (class 6) on both, K (class 6, cap 100 from t = 4 s) on l4, reserve class 6
    //   of 400 on l3, M (class 3) on l3 from t = 2 s
    for (bool incremental : {true, false})
    {
        Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
        net->SetAttribute("Incremental", BooleanValue(incremental));
        std::vector<uint32_t> l;
        for (int i = 0; i < 5; ++i)
        {
            l.push_back(net->AddLink(1000, Time(0)));
        }
        std::vector<uint64_t> id(8, 0); // A, B, C, D, E, H, K, M
        bool mStarted = false;
        std::vector<std::vector<double>> rates; // per check: the 8 flows, then the 4 reserves
        auto sample = [&]() {
            std::vector<double> r;
            for (size_t i = 0; i < id.size(); ++i)
            {
                r.push_back(i == 7 && !mStarted ? -1.0 : net->GetRate(id[i]));
            }
            r.push_back(net->GetLinkReserveRate(l[0], 6));
            r.push_back(net->GetLinkReserveRate(l[1], 6));
            r.push_back(net->GetLinkReserveRate(l[2], 5));
            r.push_back(net->GetLinkReserveRate(l[3], 6));
            rates.push_back(r);
        };
        Simulator::Schedule(Seconds(0), [&]() {
            id[0] = net->StartFlow(Flow({l[0]}, 3));
            id[1] = net->StartFlow(Flow({l[1]}, 7, 800));
            id[2] = net->StartFlow(Flow({l[2]}, 7));
            id[3] = net->StartFlow(Flow({l[2]}, 3));
            id[4] = net->StartFlow(Flow({l[1]}, 3));
            id[5] = net->StartFlow(Flow({l[3], l[4]}, 6));
            id[6] = net->StartFlow(Flow({l[4]}, 6));
            net->SetLinkReserve(l[0], 6, 300);
            net->SetLinkReserve(l[1], 6, 500);
            net->SetLinkReserve(l[2], 5, 100);
            net->SetLinkReserve(l[3], 6, 400);
        });
        Simulator::Schedule(Seconds(1), sample);
        Simulator::Schedule(Seconds(2), [&]() {
            net->SetRateCap(id[1], 300);
            id[7] = net->StartFlow(Flow({l[3]}, 3));
            mStarted = true;
        });
        Simulator::Schedule(Seconds(3), sample);
        Simulator::Schedule(Seconds(4), [&]() { net->SetRateCap(id[6], 100); });
        Simulator::Schedule(Seconds(5), sample);
        Simulator::Schedule(Seconds(6), [&]() {
            net->SetRateCap(id[2], 950);
            net->SetLinkReserve(l[0], 6, 1200);
        });
        Simulator::Schedule(Seconds(7), sample);
        Simulator::Stop(Seconds(8));
        Simulator::Run();
        REQUIRE(rates.size() == 4);
        // By hand (max-min per class, the classes from 7 down):
        //  1 s: l0 leaves the reserve its 300 and A 700; l1 leaves 200 below B's 800: the reserve
        //       is held there, E gets 0; C takes l2, its reserve and D get 0; l4 splits 500/500
        //       between H and K, the reserve of l3 takes its 400 beside H
        //  3 s: B at 300: l1's reserve gets its 500, E 200; M on l3 (H at 500 outside the
        //       recomputation) gets 1000 - 500 - 400 = 100
        //  5 s: K at 100: H rises to what l3 leaves beside the reserve, 600; M 0
        //  7 s: C at 950: l2's reserve gets 50 (held); l0's reserve takes the link (A 0)
        const std::vector<std::vector<double>> expected = {
            {700, 800, 1000, 0, 0, 500, 500, -1, 300, 200, 0, 400},
            {700, 300, 1000, 0, 200, 500, 500, 100, 300, 500, 0, 400},
            {700, 300, 1000, 0, 200, 600, 100, 0, 300, 500, 0, 400},
            {0, 300, 950, 0, 200, 600, 100, 0, 1000, 500, 50, 400}};
        for (size_t i = 0; i < rates.size(); ++i)
        {
            for (size_t j = 0; j < expected[i].size(); ++j)
            {
                INFO("incremental " << incremental << ", check " << i << ", rate " << j);
                CHECK(rates[i][j] == Approx(expected[i][j]).margin(1e-6));
            }
        }
        Simulator::Destroy();
    }
}

TEST_CASE("flow: FluidAggregate's LoadTolerance stays within 2 x tolerance x capacity of the "
          "exact load",
          "[flow]")
{
    // One 1 GB/s link, a long class-3 flow and background bytes in class 6 given per interval
    // (AddLoad, mid-interval): with tolerance 0 the flow has C - b(k-1) / T in interval k; with
    // a tolerance the load keeps its rate while the new one is within tol x C of it.
    const double C = 1e9;
    const Time T = MilliSeconds(1);
    const std::vector<double> share = {0.30, 0.32, 0.31, 0.45, 0.44, 0.10, 0.12, 0.0, 0.0, 0.2};

    struct Run
    {
        std::vector<double> rate;    // the flow's rate in each interval
        std::vector<double> carried; // the load's bytes up to each interval's end
        double handed{0};
        double reserved{0};
        uint64_t skips{0};
        uint64_t updates{0};
        double end{0}; // when the long flow drained
    };

    auto run = [&](double tolerance) {
        Ptr<FluidNetwork> main = CreateObject<FluidNetwork>();
        const uint32_t l = main->AddLink(C, Time(0));
        Ptr<FluidAggregate> agg = CreateObject<FluidAggregate>();
        agg->SetAttribute("Interval", TimeValue(T));
        agg->SetAttribute("LoadTolerance", DoubleValue(tolerance));
        agg->Attach(main);
        FluidNetwork::FlowSpec s = Flow({l}, 3);
        s.bytes = uint64_t(C); // ends after the background
        Run r;
        s.drained =
            FluidNetwork::FlowCallback([&r](uint64_t) { r.end = Simulator::Now().GetSeconds(); });
        const uint64_t id = main->StartFlow(s);
        // the intervals at T, 2T, ...: AddLoad arms the timer
        Simulator::ScheduleNow([agg, l]() { agg->AddLoad(l, 6, 0); });
        // interval k covers [k T, (k + 1) T); the bytes of interval k load interval k + 1
        for (size_t k = 0; k < share.size(); ++k)
        {
            Simulator::Schedule(T * k + T / 2, [agg, l, &share, k, C, T]() {
                if (share[k] > 0)
                {
                    agg->AddLoad(l, 6, share[k] * C * T.GetSeconds());
                }
            });
        }
        for (size_t k = 0; k < share.size() + 2; ++k)
        {
            Simulator::Schedule(T * k + T * 3 / 4, [&, main, id, l]() {
                r.rate.push_back(main->GetRate(id));
                r.carried.push_back(main->GetLinkReserveBytes(l, 6));
            });
        }
        Simulator::Run();
        main->Advance();
        r.handed = agg->GetHandedBytes();
        r.reserved = main->GetLinkReserveBytes(l, 6);
        r.skips = agg->GetLoadSkips();
        r.updates = agg->GetLoadUpdates();
        Simulator::Destroy();
        return r;
    };
    const Run exact = run(0);
    // the exact coupling: the flow has C less the previous interval's background rate
    for (size_t k = 1; k < exact.rate.size(); ++k)
    {
        const double previous = k - 1 < share.size() ? share[k - 1] : 0.0;
        INFO("interval " << k);
        CHECK(exact.rate[k] == Approx(C * (1 - previous)).epsilon(1e-9));
    }
    CHECK(exact.rate[0] == Approx(C));
    CHECK(exact.skips == 0);
    CHECK(exact.reserved == Approx(exact.handed).epsilon(1e-12));
    for (double tolerance : {0.015, 0.05})
    {
        const Run tol = run(tolerance);
        INFO("tolerance " << tolerance);
        REQUIRE(tol.rate.size() == exact.rate.size());
        CHECK(tol.skips > 0);
        CHECK(tol.updates < exact.updates);
        for (size_t k = 0; k < tol.rate.size(); ++k)
        {
            INFO("interval " << k << ": " << tol.rate[k] << " against " << exact.rate[k]);
            CHECK(std::abs(tol.rate[k] - exact.rate[k]) <= 2 * tolerance * C * (1 + 1e-9));
            CHECK(std::abs(tol.carried[k] - exact.carried[k]) <=
                  tolerance * C * T.GetSeconds() * (1 + 1e-9) + 1);
        }
        // every byte handed over is carried, to within the bytes carried ahead
        CHECK(tol.handed == exact.handed);
        CHECK(std::abs(tol.reserved - tol.handed) <= tolerance * C * T.GetSeconds() + 1);
        // the long flow ends as before, to within the bytes carried ahead
        CHECK(std::abs(tol.end - exact.end) <= tolerance * T.GetSeconds() + 1e-9);
    }
    // bad values are refused by the attribute's checker
    Ptr<FluidAggregate> agg = CreateObject<FluidAggregate>();
    CHECK_FALSE(agg->SetAttributeFailSafe("LoadTolerance", DoubleValue(-0.01)));
    CHECK_FALSE(agg->SetAttributeFailSafe("LoadTolerance", DoubleValue(1.5)));
    CHECK(agg->SetAttributeFailSafe("LoadTolerance", DoubleValue(1.0)));
}

TEST_CASE("flow: link reserves reject bad links, classes and rates naming them", "[flow]")
{
    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    const uint32_t l = net->AddLink(1000, Time(0));
    CHECK(Message([&]() {
              net->SetLinkReserve(l, 8, 1);
          }).find("SetLinkReserve: class = 8 is out of range [0, 7]") != std::string::npos);
    CHECK(Message([&]() { net->SetLinkReserve(l, 6, -1); }).find("SetLinkReserve: rate = -1") !=
          std::string::npos);
    CHECK(Message([&]() {
              net->SetLinkReserve(l, 6, std::nan(""));
          }).find("out of range (>= 0, finite; 0 = none)") != std::string::npos);
    CHECK(Message([&]() { net->SetLinkReserve(3, 6, 1); }).find("link 3 is out of range") !=
          std::string::npos);
    CHECK(Message([&]() {
              net->GetLinkReserveBytes(l, 9);
          }).find("GetLinkReserveBytes: class = 9") != std::string::npos);
    // a link without flows: the reserves take their rates from the top class down
    net->SetLinkReserve(l, 7, 400);
    net->SetLinkReserve(l, 6, 800);
    CHECK(net->GetLinkReserveRate(l, 7) == 400);
    CHECK(net->GetLinkReserveRate(l, 6) == 600);
    CHECK(net->GetLinkLoad(l) == 1000);
    net->SetLinkCapacity(l, 2000);
    CHECK(net->GetLinkReserveRate(l, 6) == 800);
    Simulator::Destroy();
}
