/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// An aggregation worker on a host without RDMA NIC is its own transmit ring (TxRingFrames):
// at most that many of its frames per class wait in the port's queue, so a DCQCN cut reaches
// the frames made after it, at the analytical paced rate; bytes are conserved.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"
#include "ns3/network-module.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace ns3;

namespace
{

constexpr double kLineRate = 100e9;
constexpr uint32_t kChunks = 2000;                // the post, in chunks of 256 FP32 elements
constexpr uint32_t kFrameBytes = 48 + 1024;       // the IPv4 datagram of a full chunk
constexpr uint32_t kWireBytes = kFrameBytes + 38; // with FrameOverhead's default 38
const Time kCut = MicroSeconds(20);               // the marked result: one CNP

/// One host port's frames and the worker's rate, for a post of kChunks chunks on one tree.
struct RingRun
{
    std::vector<Time> starts;  //!< transmission starts of the host port's frames
    std::vector<double> rates; //!< the tree's rate after each change (CongestionWindow)
    std::vector<Time> rateAt;  //!< when
    uint64_t sinkFrames{0};    //!< frames received at the far end
    uint64_t sinkBytes{0};     //!< their bytes
    uint64_t maxQueueBytes{0}; //!< the host port's largest queue of class 3
    uint64_t queueBytesEnd{0}; //!< its queue at the end
    AggregationWorkerStats stats;
    std::vector<AggregationWorkerStats> all; //!< every worker's counters
};

/**
 * Host A (no RDMA NIC) --100 Gb/s, 1 us-- B (a sink). `jobs` workers on A, each posting kChunks
 * chunks in class 3 on one tree whose aggregation point would be B (nothing answers, a slot
 * pool of 4096, no timeout); at kCut job 1's tree gets one marked result (seq 0).
 */
RingRun
Run(uint32_t ring, uint32_t jobs = 1)
{
    Config::SetDefault("ns3::AggregationWorker::TxRingFrames", UintegerValue(ring));
    Config::SetDefault("ns3::AggregationWorker::RetransmitTimeout", TimeValue(Seconds(1)));
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    Ptr<FabricNetDevice> pa = CreateObject<FabricNetDevice>();
    Ptr<FabricNetDevice> pb = CreateObject<FabricNetDevice>();
    for (auto [n, p] : {std::make_pair(a, pa), std::make_pair(b, pb)})
    {
        p->SetAttribute("DataRate", DataRateValue(DataRate(uint64_t(kLineRate))));
        n->AddDevice(p);
    }
    pa->SetIpv4Address(Ipv4Address("10.0.0.1"));
    pb->SetIpv4Address(Ipv4Address("10.0.0.2"));
    Ptr<FabricChannel> ch = CreateObject<FabricChannel>();
    ch->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
    pa->Attach(ch);
    pb->Attach(ch);

    RingRun r;
    pb->SetFabricReceiveCallback(
        FabricNetDevice::FabricReceiveCallback([&r](Ptr<FabricNetDevice>, Ptr<Packet> p) {
            r.sinkFrames++;
            r.sinkBytes += p->GetSize();
            return true;
        }));
    pa->TraceConnectWithoutContext("PhyTxBegin",
                                   Callback<void, Ptr<const Packet>>([&r](Ptr<const Packet>) {
                                       r.starts.push_back(Simulator::Now());
                                   }));
    ObjectFactory cc("ns3::AggregationDcqcn");
    std::vector<Ptr<AggregationWorker>> ws;
    for (uint32_t j = 1; j <= jobs; ++j)
    {
        Ptr<AggregationWorker> w = CreateObject<AggregationWorker>();
        AggWorkerTree t;
        t.treeId = 0;
        t.parent = pb->GetIpv4Address();
        t.slots = 4096;
        w->Setup(pa, uint16_t(j), {t}, cc);
        ws.push_back(w);
        w->Post(uint64_t(kChunks) * 256, 3, AggregationWorker::DoneCallback());
    }
    ws[0]->TraceConnectWithoutContext(
        "CongestionWindow",
        Callback<void, uint16_t, double, double>([&r](uint16_t, double, double rate) {
            r.rates.push_back(rate);
            r.rateAt.push_back(Simulator::Now());
        }));
    Simulator::Schedule(kCut, [&ws]() {
        AggregationStackHeader h;
        h.src = Ipv4Address("10.0.0.2");
        h.dst = Ipv4Address("10.0.0.1");
        h.ecn = 3; // CE
        h.agg.type = AggregationHeader::RESULT;
        h.agg.jobId = 1;
        h.agg.treeId = 0;
        h.agg.seq = 0;
        h.agg.elements = 256;
        ws[0]->Receive(AggregationStackHeader::Build(h, nullptr), h);
    });
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    r.maxQueueBytes = pa->GetMaxQueueBytes(3);
    r.queueBytesEnd = pa->GetQueueBytes(3);
    r.stats = ws[0]->GetStats();
    for (const auto& w : ws)
    {
        r.all.push_back(w->GetStats());
    }
    Simulator::Destroy();
    Config::Reset();
    return r;
}

/// \return the transmission starts in [from, to)
std::vector<Time>
Between(const std::vector<Time>& starts, Time from, Time to)
{
    std::vector<Time> out;
    for (const Time& t : starts)
    {
        if (t >= from && t < to)
        {
            out.push_back(t);
        }
    }
    return out;
}

} // namespace

