/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_ROCE_BYTE_ORDER_H
#define MLNET_ROCE_BYTE_ORDER_H

#include <cstdint>
#include <cstring>

namespace ns3
{
namespace roce
{

/**
 * Write v big-endian (network order) at p, as one store: the value is assembled in a
 * register (a byte array built on the stack and copied with wider loads would wait for its
 * byte stores: a failed store forwarding).
 * \param p where \param v the value \return p + 4
 */
inline uint8_t*
PutBe32(uint8_t* p, uint32_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    v = __builtin_bswap32(v); // one instruction (GCC assembled the shifted bytes only in part)
#endif
    std::memcpy(p, &v, sizeof(v));
    return p + 4;
}

/// As PutBe32, 8 bytes. \param p where \param v the value \return p + 8
inline uint8_t*
PutBe64(uint8_t* p, uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    std::memcpy(p, &v, sizeof(v));
    return p + 8;
}

} // namespace roce
} // namespace ns3

#endif /* MLNET_ROCE_BYTE_ORDER_H */
