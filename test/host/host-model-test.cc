/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Pure models of the host interconnect: IOTLB (LRU), PCIe link rates, memory loaded latency,
// the Little's-law operating point of DMA writes, and parameter validation.

#include "common/flow-test-builders.h"

#include "ns3/double.h"
#include "ns3/host-interconnect.h"
#include "ns3/host-path-timing.h"
#include "ns3/iotlb.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;
using mlnettest::ErrorOf;

namespace
{
/// Hit count of n accesses cycling over W pages with an LRU of E entries.
uint64_t
CyclicHits(uint32_t w, uint32_t e, uint64_t n)
{
    Iotlb tlb(e, 4096);
    for (uint64_t i = 0; i < n; ++i)
    {
        tlb.Access((i % w) * 4096 + 100);
    }
    REQUIRE(tlb.GetHits() + tlb.GetMisses() == n);
    return tlb.GetHits();
}

} // namespace

TEST_CASE("host: IOTLB hit rate equals the LRU value for a cyclic pattern", "[host]")
{
    // W <= E: only the W compulsory misses, hit rate (n - W) / n.
    // W > E: every page was evicted E accesses after its last use, before it comes round again
    // W accesses later, so every access misses: hit rate 0.
    const uint64_t n = 10000;
    for (uint32_t e : {1u, 8u, 64u})
    {
        for (uint32_t w : {1u, 4u, 8u, 63u, 64u, 65u, 128u})
        {
            uint64_t expected = w <= e ? n - w : 0;
            INFO("W " << w << " E " << e);
            REQUIRE(CyclicHits(w, e, n) == expected);
        }
    }
    Iotlb tlb(64, 4096);
    for (uint64_t i = 0; i < n; ++i)
    {
        tlb.Access((i % 32) * 4096);
    }
    REQUIRE(tlb.GetHitRate() == Approx(double(n - 32) / n).epsilon(1e-12));
    REQUIRE(tlb.GetSize() == 32);
}

TEST_CASE("host: huge pages raise the IOTLB hit rate of many receive buffers", "[host]")
{
    // 16 queue pairs, 64 KiB receive buffer each, 1000-byte writes interleaved round robin:
    // 256 pages of 4 KiB exceed 64 entries (only hits within a page), 16 pages of 2 MiB fit.
    auto rate = [](uint64_t page) {
        Iotlb tlb(64, page);
        const uint64_t span = (65536 + page - 1) / page * page;
        std::vector<uint64_t> off(16, 0);
        for (int i = 0; i < 20000; ++i)
        {
            uint32_t q = i % 16;
            uint64_t first = std::min<uint64_t>(1000, 65536 - off[q]);
            tlb.AccessRange(q * span + off[q], first);
            tlb.AccessRange(q * span, 1000 - first);
            off[q] = (off[q] + 1000) % 65536;
        }
        return tlb.GetHitRate();
    };
    double small = rate(4096);
    double huge = rate(2u << 20);
    INFO("4 KiB " << small << ", 2 MiB " << huge);
    // Per write: 1 + 999/4096 lookups (a write crosses a page boundary with that probability)
    // and 1000/4096 misses (a new page every 4096 bytes).
    REQUIRE(small == Approx(1.0 - (1000.0 / 4096) / (1.0 + 999.0 / 4096)).margin(0.002));
    REQUIRE(huge > 0.999);
}