TEST_CASE("aggregation: a worker without RDMA NIC keeps at most TxRingFrames frames on its "
          "port, so a DCQCN cut paces the next frame it makes",
          "[aggregation]")
{
    const double w = kWireBytes * 8.0 / kLineRate; // a frame's serialisation, 88.8 ns
    // The cut: InitialAlpha 1, no alpha-timer expiry before kCut (55 us), so 1 - 1/2; the
    // rate-increase timer (55 us after the cut) is the next change.
    const double cutRate = kLineRate / 2;
    const Time until = kCut + MicroSeconds(50);
    SECTION("TxRingFrames 1, 2, 4")
    {
        for (uint32_t ring : {1u, 2u, 4u})
        {
            INFO("TxRingFrames " << ring);
            RingRun r = Run(ring);
            // The ring: never more than `ring` frames in the port's queue (the one on the wire
            // is not queued).
            REQUIRE(r.maxQueueBytes == uint64_t(ring) * kFrameBytes);
            // The controller's cut, at the marked result.
            REQUIRE(r.rates.size() >= 1);
            REQUIRE(r.rateAt[0] == kCut);
            REQUIRE(r.rates[0] == Approx(cutRate).epsilon(1e-12));
            REQUIRE((r.rates.size() == 1 || r.rateAt[1] >= until));
            // Before the cut: back to back at line rate.
            std::vector<Time> before = Between(r.starts, MicroSeconds(1), kCut);
            for (std::size_t i = 1; i < before.size(); ++i)
            {
                REQUIRE((before[i] - before[i - 1]).GetSeconds() == Approx(w).margin(1e-9));
            }
            // After it: the frames that were in the ring leave back to back, and the frames made
            // while they drain are held by the port, so the first gaps are at line rate (at most
            // two per ring frame); from then on one frame per g = w x line / rate, the analytical
            // paced interval: the first of them may be shortened by the tail of the frame before
            // (by at most w), the others within one step of the time grid (the worker paces by
            // WireBits / rate with the sub-step remainder carried, TxTimeAccumulator), and n of
            // them together within one step of n g (the long-run rate exact).
            const double g = w * kLineRate / cutRate;
            const double step = TimeStep(1).GetSeconds();
            const double grid = step * (1 + 1e-9);
            std::vector<Time> after = Between(r.starts, kCut, until);
            std::vector<double> gaps;
            for (std::size_t i = 1; i < after.size(); ++i)
            {
                gaps.push_back((after[i] - after[i - 1]).GetSeconds());
            }
            std::size_t lineRateGaps = 0;
            while (lineRateGaps < gaps.size() && std::abs(gaps[lineRateGaps] - w) < step)
            {
                ++lineRateGaps;
            }
            INFO("frames after the cut " << after.size() << ", leading gaps at line rate "
                                         << lineRateGaps);
            REQUIRE(lineRateGaps >= 1);
            REQUIRE(lineRateGaps <= 2 * ring);
            REQUIRE(gaps.size() > lineRateGaps + 100);
            REQUIRE(gaps[lineRateGaps] >= g - w - step);
            REQUIRE(gaps[lineRateGaps] <= g + step);
            for (std::size_t i = lineRateGaps + 1; i < gaps.size(); ++i)
            {
                REQUIRE(std::abs(gaps[i] - g) <= grid);
            }
            const std::size_t paced = gaps.size() - lineRateGaps - 1;
            const double sum = (after.back() - after[lineRateGaps + 1]).GetSeconds();
            REQUIRE(std::abs(sum - double(paced) * g) <= grid);
            // Over the 50 us: the paced rate, give or take the ring's frames.
            const double span = (until - kCut).GetSeconds();
            REQUIRE(double(after.size()) >= ring + span / g - 1);
            REQUIRE(double(after.size()) <= ring + span / (g - grid) + 2);
            // Conservation: every chunk sent once, every byte sent arrived, nothing left queued.
            REQUIRE(r.stats.chunksSent == kChunks);
            REQUIRE(r.stats.retransmitted == 0);
            REQUIRE(r.sinkFrames == kChunks);
            REQUIRE(r.sinkBytes == r.stats.bytesSent);
            REQUIRE(r.sinkBytes == uint64_t(kChunks) * kFrameBytes);
            REQUIRE(r.queueBytesEnd == 0);
        }
    }

    SECTION("TxRingFrames 0: the whole pool queued at once, the cut reaches no queued frame")
    {
        RingRun r = Run(0);
        REQUIRE(r.maxQueueBytes == uint64_t(kChunks - 1) * kFrameBytes);
        std::vector<Time> after = Between(r.starts, kCut, until);
        for (std::size_t i = 1; i < after.size(); ++i)
        {
            REQUIRE((after[i] - after[i - 1]).GetSeconds() == Approx(w).margin(1e-9));
        }
        REQUIRE(r.sinkBytes == r.stats.bytesSent);
        REQUIRE(r.sinkFrames == kChunks);
    }

    SECTION("two workers on one port: each its own ring, each frame's dequeue to its worker")
    {
        RingRun r = Run(1, 2);
        REQUIRE(r.maxQueueBytes == 2 * kFrameBytes);
        REQUIRE(r.sinkFrames == 2 * kChunks);
        REQUIRE(r.all[0].chunksSent == kChunks);
        REQUIRE(r.all[1].chunksSent == kChunks);
        REQUIRE(r.sinkBytes == r.all[0].bytesSent + r.all[1].bytesSent);
        REQUIRE(r.queueBytesEnd == 0);
    }
}

TEST_CASE("aggregation: TxRingFrames out of range is rejected by its checker", "[aggregation]")
{
    Ptr<AggregationWorker> w = CreateObject<AggregationWorker>();
    REQUIRE_FALSE(w->SetAttributeFailSafe("TxRingFrames", UintegerValue(65537)));
    REQUIRE(w->SetAttributeFailSafe("TxRingFrames", UintegerValue(0)));
    UintegerValue v;
    w->GetAttribute("TxRingFrames", v);
    REQUIRE(v.Get() == 0);
}
