/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_AGGREGATION_HEADER_H
#define MLNET_AGGREGATION_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Element types of aggregation payloads (an unscoped enum in a struct, so that ns-3
 * 3.37's int-based EnumValue accepts it and its names stay qualified).
 */
struct AggElement
{
    /// Element type.
    enum Type : uint8_t
    {
        FP32 = 0,  //!< IEEE 754 binary32 (PANAMA's floating-point adders)
        FP16 = 1,  //!< IEEE 754 binary16
        INT32 = 2, //!< two's-complement 32-bit integers (SwitchML's fixed-point path)
    };
};

/// Element type of an aggregation payload: AggElementType::FP32, ::FP16 or ::INT32.
typedef AggElement::Type AggElementType;

/// \return bytes per element of a type
uint32_t AggElementBytes(AggElementType t);
/// \return "fp32", "fp16" or "int32"
const char* AggElementName(AggElementType t);

/**
 * \ingroup mlnet
 * \brief The in-network aggregation header carried after IPv4 + UDP (destination port kUdpPort),
 * 20 bytes, network byte order:
 *
 * \verbatim
 *  0: type (8)   flags (8)   element type (8)   scale exponent (8, signed)
 *  4: job id (16)            tree id (16)
 *  8: chunk sequence number (32) within the tree
 * 12: sender index (16)      fan-in (16)
 * 16: element count (16)     reserved (16)
 * \endverbatim
 *
 * A contribution travels up an aggregation tree (worker -> device -> ... -> root), a result
 * travels down. The sender index is the sender's position among the receiving device's children
 * (its bit in the device's per-slot bitmap); fan-in is the number of worker gradients summed in
 * the packet (1 from a worker, the subtree size from a device, the job size in a result). Flag
 * ECN_OR carries the bitwise OR of the ECN marks (CE) of every packet summed so far, so each
 * worker sees the combined congestion signal of its tree on the result (PANAMA).
 */
class AggregationHeader : public Header
{
  public:
    static constexpr uint16_t kUdpPort = 48879; //!< UDP destination port of aggregation packets
    static constexpr uint32_t kSize = 20;       //!< serialized size (bytes)

    /// Packet type.
    enum Type : uint8_t
    {
        CONTRIBUTION = 0, //!< gradient (worker) or partial sum (device), travelling up
        RESULT = 1,       //!< aggregated result, travelling down
    };

    /// Flag bits.
    enum Flags : uint8_t
    {
        ECN_OR = 0x01,     //!< some packet summed into this one was CE-marked
        RETRANSMIT = 0x02, //!< sent again after a timeout or on request
        VALUES = 0x04,     //!< the payload carries real element values (else size only)
    };

    AggregationHeader();
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// Decode from raw bytes (at least kSize), the per-packet fast path.
    void Read(const uint8_t* b);
    /// Encode into raw bytes (kSize).
    void Write(uint8_t* b) const;

    /// \return true if the ECN_OR flag is set
    bool GetEcnOr() const
    {
        return (flags & ECN_OR) != 0;
    }

    /// \param on set or clear the ECN_OR flag
    void SetEcnOr(bool on)
    {
        flags = on ? uint8_t(flags | ECN_OR) : uint8_t(flags & ~ECN_OR);
    }

    /// \return payload bytes: element count x element size
    uint32_t PayloadBytes() const
    {
        return uint32_t(elements) * AggElementBytes(AggElementType(elementType));
    }

    uint8_t type{CONTRIBUTION}; //!< Type
    uint8_t flags{0};           //!< Flags
    uint8_t elementType{0};     //!< AggElementType
    int8_t scaleExponent{0};    //!< INT32: values are quantised as round(x * 2^scaleExponent)
    uint16_t jobId{0};          //!< job
    uint16_t treeId{0};         //!< aggregation tree of the job
    uint32_t seq{0};            //!< chunk sequence number within the tree
    uint16_t sender{0};         //!< sender's child index at the receiver
    uint16_t fanIn{1};          //!< worker gradients summed in this packet
    uint16_t elements{0};       //!< element count
};

} // namespace ns3

#endif /* MLNET_AGGREGATION_HEADER_H */
