/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_ROCE_V2_HEADER_H
#define MLNET_ROCE_V2_HEADER_H

#include "roce-header.h"

#include "ns3/flow-key.h"
#include "ns3/header.h"
#include "ns3/ipv4-address.h"
#include "ns3/packet.h"

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The whole RoCEv2 header stack of one packet, IPv4 (20 bytes) + UDP (8 bytes, port
 * 4791) + BTH (+ AETH / CNP body), serialized in one pass.
 *
 * Byte for byte what Ipv4Header + UdpHeader + RoceHeader would produce (IPv4 and UDP checksums
 * zero, as ns-3 writes them unless checksums are enabled), so switches, pcap and Wireshark see
 * ordinary packets; one header object instead of three is the RDMA NIC's fast path.
 */
class RoceV2Header : public Header
{
  public:
    RoceV2Header();
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
     * Write the header stack's bytes (as Serialize) to plain memory: the RDMA NIC's compact
     * frames (FabricFrame) keep them inline.
     * \param b at least GetSerializedSize() bytes (at most 56)
     * \return GetSerializedSize()
     */
    uint32_t Write(uint8_t* b) const;
    /**
     * The packet a compact frame of RoCEv2 headers stands for: exactly the packet
     * Create<Packet>(size - headerBytes) + AddHeader(RoceV2Header) would make (a
     * FabricFrame::Materialiser).
     * \param headers the header bytes \param headerBytes how many \param size the whole size
     * \return the packet
     */
    static Ptr<Packet> Materialise(const uint8_t* headers, uint32_t headerBytes, uint32_t size);
    /**
     * The flow key of the headers Write() produces (FlowKey::Parse of its bytes), from the
     * fields: the NIC hands it to its port without reading back the header block it just
     * wrote (a block from the free list is often out of the cache, and the read waits for it).
     * \return the key
     */
    FlowKey Key() const;

    /// IPv4 source, as Ipv4Address::Get() (a plain word: the NIC writes it per packet, and
    /// Ipv4Address::Get() is a call into ns-3's library)
    uint32_t src{0};
    uint32_t dst{0};     //!< IPv4 destination, as Ipv4Address::Get()
    uint8_t dscp{0};     //!< DSCP (priority class)
    uint8_t ecn{0};      //!< ECN codepoint
    uint16_t sport{0};   //!< UDP source port (ECMP entropy)
    uint32_t payload{0}; //!< bytes after the transport header (payload + ICRC)
    RoceHeader bth;      //!< transport header
};

} // namespace ns3

#endif /* MLNET_ROCE_V2_HEADER_H */
