/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fluid-aggregator.h"

#include "aggregation-worker.h"

#include "ns3/boolean.h"
#include "ns3/fluid-dcqcn.h"
#include "ns3/fluid-transport.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluidAggregator");
NS_OBJECT_ENSURE_REGISTERED(FluidAggregator);

TypeId
FluidAggregator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FluidAggregator")
            .SetParent<GradientAggregator>()
            .SetGroupName("Mlnet")
            .AddConstructor<FluidAggregator>()
            .AddAttribute("BytesPerElement",
                          "Gradient bytes per element of a slice (4: FP32 gradients), in [1, 8]",
                          UintegerValue(4),
                          MakeUintegerAccessor(&FluidAggregator::m_bytesPerElement),
                          MakeUintegerChecker<uint32_t>(1, 8))
            .AddAttribute("EcnOr",
                          "Under DCQCN at flow level, a tree's chunk is marked if any of its "
                          "frames is (the ECN-OR its results carry to the workers): a link "
                          "crossed by c edges marks it with probability 1 - (1 - p)^c; false: "
                          "each link of the tree once",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FluidAggregator::m_ecnOr),
                          MakeBooleanChecker())
            .AddAttribute("CnpDelay",
                          "Under DCQCN at flow level, the delay from a marked frame to the cut "
                          "(the marked result's way to the workers); negative: half the tree's "
                          "unloaded round trip (TreeSpec::roundTrip)",
                          TimeValue(NanoSeconds(-1)),
                          MakeTimeAccessor(&FluidAggregator::m_cnpDelay),
                          MakeTimeChecker())
            .AddTraceSource("SliceDone",
                            "A slice was aggregated at every worker: (slice, bytes, posted, done)",
                            MakeTraceSourceAccessor(&FluidAggregator::m_sliceTrace),
                            "ns3::FluidAggregator::SliceTracedCallback");
    return tid;
}

FluidAggregator::FluidAggregator() = default;
FluidAggregator::~FluidAggregator() = default;

void
FluidAggregator::DoDispose()
{
    if (m_fabric)
    {
        if (Ptr<FluidDcqcn> cc = FluidDcqcn::Of(m_fabric->GetNetwork()))
        {
            for (const TreeSpec& tree : m_trees)
            {
                cc->Forget(&tree); // its reaction point
            }
        }
    }
    m_fabric = nullptr;
    m_queues.clear();
    GradientAggregator::DoDispose();
}

void
FluidAggregator::SetJob(Ptr<FluidFabric> fabric,
                        uint16_t jobId,
                        const std::vector<Ipv4Address>& workers,
                        const std::vector<TreeSpec>& trees,
                        uint32_t chunkElements,
                        uint32_t elementBytes,
                        uint32_t frameOverhead)
{
    if (!fabric || trees.empty() || workers.empty() || chunkElements == 0 || elementBytes == 0)
    {
        throw std::invalid_argument("FluidAggregator::SetJob: needs a fabric, >= 1 worker, "
                                    ">= 1 tree, chunkElements >= 1 and elementBytes >= 1");
    }
    m_fabric = fabric;
    m_jobId = jobId;
    m_workers = workers;
    m_trees = trees;
    m_chunkElements = chunkElements;
    m_elementBytes = elementBytes;
    m_frameOverhead = frameOverhead;
    m_queues.assign(trees.size(), {});
    m_draining.assign(trees.size(), false);
    m_wirePerTree.assign(trees.size(), 0);
    m_ccGiven.assign(trees.size(), false);
}

void
FluidAggregator::SetCongestionControl(const ObjectFactory& reactionPoint, double lineRate)
{
    if (!(lineRate > 0) || !std::isfinite(lineRate))
    {
        throw std::invalid_argument(
            "FluidAggregator::SetCongestionControl: lineRate = " + std::to_string(lineRate) +
            " bit/s is out of range (positive, finite)");
    }
    m_cc = true;
    m_reactionPoint = reactionPoint;
    m_lineRate = lineRate;
}

bool
FluidAggregator::HasCongestionControl() const
{
    return m_cc;
}

void
FluidAggregator::Setup(const std::vector<Ptr<MessageTransport>>& transports)
{
    std::set<uint32_t> theirs;
    for (const Ptr<MessageTransport>& t : transports)
    {
        Ptr<FluidTransport> f = DynamicCast<FluidTransport>(t);
        if (!f || f->GetFabric() != m_fabric)
        {
            throw std::invalid_argument("FluidAggregator: job " + std::to_string(m_jobId) +
                                        " needs the workers' FluidTransports on its fluid "
                                        "fabric (the flow backend)");
        }
        theirs.insert(f->GetAddress().Get());
    }
    std::set<uint32_t> mine;
    for (const Ipv4Address& a : m_workers)
    {
        mine.insert(a.Get());
    }
    if (transports.size() != m_workers.size() || mine != theirs)
    {
        throw std::invalid_argument("FluidAggregator: job " + std::to_string(m_jobId) +
                                    " was installed on other hosts than the training job's "
                                    "workers");
    }
}

