/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: the PFC (802.1Qbb) frame body read from any byte string, then every class
// queried as the switch does (its class-enable bit and pause time).

#include "fuzz-header.h"

#include "ns3/pfc-header.h"

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    ns3::PfcHeader h;
    if (ns3::fuzz::CheckHeader(data, size, h) != 0)
    {
        // The eight classes read back what bytes 2..19 say (class-enable vector, pause times).
        for (uint8_t cls = 0; cls < 8; ++cls)
        {
            bool enabled = ((data[2] << 8 | data[3]) >> cls) & 1;
            uint16_t quanta = uint16_t(data[4 + 2 * cls] << 8 | data[5 + 2 * cls]);
            if (h.IsEnabled(cls) != enabled || h.GetQuanta(cls) != quanta)
            {
                ns3::fuzz::Fail("a class differs from its bytes");
            }
        }
    }
    return 0;
}
