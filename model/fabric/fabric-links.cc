/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-links.h"

#include "fabric-switch.h"

#include "ns3/node-list.h"

namespace ns3
{

Ptr<FabricNetDevice>
FabricLinks::GetHostDevice(Ptr<Node> node)
{
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        if (Ptr<FabricNetDevice> d = DynamicCast<FabricNetDevice>(node->GetDevice(i)))
        {
            return d;
        }
    }
    return nullptr;
}

bool
FabricLinks::IsInline(Ptr<Node> node)
{
    if (node->GetObject<FabricSwitch>())
    {
        return false;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        Ptr<FabricNetDevice> d = DynamicCast<FabricNetDevice>(node->GetDevice(i));
        if (d)
        {
            if (d->GetIpv4Address() != Ipv4Address())
            {
                return false;
            }
            ++n;
        }
    }
    return n == 2;
}

Ptr<FabricNetDevice>
FabricLinks::GetFarPeer(Ptr<FabricNetDevice> dev)
{
    Ptr<FabricNetDevice> peer = dev->GetPeer();
    // Bounded walk: a chain of in-line devices cannot be longer than the node count.
    for (uint32_t hops = 0; peer && hops <= NodeList::GetNNodes(); ++hops)
    {
        Ptr<Node> n = peer->GetNode();
        if (!IsInline(n))
        {
            return peer;
        }
        Ptr<FabricNetDevice> other;
        for (uint32_t i = 0; i < n->GetNDevices() && !other; ++i)
        {
            Ptr<FabricNetDevice> d = DynamicCast<FabricNetDevice>(n->GetDevice(i));
            if (d && d != peer)
            {
                other = d;
            }
        }
        peer = other ? other->GetPeer() : nullptr;
    }
    return nullptr;
}

} // namespace ns3
