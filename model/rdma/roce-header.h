/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_ROCE_HEADER_H
#define MLNET_ROCE_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief RoCEv2 transport header: InfiniBand Base Transport Header (BTH, 12 bytes), followed
 * by an ACK Extended Transport Header (AETH, 4 bytes) on acknowledgements, or 16 reserved bytes
 * on congestion notification packets. Serialized as on the wire (UDP port 4791), so Wireshark
 * decodes pcap traces as InfiniBand.
 *
 * PSNs are 24-bit on the wire; RdmaNic keeps 64-bit sequence numbers and reconstructs them.
 */
class RoceHeader : public Header
{
  public:
    static constexpr uint16_t kUdpPort = 4791; //!< RoCEv2 UDP destination port
    static constexpr uint32_t kMaxBytes = 28;  //!< the largest header (a CNP's BTH + reserved)

    /// InfiniBand RC opcodes used by the model.
    enum Opcode : uint8_t
    {
        WRITE_FIRST = 0x06,  //!< RDMA WRITE first packet of a message
        WRITE_MIDDLE = 0x07, //!< RDMA WRITE middle packet
        WRITE_LAST = 0x08,   //!< RDMA WRITE last packet (with immediate: 0x09)
        WRITE_ONLY = 0x0a,   //!< RDMA WRITE single-packet message
        ACK = 0x11,          //!< acknowledge (AETH syndrome 0) or NAK (syndrome 0x60 | code)
        CNP = 0x81,          //!< RoCEv2 congestion notification packet
    };

    /// AETH syndrome of a NAK for a PSN sequence error.
    static constexpr uint8_t kNakSequenceError = 0x60;

    RoceHeader();
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
     * Write the header's bytes (as Serialize) to plain memory.
     * \param b at least GetSerializedSize() bytes
     * \return GetSerializedSize()
     */
    uint32_t Write(uint8_t* b) const;

    /// \return true for the data opcodes
    bool IsData() const
    {
        return m_opcode <= WRITE_ONLY;
    }

    /// \return true if the data packet ends a message
    bool IsLast() const
    {
        return m_opcode == WRITE_LAST || m_opcode == WRITE_ONLY;
    }

    uint8_t m_opcode{WRITE_ONLY}; //!< opcode
    bool m_ackRequest{false};     //!< BTH AckReq bit
    uint32_t m_destQp{0};         //!< destination QP number (24 bits)
    uint32_t m_psn{0};            //!< packet sequence number (24 bits)
    uint8_t m_syndrome{0};        //!< AETH syndrome (ACK: 0, NAK: 0x60)
    uint32_t m_msn{0};            //!< AETH message sequence number (24 bits)
};

} // namespace ns3

#endif /* MLNET_ROCE_HEADER_H */