TEST_CASE("host: misses per byte of cyclic receive buffers match the LRU replay", "[host]")
{
    // Buffers of 64 KiB written round-robin in 1000-byte packets from page-aligned bases, as
    // HostInterconnect writes its queue pairs' receive buffers.
    for (uint64_t page : {uint64_t(4096), uint64_t(2) << 20})
    {
        for (uint64_t buffers : {1u, 4u, 5u, 16u, 32u})
        {
            const uint64_t perQp = 64 * 1024;
            const uint64_t span = (perQp + page - 1) / page * page;
            Iotlb tlb(64, page);
            std::vector<uint64_t> offset(buffers, 0);
            uint64_t misses = 0;
            uint64_t bytes = 0;
            const uint64_t rounds = 20 * perQp / 1000;
            for (uint64_t r = 0; r < rounds; ++r)
            {
                for (uint64_t q = 0; q < buffers; ++q)
                {
                    const uint64_t base = (uint64_t(1) << 40) + q * span;
                    const uint64_t first = std::min<uint64_t>(1000, perQp - offset[q]);
                    uint32_t m = tlb.AccessRange(base + offset[q], first);
                    m += tlb.AccessRange(base, 1000 - first);
                    offset[q] = (offset[q] + 1000) % perQp;
                    if (r >= rounds / 2) // after the first passes
                    {
                        misses += m;
                        bytes += 1000;
                    }
                }
            }
            const double expect = Iotlb::CyclicMissesPerByte(64, page, buffers, perQp);
            INFO("page " << page << " buffers " << buffers << ": replay " << double(misses) / bytes
                         << ", closed form " << expect);
            REQUIRE(Iotlb::CyclicWorkingSet(page, buffers, perQp) == buffers * span / page);
            REQUIRE(expect == (buffers * span / page > 64 ? 1.0 / page : 0.0));
            REQUIRE(double(misses) / bytes == Approx(expect).epsilon(0.01).margin(1e-12));
        }
    }
    // Outside the closed form's range: clear errors.
    REQUIRE(ErrorOf([] {
                Iotlb::CyclicMissesPerByte(64, 4096, 33, 65536);
            }).find("2 x buffers <= entries (64)") != std::string::npos);
    REQUIRE(ErrorOf([] {
                Iotlb::CyclicMissesPerByte(64, 4096, 0, 65536);
            }).find("at least one buffer") != std::string::npos);
    REQUIRE(ErrorOf([] { Iotlb::CyclicMissesPerByte(64, 3000, 1, 65536); }).find("power of two") !=
            std::string::npos);
}

TEST_CASE("host: DMA rate with page walks is 8P / (8P / R + walk x latency)", "[host]")
{
    // 200 Gb/s host: PCIe Gen4 x16, the memory bus and path defaults of HostInterconnect.
    const PcieLinkModel gen4(4, 16, 256, 24);
    const MemoryBusModel ddr4(600e9, 80e-9, 50e-9, 0.98);
    const HostPathTiming t(gen4, ddr4, HostPathTiming::Config{});
    HostPathTiming::Operating op = t.Solve(0);
    // One walk per 4 KiB page: per page 4096 x 8 / R plus one access at the loaded latency.
    const double perPage = 4096 * 8 / op.writeRate + op.memLatency;
    REQUIRE(t.MissLimitedRate(1.0 / 4096, op) == Approx(4096 * 8 / perPage));
    // The same as a long run of PacketTime: 4096 packets of 1000 B, 1000 misses among them.
    double time = 0;
    for (int i = 0; i < 4096; ++i)
    {
        time += t.PacketTime(1000, i < 1000 ? 1 : 0, op);
    }
    REQUIRE(t.MissLimitedRate(1.0 / 4096, op) == Approx(4096 * 1000 * 8.0 / time));
    REQUIRE(t.MissLimitedRate(0, op) == Approx(op.writeRate));
    // 200 Gb/s on PCIe Gen4: the write rate is the credit limit (about 192 Gb/s); page walks
    // take it to about 125 Gb/s, 32% below the 184.8 Gb/s of payload a 200 Gb/s link carries.
    REQUIRE(op.writeRate == Approx(191.8e9).epsilon(1e-3));
    REQUIRE(t.MissLimitedRate(1.0 / 4096, op) == Approx(124.8e9).epsilon(1e-3));
    HostPathTiming::Config halfWalk;
    halfWalk.walkAccesses = 0.5;
    const HostPathTiming half(gen4, ddr4, halfWalk);
    REQUIRE(half.MissLimitedRate(1.0 / 4096, op) > t.MissLimitedRate(1.0 / 4096, op));
    REQUIRE(ErrorOf([&] { t.MissLimitedRate(-1, op); }).find("misses per byte") !=
            std::string::npos);
}

