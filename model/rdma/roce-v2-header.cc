/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-v2-header.h"

#include <cstring>

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

uint32_t
RoceV2Header::Write(uint8_t* b) const
{
    const uint32_t udpLength = kUdpBytes + bth.GetSerializedSize() + payload;
    const uint32_t ipLength = kIpv4Bytes + udpLength;
    const uint32_t s = src.Get();
    const uint32_t d = dst.Get();
    const uint8_t ip[kIpv4Bytes + kUdpBytes] = {
        0x45, // version 4, IHL 5
        uint8_t((dscp << 2) | (ecn & 0x3)),
        uint8_t(ipLength >> 8),
        uint8_t(ipLength),
        0, // identification
        0,
        0x40, // don't fragment
        0,
        64, // TTL
        17, // UDP
        0,  // checksum (not computed, as ns-3 by default)
        0,
        uint8_t(s >> 24),
        uint8_t(s >> 16),
        uint8_t(s >> 8),
        uint8_t(s),
        uint8_t(d >> 24),
        uint8_t(d >> 16),
        uint8_t(d >> 8),
        uint8_t(d),
        uint8_t(sport >> 8),
        uint8_t(sport),
        uint8_t(RoceHeader::kUdpPort >> 8),
        uint8_t(RoceHeader::kUdpPort & 0xff),
        uint8_t(udpLength >> 8),
        uint8_t(udpLength),
        0, // UDP checksum optional over IPv4
        0,
    };
    std::memcpy(b, ip, sizeof(ip));
    return kIpv4Bytes + kUdpBytes + bth.Write(b + sizeof(ip));
}

FlowKey
RoceV2Header::Key() const
{
    // Field by field what FlowKey::Parse reads back from Write()'s bytes.
    FlowKey k;
    k.src = src.Get();
    k.dst = dst.Get();
    k.sport = sport;
    k.dport = RoceHeader::kUdpPort;
    k.protocol = 17;
    k.dscp = uint8_t(dscp & 0x3f);
    k.ecn = uint8_t(ecn & 0x3);
    return k;
}

void
RoceV2Header::Serialize(Buffer::Iterator i) const
{
    uint8_t b[kIpv4Bytes + kUdpBytes + RoceHeader::kMaxBytes];
    i.Write(b, Write(b));
}

Ptr<Packet>
RoceV2Header::Materialise(const uint8_t* headers, uint32_t headerBytes, uint32_t size)
{
    Buffer bytes;
    bytes.AddAtStart(headerBytes);
    bytes.Begin().Write(headers, headerBytes);
    RoceV2Header h;
    h.Deserialize(bytes.Begin());
    Ptr<Packet> p = Create<Packet>(size - headerBytes);
    p->AddHeader(h);
    return p;
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
