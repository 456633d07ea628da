/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: the one-pass RoCEv2 stack (IPv4 + UDP + BTH/AETH/CNP) read from any byte
// string; the payload derived from the UDP length must never wrap around.

#include "fuzz-header.h"

#include "ns3/roce-v2-header.h"

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    ns3::RoceV2Header h;
    if (ns3::fuzz::CheckHeader(data, size, h) != 0 && h.payload > 65535)
    {
        ns3::fuzz::Fail("payload larger than a UDP length can say");
    }
    return 0;
}
