/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-key.h"

#include "fabric-frame.h"

#include <algorithm>

namespace ns3
{

namespace
{
/// Parse a key from anything with CopyData (a Packet, a FabricFrame).
template <class P>
bool
ParseFrom(FlowKey& key, const P& p)
{
    uint8_t b[64];
    uint32_t n = p.CopyData(b, 24);
    if (n >= 20 && (b[0] & 0x0f) > 5 && n == 24)
    {
        // Rare path (IP options): copy the header and the ports.
        n = p.CopyData(b, std::min<uint32_t>(sizeof(b), (b[0] & 0x0f) * 4u + 4));
    }
    return key.Parse(b, n);
}
} // namespace

bool
FlowKey::Parse(const Packet& p)
{
    return ParseFrom(*this, p);
}

bool
FlowKey::Parse(const FabricFrame& f)
{
    return ParseFrom(*this, f);
}

bool
FlowKey::Parse(const uint8_t* b, uint32_t n)
{
    if (n < 20 || (b[0] >> 4) != 4)
    {
        return false;
    }
    uint32_t ihl = (b[0] & 0x0f) * 4u;
    dscp = b[1] >> 2;
    ecn = b[1] & 0x3;
    protocol = b[9];
    src = (uint32_t(b[12]) << 24) | (uint32_t(b[13]) << 16) | (uint32_t(b[14]) << 8) | b[15];
    dst = (uint32_t(b[16]) << 24) | (uint32_t(b[17]) << 16) | (uint32_t(b[18]) << 8) | b[19];
    sport = 0;
    dport = 0;
    if ((protocol == 17 || protocol == 6) && ihl >= 20 && n >= ihl + 4)
    {
        sport = uint16_t((b[ihl] << 8) | b[ihl + 1]);
        dport = uint16_t((b[ihl + 2] << 8) | b[ihl + 3]);
    }
    return true;
}

uint32_t
FlowKey::Hash(uint32_t seed) const
{
    uint64_t a = (uint64_t(src) << 32) | dst;
    uint64_t b = (uint64_t(sport) << 32) | (uint64_t(dport) << 16) | protocol;
    uint64_t h = FlowKey::Mix64(a ^ (uint64_t(seed) * 0x9e3779b97f4a7c15ULL));
    h = FlowKey::Mix64(h ^ b);
    return uint32_t(h ^ (h >> 32));
}

} // namespace ns3
