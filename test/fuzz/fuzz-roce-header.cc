/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: the RoCEv2 transport header (BTH, with the AETH of ACK/NAK and the reserved
// 16 bytes of a CNP) read from any byte string.

#include "fuzz-header.h"

#include "ns3/roce-header.h"

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    ns3::RoceHeader h;
    uint32_t n = ns3::fuzz::CheckHeader(data, size, h);
    if (n != 0 && n != (h.m_opcode == ns3::RoceHeader::ACK   ? 16u
                        : h.m_opcode == ns3::RoceHeader::CNP ? 28u
                                                             : 12u))
    {
        ns3::fuzz::Fail("BTH size does not follow the opcode");
    }
    return 0;
}
