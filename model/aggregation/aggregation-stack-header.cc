/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-stack-header.h"

#include "aggregation-values.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AggregationStackHeader);

namespace
{
const uint32_t kIpv4Bytes = 20;
const uint32_t kUdpBytes = 8;
} // namespace

AggregationStackHeader::AggregationStackHeader() = default;

TypeId
AggregationStackHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AggregationStackHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<AggregationStackHeader>();
    return tid;
}

TypeId
AggregationStackHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
AggregationStackHeader::Print(std::ostream& os) const
{
    os << src << " > " << dst << " dscp " << unsigned(dscp) << " ecn " << unsigned(ecn) << " udp "
       << sport << " > " << AggregationHeader::kUdpPort << " ";
    agg.Print(os);
}

uint32_t
AggregationStackHeader::GetSerializedSize() const
{
    return kSize;
}

void
AggregationStackHeader::Serialize(Buffer::Iterator i) const
{
    uint32_t udpLength = kUdpBytes + AggregationHeader::kSize + agg.PayloadBytes();
    i.WriteU8(0x45); // version 4, IHL 5
    i.WriteU8(uint8_t((dscp << 2) | (ecn & 0x3)));
    i.WriteHtonU16(uint16_t(kIpv4Bytes + udpLength));
    i.WriteHtonU16(0);      // identification
    i.WriteHtonU16(0x4000); // don't fragment
    i.WriteU8(64);          // TTL
    i.WriteU8(17);          // UDP
    i.WriteHtonU16(0);      // checksum (not computed, as ns-3 by default)
    i.WriteHtonU32(src.Get());
    i.WriteHtonU32(dst.Get());
    i.WriteHtonU16(sport);
    i.WriteHtonU16(AggregationHeader::kUdpPort);
    i.WriteHtonU16(uint16_t(udpLength));
    i.WriteHtonU16(0);
    agg.Serialize(i);
}

uint32_t
AggregationStackHeader::Deserialize(Buffer::Iterator i)
{
    if (i.GetRemainingSize() < kSize)
    {
        return 0; // too short: read nothing (ns-3's Buffer does not check without asserts)
    }
    uint8_t b[kSize];
    i.Read(b, kSize);
    dscp = b[1] >> 2;
    ecn = b[1] & 0x3;
    src = Ipv4Address((uint32_t(b[12]) << 24) | (uint32_t(b[13]) << 16) | (uint32_t(b[14]) << 8) |
                      b[15]);
    dst = Ipv4Address((uint32_t(b[16]) << 24) | (uint32_t(b[17]) << 16) | (uint32_t(b[18]) << 8) |
                      b[19]);
    sport = uint16_t((b[20] << 8) | b[21]);
    agg.Read(b + kIpv4Bytes + kUdpBytes);
    return kSize;
}

bool
AggregationStackHeader::Peek(const Packet& p, AggregationStackHeader& h)
{
    uint8_t b[kSize];
    if (p.CopyData(b, kSize) < kSize || b[0] != 0x45 || b[9] != 17 ||
        ((b[22] << 8) | b[23]) != AggregationHeader::kUdpPort)
    {
        return false;
    }
    h.dscp = b[1] >> 2;
    h.ecn = b[1] & 0x3;
    h.src = Ipv4Address((uint32_t(b[12]) << 24) | (uint32_t(b[13]) << 16) | (uint32_t(b[14]) << 8) |
                        b[15]);
    h.dst = Ipv4Address((uint32_t(b[16]) << 24) | (uint32_t(b[17]) << 16) | (uint32_t(b[18]) << 8) |
                        b[19]);
    h.sport = uint16_t((b[20] << 8) | b[21]);
    h.agg.Read(b + kIpv4Bytes + kUdpBytes);
    return true;
}

Ptr<Packet>
AggregationStackHeader::Build(AggregationStackHeader h, const std::vector<uint32_t>* values)
{
    AggElementType type = AggElementType(h.agg.elementType);
    uint32_t payload = h.agg.PayloadBytes();
    Ptr<Packet> p;
    if (values && !values->empty())
    {
        h.agg.flags |= AggregationHeader::VALUES;
        std::vector<uint8_t> bytes(payload, 0);
        AggregationValues::Encode(*values, type, bytes.data());
        p = Create<Packet>(bytes.data(), payload);
    }
    else
    {
        h.agg.flags &= uint8_t(~AggregationHeader::VALUES);
        p = Create<Packet>(payload);
    }
    p->AddHeader(h);
    return p;
}

std::vector<uint32_t>
AggregationStackHeader::ReadValues(const Packet& p, const AggregationStackHeader& h)
{
    if (!(h.agg.flags & AggregationHeader::VALUES))
    {
        return {};
    }
    uint32_t payload = h.agg.PayloadBytes();
    std::vector<uint8_t> b(kSize + payload);
    if (p.CopyData(b.data(), b.size()) < b.size())
    {
        return {};
    }
    return AggregationValues::Decode(b.data() + kSize,
                                     h.agg.elements,
                                     AggElementType(h.agg.elementType));
}

uint16_t
AggregationStackHeader::SourcePort(uint32_t src, uint16_t jobId, uint16_t treeId, uint32_t dst)
{
    const uint32_t e = (src * 2654435761u) ^ (uint32_t(jobId) * 40503u) ^
                       (uint32_t(treeId) * 2246822519u) ^ (dst * 3266489917u);
    return uint16_t(49152 + (e >> 18) % 16384);
}

} // namespace ns3
