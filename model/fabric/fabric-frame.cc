/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-frame.h"

#include "ns3/assert.h"
#include "ns3/ipv4-header.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

namespace
{
/// Free compact blocks, kept for reuse until the process exits (never returned: a frame may be
/// destroyed during static destruction, after any pool object would be).
void* g_freeCompact = nullptr;
} // namespace

FabricFrame::Compact*
FabricFrame::AllocCompact()
{
    Compact* c = static_cast<Compact*>(g_freeCompact);
    if (c)
    {
        g_freeCompact = c->next;
        return c;
    }
    return new Compact;
}

void
FabricFrame::FreeCompact(Compact* c)
{
    c->next = static_cast<Compact*>(g_freeCompact);
    g_freeCompact = c;
}

uint8_t*
FabricFrame::Headers()
{
    if (m_packet || !m_compact)
    {
        Clear();
        m_compact = AllocCompact();
        m_compact->build = nullptr;
        m_compact->headerBytes = 0;
    }
    return m_compact->headers;
}

void
FabricFrame::SetCompact(uint32_t headerBytes, uint32_t size, Materialiser build)
{
    NS_ASSERT_MSG(headerBytes <= kMaxHeaderBytes && headerBytes <= size && build,
                  "FabricFrame::SetCompact: headerBytes must be 0.." << kMaxHeaderBytes
                                                                     << " and at most size");
    Headers(); // a frame whose producer wrote nothing still gets its block
    m_compact->headerBytes = headerBytes;
    m_compact->build = build;
    m_size = size;
}

void
FabricFrame::CopyFrom(const FabricFrame& o)
{
    m_packet = o.m_packet;
    m_size = o.m_size;
    m_compact = nullptr;
    if (m_packet)
    {
        m_packet->Ref();
    }
    else if (o.m_compact)
    {
        m_compact = AllocCompact();
        std::memcpy(m_compact, o.m_compact, sizeof(Compact));
    }
}

uint32_t
FabricFrame::CopyData(uint8_t* buffer, uint32_t n) const
{
    if (m_packet)
    {
        return m_packet->CopyData(buffer, n);
    }
    n = m_compact ? std::min(n, m_size) : 0;
    if (n == 0)
    {
        return 0; // (buffer may be null)
    }
    const uint32_t h = std::min(n, m_compact->headerBytes);
    std::memcpy(buffer, m_compact->headers, h);
    std::memset(buffer + h, 0, n - h); // the virtual bytes are zeros
    return n;
}

Ptr<Packet>
FabricFrame::GetPacket()
{
    if (!m_packet && m_compact && m_compact->build)
    {
        Ptr<Packet> p = m_compact->build(m_compact->headers, m_compact->headerBytes, m_size);
        FreeCompact(m_compact);
        m_compact = nullptr;
        m_packet = PeekPointer(p);
        m_packet->Ref();
    }
    return Ptr<Packet>(m_packet);
}

void
FabricFrame::SetEcnCe()
{
    if (m_packet)
    {
        SetEcnCe(*m_packet);
    }
    else if (m_compact)
    {
        // The TOS byte; the checksum stays zero, as Ipv4Header writes it unless checksums are
        // on.
        m_compact->headers[1] = uint8_t(m_compact->headers[1] | Ipv4Header::ECN_CE);
    }
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
