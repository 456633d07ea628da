/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "in-network-aggregator.h"

#include "ns3/fabric-net-device.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <memory>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InNetworkAggregator");
NS_OBJECT_ENSURE_REGISTERED(InNetworkAggregator);

TypeId
InNetworkAggregator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::InNetworkAggregator")
            .SetParent<GradientAggregator>()
            .SetGroupName("Mlnet")
            .AddConstructor<InNetworkAggregator>()
            .AddAttribute("BytesPerElement",
                          "Gradient bytes per element of a slice (4: FP32 gradients), in [1, 8]",
                          UintegerValue(4),
                          MakeUintegerAccessor(&InNetworkAggregator::m_bytesPerElement),
                          MakeUintegerChecker<uint32_t>(1, 8))
            .AddTraceSource("SliceDone",
                            "A slice was aggregated at every worker: (slice, bytes, posted, done)",
                            MakeTraceSourceAccessor(&InNetworkAggregator::m_sliceTrace),
                            "ns3::InNetworkAggregator::SliceTracedCallback");
    return tid;
}

InNetworkAggregator::InNetworkAggregator() = default;
InNetworkAggregator::~InNetworkAggregator() = default;

void
InNetworkAggregator::DoDispose()
{
    m_workers.clear();
    GradientAggregator::DoDispose();
}

void
InNetworkAggregator::SetJob(uint16_t jobId,
                            const std::vector<Ptr<AggregationWorker>>& workers,
                            const std::vector<AggregationTreeInfo>& trees)
{
    m_jobId = jobId;
    m_workers = workers;
    m_trees = trees;
}

void
InNetworkAggregator::Setup(const std::vector<Ptr<MessageTransport>>& transports)
{
    std::vector<Ptr<RdmaNic>> workers;
    for (const Ptr<MessageTransport>& t : transports)
    {
        workers.push_back(DynamicCast<RdmaNic>(t));
        if (!workers.back())
        {
            throw std::invalid_argument("InNetworkAggregator: job " + std::to_string(m_jobId) +
                                        " needs the workers' RDMA NICs (the packet backend; at "
                                        "flow level AggregationHelper::InstallFluidJob)");
        }
    }
    std::set<uint32_t> mine;
    for (const auto& w : m_workers)
    {
        mine.insert(w->GetDevice()->GetNode()->GetId());
    }
    std::set<uint32_t> theirs;
    for (const auto& nic : workers)
    {
        theirs.insert(nic->GetDevice()->GetNode()->GetId());
    }
    if (workers.size() != m_workers.size() || mine != theirs)
    {
        throw std::invalid_argument("InNetworkAggregator: job " + std::to_string(m_jobId) +
                                    " was installed on other hosts than the training job's "
                                    "workers");
    }
}

void
InNetworkAggregator::Aggregate(uint64_t sliceId,
                               uint64_t bytes,
                               uint8_t priorityClass,
                               Callback<void> done)
{
    uint64_t elements = std::max<uint64_t>(1, (bytes + m_bytesPerElement - 1) / m_bytesPerElement);
    auto pending = std::make_shared<uint32_t>(m_workers.size());
    Time posted = Simulator::Now();
    for (const auto& w : m_workers)
    {
        w->Post(
            elements,
            priorityClass,
            AggregationWorker::DoneCallback(
                [this, pending, done, sliceId, bytes, posted](uint64_t, const std::vector<float>&) {
                    if (--*pending == 0)
                    {
                        m_slicesDone++;
                        m_sliceTrace(sliceId, bytes, posted, Simulator::Now());
                        if (!done.IsNull())
                        {
                            done();
                        }
                    }
                }));
    }
}

uint16_t
InNetworkAggregator::GetJobId() const
{
    return m_jobId;
}

const std::vector<Ptr<AggregationWorker>>&
InNetworkAggregator::GetWorkers() const
{
    return m_workers;
}

const std::vector<AggregationTreeInfo>&
InNetworkAggregator::GetTrees() const
{
    return m_trees;
}

uint64_t
InNetworkAggregator::GetSlicesDone() const
{
    return m_slicesDone;
}

} // namespace ns3
