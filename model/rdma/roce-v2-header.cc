/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-v2-header.h"

#include "roce-byte-order.h"

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
    os << Ipv4Address(src) << " > " << Ipv4Address(dst) << " dscp " << unsigned(dscp) << " ecn "
       << unsigned(ecn) << " udp " << sport << " > " << RoceHeader::kUdpPort << " ";
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
    const uint64_t s = src;
    const uint64_t d = dst;
    // The 28 bytes as four big-endian words built in registers: a byte array on the stack
    // copied with 16-byte loads made every call wait for its byte stores to retire (a failed
    // store forwarding: 80 % of this function's samples).
    roce::PutBe64(b,
                  (uint64_t(0x45) << 56) // version 4, IHL 5
                      | (uint64_t(uint8_t((dscp << 2) | (ecn & 0x3))) << 48) |
                      (uint64_t(ipLength & 0xffff) << 32) // identification 0
                      | 0x4000);                          // don't fragment, offset 0
    roce::PutBe64(b + 8,
                  (uint64_t(64) << 56)       // TTL
                      | (uint64_t(17) << 48) // UDP; checksum 0 (not computed, as ns-3 by default)
                      | s);
    roce::PutBe64(b + 16, (d << 32) | (uint64_t(sport) << 16) | RoceHeader::kUdpPort);
    roce::PutBe32(b + 24, uint32_t(udpLength & 0xffff) << 16); // UDP checksum optional over IPv4
    return kIpv4Bytes + kUdpBytes + bth.Write(b + kIpv4Bytes + kUdpBytes);
}

FlowKey
RoceV2Header::Key() const
{
    // Field by field what FlowKey::Parse reads back from Write()'s bytes.
    FlowKey k;
    k.src = src;
    k.dst = dst;
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
    src = i.ReadNtohU32();
    dst = i.ReadNtohU32();
    sport = i.ReadNtohU16();
    i.ReadNtohU16();
    uint16_t udpLength = i.ReadNtohU16();
    bth = transport;
    payload = udpLength >= kUdpBytes + n ? udpLength - kUdpBytes - n : 0;
    return kIpv4Bytes + kUdpBytes + n;
}

} // namespace ns3
