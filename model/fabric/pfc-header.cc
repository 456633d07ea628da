/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcHeader);

PfcHeader::PfcHeader() = default;

TypeId
PfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<PfcHeader>();
    return tid;
}

TypeId
PfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
PfcHeader::Print(std::ostream& os) const
{
    os << "PFC";
    for (uint8_t c = 0; c < 8; ++c)
    {
        if (IsEnabled(c))
        {
            os << " c" << unsigned(c) << "=" << m_quanta[c];
        }
    }
}

uint32_t
PfcHeader::GetSerializedSize() const
{
    return 2 + 2 + 2 * 8;
}

void
PfcHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU16(kOpcode);
    start.WriteHtonU16(m_classEnable);
    for (uint16_t q : m_quanta)
    {
        start.WriteHtonU16(q);
    }
}

uint32_t
PfcHeader::Deserialize(Buffer::Iterator start)
{
    if (start.GetRemainingSize() < GetSerializedSize())
    {
        return 0; // too short: read nothing (ns-3's Buffer does not check without asserts)
    }
    start.ReadNtohU16(); // opcode
    m_classEnable = start.ReadNtohU16();
    for (auto& q : m_quanta)
    {
        q = start.ReadNtohU16();
    }
    return GetSerializedSize();
}

void
PfcHeader::SetPause(uint8_t cls, uint16_t quanta)
{
    m_classEnable |= (1u << cls);
    m_quanta[cls] = quanta;
}

bool
PfcHeader::IsEnabled(uint8_t cls) const
{
    return (m_classEnable >> cls) & 1u;
}

uint16_t
PfcHeader::GetQuanta(uint8_t cls) const
{
    return m_quanta[cls];
}

} // namespace ns3
