/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_PFC_HEADER_H
#define MLNET_PFC_HEADER_H

#include "ns3/header.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief IEEE 802.1Qbb priority-based flow control (PFC) frame body.
 *
 * The MAC control payload of a PFC frame (EtherType 0x8808): opcode 0x0101, a class-enable
 * vector and eight pause times in quanta of 512 bit times. A time of zero resumes the class.
 * Serialized exactly as on the wire, so pcap traces decode as "PFC" in Wireshark.
 */
class PfcHeader : public Header
{
  public:
    static constexpr uint16_t kEtherType = 0x8808;   //!< MAC control EtherType
    static constexpr uint16_t kOpcode = 0x0101;      //!< PFC opcode
    static constexpr uint32_t kBitsPerQuantum = 512; //!< one pause quantum in bit times
    static constexpr uint32_t kFrameBytes = 46;      //!< MAC control payload incl. padding

    PfcHeader();
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /**
     * Read the header from any byte string.
     * \param start where the header begins
     * \return the bytes read; 0 (fields unchanged) when fewer bytes than the header remain
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * Set the pause time of one class (and enable it in the class-enable vector).
     * \param cls priority class, 0..7
     * \param quanta pause time in quanta of 512 bit times (0 = resume)
     */
    void SetPause(uint8_t cls, uint16_t quanta);
    /// \return true if the class is enabled in the class-enable vector
    bool IsEnabled(uint8_t cls) const;
    /// \return the pause time of a class in quanta
    uint16_t GetQuanta(uint8_t cls) const;

  private:
    uint16_t m_classEnable{0};
    std::array<uint16_t, 8> m_quanta{};
};

} // namespace ns3

#endif /* MLNET_PFC_HEADER_H */