TEST_CASE("host: PCIe rate after encoding and TLP overhead", "[host]")
{
    REQUIRE(PcieLinkModel::LaneRate(1) == Approx(2e9));
    REQUIRE(PcieLinkModel::LaneRate(2) == Approx(4e9));
    REQUIRE(PcieLinkModel::LaneRate(3) == Approx(8e9 * 128 / 130));
    REQUIRE(PcieLinkModel::LaneRate(4) == Approx(16e9 * 128 / 130));
    PcieLinkModel gen3(3, 16, 256, 24);
    REQUIRE(gen3.RawRate() == Approx(126.03e9).epsilon(1e-4));
    // 1000 bytes: 4 TLPs of at most 256 bytes, 24 bytes each.
    REQUIRE(gen3.WireBytes(1000) == 1096);
    REQUIRE(gen3.EffectiveRate(256) == Approx(gen3.RawRate() * 256.0 / 280.0));
    REQUIRE(gen3.TransferTime(1000) == Approx(1096 * 8 / gen3.RawRate()));
    PcieLinkModel gen4(4, 16, 512, 24);
    REQUIRE(gen4.EffectiveRate(512) == Approx(252.06e9 * 512 / 536).epsilon(1e-4));
    REQUIRE(PcieLinkModel(3, 8, 256, 0).EffectiveRate(4096) == Approx(63.015e9).epsilon(1e-4));
}

TEST_CASE("host: memory latency follows the M/D/1 loaded-latency curve", "[host]")
{
    MemoryBusModel m(600e9, 80e-9, 40e-9, 0.98);
    REQUIRE(m.Latency(0) == Approx(80e-9));
    REQUIRE(m.Latency(0.5) == Approx(80e-9 + 40e-9 * 0.5 / 1.0));
    REQUIRE(m.Latency(0.9) == Approx(80e-9 + 4.5 * 40e-9));
    REQUIRE(m.Latency(5.0) == Approx(m.Latency(0.98))); // capped when saturated
    REQUIRE(m.Utilisation(300e9) == Approx(0.5));
}

