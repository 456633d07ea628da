/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// DCQCN at flow level (FluidDcqcn): the virtual queue, link output and CNP equations; a flow
// alone runs exactly as without the model; the reaction point's cut (1 - alpha / 2), alpha's
// EWMA and fast recovery as the packet Dcqcn defines them; N flows on one bottleneck keep it
// busy and share it equally, the queue at Zhu et al.'s fixed point (CoNEXT 2016), bytes
// conserved; the virtual queues are FIFOs of the flows' own bytes (a flow that stops offering
// still has its queued bytes leave at the link's rate in the order they came; a starved class's
// queue holds its flows' bytes, no more); the fabric's ECN settings; the scenario key "fluidCc"
// (opt-in).

#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const double kLine = 100e9;            // bit/s
const double kFrame = 1082;            // wire bytes per frame (FluidNetwork::FrameBytes)
const double kPayload = 1000 / 1082.0; // payload per wire byte

FluidNetwork::FlowSpec
Flow(std::vector<uint32_t> path, uint64_t bytes)
{
    FluidNetwork::FlowSpec s;
    s.path = std::move(path);
    s.bytes = bytes;
    return s;
}

/**
 * Zhu et al.'s fixed point for N flows on a link of capacity C (packets/s): R = C / N and the
 * marking probability p solving dR_T/dt = dR_C/dt = 0 with alpha at its own fixed point
 * (timer and byte-counter increases, additive only; tau = CNP interval, tau' = alpha timer).
 * \return {p, alpha}
 */
std::pair<double, double>
ZhuFixedPoint(double capacityPps, uint32_t n)
{
    const double R = capacityPps / n;
    const double tau = 50e-6;
    const double tauA = 55e-6;
    const double T = 55e-6;
    const double F = 5;
    const double B = 10e6 / 1000; // byte counter in packets
    const double rai = 40e6 / 8 / kFrame;
    auto f = [&](double p) {
        const double q = 1 - p;
        const double a = 1 - std::pow(q, tau * R);
        const double alpha = 1 - std::pow(q, tauA * R);
        const double s1 = 1 / (std::pow(q, -B) - 1) + 1 / (std::pow(q, -T * R) - 1);
        const double s2 = std::pow(q, F * B) / (std::pow(q, -B) - 1) +
                          std::pow(q, F * T * R) / (std::pow(q, -T * R) - 1);
        return alpha * a * a / (tau * tau * p * s1) - rai * R * p * s2;
    };
    double lo = 1e-9;
    double hi = 0.5;
    for (int i = 0; i < 200; ++i)
    {
        const double m = std::sqrt(lo * hi);
        (f(m) < 0 ? lo : hi) = m;
    }
    return {lo, 1 - std::pow(1 - lo, tauA * R)};
}

/// N flows into one marking link (the packet fabric's 100 Gb/s defaults), started `gap` apart.
struct Bottleneck
{
    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    Ptr<FluidDcqcn> cc = CreateObject<FluidDcqcn>();
    std::vector<uint32_t> hosts;
    uint32_t link{0};
    std::vector<int> owners;
    std::vector<uint64_t> ids;
    static constexpr uint64_t kmin = 400000;
    static constexpr uint64_t kmax = 1600000;
    static constexpr double pmax = 0.2;

    Bottleneck(uint32_t n, uint64_t bytes, Time gap, int64_t stream = 1)
        : owners(n),
          ids(n)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            hosts.push_back(net->AddLink(kLine / 8, MicroSeconds(1)));
        }
        link = net->AddLink(kLine / 8, MicroSeconds(1));
        cc->Attach(net);
        cc->AssignStreams(stream);
        cc->SetMarking(link, kmin, kmax, pmax);
        for (uint32_t i = 0; i < n; ++i)
        {
            Simulator::Schedule(gap * i, [this, i, bytes]() {
                ids[i] = cc->StartFlow(&owners[i], Flow({hosts[i], link}, bytes), kLine, kPayload);
            });
        }
    }
};

/// Three links (capacities in bytes/s, 1 us each) and the model; the third queues but never
/// marks (Kmin = Kmax = 1 GB, Pmax 0), so the rates stay at line rate.
struct ThreeLinks
{
    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    Ptr<FluidDcqcn> cc = CreateObject<FluidDcqcn>();
    std::vector<uint32_t> links; //!< the three, in order

    ThreeLinks(double c1, double c2, double c3)
    {
        for (double c : {c1, c2, c3})
        {
            links.push_back(net->AddLink(c, MicroSeconds(1)));
        }
        cc->Attach(net);
        cc->AssignStreams(1);
        cc->SetMarking(links[2], 1000000000, 1000000000, 0.0);
    }
};

} // namespace

