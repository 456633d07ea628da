/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-header.h"

#include "roce-byte-order.h"

#include <cstring>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceHeader);

RoceHeader::RoceHeader() = default;

TypeId
RoceHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<RoceHeader>();
    return tid;
}

TypeId
RoceHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RoceHeader::Print(std::ostream& os) const
{
    os << "BTH op=0x" << std::hex << unsigned(m_opcode) << std::dec << " qp=" << m_destQp
       << " psn=" << m_psn;
    if (m_opcode == ACK)
    {
        os << " AETH syn=0x" << std::hex << unsigned(m_syndrome) << std::dec << " msn=" << m_msn;
    }
}

uint32_t
RoceHeader::GetSerializedSize() const
{
    return m_opcode == ACK ? 16 : (m_opcode == CNP ? 28 : 12);
}

uint32_t
RoceHeader::Write(uint8_t* b) const
{
    // Opcode; SE, M, Pad, TVer 0; the default P_Key.
    uint8_t* q = roce::PutBe32(b, (uint32_t(m_opcode) << 24) | 0xffffu);
    q = roce::PutBe32(q, m_destQp & 0xffffff); // reserved byte + DestQP
    q = roce::PutBe32(q, (m_ackRequest ? 0x80000000u : 0u) | (m_psn & 0xffffff));
    if (m_opcode == ACK)
    {
        roce::PutBe32(q, (uint32_t(m_syndrome) << 24) | (m_msn & 0xffffff));
    }
    else if (m_opcode == CNP)
    {
        std::memset(q, 0, 16);
    }
    return GetSerializedSize();
}

void
RoceHeader::Serialize(Buffer::Iterator i) const
{
    uint8_t b[kMaxBytes];
    i.Write(b, Write(b));
}

uint32_t
RoceHeader::Deserialize(Buffer::Iterator i)
{
    // Any byte string may arrive here (a truncated or foreign packet): read nothing beyond the
    // buffer, as ns-3's Buffer does not check this in builds without asserts.
    uint32_t remaining = i.GetRemainingSize();
    if (remaining < 12)
    {
        return 0;
    }
    uint8_t opcode = i.PeekU8();
    uint32_t size = opcode == ACK ? 16 : (opcode == CNP ? 28 : 12);
    if (remaining < size)
    {
        return 0;
    }
    m_opcode = i.ReadU8();
    i.ReadU8();
    i.ReadNtohU16();
    m_destQp = i.ReadNtohU32() & 0xffffff;
    uint32_t w = i.ReadNtohU32();
    m_ackRequest = (w & 0x80000000u) != 0;
    m_psn = w & 0xffffff;
    m_syndrome = 0;
    m_msn = 0;
    if (m_opcode == ACK)
    {
        uint32_t a = i.ReadNtohU32();
        m_syndrome = uint8_t(a >> 24);
        m_msn = a & 0xffffff;
    }
    else if (m_opcode == CNP)
    {
        i.Next(16);
    }
    return size;
}

} // namespace ns3
