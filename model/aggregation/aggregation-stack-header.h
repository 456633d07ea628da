/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_AGGREGATION_STACK_HEADER_H
#define MLNET_AGGREGATION_STACK_HEADER_H

#include "aggregation-header.h"

#include "ns3/header.h"
#include "ns3/ipv4-address.h"
#include "ns3/packet.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The whole header stack of an aggregation packet, IPv4 (20 bytes) + UDP (8 bytes,
 * destination port AggregationHeader::kUdpPort) + AggregationHeader (20 bytes), written in one
 * pass; byte for byte what Ipv4Header + UdpHeader + AggregationHeader produce (checksums zero,
 * as ns-3 writes them by default), so switches hash, mark and forward it like any UDP packet and
 * pcap traces show every field.
 */
class AggregationStackHeader : public Header
{
  public:
    static constexpr uint32_t kSize = 48; //!< bytes of the whole stack

    AggregationStackHeader();
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * Decode the stack from the first bytes of a packet without removing anything (one
     * CopyData: the per-packet fast path of devices and workers).
     * \param p a packet starting with its IPv4 header
     * \param h [out] the decoded stack
     * \return false if the packet is not an aggregation packet (not IPv4/UDP to kUdpPort)
     */
    static bool Peek(const Packet& p, AggregationStackHeader& h);

    /**
     * Build a complete packet: the stack followed by the payload, which carries real values
     * (encoded words, VALUES flag set) or, in size-only mode, virtual bytes.
     * \param h the stack (agg.elements and agg.elementType set the payload size)
     * \param values encoded element words, or null for size-only
     * \return the packet
     */
    static Ptr<Packet> Build(AggregationStackHeader h, const std::vector<uint32_t>* values);

    /**
     * Read the element words a packet carries (VALUES flag set).
     * \param p the packet (starting with the stack)
     * \param h its decoded stack
     * \return the words (empty if the packet carries no values)
     */
    static std::vector<uint32_t> ReadValues(const Packet& p, const AggregationStackHeader& h);

    /**
     * The UDP source port (ECMP entropy) of a tree's packets: a worker's contributions
     * (dst = 0) and an aggregation point's packets to one neighbour (dst = its address), so
     * both backends hash a tree's packets the same way.
     * \param src the sender's address (host order) \param jobId the job \param treeId the tree
     * \param dst the destination's address (host order), 0 for a worker's contributions
     * \return the port, in [49152, 65535]
     */
    static uint16_t SourcePort(uint32_t src, uint16_t jobId, uint16_t treeId, uint32_t dst);

    Ipv4Address src;       //!< IPv4 source
    Ipv4Address dst;       //!< IPv4 destination
    uint8_t dscp{0};       //!< DSCP (priority class)
    uint8_t ecn{0};        //!< ECN codepoint (3 = CE)
    uint16_t sport{0};     //!< UDP source port (ECMP entropy)
    AggregationHeader agg; //!< the aggregation header
};

} // namespace ns3

#endif /* MLNET_AGGREGATION_STACK_HEADER_H */
