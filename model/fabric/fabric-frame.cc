/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-frame.h"

#include "ns3/ipv4-header.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

uint32_t
FabricFrame::CopyData(uint8_t* buffer, uint32_t n) const
{
    if (m_packet || !m_build)
    {
        return m_packet ? m_packet->CopyData(buffer, n) : 0;
    }
    n = std::min(n, m_size);
    const uint32_t h = std::min<uint32_t>(n, m_headerBytes);
    std::memcpy(buffer, m_headers, h);
    std::memset(buffer + h, 0, n - h); // the virtual bytes are zeros
    return n;
}

Ptr<Packet>
FabricFrame::GetPacket()
{
    if (!m_packet && m_build)
    {
        Ptr<Packet> p = m_build(m_headers, m_headerBytes, m_size);
        m_packet = PeekPointer(p);
        Acquire();
        m_build = nullptr;
    }
    return Ptr<Packet>(m_packet);
}

void
FabricFrame::SetEcnCe()
{
    if (m_packet || !m_build)
    {
        if (m_packet)
        {
            SetEcnCe(*m_packet);
        }
        return;
    }
    // The TOS byte; the checksum stays zero, as Ipv4Header writes it unless checksums are on.
    m_headers[1] = uint8_t(m_headers[1] | Ipv4Header::ECN_CE);
}

void
FabricFrame::SetEcnCe(Packet& p)
{
    Ipv4Header ip;
    p.RemoveHeader(ip);
    ip.SetEcn(Ipv4Header::ECN_CE);
    p.AddHeader(ip);
}

} // namespace ns3
