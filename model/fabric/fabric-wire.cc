/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-wire.h"

namespace ns3
{

void
FabricWire::Clear()
{
    while (WireRecord* r = m_head)
    {
        m_head = r->next;
        r->frame = FabricFrame();
        WireArena::Free(r);
    }
    m_tail = nullptr;
}

void
FabricWire::Deliver(MlnetEvent* self)
{
    FabricWire* w = static_cast<FabricWire*>(self);
    WireRecord* r = w->m_head;
    if (!r)
    {
        return; // disposed while frames were on the wire (Clear)
    }
    w->m_head = r->next;
    if (!w->m_head)
    {
        w->m_tail = nullptr;
    }
    FabricFrame f(std::move(r->frame));
    const uint16_t etherType = r->etherType;
    const bool hasKey = r->hasKey;
    const FlowKey key = r->key;
    WireArena::Free(r);
    if (w->m_dev)
    {
        w->m_dev->ReceiveFrame(f, etherType, hasKey ? &key : nullptr);
    }
}

} // namespace ns3
