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
/// destroyed during static destruction, after any pool object would be). A stack of pointers
/// rather than a list linked through the blocks: freeing a block does not touch it (the last
/// reader of a frame is often hops away from its producer, and its block is no longer in the
/// cache), and blocks are reused last in, first out.
void** g_freeStack = nullptr;
uint32_t g_freeCount = 0;
uint32_t g_freeCapacity = 0;
} // namespace

FabricFrame::Compact*
FabricFrame::AllocCompact()
{
    if (g_freeCount > 0)
    {
        return static_cast<Compact*>(g_freeStack[--g_freeCount]);
    }
    return new Compact;
}

void
FabricFrame::FreeCompact(Compact* c)
{
    if (g_freeCount == g_freeCapacity)
    {
        g_freeCapacity = g_freeCapacity ? 2 * g_freeCapacity : 1024;
        void** grown = new void*[g_freeCapacity];
        std::copy(g_freeStack, g_freeStack + g_freeCount, grown);
        delete[] g_freeStack;
        g_freeStack = grown;
    }
    g_freeStack[g_freeCount++] = c;
}

void
FabricFrame::ReleaseHeld()
{
    if (IsCompact())
    {
        FreeCompact(GetCompact());
    }
    else
    {
        reinterpret_cast<Packet*>(m_ptr)->Unref();
    }
}

uint8_t*
FabricFrame::Headers()
{
    Compact* c = GetCompact();
    if (!c)
    {
        Clear();
        c = AllocCompact();
        c->build = nullptr;
        c->headerBytes = 0;
        SetCompactPointer(c);
    }
    m_note = 0; // the producer writes new headers
    return c->headers;
}

void
FabricFrame::SetCompact(uint32_t headerBytes, uint32_t size, Materialiser build)
{
    NS_ASSERT_MSG(headerBytes <= kMaxHeaderBytes && headerBytes <= size && build,
                  "FabricFrame::SetCompact: headerBytes must be 0.." << kMaxHeaderBytes
                                                                     << " and at most size");
    Headers(); // a frame whose producer wrote nothing still gets its block
    Compact* c = GetCompact();
    c->headerBytes = headerBytes;
    c->build = build;
    m_size = size;
}

void
FabricFrame::CopyFrom(const FabricFrame& o)
{
    m_ptr = 0;
    m_note = o.m_note;
    m_size = o.m_size;
    if (Packet* p = o.GetPacketPointer())
    {
        p->Ref();
        m_ptr = o.m_ptr;
    }
    else if (const Compact* oc = o.GetCompact())
    {
        Compact* c = AllocCompact();
        std::memcpy(c, oc, sizeof(Compact));
        SetCompactPointer(c);
    }
}

uint32_t
FabricFrame::CopyData(uint8_t* buffer, uint32_t n) const
{
    if (Packet* p = GetPacketPointer())
    {
        return p->CopyData(buffer, n);
    }
    const Compact* c = GetCompact();
    n = c ? std::min(n, m_size) : 0;
    if (n == 0)
    {
        return 0; // (buffer may be null)
    }
    const uint32_t h = std::min(n, c->headerBytes);
    std::memcpy(buffer, c->headers, h);
    std::memset(buffer + h, 0, n - h); // the virtual bytes are zeros
    return n;
}

Ptr<Packet>
FabricFrame::GetPacket()
{
    m_note = 0;
    Compact* c = GetCompact();
    if (c && c->build)
    {
        Ptr<Packet> p = c->build(c->headers, c->headerBytes, m_size);
        FreeCompact(c);
        m_ptr = reinterpret_cast<uintptr_t>(PeekPointer(p));
        p->Ref();
        return p;
    }
    return Ptr<Packet>(GetPacketPointer());
}

void
FabricFrame::SetEcnCe()
{
    if (Packet* p = GetPacketPointer())
    {
        SetEcnCe(*p);
    }
    else if (Compact* c = GetCompact())
    {
        // The TOS byte; the checksum stays zero, as Ipv4Header writes it unless checksums are
        // on.
        c->headers[1] = uint8_t(c->headers[1] | Ipv4Header::ECN_CE);
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