TEST_CASE("flow: dcqcn virtual queue, link output and CNP probability", "[flow]")
{
    // q' = max(0, q + (A - C) dt)
    CHECK(FluidDcqcn::QueueStep(0, 15e9, 12.5e9, 10e-6) == Approx(25000));
    CHECK(FluidDcqcn::QueueStep(1000, 10e9, 12.5e9, 10e-6) == 0);
    CHECK(FluidDcqcn::QueueStep(50000, 10e9, 12.5e9, 10e-6) == Approx(25000));
    // a link passes min(C, A + q / dt): its capacity while the queue lasts
    CHECK(FluidDcqcn::LinkOutput(0, 10e9, 12.5e9, 10e-6) == 10e9);
    CHECK(FluidDcqcn::LinkOutput(0, 15e9, 12.5e9, 10e-6) == 12.5e9);
    CHECK(FluidDcqcn::LinkOutput(50000, 10e9, 12.5e9, 10e-6) == 12.5e9);
    CHECK(FluidDcqcn::LinkOutput(10000, 10e9, 12.5e9, 10e-6) == Approx(11e9));
    // at least one of n frames marked: 1 - (1 - p)^n
    CHECK(FluidDcqcn::CnpProbability(0.01, 100) == Approx(1 - std::pow(0.99, 100)));
    CHECK(FluidDcqcn::CnpProbability(0.2, 0.5) == Approx(1 - std::sqrt(0.8)));
    CHECK(FluidDcqcn::CnpProbability(0, 1e6) == 0);
    CHECK(FluidDcqcn::CnpProbability(1, 1) == 1);
    CHECK(FluidDcqcn::CnpProbability(0.5, 0) == 0);
}

TEST_CASE("flow: dcqcn leaves a flow alone on its path at line rate, as without it", "[flow]")
{
    auto run = [](bool withCc) {
        Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
        const uint32_t host = net->AddLink(kLine / 8, MicroSeconds(1));
        const uint32_t link = net->AddLink(kLine / 8, MicroSeconds(1));
        Ptr<FluidDcqcn> cc;
        if (withCc)
        {
            cc = CreateObject<FluidDcqcn>();
            cc->Attach(net);
            cc->SetMarking(link, 0, 0, 1.0); // any queue would mark every frame
        }
        Time end;
        net->TraceConnectWithoutContext(
            "FlowEnd",
            MakeCallback(+[](Time* e, uint64_t, uint64_t, Time, Time t) { *e = t; }).Bind(&end));
        int owner = 0;
        const uint64_t bytes = 100000000; // 8 ms at line rate
        const uint64_t id = withCc
                                ? cc->StartFlow(&owner, Flow({host, link}, bytes), kLine, kPayload)
                                : net->StartFlow(Flow({host, link}, bytes));
        Simulator::Schedule(MilliSeconds(4), [&]() { CHECK(net->GetRate(id) == kLine / 8); });
        Simulator::Run();
        if (withCc)
        {
            CHECK(cc->GetSteps() > 700); // it stepped all along
            CHECK(cc->GetCnps() == 0);
            CHECK(cc->GetQueue(link) == 0);
            CHECK(cc->GetCapChanges() == 0);
            CHECK(cc->GetState(&owner).rate == kLine);
        }
        Simulator::Destroy();
        return end;
    };
    const Time without = run(false);
    CHECK(without.GetSeconds() == Approx(8e-3).epsilon(1e-3)); // 100 MB at 100 Gb/s
    CHECK(run(true) == without);
}

TEST_CASE("flow: dcqcn links added after Attach carry controlled flows, unmarked", "[flow]")
{
    // A scenario's "host" section adds its fluid host links after "fluidCc" attached the
    // model: the per-link arrays grow with the network (the out-of-bounds reads of 41a0734's
    // default, caught by valgrind in the host-path test, are what the sanitizer build checks).
    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    const uint32_t link = net->AddLink(kLine / 8, MicroSeconds(1));
    Ptr<FluidDcqcn> cc = CreateObject<FluidDcqcn>();
    cc->Attach(net);
    cc->AssignStreams(1);
    cc->SetMarking(link, Bottleneck::kmin, Bottleneck::kmax, Bottleneck::pmax);
    std::vector<uint32_t> hosts;
    for (int i = 0; i < 6; ++i)
    {
        hosts.push_back(net->AddLink(kLine / 8, MicroSeconds(1))); // after Attach
    }
    const uint64_t bytes = 2000000;
    std::vector<int> owners(hosts.size());
    for (size_t i = 0; i < hosts.size(); ++i)
    {
        cc->StartFlow(&owners[i], Flow({hosts[i], link}, bytes), kLine, kPayload);
    }
    uint64_t ended = 0;
    uint32_t endedFlows = 0;
    net->TraceConnectWithoutContext(
        "FlowEnd",
        MakeCallback(+[](std::pair<uint64_t*, uint32_t*> c, uint64_t, uint64_t b, Time, Time) {
            *c.first += b;
            ++*c.second;
        }).Bind(std::make_pair(&ended, &endedFlows)));
    Simulator::Run();
    CHECK(endedFlows == hosts.size());
    CHECK(ended == bytes * hosts.size()); // bytes conserved
    for (const uint32_t h : hosts)
    {
        CHECK(cc->GetQueue(h) == 0); // no marking, no virtual queue of its own
    }
    CHECK(cc->GetCnps() > 0); // the shared link marked: the six flows were controlled
    Simulator::Destroy();
}

