/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "p3-tensor-order.h"

#include "fifo-tensor-order.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("P3TensorOrder");

NS_OBJECT_ENSURE_REGISTERED(P3TensorOrder);

TypeId
P3TensorOrder::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::P3TensorOrder")
            .SetParent<TensorOrderPolicy>()
            .SetGroupName("Mlnet")
            .AddConstructor<P3TensorOrder>()
            .AddAttribute("SliceSize",
                          "Slice size in parameters (0 = whole tensors: priority alone)",
                          UintegerValue(50000),
                          MakeUintegerAccessor(&P3TensorOrder::m_sliceSize),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Priority",
                          "Order slices by layer priority (false: backward production order "
                          "with one priority value: slicing alone)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&P3TensorOrder::m_priority),
                          MakeBooleanChecker());
    return tid;
}

P3TensorOrder::P3TensorOrder()
    : m_sliceSize(50000),
      m_priority(true)
{
    NS_LOG_FUNCTION(this);
}

std::string
P3TensorOrder::GetName() const
{
    if (m_priority)
    {
        return m_sliceSize > 0 ? "P3" : "P3-priority";
    }
    return m_sliceSize > 0 ? "P3-slicing" : "P3-off";
}

uint64_t
P3TensorOrder::GetSliceSize() const
{
    return m_sliceSize;
}

void
P3TensorOrder::SetSliceSize(uint64_t params)
{
    NS_LOG_FUNCTION(this << params);
    m_sliceSize = params;
}

bool
P3TensorOrder::GetPriority() const
{
    return m_priority;
}

void
P3TensorOrder::SetPriority(bool on)
{
    NS_LOG_FUNCTION(this << on);
    m_priority = on;
}

std::vector<TransferSlice>
P3TensorOrder::DoPlan(const std::vector<GradientTensor>& tensors) const
{
    NS_LOG_FUNCTION(this);
    std::vector<TransferSlice> plan;
    if (!m_priority)
    {
        // the framework's order (FIFO: backward production order), one priority value
        Ptr<FifoTensorOrder> fifo = CreateObject<FifoTensorOrder>();
        for (const auto& whole : fifo->Plan(tensors))
        {
            const auto it =
                std::find_if(tensors.begin(), tensors.end(), [&whole](const GradientTensor& t) {
                    return t.id == whole.tensorId;
                });
            auto s = Slice(*it, m_sliceSize, 0);
            plan.insert(plan.end(), s.begin(), s.end());
        }
        return plan;
    }
    const auto ranks = LayerRanks(tensors);
    std::vector<std::size_t> idx(tensors.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
        if (ranks[a] != ranks[b])
        {
            return ranks[a] < ranks[b];
        }
        return tensors[a].id < tensors[b].id;
    });
    for (std::size_t i : idx)
    {
        auto s = Slice(tensors[i], m_sliceSize, ranks[i]);
        plan.insert(plan.end(), s.begin(), s.end());
    }
    return plan;
}

} // namespace ns3
