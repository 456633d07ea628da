/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "tensor-order-policy.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TensorOrderPolicy");

NS_OBJECT_ENSURE_REGISTERED(TensorOrderPolicy);

bool
TransferSlice::operator==(const TransferSlice& o) const
{
    return tensorId == o.tensorId && offset == o.offset && size == o.size &&
           priority == o.priority && priorityClass == o.priorityClass;
}

TypeId
TensorOrderPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TensorOrderPolicy")
            .SetParent<Object>()
            .SetGroupName("Mlnet")
            .AddAttribute("BytesPerParameter",
                          "Size of one gradient element in bytes (4 for fp32, 2 for fp16)",
                          UintegerValue(4),
                          MakeUintegerAccessor(&TensorOrderPolicy::m_bytesPerParameter),
                          MakeUintegerChecker<uint32_t>(1, 8))
            .AddAttribute("PriorityClasses",
                          "Number of priority classes the priority values are mapped onto",
                          UintegerValue(8),
                          MakeUintegerAccessor(&TensorOrderPolicy::m_priorityClasses),
                          MakeUintegerChecker<uint32_t>(1, 64));
    return tid;
}

TensorOrderPolicy::TensorOrderPolicy()
    : m_bytesPerParameter(4),
      m_priorityClasses(8)
{
    NS_LOG_FUNCTION(this);
}

TensorOrderPolicy::~TensorOrderPolicy() = default;

uint64_t
TensorOrderPolicy::GetCreditBytes() const
{
    return 0;
}

uint32_t
TensorOrderPolicy::GetOutstandingPerChannel() const
{
    return 0;
}

uint32_t
TensorOrderPolicy::GetBytesPerParameter() const
{
    return m_bytesPerParameter;
}

void
TensorOrderPolicy::SetBytesPerParameter(uint32_t b)
{
    NS_LOG_FUNCTION(this << b);
    if (b < 1 || b > 8)
    {
        throw std::invalid_argument("BytesPerParameter = " + std::to_string(b) +
                                    " is out of range (must be in [1, 8])");
    }
    m_bytesPerParameter = b;
}

uint32_t
TensorOrderPolicy::GetPriorityClasses() const
{
    return m_priorityClasses;
}

void
TensorOrderPolicy::SetPriorityClasses(uint32_t c)
{
    NS_LOG_FUNCTION(this << c);
    if (c < 1 || c > 64)
    {
        throw std::invalid_argument("PriorityClasses = " + std::to_string(c) +
                                    " is out of range (must be in [1, 64])");
    }
    m_priorityClasses = c;
}

namespace
{

void
RequireTime(double v, const GradientTensor& t, const char* field)
{
    if (!(v >= 0.0) || !std::isfinite(v))
    {
        throw std::invalid_argument("tensor " + std::to_string(t.id) + ": " + field + " = " +
                                    std::to_string(v) + " is out of range (must be >= 0 s)");
    }
}

} // namespace

std::vector<TransferSlice>
TensorOrderPolicy::Plan(const std::vector<GradientTensor>& tensors) const
{
    NS_LOG_FUNCTION(this);
    std::set<uint32_t> ids;
    for (const auto& t : tensors)
    {
        if (!ids.insert(t.id).second)
        {
            throw std::invalid_argument("tensor id " + std::to_string(t.id) +
                                        " is duplicated (ids must be unique)");
        }
        if (t.parameters == 0)
        {
            throw std::invalid_argument("tensor " + std::to_string(t.id) +
                                        ": parameters = 0 is out of range (must be >= 1)");
        }
        RequireTime(t.producedAt, t, "producedAt");
        RequireTime(t.consumedAt, t, "consumedAt");
        RequireTime(t.consumerComputeTime, t, "consumerComputeTime");
    }
    std::vector<TransferSlice> plan = DoPlan(tensors);
    uint32_t maxPriority = 0;
    for (const auto& s : plan)
    {
        maxPriority = std::max(maxPriority, s.priority);
    }
    const uint64_t values = static_cast<uint64_t>(maxPriority) + 1;
    for (auto& s : plan)
    {
        s.priorityClass =
            static_cast<uint8_t>(static_cast<uint64_t>(s.priority) * m_priorityClasses / values);
    }
    return plan;
}

