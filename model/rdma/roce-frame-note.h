/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_ROCE_FRAME_NOTE_H
#define MLNET_ROCE_FRAME_NOTE_H

#include "roce-header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlnet
 * The RoCEv2 transport fields RdmaNic reads from a received frame: from the frame's 64-bit note
 * (FabricFrame::SetNote, written by the sending NIC so the receiver skips parsing) or from the
 * packet's BTH/AETH bytes.
 */
namespace roce
{

constexpr uint32_t kIcrcBytes = 4;   //!< RoCEv2 invariant CRC (bytes)
constexpr uint32_t kIpUdpBytes = 28; //!< IPv4 + UDP headers (bytes)
constexpr uint32_t kBthBytes = 12;   //!< base transport header (bytes)
constexpr uint32_t kAethBytes = 4;   //!< ACK extended transport header (bytes)

/// The transport fields a receiving NIC reads from a RoCEv2 packet.
struct BthFields
{
    uint8_t opcode{0};  //!< BTH opcode
    uint32_t destQp{0}; //!< BTH destination QP (24 bits)
    uint32_t psn24{0};  //!< BTH PSN (24 bits)
    bool nak{false};    //!< an ACK whose AETH syndrome is a PSN-sequence-error NAK
};

/// The top 7 bits of this NIC's frame notes (FabricFrame::SetNote): a note of another
/// producer's is not read as one.
constexpr uint64_t kNoteMark = 0x5b;

/// \param syndrome an AETH syndrome \return true if it is a PSN-sequence-error NAK
inline bool
IsNak(uint8_t syndrome)
{
    return (syndrome & 0x60) == RoceHeader::kNakSequenceError;
}

/// \param h the fields \return the note a data or control frame carries for its receiver
inline uint64_t
ToNote(const BthFields& h)
{
    return (kNoteMark << 57) | (uint64_t(h.nak) << 56) | (uint64_t(h.opcode) << 48) |
           (uint64_t(h.destQp & 0xffffff) << 24) | (h.psn24 & 0xffffff);
}

/// \param note a frame's note \param h set from it \return false if it is not this NIC's note
inline bool
FromNote(uint64_t note, BthFields& h)
{
    if ((note >> 57) != kNoteMark)
    {
        return false;
    }
    h.nak = (note >> 56) & 1;
    h.opcode = uint8_t(note >> 48);
    h.destQp = uint32_t(note >> 24) & 0xffffff;
    h.psn24 = uint32_t(note) & 0xffffff;
    return true;
}

/// \param bth the 12 bytes of a BTH \return its fields (nak false: the AETH is read apart)
inline BthFields
ReadBth(const uint8_t* bth)
{
    BthFields h;
    h.opcode = bth[0];
    h.destQp = (uint32_t(bth[5]) << 16) | (uint32_t(bth[6]) << 8) | bth[7];
    h.psn24 = (uint32_t(bth[9]) << 16) | (uint32_t(bth[10]) << 8) | bth[11];
    return h;
}

} // namespace roce
} // namespace ns3

#endif // MLNET_ROCE_FRAME_NOTE_H
