/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-v2-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceV2Header);

namespace
{
const uint32_t kIpv4Bytes = 20;
const uint32_t kUdpBytes = 8;
} // namespace

RoceV2Header::RoceV2Header() = default;

TypeId
RoceV2Header::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceV2Header")
                            .SetParent<Header>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<RoceV2Header>();
    return tid;
}

TypeId
RoceV2Header::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RoceV2Header::Print(std::ostream& os) const
{
    os << src << " > " << dst << " dscp " << unsigned(dscp) << " ecn " << unsigned(ecn) << " udp "
       << sport << " > " << RoceHeader::kUdpPort << " ";
    bth.Print(os);
}

uint32_t
RoceV2Header::GetSerializedSize() const
{
    return kIpv4Bytes + kUdpBytes + bth.GetSerializedSize();
}

void
RoceV2Header::Serialize(Buffer::Iterator i) const
{
    uint32_t udpLength = kUdpBytes + bth.GetSerializedSize() + payload;
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
    i.WriteHtonU16(RoceHeader::kUdpPort);
    i.WriteHtonU16(uint16_t(udpLength));
    i.WriteHtonU16(0); // UDP checksum optional over IPv4
    bth.Serialize(i);
}

uint32_t
RoceV2Header::Deserialize(Buffer::Iterator i)
{
    // Any byte string may arrive here: read nothing beyond the buffer (ns-3's Buffer does not
    // check this in builds without asserts) and never derive a negative payload.
    if (i.GetRemainingSize() < kIpv4Bytes + kUdpBytes)
    {
        return 0;
    }
    Buffer::Iterator ip = i;
    ip.Next(kIpv4Bytes + kUdpBytes);
    RoceHeader transport;
    uint32_t n = transport.Deserialize(ip);
    if (n == 0)
    {
        return 0;
    }
    i.ReadU8();
    uint8_t tos = i.ReadU8();
    dscp = tos >> 2;
    ecn = tos & 0x3;
    i.Next(10);
    src = Ipv4Address(i.ReadNtohU32());
    dst = Ipv4Address(i.ReadNtohU32());
    sport = i.ReadNtohU16();
    i.ReadNtohU16();
    uint16_t udpLength = i.ReadNtohU16();
    bth = transport;
    payload = udpLength >= kUdpBytes + n ? udpLength - kUdpBytes - n : 0;
    return kIpv4Bytes + kUdpBytes + n;
}

} // namespace ns3
