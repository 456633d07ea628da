/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-endpoint.h"

#include "ns3/log.h"
#include "ns3/node.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AggregationEndpoint");
NS_OBJECT_ENSURE_REGISTERED(AggregationEndpoint);

TypeId
AggregationEndpoint::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AggregationEndpoint")
                            .SetParent<Object>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<AggregationEndpoint>();
    return tid;
}

AggregationEndpoint::AggregationEndpoint() = default;
AggregationEndpoint::~AggregationEndpoint() = default;

void
AggregationEndpoint::DoDispose()
{
    m_workers.clear();
    m_dev = nullptr;
    Object::DoDispose();
}

void
AggregationEndpoint::Install(Ptr<FabricNetDevice> dev)
{
    if (m_dev)
    {
        return;
    }
    m_dev = dev;
    dev->GetNode()->RegisterProtocolHandler(MakeCallback(&AggregationEndpoint::Receive, this),
                                            FabricNetDevice::kEtherTypeIpv4,
                                            dev,
                                            false);
}

void
AggregationEndpoint::AddWorker(Ptr<AggregationWorker> w)
{
    m_workers[w->GetJobId()] = w;
}

Ptr<AggregationWorker>
AggregationEndpoint::GetWorker(uint16_t job) const
{
    auto it = m_workers.find(job);
    return it == m_workers.end() ? nullptr : it->second;
}

Ptr<FabricNetDevice>
AggregationEndpoint::GetDevice() const
{
    return m_dev;
}

void
AggregationEndpoint::Receive(Ptr<NetDevice> dev,
                             Ptr<const Packet> p,
                             uint16_t protocol,
                             const Address& from,
                             const Address& to,
                             NetDevice::PacketType type)
{
    AggregationStackHeader h;
    if (!AggregationStackHeader::Peek(*p, h) || h.agg.type != AggregationHeader::RESULT)
    {
        return; // not ours: other protocol handlers (an internet stack) may take it
    }
    auto it = m_workers.find(h.agg.jobId);
    if (it == m_workers.end())
    {
        m_unknown++;
        NS_LOG_DEBUG("result for job " << h.agg.jobId << " without a worker here");
        return;
    }
    it->second->Receive(p, h);
}

} // namespace ns3