TEST_CASE("host: DMA write throughput is credits x line / latency (Little's law)", "[host]")
{
    PcieLinkModel pcie(3, 16, 256, 24);
    MemoryBusModel mem(600e9, 80e-9, 40e-9, 0.98);
    HostPathTiming::Config cfg;
    HostPathTiming t(pcie, mem, cfg);
    // No contention: the PCIe link is the limit.
    HostPathTiming::Operating idle = t.Solve(0);
    REQUIRE(idle.writeRate == Approx(pcie.EffectiveRate(256)));
    REQUIRE(idle.creditRate > idle.writeRate);
    // Under contention: the fixed point R = credits x 64 B x 8 / (io + mem((app + R) / B)).
    double prev = idle.writeRate;
    for (double d : {0.5, 0.7, 0.8, 0.9, 0.95, 1.0})
    {
        HostPathTiming::Operating op = t.Solve(d * 600e9);
        double lat = cfg.ioLatency + mem.Latency((d * 600e9 + op.writeRate) / 600e9);
        double little = cfg.writeCredits * 64 * 8.0 / lat;
        INFO("demand " << d << " rate " << op.writeRate / 1e9);
        REQUIRE(op.writeRate <= prev * (1 + 1e-12));
        REQUIRE(op.writeRate == Approx(std::min(op.pcieRate, little)).epsilon(1e-6));
        prev = op.writeRate;
    }
    // Memory bandwidth (600 Gb/s) is far above the NIC's, yet at full demand the write
    // throughput is below 100 Gb/s: latency, not bandwidth, limits it.
    REQUIRE(prev < 60e9);
    // A page walk adds its memory accesses at the loaded latency.
    HostPathTiming::Operating op = t.Solve(0.9 * 600e9);
    REQUIRE(t.PacketTime(1000, 1, op) - t.PacketTime(1000, 0, op) == Approx(op.memLatency));
    // HostInterconnect builds the same model from its attributes (GetTiming: what the Python
    // host_path() replays packet times with), and none before Configure / Attach.
    Ptr<HostInterconnect> host = CreateObject<HostInterconnect>();
    REQUIRE_THROWS_WITH(host->GetTiming(), Catch::Contains("not configured"));
    host->SetAttribute("PcieGeneration", UintegerValue(3));
    host->SetAttribute("PcieLanes", UintegerValue(16));
    host->SetAttribute("MaxPayloadSize", UintegerValue(256));
    host->SetAttribute("TlpOverhead", UintegerValue(24));
    host->SetAttribute("MemoryBandwidth", DoubleValue(600e9));
    host->SetAttribute("MemoryIdleLatency", TimeValue(NanoSeconds(80)));
    host->SetAttribute("MemoryQueueingScale", TimeValue(NanoSeconds(40)));
    host->SetAttribute("MemoryMaxUtilization", DoubleValue(0.98));
    host->SetMemoryAppDemand(0.9);
    host->Configure();
    const HostPathTiming::Operating same = host->GetTiming().Solve(0.9 * 600e9);
    REQUIRE(same.writeRate == Approx(op.writeRate).epsilon(1e-12));
    REQUIRE(host->GetOperatingPoint().writeRate == Approx(op.writeRate).epsilon(1e-12));
    REQUIRE(host->GetTiming().PacketTime(1000, 1, same) == Approx(t.PacketTime(1000, 1, op)));
}

TEST_CASE("host: invalid parameters are rejected with clear errors", "[host]")
{
    REQUIRE(ErrorOf([] { PcieLinkModel(3, 0); }).find("lanes 0") != std::string::npos);
    REQUIRE(ErrorOf([] { PcieLinkModel(3, 3); }).find("lanes 3") != std::string::npos);
    REQUIRE(ErrorOf([] { PcieLinkModel(7, 16); }).find("generation 7") != std::string::npos);
    REQUIRE(ErrorOf([] { PcieLinkModel(3, 16, 100); }).find("max payload size 100") !=
            std::string::npos);
    REQUIRE(ErrorOf([] { Iotlb(64, 6000); }).find("power of two") != std::string::npos);
    REQUIRE(ErrorOf([] { Iotlb(0, 4096); }).find("entries") != std::string::npos);
    REQUIRE(ErrorOf([] { MemoryBusModel(0); }).find("bandwidth") != std::string::npos);
    REQUIRE(ErrorOf([] { MemoryBusModel(600e9, 80e-9, 40e-9, 1.0); }).find("max utilisation") !=
            std::string::npos);
    PcieLinkModel pcie;
    MemoryBusModel mem;
    HostPathTiming t(pcie, mem, HostPathTiming::Config{});
    REQUIRE(ErrorOf([&] { t.Solve(-1); }).find("non-negative") != std::string::npos);
    // The object: attribute checkers and the run-time setter.
    Ptr<HostInterconnect> h = CreateObject<HostInterconnect>();
    REQUIRE_FALSE(h->SetAttributeFailSafe("MemoryAppDemand", DoubleValue(-0.1)));
    REQUIRE_FALSE(h->SetAttributeFailSafe("PcieLanes", UintegerValue(0)));
    REQUIRE(ErrorOf([&] { h->SetMemoryAppDemand(-0.5); }).find("MemoryAppDemand") !=
            std::string::npos);
    REQUIRE(h->SetAttributeFailSafe("PageSize", UintegerValue(6000))); // caught at Attach
}
