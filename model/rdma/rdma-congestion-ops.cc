/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-congestion-ops.h"

#include "ns3/log.h"
#include "ns3/string.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCongestionOps");

NS_OBJECT_ENSURE_REGISTERED(RdmaCongestionOps);

TypeId
RdmaCongestionOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaCongestionOps").SetParent<Object>().SetGroupName("Mlnet");
    return tid;
}

RdmaCongestionOps::~RdmaCongestionOps()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaCongestionOps::Advance(RdmaCcState& state, Time now)
{
}

void
RdmaCongestionOps::OnSent(RdmaCcState& state, uint32_t bytes, Time now)
{
}

Ptr<RdmaCongestionOps>
RdmaCongestionOps::Fork() const
{
    return nullptr;
}

void
RdmaCongestionOps::OnAck(RdmaCcState& state, const RdmaAckInfo& ack, Time now)
{
}

void
RdmaCongestionOps::SetAttributeChecked(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    TypeId tid = GetInstanceTypeId();
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name, &info))
    {
        throw std::invalid_argument(tid.GetName() + ": no attribute named '" + name + "'");
    }
    std::string shown;
    if (const auto* str = dynamic_cast<const StringValue*>(&value))
    {
        shown = str->Get();
    }
    else
    {
        shown = value.SerializeToString(info.checker);
    }
    // Setters of the mlnet algorithms throw std::invalid_argument themselves (with the range);
    // a value the checker rejects before reaching the setter makes SetAttributeFailSafe false.
    if (!SetAttributeFailSafe(name, value))
    {
        throw std::invalid_argument(tid.GetName() + "::" + name + ": invalid value '" + shown +
                                    "' (" + info.help + ")");
    }
}

} // namespace ns3
