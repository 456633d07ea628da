/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AggregationHeader);

uint32_t
AggElementBytes(AggElementType t)
{
    return t == AggElementType::FP16 ? 2 : 4;
}

const char*
AggElementName(AggElementType t)
{
    switch (t)
    {
    case AggElementType::FP32:
        return "fp32";
    case AggElementType::FP16:
        return "fp16";
    case AggElementType::INT32:
        return "int32";
    }
    return "unknown";
}

AggregationHeader::AggregationHeader() = default;

TypeId
AggregationHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AggregationHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<AggregationHeader>();
    return tid;
}

TypeId
AggregationHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
AggregationHeader::Print(std::ostream& os) const
{
    os << (type == RESULT ? "AGG-RESULT" : "AGG-CONTRIB") << " job " << jobId << " tree " << treeId
       << " seq " << seq << " sender " << sender << " fan-in " << fanIn << " " << elements << "x"
       << AggElementName(AggElementType(elementType));
    if (elementType == uint8_t(AggElementType::INT32))
    {
        os << " scale 2^" << int(scaleExponent);
    }
    if (flags & ECN_OR)
    {
        os << " ECN-OR";
    }
    if (flags & RETRANSMIT)
    {
        os << " RETX";
    }
    if (flags & VALUES)
    {
        os << " values";
    }
}

uint32_t
AggregationHeader::GetSerializedSize() const
{
    return kSize;
}

void
AggregationHeader::Write(uint8_t* b) const
{
    b[0] = type;
    b[1] = flags;
    b[2] = elementType;
    b[3] = uint8_t(scaleExponent);
    b[4] = uint8_t(jobId >> 8);
    b[5] = uint8_t(jobId);
    b[6] = uint8_t(treeId >> 8);
    b[7] = uint8_t(treeId);
    b[8] = uint8_t(seq >> 24);
    b[9] = uint8_t(seq >> 16);
    b[10] = uint8_t(seq >> 8);
    b[11] = uint8_t(seq);
    b[12] = uint8_t(sender >> 8);
    b[13] = uint8_t(sender);
    b[14] = uint8_t(fanIn >> 8);
    b[15] = uint8_t(fanIn);
    b[16] = uint8_t(elements >> 8);
    b[17] = uint8_t(elements);
    b[18] = 0;
    b[19] = 0;
}

void
AggregationHeader::Read(const uint8_t* b)
{
    type = b[0];
    flags = b[1];
    elementType = b[2];
    scaleExponent = int8_t(b[3]);
    jobId = uint16_t((b[4] << 8) | b[5]);
    treeId = uint16_t((b[6] << 8) | b[7]);
    seq = (uint32_t(b[8]) << 24) | (uint32_t(b[9]) << 16) | (uint32_t(b[10]) << 8) | b[11];
    sender = uint16_t((b[12] << 8) | b[13]);
    fanIn = uint16_t((b[14] << 8) | b[15]);
    elements = uint16_t((b[16] << 8) | b[17]);
}

void
AggregationHeader::Serialize(Buffer::Iterator i) const
{
    uint8_t b[kSize];
    Write(b);
    i.Write(b, kSize);
}

uint32_t
AggregationHeader::Deserialize(Buffer::Iterator i)
{
    if (i.GetRemainingSize() < kSize)
    {
        return 0; // too short: read nothing (ns-3's Buffer does not check without asserts)
    }
    uint8_t b[kSize];
    i.Read(b, kSize);
    Read(b);
    return kSize;
}

} // namespace ns3