TEST_CASE("flow: dcqcn cut on a CNP is (1 - alpha / 2), alpha's EWMA and fast recovery", "[flow]")
{
    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    const uint32_t host = net->AddLink(kLine / 8, MicroSeconds(1));
    // a bottleneck at half the line rate that marks every frame once it has a queue
    const uint32_t link = net->AddLink(kLine / 16, MicroSeconds(1));
    Ptr<FluidDcqcn> cc = CreateObject<FluidDcqcn>();
    cc->Attach(net);
    cc->SetMarking(link, 0, 0, 1.0);
    REQUIRE(FluidDcqcn::Of(net) == cc);
    REQUIRE(cc->GetNMarkingLinks() == 1);
    std::vector<double> traced;
    cc->TraceConnectWithoutContext("Cnp",
                                   MakeCallback(+[](std::vector<double>* v, uint64_t, double rate) {
                                       v->push_back(rate);
                                   }).Bind(&traced));
    int owner = 0;
    const uint64_t id = cc->StartFlow(&owner, Flow({host, link}, 1000000000), kLine, kPayload);
    Ptr<Dcqcn> rp = DynamicCast<Dcqcn>(cc->GetOps(&owner));
    REQUIRE(rp);
    const double g = rp->GetG();
    const double alpha0 = rp->GetAlpha();
    // flows start at line rate: the first step (10 us) builds a queue, every frame is marked
    Simulator::Stop(MicroSeconds(10) + NanoSeconds(1));
    Simulator::Run();
    CHECK(cc->GetQueue(link) == Approx((kLine / 8 - kLine / 16) * 10e-6));
    CHECK(cc->GetMarkProbability(link) == 1.0);
    REQUIRE(cc->GetCnps() == 1);
    RdmaCcState s = cc->GetState(&owner);
    CHECK(s.targetRate == kLine);                          // RT = RC
    CHECK(s.rate == Approx(kLine * (1 - alpha0 / 2)));     // RC (1 - alpha / 2)
    CHECK(rp->GetAlpha() == Approx((1 - g) * alpha0 + g)); // alpha's EWMA
    REQUIRE(traced.size() == 1);
    CHECK(traced[0] == s.rate);
    // the new rate is in force: the link passes RC (its queue drains at the capacity too, but
    // RC = C here)
    CHECK(net->GetRate(id) == Approx(s.rate / 8));
    // no further marks: alpha decays by (1 - g) per alpha timer, RC halves its distance to RT
    // at each of the F rate-increase timer expiries (fast recovery)
    cc->SetMarking(link, 1000000000, 1000000000, 0.0);
    net->SetLinkCapacity(link, kLine / 8); // and no bottleneck: the flow runs at its cap
    const Time t = rp->GetRateIncreaseTimer();
    const uint32_t f = rp->GetFastRecoveryStages();
    // expiries at 10 us + k T, applied at the steps after them (every 10 us)
    Simulator::Stop(t * f + MicroSeconds(10));
    Simulator::Run();
    s = cc->GetState(&owner);
    CHECK(cc->GetCnps() == 1);
    CHECK(cc->GetQueue(link) == 0);
    CHECK(s.targetRate == kLine);
    CHECK(s.rate == Approx(kLine - (kLine / 2) / std::pow(2.0, f)));
    CHECK(rp->GetAlpha() == Approx(std::pow(1 - g, f) * ((1 - g) * alpha0 + g)));
    CHECK(net->GetRate(id) == Approx(s.rate / 8).epsilon(0.01)); // within CapTolerance
    Simulator::Destroy();
}

TEST_CASE("flow: dcqcn CNPs at most once per CnpInterval, each at its first marked frame and "
          "one way back later",
          "[flow]")
{
    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    const uint32_t host = net->AddLink(kLine / 8, MicroSeconds(1));
    const uint32_t link = net->AddLink(kLine / 80, MicroSeconds(1));
    Ptr<FluidDcqcn> cc = CreateObject<FluidDcqcn>();
    cc->Attach(net);
    cc->SetMarking(link, 0, 0, 1.0); // every frame marked while the queue holds bytes
    int owner = 0;
    cc->StartFlow(&owner, Flow({host, link}, 1000000000), kLine, kPayload);
    std::vector<double> at; // the reaction point's CNPs (ns)
    cc->GetOps(&owner)->TraceConnectWithoutContext(
        "Cnp",
        MakeCallback(+[](std::vector<double>* v, Time t) {
            v->push_back(double(t.GetNanoSeconds()));
        }).Bind(&at));
    std::vector<double> rates; // RC after each cut (bit/s)
    cc->TraceConnectWithoutContext("Cnp",
                                   MakeCallback(+[](std::vector<double>* v, uint64_t, double r) {
                                       v->push_back(r);
                                   }).Bind(&rates));
    Simulator::Stop(MicroSeconds(400) + NanoSeconds(1));
    Simulator::Run();
    // The flow passes C = 10 Gb/s while the queue holds bytes (RC applies from the step after
    // each cut: 112.5 kB by 10 us at 100 Gb/s, + 250 kB by 60 us at 50, + 93.75 kB at 25,
    // + 15.6 kB at 12.5, then it drains at C - RC: about 250 kB left at 400 us), one frame every
    // 1082 x 8 / 10e9 s = 865.6 ns. Every frame is marked, so the notification point sends the
    // first CNP at the first frame, 865 ns (the step's 10 us split in whole ns), and each next
    // one at the first frame after the 50 us interval, 50.8656 us later: not at the end of the
    // step in which the interval opens (at 60 us, after the rate-increase timer's 55 us, which
    // recovered RC before each cut). Each reaches the reaction point one way back later: the
    // marking link's 1 us to the receiver, then 1 + 1 us back over the path, 3 us.
    const double frameNs = kFrame * 8 / (kLine / 10) * 1e9;
    const double wayBackNs = 3000;
    REQUIRE(at.size() == 8); // the 8th at 865.6 + 3000 + 7 x 50865.6 ns = 359.9 us
    REQUIRE(rates.size() == at.size());
    CHECK(at[0] == Approx(frameNs + wayBackNs).margin(1));
    const double minRate = DynamicCast<Dcqcn>(cc->GetOps(&owner))->GetMinRate().GetBitRate();
    for (size_t i = 0; i < at.size(); ++i)
    {
        INFO("CNP " << i << " at " << at[i] << " ns");
        CHECK(
            at[i] ==
            Approx(frameNs + wayBackNs + double(i) * (50000 + frameNs)).margin(2 * double(i) + 1));
        // alpha stays 1 ((1 - g) 1 + g) and no timer expires between cuts 50.9 us apart: each
        // CNP halves RC (above MinRate)
        CHECK(rates[i] == Approx(kLine / std::pow(2.0, double(i + 1))));
        CHECK(rates[i] > minRate);
    }
    CHECK(DynamicCast<Dcqcn>(cc->GetOps(&owner))->GetAlpha() == 1.0);
    CHECK(cc->GetSteps() == 40);
    CHECK(cc->GetQueue(link) > 100000);
    Simulator::Destroy();
}

