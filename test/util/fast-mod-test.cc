/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// FastModulus: the remainder by two multiplications equals h % d for every divisor a switch
// can have and for 32-bit values at the edges and spread over the range.

#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <stdexcept>

using namespace ns3;

TEST_CASE("util: FastModulus gives h % d for every 32-bit h tried and d in [1, 1024]", "[util]")
{
    uint64_t mismatches = 0;
    uint64_t checked = 0;
    for (uint32_t d = 1; d <= 1024; ++d)
    {
        const FastModulus m(d);
        CHECK(m.Divisor() == d);
        // Edges: 0, around multiples of d, the top of the range.
        for (uint32_t h : {0u,
                           1u,
                           d - 1,
                           d,
                           d + 1,
                           2 * d - 1,
                           2 * d,
                           0x7fffffffu,
                           0x80000000u,
                           0xfffffffeu,
                           0xffffffffu,
                           0xffffffffu - (0xffffffffu % d)})
        {
            mismatches += m.Mod(h) != h % d;
            ++checked;
        }
        // Spread: a xorshift sequence.
        uint32_t x = 2463534242u + d;
        for (int i = 0; i < 2000; ++i)
        {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            mismatches += m.Mod(x) != x % d;
            ++checked;
        }
    }
    CHECK(checked == 1024u * 2012u);
    CHECK(mismatches == 0);
}

TEST_CASE("util: FastModulus rejects a zero divisor", "[util]")
{
    CHECK_THROWS_AS(FastModulus(0), std::invalid_argument);
}
