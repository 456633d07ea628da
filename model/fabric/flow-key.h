/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLOW_KEY_H
#define MLNET_FLOW_KEY_H

#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

class FabricFrame;

/**
 * \ingroup mlnet
 * \brief The fields a switch needs from an IPv4 packet: 5-tuple, DSCP and ECN.
 *
 * Parsed straight from the first bytes of the packet (one CopyData of at most 64 bytes, no
 * header objects, no allocation): this is the per-hop fast path.
 */
struct FlowKey
{
    /// 64-bit finaliser of MurmurHash3: a fast, well-mixing bijection (the flow hash's mixer).
    static uint64_t Mix64(uint64_t k)
    {
        k ^= k >> 33;
        k *= 0xff51afd7ed558ccdULL;
        k ^= k >> 33;
        k *= 0xc4ceb9fe1a85ec53ULL;
        k ^= k >> 33;
        return k;
    }

    uint32_t src{0};     //!< source IPv4 address (host order)
    uint32_t dst{0};     //!< destination IPv4 address (host order)
    uint16_t sport{0};   //!< UDP/TCP source port (0 for other protocols)
    uint16_t dport{0};   //!< UDP/TCP destination port (0 for other protocols)
    uint8_t protocol{0}; //!< IP protocol number
    uint8_t dscp{0};     //!< DSCP (6 bits)
    uint8_t ecn{0};      //!< ECN codepoint (2 bits): 0 not-ECT, 1 ECT(1), 2 ECT(0), 3 CE
    /// Always 0: the padding byte made a field, so that a copy is two whole 8-byte words (a
    /// copy of the 15 bytes above is two overlapping words, and a field read back from it
    /// straddles both stores: a store-forwarding stall on every hop).
    uint8_t reserved{0};

    /// \return true if the packet is ECN-capable (ECT(0), ECT(1) or CE)
    bool IsEct() const
    {
        return ecn != 0;
    }

    /**
     * Parse the key from an IPv4 packet (the packet starts with the IPv4 header).
     * \param p the packet
     * \return false if the packet is too short or not IPv4
     */
    bool Parse(const Packet& p);
    /**
     * Parse the key from a frame (a packet or a compact frame), as Parse(const Packet&).
     * \param f the frame
     * \return false if the frame is too short or not IPv4
     */
    bool Parse(const FabricFrame& f);

    /**
     * Parse the key from the first bytes of an IPv4 packet already copied out (a caller that
     * needs more of the headers copies them once).
     * \param b the bytes \param n how many (the ports are read when n covers them)
     * \return false if n < 20 or not IPv4
     */
    bool Parse(const uint8_t* b, uint32_t n);

    /**
     * Hash of the 5-tuple with a seed (flow-hash ECMP): every packet of a flow gets the same
     * value, different seeds give independent spreads.
     * \param seed the per-switch seed
     * \return 32-bit hash
     */
    uint32_t Hash(uint32_t seed) const;
};

} // namespace ns3

#endif /* MLNET_FLOW_KEY_H */