TEST_CASE("flow: dcqcn N flows on one bottleneck keep it busy at Zhu's fixed point, bytes "
          "conserved",
          "[flow]")
{
    for (uint32_t n : {2u, 4u, 8u})
    {
        INFO("flows: " << n);
        const uint64_t bytes = 4000000000ULL / n; // all still sending at 200 ms
        Bottleneck b(n, bytes, Time(0));
        // steady state from 20 ms (alpha's time constant is AlphaTimer / g = 14 ms): sample
        // every 10 us up to 200 ms
        const Time t0 = MilliSeconds(20);
        const Time t1 = MilliSeconds(200);
        std::vector<double> left0(n);
        double carried0 = 0;
        double sumQ = 0;
        double sumP = 0;
        double sumAlpha = 0;
        uint32_t samples = 0;
        Simulator::Schedule(t0, [&]() {
            b.net->Advance();
            carried0 = b.net->GetLinkBytes(b.link);
            for (uint32_t i = 0; i < n; ++i)
            {
                left0[i] = b.net->GetRemaining(b.ids[i]);
            }
        });
        for (Time t = t0 + MicroSeconds(5); t < t1; t += MicroSeconds(10))
        {
            Simulator::Schedule(t, [&]() {
                sumQ += b.cc->GetQueue(b.link);
                sumP += b.cc->GetMarkProbability(b.link);
                for (uint32_t i = 0; i < n; ++i)
                {
                    sumAlpha += DynamicCast<DcqcnBase>(b.cc->GetOps(&b.owners[i]))->GetAlpha() / n;
                }
                ++samples;
            });
        }
        double utilization = 0;
        std::vector<double> share(n);
        Simulator::Schedule(t1, [&]() {
            b.net->Advance();
            const double c = kLine / 8 * (t1 - t0).GetSeconds();
            utilization = (b.net->GetLinkBytes(b.link) - carried0) / c;
            for (uint32_t i = 0; i < n; ++i)
            {
                share[i] = (left0[i] - b.net->GetRemaining(b.ids[i])) / (c / n);
            }
        });
        uint64_t ended = 0;
        uint64_t endedBytes = 0;
        b.net->TraceConnectWithoutContext(
            "FlowEnd",
            MakeCallback(+[](uint64_t* count, uint64_t* sum, uint64_t, uint64_t bytes, Time, Time) {
                ++*count;
                *sum += bytes;
            }).Bind(&ended, &endedBytes));
        Simulator::Run();
        const auto [pStar, alphaStar] = ZhuFixedPoint(kLine / 8 / kFrame, n);
        const double qStar = b.kmin + pStar / b.pmax * (b.kmax - b.kmin);
        INFO("p* " << pStar << " alpha* " << alphaStar << " q* " << qStar);
        INFO("mean p " << sumP / samples << " alpha " << sumAlpha / samples << " q "
                       << sumQ / samples);
        // the rates oscillate around C / N, the queue never empties: the link stays busy
        CHECK(utilization == Approx(1.0).epsilon(0.01));
        for (uint32_t i = 0; i < n; ++i)
        {
            INFO("flow " << i << " share " << share[i]);
            CHECK(share[i] == Approx(1.0).epsilon(0.1)); // C / N each, over 180 ms
        }
        // the queue sits at q* (within 5 %: q* - Kmin is the few KB where p = p*)
        CHECK(sumQ / samples == Approx(qStar).epsilon(0.05));
        // mean marking probability and alpha: the mean-field values, within a factor the CNPs'
        // randomness (a few per flow and alpha timer) leaves
        CHECK(sumP / samples > pStar / 3);
        CHECK(sumP / samples < pStar * 3);
        CHECK(sumAlpha / samples > alphaStar / 2);
        CHECK(sumAlpha / samples < alphaStar * 2);
        // every flow ended with its bytes, and the link carried exactly them
        CHECK(ended == n);
        CHECK(endedBytes == n * bytes);
        CHECK(b.net->GetLinkBytes(b.link) == Approx(double(n * bytes)).epsilon(1e-9));
        CHECK(b.net->GetBytesDrained() == n * bytes);
        Simulator::Destroy();
    }
}

