/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-key.h"

namespace ns3
{

namespace
{
/// 64-bit finaliser of MurmurHash3: a fast, well-mixing bijection.
inline uint64_t
Mix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}
} // namespace

bool
FlowKey::Parse(const Packet& p)
{
    uint8_t b[24];
    uint32_t n = p.CopyData(b, sizeof(b));
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
    if ((protocol == 17 || protocol == 6) && ihl == 20 && n >= 24)
    {
        sport = uint16_t((b[20] << 8) | b[21]);
        dport = uint16_t((b[22] << 8) | b[23]);
    }
    else if ((protocol == 17 || protocol == 6) && ihl > 20)
    {
        uint8_t ports[4];
        if (p.GetSize() >= ihl + 4)
        {
            // Rare path (IP options): copy the whole prefix.
            uint8_t full[64];
            uint32_t m = p.CopyData(full, std::min<uint32_t>(sizeof(full), ihl + 4));
            if (m >= ihl + 4)
            {
                std::copy(full + ihl, full + ihl + 4, ports);
                sport = uint16_t((ports[0] << 8) | ports[1]);
                dport = uint16_t((ports[2] << 8) | ports[3]);
            }
        }
    }
    return true;
}

uint32_t
FlowKey::Hash(uint32_t seed) const
{
    uint64_t a = (uint64_t(src) << 32) | dst;
    uint64_t b = (uint64_t(sport) << 32) | (uint64_t(dport) << 16) | protocol;
    uint64_t h = Mix64(a ^ (uint64_t(seed) * 0x9e3779b97f4a7c15ULL));
    h = Mix64(h ^ b);
    return uint32_t(h ^ (h >> 32));
}

} // namespace ns3
