/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "message-transport.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MessageConnection);
NS_OBJECT_ENSURE_REGISTERED(MessageTransport);

TypeId
MessageConnection::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MessageConnection").SetParent<Object>().SetGroupName("Mlnet");
    return tid;
}

MessageConnection::~MessageConnection() = default;

TypeId
MessageTransport::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MessageTransport").SetParent<Object>().SetGroupName("Mlnet");
    return tid;
}

MessageTransport::~MessageTransport() = default;

bool
MessageTransport::StartRing(const RingTransfer&)
{
    return false;
}

} // namespace ns3