TEST_CASE("flow: dcqcn a flow joining a busy one converges to equal shares", "[flow]")
{
    // flow 0 alone at line rate for 5 ms, then flow 1 (fresh, at line rate) joins. DCQCN
    // shares a link fairly on average only: CNPs are random, each cuts a flow by alpha / 2
    // (5-15 % here), and the shares drift by several % over hundreds of ms (the packet level
    // in this setting, examples/dcqcn-convergence --flows=2 --stagger=5ms --duration=200ms,
    // RngRun 1-5: flow 0's share over 40-200 ms 0.490, 0.494, 0.584, 0.507, 0.514). So: over
    // eight runs (CNP streams 1-8), flow 0's mean share within 5 % of 1/2, each within 10 %.
    const Time t0 = MilliSeconds(40);
    const Time t1 = MilliSeconds(400);
    const double c = kLine / 8 * (t1 - t0).GetSeconds();
    double mean = 0;
    const int runs = 8;
    for (int run = 1; run <= runs; ++run)
    {
        Bottleneck b(2, 4000000000ULL, MilliSeconds(5), run);
        std::vector<double> left0(2);
        std::vector<double> sent(2);
        Simulator::Schedule(t0, [&]() {
            for (uint32_t i = 0; i < 2; ++i)
            {
                left0[i] = b.net->GetRemaining(b.ids[i]);
            }
        });
        Simulator::Schedule(t1, [&]() {
            for (uint32_t i = 0; i < 2; ++i)
            {
                sent[i] = left0[i] - b.net->GetRemaining(b.ids[i]);
            }
        });
        Simulator::Stop(t1 + NanoSeconds(1));
        Simulator::Run();
        INFO("stream " << run << " shares " << sent[0] / c << " " << sent[1] / c);
        CHECK((sent[0] + sent[1]) / c == Approx(1.0).epsilon(0.01));
        CHECK(sent[0] / c == Approx(0.5).epsilon(0.1));
        mean += sent[0] / c / runs;
        Simulator::Destroy();
    }
    INFO("flow 0's mean share " << mean);
    CHECK(mean == Approx(0.5).epsilon(0.05));
}

TEST_CASE("flow: dcqcn thins a flow by what the links before pass, over several hops", "[flow]")
{
    // Four line-rate flows share a host link H (C), then a link M (C), then a link L (C / 2)
    // that queues without marking. H passes C, so M gets C and passes it all, and L gets C:
    // its queue grows at C - C / 2. (Thinned in one sweep by the ratios of the unthinned
    // loads, 1/4 at H and 1/4 at M, L would see C / 4 and never queue.)
    ThreeLinks t(kLine / 8, kLine / 8, kLine / 16);
    Ptr<FluidNetwork> net = t.net;
    Ptr<FluidDcqcn> cc = t.cc;
    const uint32_t h = t.links[0];
    const uint32_t m = t.links[1];
    const uint32_t l = t.links[2];
    std::vector<int> owners(4);
    std::vector<uint64_t> ids;
    for (int& o : owners)
    {
        ids.push_back(cc->StartFlow(&o, Flow({h, m, l}, 1000000000), kLine, kPayload));
    }
    Simulator::Stop(MicroSeconds(105)); // ten steps of 10 us
    Simulator::Run();
    CHECK(cc->GetQueue(l) == Approx(10 * 10e-6 * (kLine / 8 - kLine / 16)).epsilon(1e-9));
    CHECK(cc->GetCnps() == 0);
    for (size_t i = 0; i < ids.size(); ++i)
    {
        // each passes 1/4 of H, all of M, half of L: C / 8 in the network
        CHECK(cc->GetState(&owners[i]).rate == kLine);
        CHECK(net->GetRate(ids[i]) == Approx(kLine / 8 / 8));
    }
    Simulator::Destroy();
}

