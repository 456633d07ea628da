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
    const uint8_t t[4] = {uint8_t(v >> 24), uint8_t(v >> 16), uint8_t(v >> 8), uint8_t(v)};
    std::memcpy(p, t, sizeof(t));
    return p + 4;
}

/// As PutBe32, 8 bytes. \param p where \param v the value \return p + 8
inline uint8_t*
PutBe64(uint8_t* p, uint64_t v)
{
    PutBe32(p, uint32_t(v >> 32));
    return PutBe32(p + 4, uint32_t(v));
}

} // namespace roce
} // namespace ns3

#endif /* MLNET_ROCE_BYTE_ORDER_H */
