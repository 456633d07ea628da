/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Unit tests of the shared-buffer MMU and the ECN marking curve (no simulator).

#include "ns3/fabric-switch.h"
#include "ns3/shared-buffer-mmu.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{
SharedBufferMmu
MakeMmu(bool pfc, uint64_t buffer = 1000000, uint32_t headroom = 20000)
{
    MmuConfig cfg;
    cfg.bufferBytes = buffer;
    cfg.reserveBytes = 1000;
    cfg.pfcEnabled = pfc;
    cfg.losslessMask = 0x01; // only class 0 lossless
    cfg.pfcAlpha = 0.5;
    cfg.pfcResumeOffset = 2000;
    cfg.egressAlpha = 1.0;
    SharedBufferMmu mmu;
    mmu.Configure(4, cfg, std::vector<uint32_t>(4, headroom));
    return mmu;
}
} // namespace

TEST_CASE("fabric: mmu shared pool is the buffer less reserves and headroom", "[fabric]")
{
    SharedBufferMmu mmu = MakeMmu(true);
    // 4 ports x 8 classes x 1000 reserve + 4 ports x 1 lossless class x 20000 headroom
    REQUIRE(mmu.SharedPool() == 1000000 - 32000 - 80000);
    SharedBufferMmu lossy = MakeMmu(false);
    REQUIRE(lossy.SharedPool() == 1000000 - 32000);
}

TEST_CASE("fabric: mmu admits reserve, then shared under the dynamic threshold, then headroom",
          "[fabric]")
{
    SharedBufferMmu mmu = MakeMmu(true);
    using V = SharedBufferMmu::Verdict;
    REQUIRE(mmu.Admit(0, 1, 0, 1000) == V::Reserve);
    mmu.Enqueue(0, 1, 0, 1000, V::Reserve);
    REQUIRE(mmu.SharedUsed() == 0);
    REQUIRE_FALSE(mmu.NeedPause(0, 0));
    // Shared: threshold = 0.5 x (888000 - used). Fill until the queue's shared use passes it.
    uint64_t shared = 0;
    while (mmu.Admit(0, 1, 0, 1000) == V::Shared)
    {
        mmu.Enqueue(0, 1, 0, 1000, V::Shared);
        shared += 1000;
    }
    // Fixed point of s <= 0.5 (888000 - s): s <= 296000.
    REQUIRE(shared == 296000);
    REQUIRE(mmu.SharedUsed() == 296000);
    REQUIRE(mmu.Admit(0, 1, 0, 1000) == V::Headroom);
    mmu.Enqueue(0, 1, 0, 1000, V::Headroom);
    REQUIRE(mmu.NeedPause(0, 0));
    REQUIRE_FALSE(mmu.CanResume(0, 0));
    // Headroom of 20000 bytes absorbs 19 more packets, then drops.
    for (int i = 0; i < 19; ++i)
    {
        REQUIRE(mmu.Admit(0, 1, 0, 1000) == V::Headroom);
        mmu.Enqueue(0, 1, 0, 1000, V::Headroom);
    }
    REQUIRE(mmu.Admit(0, 1, 0, 1000) == V::DropHeadroom);
    REQUIRE(mmu.TotalUsed() == 1000 + 296000 + 20000);
    // Draining: headroom first, then shared; resume once shared + offset <= threshold.
    for (int i = 0; i < 20; ++i)
    {
        mmu.Dequeue(0, 1, 0, 1000);
    }
    REQUIRE(mmu.HeadroomBytes(0, 0) == 0);
    REQUIRE_FALSE(mmu.CanResume(0, 0)); // shared 296000 + 2000 > 0.5 x (888000 - 296000)
    int drained = 0;
    while (!mmu.CanResume(0, 0))
    {
        mmu.Dequeue(0, 1, 0, 1000);
        drained++;
    }
    // s + 2000 <= 0.5 (888000 - s)  <=>  s <= 294666: first multiple of 1000 is 294000.
    REQUIRE(mmu.SharedUsed() == 294000);
    REQUIRE(drained == 2);
}

TEST_CASE("fabric: mmu lossy class drops at the egress threshold, never uses headroom", "[fabric]")
{
    SharedBufferMmu mmu = MakeMmu(false, 100000, 0);
    using V = SharedBufferMmu::Verdict;
    // shared pool = 100000 - 32000 = 68000; egress limit = 1000 + (68000 - used).
    uint64_t admitted = 0;
    V v;
    while (SharedBufferMmu::Admitted(v = mmu.Admit(0, 1, 3, 1000)))
    {
        mmu.Enqueue(0, 1, 3, 1000, v);
        admitted += 1000;
    }
    REQUIRE((v == V::DropEgress || v == V::DropBuffer));
    // q <= 1000 + 68000 - (q - 1000)  =>  q <= 35000
    REQUIRE(admitted == 35000);
    REQUIRE_FALSE(mmu.NeedPause(0, 3));
    REQUIRE(std::string(SharedBufferMmu::ReasonName(v)) == "EgressThreshold");
}

TEST_CASE("fabric: mmu rejects a configuration whose reserves exceed the buffer", "[fabric]")
{
    MmuConfig cfg;
    cfg.bufferBytes = 10000;
    cfg.reserveBytes = 1000;
    SharedBufferMmu mmu;
    REQUIRE_THROWS_AS(mmu.Configure(4, cfg, std::vector<uint32_t>(4, 0)), std::invalid_argument);
}

TEST_CASE("fabric: ecn marking probability follows the Kmin/Kmax/Pmax curve", "[fabric]")
{
    REQUIRE(FabricSwitch::EcnProbability(0, 100, 200, 0.2) == 0.0);
    REQUIRE(FabricSwitch::EcnProbability(100, 100, 200, 0.2) == 0.0);
    REQUIRE(FabricSwitch::EcnProbability(150, 100, 200, 0.2) == Approx(0.1));
    REQUIRE(FabricSwitch::EcnProbability(200, 100, 200, 0.2) == Approx(0.2));
    REQUIRE(FabricSwitch::EcnProbability(201, 100, 200, 0.2) == 1.0);
}
