/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "p3-tensor-order.h"

#include "ns3/uinteger.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(P3TensorOrder);

TypeId
P3TensorOrder::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::P3TensorOrder")
              .SetParent<TensorOrderPolicy>()
              .SetGroupName("Mlnet")
              .AddConstructor<P3TensorOrder>()
              .AddAttribute("SliceSize", "Slice size in parameters", UintegerValue(50000),
                            MakeUintegerAccessor(&P3TensorOrder::m_sliceSize),
                            MakeUintegerChecker<uint64_t>(1));
    return tid;
}

P3TensorOrder::P3TensorOrder()
    : m_sliceSize(50000)
{
}

std::string
P3TensorOrder::GetName() const
{
    return "P3";
}

uint64_t
P3TensorOrder::GetSliceSize() const
{
    return m_sliceSize;
}

void
P3TensorOrder::SetSliceSize(uint64_t params)
{
    if (params < 1)
    {
        throw std::invalid_argument("SliceSize = 0 is out of range (must be >= 1 parameter)");
    }
    m_sliceSize = params;
}

std::vector<TransferSlice>
P3TensorOrder::DoPlan(const std::vector<GradientTensor>& tensors) const
{
    const auto ranks = LayerRanks(tensors);
    std::vector<std::size_t> idx(tensors.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(),
                     [&](std::size_t a, std::size_t b)
                     {
                         if (ranks[a] != ranks[b])
                         {
                             return ranks[a] < ranks[b];
                         }
                         return tensors[a].id < tensors[b].id;
                     });
    std::vector<TransferSlice> plan;
    for (std::size_t i : idx)
    {
        auto s = Slice(tensors[i], m_sliceSize, ranks[i]);
        plan.insert(plan.end(), s.begin(), s.end());
    }
    return plan;
}

} // namespace ns3