std::vector<TransferSlice>
TensorOrderPolicy::Slice(const GradientTensor& t, uint64_t sliceSize, uint32_t priority)
{
    NS_LOG_FUNCTION(sliceSize << priority);
    std::vector<TransferSlice> out;
    const uint64_t step = sliceSize == 0 ? t.parameters : sliceSize;
    for (uint64_t off = 0; off < t.parameters; off += step)
    {
        TransferSlice s;
        s.tensorId = t.id;
        s.offset = off;
        s.size = std::min(step, t.parameters - off);
        s.priority = priority;
        s.readyTime = t.producedAt;
        out.push_back(s);
    }
    return out;
}

std::vector<uint32_t>
TensorOrderPolicy::LayerRanks(const std::vector<GradientTensor>& tensors)
{
    NS_LOG_FUNCTION_NOARGS();
    std::set<uint32_t> layers;
    for (const auto& t : tensors)
    {
        layers.insert(t.layerIndex);
    }
    std::vector<uint32_t> ranks;
    ranks.reserve(tensors.size());
    for (const auto& t : tensors)
    {
        ranks.push_back(
            static_cast<uint32_t>(std::distance(layers.begin(), layers.find(t.layerIndex))));
    }
    return ranks;
}

std::vector<SliceTiming>
TensorOrderPolicy::Serve(const std::vector<TransferSlice>& plan, double bytesPerSecond) const
{
    NS_LOG_FUNCTION(this << bytesPerSecond);
    if (!(bytesPerSecond > 0.0) || !std::isfinite(bytesPerSecond))
    {
        throw std::invalid_argument("bytesPerSecond = " + std::to_string(bytesPerSecond) +
                                    " is out of range (must be > 0)");
    }
    std::vector<SliceTiming> out;
    std::vector<char> sent(plan.size(), 0);
    double now = 0.0;
    for (std::size_t n = 0; n < plan.size(); ++n)
    {
        std::size_t pick = plan.size();
        double earliest = std::numeric_limits<double>::infinity();
        std::size_t earliestIdx = plan.size();
        for (std::size_t i = 0; i < plan.size(); ++i)
        {
            if (sent[i])
            {
                continue;
            }
            if (plan[i].readyTime <= now)
            {
                pick = i;
                break;
            }
            if (plan[i].readyTime < earliest)
            {
                earliest = plan[i].readyTime;
                earliestIdx = i;
            }
        }
        if (pick == plan.size())
        {
            now = earliest;
            pick = earliestIdx;
            // another slice earlier in the plan may become ready at the same instant
            for (std::size_t i = 0; i < plan.size(); ++i)
            {
                if (!sent[i] && plan[i].readyTime <= now)
                {
                    pick = i;
                    break;
                }
            }
        }
        sent[pick] = 1;
        SliceTiming t;
        t.planIndex = pick;
        t.start = now;
        t.end = now + static_cast<double>(plan[pick].size) * m_bytesPerParameter / bytesPerSecond;
        now = t.end;
        out.push_back(t);
    }
    return out;
}

std::vector<GradientTensor>
TensorOrderPolicy::MakeTensors(const std::vector<uint64_t>& layerParameters,
                               const std::vector<double>& forwardTimes,
                               const std::vector<double>& backwardTimes)
{
    NS_LOG_FUNCTION_NOARGS();
    const std::size_t n = layerParameters.size();
    if (forwardTimes.size() != n || backwardTimes.size() != n)
    {
        throw std::invalid_argument("forwardTimes and backwardTimes must have one entry per "
                                    "layer (" +
                                    std::to_string(n) + ")");
    }
    for (std::size_t i = 0; i < n; ++i)
    {
        if (!(forwardTimes[i] >= 0.0) || !(backwardTimes[i] >= 0.0))
        {
            throw std::invalid_argument("layer " + std::to_string(i) +
                                        ": forward/backward time is out of range (must be >= 0 s)");
        }
    }
    std::vector<GradientTensor> tensors;
    double consumed = 0.0;
    std::vector<double> produced(n + 1, 0.0); // produced[i] = sum of backward times i..n-1
    for (std::size_t i = n; i-- > 0;)
    {
        produced[i] = produced[i + 1] + backwardTimes[i];
    }
    uint32_t id = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
        if (layerParameters[i] > 0)
        {
            GradientTensor t;
            t.id = id++;
            t.layerIndex = static_cast<uint32_t>(i);
            t.parameters = layerParameters[i];
            t.producedAt = produced[i];
            t.consumedAt = consumed;
            t.consumerComputeTime = forwardTimes[i];
            tensors.push_back(t);
        }
        consumed += forwardTimes[i];
    }
    return tensors;
}

} // namespace ns3