TEST_CASE("flow: dcqcn queues are FIFOs: a flow that stops offering drains its queued bytes "
          "at the link's rate in the order they came, bytes conserved",
          "[flow]")
{
    // Flows A (500 kB) and B (10 MB) at line rate C (125 kB per 10 us step) into L (C, never
    // marks). Each step L passes 125 kB: half of the step's arrivals while it has no queue,
    // then its queue, oldest step first, each step's bytes interleaved as they came. A has put
    // all its 500 kB in by 40 us (250 kB delivered, 250 kB queued) and offers nothing more, but
    // its queued bytes still leave at C / 2, interleaved with B's of the same steps, until its
    // last at 80 us (1 MB came into L before it, L passes C); then B alone, at line rate.
    ThreeLinks t(kLine / 8, kLine / 8, kLine / 8);
    const uint32_t l = t.links[2];
    int a = 0;
    int b = 0;
    const uint64_t idA = t.cc->StartFlow(&a, Flow({t.links[0], l}, 500000), kLine, kPayload);
    const uint64_t idB = t.cc->StartFlow(&b, Flow({t.links[1], l}, 10000000), kLine, kPayload);
    Time endA;
    t.net->TraceConnectWithoutContext(
        "FlowEnd",
        MakeCallback(+[](std::pair<Time*, uint64_t> e, uint64_t id, uint64_t, Time, Time) {
            if (id == e.second)
            {
                *e.first = Simulator::Now();
            }
        }).Bind(std::make_pair(&endA, idA)));
    const double c = kLine / 8;
    for (int k = 1; k <= 7; ++k)
    {
        // conservation, just after each step (1 ns: 12.5 B more carried): what the two sent
        // (at C, A up to its 500 kB) is what the network carried plus what L's queue holds
        Simulator::Schedule(MicroSeconds(10 * k) + NanoSeconds(1), [&t, l, idA, idB, k, c]() {
            const double sentA = std::min(500000.0, c * 10e-6 * k);
            const double sentB = c * 10e-6 * k;
            const double carried =
                500000 - t.net->GetRemaining(idA) + 10000000 - t.net->GetRemaining(idB);
            INFO("step " << k);
            CHECK(t.cc->GetQueue(l) + carried == Approx(sentA + sentB + c * 1e-9).epsilon(1e-12));
            CHECK(carried == Approx(c * (10e-6 * k + 1e-9)).epsilon(1e-12)); // L busy at C
        });
    }
    // A offers nothing from 40 us, but its queued bytes leave at half the link
    Simulator::Schedule(MicroSeconds(55), [&]() {
        CHECK(t.net->GetRate(idA) == Approx(c / 2));
        CHECK(t.net->GetRate(idB) == Approx(c / 2));
    });
    Simulator::Schedule(MicroSeconds(85), [&]() { CHECK(t.net->GetRate(idB) == Approx(c)); });
    Simulator::Stop(MicroSeconds(200));
    Simulator::Run();
    // its last byte leaves L at 80 us; then two links' propagation and one frame (86.56 ns)
    CHECK(endA.GetSeconds() == Approx(80e-6 + 2e-6 + kFrame / c).epsilon(1e-5)); // to 1 ns
    CHECK(t.cc->GetCnps() == 0);
    Simulator::Destroy();
}

TEST_CASE("flow: dcqcn a starved class's queue holds its flows' bytes, no more, and passes "
          "them when its turn comes",
          "[flow]")
{
    // A class-5 flow of 1.25 MB at line rate takes all of a link L (C = 12.5 GB/s, never marks)
    // for 100 us; a class-3 flow of 500 kB beside it is starved there. It puts 125 kB per 10 us
    // step into its class's queue until its 500 kB are all in (4 steps): the queue then holds
    // exactly them (offering RC regardless of what it has left, it held 9 x 125 kB at 95 us).
    // At 100 us class 3 gets L and its queued bytes leave at C: its last byte leaves at 100 +
    // 40 us, and the queue is empty once the network has carried them.
    ThreeLinks t(kLine / 8, kLine / 8, kLine / 8); // two host links into L
    Ptr<FluidNetwork> net = t.net;
    Ptr<FluidDcqcn> cc = t.cc;
    const uint32_t l = t.links[2];
    Time end;
    net->TraceConnectWithoutContext(
        "FlowEnd",
        MakeCallback(+[](Time* e, uint64_t, uint64_t, Time, Time t) { *e = t; }).Bind(&end));
    int hiOwner = 0;
    int loOwner = 0;
    FluidNetwork::FlowSpec hi = Flow({t.links[0], l}, 1250000);
    hi.cls = 5;
    cc->StartFlow(&hiOwner, hi, kLine, kPayload);
    cc->StartFlow(&loOwner, Flow({t.links[1], l}, 500000), kLine, kPayload); // class 3
    Simulator::Schedule(MicroSeconds(95), [&]() {
        CHECK(cc->GetQueue(l, 3) == Approx(500000).epsilon(1e-9));
        CHECK(cc->GetQueue(l, 5) == 0);
    });
    Simulator::Schedule(MicroSeconds(155), [&]() { CHECK(cc->GetQueue(l, 3) == 0); });
    Simulator::Run();
    // its last byte leaves L at 140 us; then two links' propagation (1 us each) and one frame's
    // serialization (1082 B at C: 86.56 ns), as for any fluid flow
    CHECK(end.GetSeconds() ==
          Approx(140e-6 + 2e-6 + kFrame / (kLine / 8)).epsilon(1e-5)); // to 1 ns
    CHECK(cc->GetCnps() == 0);
    Simulator::Destroy();
}

TEST_CASE("flow: dcqcn a paused flow behind a marking queue gets no CNP", "[flow]")
{
    // Two line-rate flows fill a link whose every queued frame is marked (Kmin = Kmax = 0, so
    // the probability is 1 as soon as it queues); a third flow on it is paused by its owner's
    // cap of 1 bit/s (a flow scheduler's pause), so it sends no frame in the run: no CNP may
    // reach it, and its rate stays at line rate for when it is let go.
    Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
    Ptr<FluidDcqcn> cc = CreateObject<FluidDcqcn>();
    std::vector<uint32_t> hosts;
    for (int i = 0; i < 3; ++i)
    {
        hosts.push_back(net->AddLink(kLine / 8, MicroSeconds(1)));
    }
    const uint32_t link = net->AddLink(kLine / 8, MicroSeconds(1));
    cc->Attach(net);
    cc->AssignStreams(1);
    cc->SetMarking(link, 0, 0, 1.0);
    std::vector<int> owners(3);
    cc->StartFlow(&owners[0], Flow({hosts[0], link}, 1000000000), kLine, kPayload);
    cc->StartFlow(&owners[1], Flow({hosts[1], link}, 1000000000), kLine, kPayload);
    FluidNetwork::FlowSpec paused = Flow({hosts[2], link}, 1000000000);
    paused.rateCap = 1.0 / 8; // 1 bit/s
    cc->StartFlow(&owners[2], paused, kLine, kPayload);
    Simulator::Stop(MicroSeconds(500));
    Simulator::Run();
    CHECK(cc->GetCnps() > 0);
    CHECK(cc->GetState(&owners[0]).rate < kLine); // the senders are cut
    CHECK(cc->GetState(&owners[1]).rate < kLine);
    CHECK(cc->GetState(&owners[2]).rate == kLine);
    Simulator::Destroy();
}

