/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// HugePageHeap marks the brk heap for transparent huge pages as it grows; MlnetSimulatorImpl's
// HugePages attribute changes no result, and with the library's defaults the implementation
// leaves the process's allocator alone and Simulator::Destroy() frees the wire arena.

#include "common/rdma-scenario.h"
#include "common/simulator-impl-guard.h"
#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <cctype>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{
/// \return true if the process has a brk heap that malloc has grown
bool
HasBrkHeap()
{
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line))
    {
        if (line.find("[heap]") != std::string::npos)
        {
            return true;
        }
    }
    return false;
}

/// \return true if the brk heap's mapping carries madvise(MADV_HUGEPAGE) ("hg" in VmFlags)
bool
HeapMarkedForHugePages()
{
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool inHeap = false;
    while (std::getline(smaps, line))
    {
        // A mapping's header line starts with its address range ("5581...-5582... rw-p ...").
        if (!line.empty() && std::isxdigit(static_cast<unsigned char>(line[0])) &&
            line.find('-') != std::string::npos && line.find(':') > line.find(' '))
        {
            inHeap = line.find("[heap]") != std::string::npos;
        }
        else if (inHeap && line.rfind("VmFlags:", 0) == 0)
        {
            return line.find(" hg") != std::string::npos;
        }
    }
    return false;
}
} // namespace

TEST_CASE("sim: HugePageHeap marks the heap up to the current break, and what it grew by", "[sim]")
{
    HugePageHeap heap;
    const bool ok = heap.Update();
#if defined(__linux__) && defined(__GLIBC__)
    if (!HugePageHeap::Available() || !HasBrkHeap())
    {
        // THP "never", or no brk heap (a sanitizer's allocator maps its own memory): nothing
        // to ask for.
        CHECK_FALSE(ok);
        return;
    }
    REQUIRE(ok);
    const long page = sysconf(_SC_PAGESIZE);
    auto top = [page]() { return reinterpret_cast<uintptr_t>(sbrk(0)) & ~uintptr_t(page - 1); };
    const uintptr_t top0 = top();
    const std::size_t marked0 = heap.AdvisedBytes();
    CHECK(marked0 > 0);
    // 64 MB in 16 KB blocks (under malloc's mmap threshold: from the brk heap, unless a
    // sanitizer's allocator serves them, and then the break does not move).
    std::vector<std::unique_ptr<char[]>> blocks;
    for (int i = 0; i < 4096; ++i)
    {
        blocks.emplace_back(new char[16384]);
        std::memset(blocks.back().get(), i & 0xff, 16384);
    }
    REQUIRE(heap.Update());
    const uintptr_t top1 = top();
    CHECK(heap.AdvisedBytes() - marked0 == top1 - top0); // exactly what the heap grew by
    REQUIRE(heap.Update());                              // nothing new: nothing changes
    CHECK(heap.AdvisedBytes() - marked0 == top1 - top0);
#else
    CHECK_FALSE(ok);
#endif
}

TEST_CASE("sim: MlnetSimulatorImpl's HugePages attribute changes no result", "[sim]")
{
    const std::string text =
        R"({"topology": {"type": "fat-tree", "k": 4},
            "traffic": [{"type": "rdma", "src": 0, "dst": 9, "bytes": 2000000},
                        {"type": "rdma", "src": 1, "dst": 9, "bytes": 2000000},
                        {"type": "rdma", "src": 4, "dst": 13, "bytes": 1500000}],
            "duration": "2ms", "drain": "20ms"})";
    mlnettest::ImplGuard guard;
    guard.Use("ns3::MlnetSimulatorImpl", "ns3::TimingWheelScheduler");
    std::vector<ScenarioResult> results;
    for (bool on : {false, true})
    {
        Config::SetDefault("ns3::MlnetSimulatorImpl::HugePages", BooleanValue(on));
        results.push_back(mlnettest::RunScenarioText(text));
    }
    Config::SetDefault("ns3::MlnetSimulatorImpl::HugePages", BooleanValue(false)); // the default
    const ScenarioResult& off = results[0];
    const ScenarioResult& on = results[1];
    REQUIRE(off.flows.size() == 3);
    REQUIRE(on.flows.size() == 3);
    for (std::size_t i = 0; i < 3; ++i)
    {
        INFO("flow " << i);
        CHECK(off.flows[i].deliveredBytes > 0);
        CHECK(on.flows[i].deliveredBytes == off.flows[i].deliveredBytes);
        CHECK(on.flows[i].txPackets == off.flows[i].txPackets);
        CHECK(on.flows[i].rxPackets == off.flows[i].rxPackets);
        CHECK(on.flows[i].ceMarked == off.flows[i].ceMarked);
        CHECK(on.flows[i].lastRxNs == off.flows[i].lastRxNs);
        CHECK(on.flows[i].FctNs() == off.flows[i].FctNs());
    }
}

TEST_CASE("sim: with the library's defaults MlnetSimulatorImpl leaves the process's allocator "
          "alone, and Simulator::Destroy() frees the wire arena",
          "[sim]")
{
    // The library default of HugePages is off (programs opt in: UseHugePages()).
    TypeId tid = TypeId::LookupByName("ns3::MlnetSimulatorImpl");
    TypeId::AttributeInformation info;
    REQUIRE(tid.LookupAttributeByName("HugePages", &info));
    CHECK(info.initialValue->SerializeToString(info.checker) == "false");

    const uint64_t changes0 = HugePageHeap::ProcessChanges();
    mlnettest::ImplGuard guard;
    guard.Use("ns3::MlnetSimulatorImpl", "ns3::TimingWheelScheduler");
    {
        mlnettest::RdmaDumbbell d(2, 1);
        uint64_t done = 0;
        for (uint32_t i = 0; i < 2; ++i)
        {
            d.Connect(i, 2)->PostSend(
                200000,
                RdmaQueuePair::CompletionCallback([&done](uint64_t, uint64_t) { ++done; }));
        }
        CHECK(WireArena::Exists()); // the devices use it
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        REQUIRE(done == 2);
        CHECK(Simulator::GetImplementation()->GetInstanceTypeId() == tid);
        Simulator::Destroy();
        // Every device was disposed with its node: the arena and its rings are gone.
        CHECK_FALSE(WireArena::Exists());
    }
    CHECK(HugePageHeap::ProcessChanges() == changes0); // no mallopt, no madvise
    if (changes0 == 0)
    {
        CHECK_FALSE(HeapMarkedForHugePages());
    }
    // A program that opts in gets them (where the kernel offers them), and still the arena goes.
    EventSchedulerHelper::UseHugePages();
    guard.Use("ns3::MlnetSimulatorImpl", "ns3::TimingWheelScheduler");
    Simulator::Schedule(NanoSeconds(1), []() {});
    Simulator::Run();
    EventSchedulerHelper::UseHugePages(false);
    if (HugePageHeap::Available() && HasBrkHeap())
    {
        CHECK(HugePageHeap::ProcessChanges() > changes0);
        CHECK(HeapMarkedForHugePages());
    }
}
