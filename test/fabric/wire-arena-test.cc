/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// WireArena: records in the order they are asked for, live ones skipped, a larger ring when
// the ring is full of frames on wires; bad sizes are rejected.

#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <set>
#include <stdexcept>
#include <vector>

using namespace ns3;

TEST_CASE("fabric: WireArena hands out records in order, one cache line each, and reuses "
          "freed ones",
          "[fabric]")
{
    STATIC_REQUIRE(sizeof(WireRecord) == 64);
    STATIC_REQUIRE(alignof(WireRecord) == 64);
    WireArena arena(8);
    std::vector<WireRecord*> r;
    for (int i = 0; i < 8; ++i)
    {
        r.push_back(arena.Allocate());
        CHECK(r.back()->live);
        if (i > 0)
        {
            CHECK(r[i] == r[i - 1] + 1); // consecutive lines: a sequential stream
        }
    }
    // Freed in FIFO order: the ring goes round without growing.
    for (int round = 0; round < 3; ++round)
    {
        for (int i = 0; i < 8; ++i)
        {
            WireArena::Free(r[i]);
            CHECK_FALSE(r[i]->live);
            WireRecord* again = arena.Allocate();
            CHECK(again == r[i]);
        }
    }
    CHECK(arena.Capacity() == 8);
}

TEST_CASE("fabric: WireArena skips records still on a wire and grows when the ring is full",
          "[fabric]")
{
    WireArena arena(8);
    std::vector<WireRecord*> r;
    for (int i = 0; i < 8; ++i)
    {
        r.push_back(arena.Allocate());
    }
    // Records 0 and 1 stay on a (slow) wire; the others arrive.
    for (int i = 2; i < 8; ++i)
    {
        WireArena::Free(r[i]);
    }
    WireRecord* a = arena.Allocate(); // the ring's next is record 0, live: skipped
    CHECK(a == r[2]);
    CHECK(arena.Capacity() == 8);
    // Now fill everything: every record live, so the next allocation needs a new ring.
    std::set<WireRecord*> live(r.begin(), r.begin() + 2);
    live.insert(a);
    for (int i = 0; i < 5; ++i)
    {
        live.insert(arena.Allocate());
    }
    REQUIRE(live.size() == 8);
    WireRecord* b = arena.Allocate();
    CHECK(live.count(b) == 0);
    CHECK(arena.Capacity() == 16);
    // The old ring's records are still valid and can be freed.
    for (WireRecord* x : live)
    {
        CHECK(x->live);
        WireArena::Free(x);
    }
    WireArena::Free(b);
}

TEST_CASE("fabric: WireArena rejects a size that is not a power of two in [2, 2^26]", "[fabric]")
{
    CHECK_THROWS_AS(WireArena(0), std::invalid_argument);
    CHECK_THROWS_AS(WireArena(12), std::invalid_argument);
    CHECK_THROWS_AS(WireArena(std::size_t(1) << 27), std::invalid_argument);
    CHECK_THROWS_WITH(WireArena(12), Catch::Contains("power of two"));
}