TEST_CASE("flow: dcqcn virtual queues per class in strict priority, and OtherLoad", "[flow]")
{
    // Two line-rate flows into one marking link (Kmin 0: any queue marks every frame).
    struct Run
    {
        Ptr<FluidNetwork> net = CreateObject<FluidNetwork>();
        Ptr<FluidDcqcn> cc = CreateObject<FluidDcqcn>();
        uint32_t link{0};
        int a{0};
        int b{0};
    };

    auto setUp = [](Run& r, bool otherLoad) {
        const uint32_t h1 = r.net->AddLink(kLine / 8, MicroSeconds(1));
        const uint32_t h2 = r.net->AddLink(kLine / 8, MicroSeconds(1));
        r.link = r.net->AddLink(kLine / 8, MicroSeconds(1));
        r.cc->SetAttribute("OtherLoad", BooleanValue(otherLoad));
        r.cc->Attach(r.net);
        r.cc->AssignStreams(1);
        r.cc->SetMarking(r.link, 0, 0, 1.0);
        return std::make_pair(h1, h2);
    };
    SECTION("a class above takes the link first; only the class below queues and marks")
    {
        Run r;
        const auto h = setUp(r, false);
        FluidNetwork::FlowSpec hi = Flow({h.first, r.link}, 1000000000);
        hi.cls = 5;
        hi.rateCap = 0.6 * kLine / 8; // its own cap (a scheduler's): class 3 gets the rest
        r.cc->StartFlow(&r.a, hi, kLine, kPayload);
        r.cc->StartFlow(&r.b, Flow({h.second, r.link}, 1000000000), kLine, kPayload); // class 3
        Simulator::Stop(MicroSeconds(500));
        Simulator::Run();
        // class 5 offers 0.6 C to a link of C: no queue, no mark, no CNP, still at line rate;
        // class 3 offers C where 0.4 C is left: it queues, its frames are marked, it is cut
        CHECK(r.cc->GetQueue(r.link, 5) == 0);
        CHECK(r.cc->GetMarkProbability(r.link, 5) == 0);
        CHECK(r.cc->GetState(&r.a).rate == kLine);
        CHECK(r.cc->GetCnps() > 0);
        CHECK(r.cc->GetState(&r.b).rate < kLine);
        CHECK_THROWS_AS(r.cc->SetClass(&r.a, 8), std::invalid_argument);
        Simulator::Destroy();
    }
    for (bool otherLoad : {false, true})
    {
        SECTION(std::string("an uncontrolled flow beside a controlled one, OtherLoad ") +
                (otherLoad ? "true" : "false"))
        {
            Run r;
            const auto h = setUp(r, otherLoad);
            r.cc->StartFlow(&r.a, Flow({h.first, r.link}, 1000000000), kLine, kPayload);
            const uint64_t u = r.net->StartFlow(Flow({h.second, r.link}, 1000000000));
            Simulator::Stop(MicroSeconds(500));
            Simulator::Run();
            if (otherLoad)
            {
                // the uncontrolled flow's max-min share is served first: the controlled flow's
                // line rate exceeds what is left, so its queue marks and it is cut
                CHECK(r.cc->GetCnps() > 0);
                CHECK(r.cc->GetState(&r.a).rate < kLine);
            }
            else
            {
                // left to the max-min rates: the controlled flow alone fills no queue
                CHECK(r.cc->GetCnps() == 0);
                CHECK(r.cc->GetQueue(r.link) == 0);
                CHECK(r.cc->GetState(&r.a).rate == kLine);
                CHECK(r.net->GetRate(u) == Approx(kLine / 16));
            }
            Simulator::Destroy();
        }
    }
}

