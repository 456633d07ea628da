/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Exact serialisation: links and paced senders carry their nominal rate at every rate, with
// ns-3's default nanosecond resolution (no Time::SetResolution anywhere).

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <vector>

using namespace ns3;

namespace
{

/// Data frames (IPv4) that finished arriving at a device: time and wire bits of each.
struct RxLog
{
    Ptr<FabricNetDevice> dev;
    std::vector<std::pair<Time, uint64_t>> frames;

    void OnRx(Ptr<const Packet> p)
    {
        frames.emplace_back(Simulator::Now(), dev->WireBits(p->GetSize()));
    }

    /// Wire rate between the first arrival at or after `from` and the last one before `to`:
    /// bits of the frames after the first / time between first and last (bit/s).
    double Rate(Time from, Time to) const
    {
        int first = -1;
        int last = -1;
        uint64_t bits = 0;
        for (size_t i = 0; i < frames.size(); ++i)
        {
            if (frames[i].first < from || frames[i].first >= to)
            {
                continue;
            }
            if (first < 0)
            {
                first = int(i);
            }
            else
            {
                bits += frames[i].second;
            }
            last = int(i);
        }
        if (first < 0 || last <= first)
        {
            return 0;
        }
        return double(bits) / (frames[last].first - frames[first].first).GetSeconds();
    }
};

/// Host 0 -> switch -> host 1 at `rate`; the receiving host's data frames are logged.
FabricTopology
BuildPair(const std::string& rate, RxLog& log)
{
    FabricTopologyHelper th;
    th.SetHostLinkRate(DataRate(rate));
    th.SetFabricLinkRate(DataRate(rate));
    FabricTopology t = th.BuildDumbbell(1, 1);
    log.dev = t.HostDevice(1);
    log.dev->TraceConnectWithoutContext("MacRx", MakeCallback(&RxLog::OnRx, &log));
    return t;
}

const Time kFrom = MicroSeconds(100); // after the path has filled
const Time kTo = kFrom + MilliSeconds(1);

} // namespace

TEST_CASE("fabric: TxTimeAccumulator sums to the exact time and rescales its carry", "[fabric]")
{
    TxTimeAccumulator acc;
    // 8528 bits at 400 Gb/s = 21.32 ns: 100 frames take exactly 2132 ns.
    int64_t total = 0;
    for (int i = 0; i < 100; ++i)
    {
        Time t = acc.Next(8528, 400000000000ULL);
        REQUIRE((t == NanoSeconds(21) || t == NanoSeconds(22)));
        total += t.GetNanoSeconds();
        // Every prefix ends within one step of the exact end, never after it.
        const double exact = 21.32 * (i + 1);
        REQUIRE(double(total) <= exact + 1e-9);
        REQUIRE(double(total) > exact - 1.0);
    }
    REQUIRE(total == 2132);
    REQUIRE(acc.GetCarry() == 0);
    // Peek is the rounded-down time and does not advance the carry.
    REQUIRE(acc.Peek(8528, 400000000000ULL) == NanoSeconds(21));
    acc.Next(8528, 400000000000ULL); // carry 0.32 ns
    REQUIRE(acc.GetCarry() == 128000000000ULL);
    REQUIRE(acc.Peek(8528, 400000000000ULL) == NanoSeconds(21));
    REQUIRE(acc.GetCarry() == 128000000000ULL);
    // A rate change keeps the carried fraction (0.32 ns) in the new rate's units.
    acc.Next(1000, 1000000000ULL); // 1000 ns exactly at 1 Gb/s
    REQUIRE(acc.GetCarry() == 320000000ULL);
    acc.Reset();
    REQUIRE(acc.GetCarry() == 0);
    REQUIRE_THROWS_AS(acc.Next(1000, 0), std::invalid_argument);
    // Also before any other call, and for an empty frame (its split is memoised from the
    // start, so only the rate check catches it).
    TxTimeAccumulator fresh;
    REQUIRE_THROWS_AS(fresh.Next(0, 0), std::invalid_argument);
    REQUIRE_THROWS_AS(fresh.Peek(0, 0), std::invalid_argument);
}

TEST_CASE("fabric: back-to-back frames carry the nominal line rate within 0.05%", "[fabric]")
{
    for (const char* rate : {"25Gbps", "100Gbps", "200Gbps", "400Gbps", "800Gbps"})
    {
        RxLog log;
        FabricTopology t = BuildPair(rate, log);
        // An unresponsive source offering twice the line rate keeps the host port busy; the
        // switch port forwards back to back at the same rate.
        Ptr<ConstantRateFlow> f = CreateObject<ConstantRateFlow>();
        f->SetAttribute("Remote", Ipv4AddressValue(t.HostAddress(1)));
        f->SetAttribute("DataRate", DataRateValue(DataRate(2 * DataRate(rate).GetBitRate())));
        f->SetAttribute("Ect", BooleanValue(false));
        t.hosts.Get(0)->AddApplication(f);
        Simulator::Stop(kTo + MicroSeconds(1));
        Simulator::Run();
        const double nominal = double(DataRate(rate).GetBitRate());
        INFO(rate << ": carried " << log.Rate(kFrom, kTo) / 1e9 << " Gb/s");
        CHECK(log.Rate(kFrom, kTo) == Approx(nominal).epsilon(0.0005));
        Simulator::Destroy();
    }
}

TEST_CASE("fabric: a constant-rate source and a paced RDMA queue pair keep their exact rate",
          "[fabric]")
{
    SECTION("constant-rate flow at 37 Gb/s of IPv4 bytes on a 100 Gb/s link")
    {
        RxLog log;
        FabricTopology t = BuildPair("100Gbps", log);
        Ptr<ConstantRateFlow> f = CreateObject<ConstantRateFlow>();
        f->SetAttribute("Remote", Ipv4AddressValue(t.HostAddress(1)));
        f->SetAttribute("DataRate", DataRateValue(DataRate("37Gbps")));
        f->SetAttribute("PayloadSize", UintegerValue(1000)); // 1028 IPv4 bytes, 1066 on the wire
        t.hosts.Get(0)->AddApplication(f);
        Simulator::Stop(kTo + MicroSeconds(1));
        Simulator::Run();
        REQUIRE(log.Rate(kFrom, kTo) == Approx(37e9 * 1066 / 1028).epsilon(0.0005));
        Simulator::Destroy();
    }
    SECTION("RDMA queue pairs at line rate (400 Gb/s) and rate-limited (37 Gb/s of 100 Gb/s)")
    {
        for (const auto& [link, cap] :
             std::vector<std::pair<std::string, double>>{{"400Gbps", 0.0}, {"100Gbps", 37e9}})
        {
            RxLog log;
            FabricTopology t = BuildPair(link, log);
            RdmaHelper rdma;
            rdma.SetCongestionControl("ns3::RdmaFixedRate");
            rdma.SetCcAttribute("Rate", DataRateValue(DataRate(uint64_t(cap))));
            std::vector<Ptr<RdmaNic>> nics = rdma.Install(t.hosts);
            Ptr<RdmaQueuePair> qp = nics[0]->Connect(nics[1]);
            qp->PostSend(uint64_t(1) << 40);
            Simulator::Stop(kTo + MicroSeconds(1));
            Simulator::Run();
            const double expect = cap > 0 ? cap : double(DataRate(link).GetBitRate());
            INFO(link << " cap " << cap << ": carried " << log.Rate(kFrom, kTo) / 1e9 << " Gb/s");
            CHECK(log.Rate(kFrom, kTo) == Approx(expect).epsilon(0.0005));
            Simulator::Destroy();
        }
    }
}