void
FluidAggregator::Aggregate(uint64_t sliceId,
                           uint64_t bytes,
                           uint8_t priorityClass,
                           Callback<void> done)
{
    // As InNetworkAggregator posts it to every worker, and as the workers cut and stripe it.
    const uint64_t elements =
        std::max<uint64_t>(1, (bytes + m_bytesPerElement - 1) / m_bytesPerElement);
    const uint64_t chunks = (elements + m_chunkElements - 1) / m_chunkElements;
    const uint64_t T = m_trees.size();
    const uint64_t fullFrame = uint64_t(m_chunkElements) * m_elementBytes + m_frameOverhead;
    const uint64_t lastElements = elements - (chunks - 1) * m_chunkElements;
    const uint64_t lastTree = (m_chunkCounter + chunks - 1) % T;
    auto slice = std::make_shared<Slice>();
    slice->id = sliceId;
    slice->bytes = bytes;
    slice->posted = Simulator::Now();
    slice->done = done;
    std::vector<uint64_t> wire(T, 0);
    for (uint64_t t = 0; t < T; ++t)
    {
        const uint64_t n = AggregationWorker::ChunksOnTree(m_chunkCounter, chunks, T, t);
        wire[t] = n * fullFrame;
        if (t == lastTree)
        {
            wire[t] -= (m_chunkElements - lastElements) * m_elementBytes;
        }
        slice->pending += wire[t] > 0 ? 1 : 0;
    }
    m_chunkCounter += chunks;
    ++m_slicesOpen;
    for (uint32_t t = 0; t < T; ++t)
    {
        if (wire[t] > 0)
        {
            m_queues[t].push_back(Share{slice, wire[t], priorityClass});
            StartNext(t);
        }
    }
}

void
FluidAggregator::StartNext(uint32_t t)
{
    if (m_draining[t] || m_queues[t].empty())
    {
        return;
    }
    Share s = m_queues[t].front();
    m_queues[t].pop_front();
    m_draining[t] = true;
    m_wirePerTree[t] += s.wire;
    const TreeSpec& tree = m_trees[t];
    FluidNetwork::FlowSpec spec;
    spec.path = tree.path;
    spec.pathCoef = tree.coef;
    spec.bytes = s.wire;
    spec.cls = s.cls;
    spec.latency = tree.latency;
    spec.rateCap = tree.windowRate;
    spec.drained = FluidNetwork::FlowCallback([this, t](uint64_t) {
        m_draining[t] = false;
        StartNext(t); // the tree's next chunks follow its last ones
    });
    std::shared_ptr<Slice> slice = s.slice;
    spec.delivered = FluidNetwork::FlowCallback([this, slice](uint64_t) { Delivered(slice); });
    Ptr<FluidNetwork> net = m_fabric->GetNetwork();
    Ptr<FluidDcqcn> cc = m_cc ? FluidDcqcn::Of(net) : nullptr;
    uint64_t id = 0;
    if (cc)
    {
        // the tree is the owner of its reaction point (its TreeSpec's address: stable)
        const void* owner = &m_trees[t];
        if (!m_ccGiven[t])
        {
            cc->SetOwnerCongestionControl(owner, m_reactionPoint);
            FluidDcqcn::Feedback fb;
            fb.ecnOr = m_ecnOr;
            fb.delay = m_cnpDelay.IsNegative() ? m_trees[t].roundTrip / 2 : m_cnpDelay;
            cc->SetOwnerFeedback(owner, fb);
            m_ccGiven[t] = true;
        }
        const double payload = double(m_chunkElements) * m_elementBytes;
        id = cc->StartFlow(owner,
                           std::move(spec),
                           m_lineRate,
                           payload / (payload + m_frameOverhead));
    }
    else
    {
        id = net->StartFlow(std::move(spec));
    }
    NS_LOG_DEBUG("job " << m_jobId << " tree " << t << ": slice " << slice->id << ", " << s.wire
                        << " B per worker, flow " << id);
}

void
FluidAggregator::Delivered(const std::shared_ptr<Slice>& slice)
{
    if (--slice->pending > 0)
    {
        return;
    }
    ++m_slicesDone;
    --m_slicesOpen;
    m_sliceTrace(slice->id, slice->bytes, slice->posted, Simulator::Now());
    if (!slice->done.IsNull())
    {
        slice->done();
    }
}

uint16_t
FluidAggregator::GetJobId() const
{
    return m_jobId;
}

const std::vector<FluidAggregator::TreeSpec>&
FluidAggregator::GetTrees() const
{
    return m_trees;
}

uint64_t
FluidAggregator::GetSlicesDone() const
{
    return m_slicesDone;
}

const std::vector<uint64_t>&
FluidAggregator::GetWireBytesPerTree() const
{
    return m_wirePerTree;
}

bool
FluidAggregator::IsBusy() const
{
    return m_slicesOpen > 0;
}

} // namespace ns3