TEST_CASE("flow: dcqcn at flow level is opt-in and reads the fabric's ECN settings", "[flow]")
{
    FabricTopology t = FabricTopologyHelper().BuildFatTree(4);
    Ptr<FluidFabric> fabric = FlowBackendHelper().Install(t);
    CHECK_FALSE(FluidDcqcn::Of(fabric->GetNetwork())); // off unless installed
    Ptr<FluidDcqcn> cc = CreateObject<FluidDcqcn>();
    cc->Install(fabric);
    REQUIRE(FluidDcqcn::Of(fabric->GetNetwork()) == cc);
    CHECK_THROWS_AS(CreateObject<FluidDcqcn>()->Install(fabric), std::logic_error);
    // every switch port marks (k = 4: 16 edge ports down, 16 edge up, 16 agg down, 16 agg up,
    // 16 core down), no host NIC does
    CHECK(cc->GetNMarkingLinks() == 80);
    // a connection's messages run under the reaction point and complete
    Ptr<FluidTransport> a = FlowBackendHelper::GetTransport(t.hosts.Get(0));
    Ptr<FluidTransport> b = FlowBackendHelper::GetTransport(t.hosts.Get(15));
    Ptr<MessageConnection> c = a->Open(b, 3);
    uint64_t done = 0;
    c->PostSend(4000000, MakeCallback(+[](uint64_t* d, uint64_t, uint64_t bytes) {
                             *d += bytes;
                         }).Bind(&done));
    c->PostSend(4000000, MakeCallback(+[](uint64_t* d, uint64_t, uint64_t bytes) {
                             *d += bytes;
                         }).Bind(&done));
    Simulator::Run();
    CHECK(done == 8000000);
    CHECK(cc->GetNOwners() == 1);
    CHECK(cc->GetCnps() == 0); // alone on its path: no queue, no mark
    CHECK(cc->GetCapChanges() == 0);
    Simulator::Destroy();
}

TEST_CASE("flow: the fluidCc scenario key", "[flow]")
{
    // four rings of 4 whose flows share the fat-tree's links (the flow validation's
    // ring4x4-mixed-k4): DCQCN at flow level slows them
    const std::string traffic =
        R"([{"type": "data-parallel-job", "hosts": [0, 4, 8, 12], "model": "googlenet",
             "gpu": "a100", "batch": 32, "iterations": 3},
            {"type": "data-parallel-job", "hosts": [1, 5, 9, 13], "model": "resnet50",
             "gpu": "a100", "batch": 32, "iterations": 3},
            {"type": "data-parallel-job", "hosts": [2, 6, 10, 14], "model": "alexnet",
             "gpu": "a100", "batch": 32, "iterations": 3},
            {"type": "data-parallel-job", "hosts": [3, 7, 11, 15], "model": "inception_v3",
             "gpu": "a100", "batch": 32, "iterations": 3}])";
    auto text = [&](const std::string& extra) {
        return R"({"topology": {"type": "fat-tree", "k": 4}, "duration": "1us", "drain": "1s",
                   "backend": "flow", )" +
               extra + R"("traffic": )" + traffic + "}";
    };
    auto mean = [](const ScenarioResult& r) {
        double sum = 0;
        for (const IterationRecord& it : r.iterations)
        {
            sum += it.Duration().GetSeconds();
        }
        return sum / r.iterations.size();
    };
    // without the key: "dcqcn" (the default), written into the scenario's echo
    // (summary.json's "config") at flow level, not at packet level
    const ScenarioResult byDefault = mlnettest::RunScenarioText(text(""));
    const ScenarioResult none = mlnettest::RunScenarioText(text(R"("fluidCc": "none", )"));
    const ScenarioResult on = mlnettest::RunScenarioText(text(R"("fluidCc": "dcqcn", )"));
    const ScenarioResult fixed =
        mlnettest::RunScenarioText(text(R"("fluidCc": "dcqcn", "cc": "fixed", )"));
    const ScenarioResult fixedNone =
        mlnettest::RunScenarioText(text(R"("fluidCc": "none", "cc": "fixed", )"));
    REQUIRE(byDefault.iterations.size() == 12);
    REQUIRE(on.iterations.size() == 12);
    CHECK(on.summary.drained);
    CHECK(mean(byDefault) == mean(on));
    CHECK(mean(fixed) == mean(fixedNone)); // no DCQCN state machine: nothing to model
    INFO("mean iteration: max-min " << mean(none) * 1e3 << " ms, dcqcn " << mean(on) * 1e3
                                    << " ms");
    CHECK(mean(on) > mean(none));
    CHECK(mean(on) < 1.5 * mean(none));
    CHECK(nlohmann::json::parse(Scenario::ParseString(text("")).json).at("fluidCc") == "dcqcn");
    CHECK(nlohmann::json::parse(Scenario::ParseString(text(R"("fluidCc": "none", )")).json)
              .at("fluidCc") == "none");
    std::string packet = text("");
    packet.replace(packet.find(R"("flow")"), 6, R"("packet")");
    CHECK(!nlohmann::json::parse(Scenario::ParseString(packet).json).contains("fluidCc"));
    // an object without "model": dcqcn, its step read
    CHECK(mlnettest::ScenarioParseError(text(R"("fluidCc": {"step": "5us"}, )")) == "");
    // parameters: step and cnpInterval, each checked
    CHECK(mlnettest::ScenarioParseError(text(
              R"("fluidCc": {"model": "dcqcn", "step": "5us", "cnpInterval": "50us"}, )")) == "");
    CHECK(mlnettest::ScenarioParseError(text(R"("fluidCc": "cubic", )")).find("fluidCc") !=
          std::string::npos);
    CHECK(mlnettest::ScenarioParseError(text(R"("fluidCc": {"model": "dcqcn", "step": "0s"}, )"))
              .find("step") != std::string::npos);
    CHECK(mlnettest::ScenarioParseError(
              text(R"("fluidCc": {"model": "dcqcn", "otherLoad": true}, )")) == "");
    CHECK(mlnettest::ScenarioParseError(text(R"("fluidCc": {"model": "dcqcn", "otherLoad": 2}, )"))
              .find("otherLoad") != std::string::npos);
}
