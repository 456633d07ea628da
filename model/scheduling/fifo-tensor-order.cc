/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fifo-tensor-order.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FifoTensorOrder");

NS_OBJECT_ENSURE_REGISTERED(FifoTensorOrder);

TypeId
FifoTensorOrder::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FifoTensorOrder")
                            .SetParent<TensorOrderPolicy>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<FifoTensorOrder>();
    return tid;
}

std::string
FifoTensorOrder::GetName() const
{
    return "FIFO";
}

std::vector<TransferSlice>
FifoTensorOrder::DoPlan(const std::vector<GradientTensor>& tensors) const
{
    NS_LOG_FUNCTION(this);
    std::vector<GradientTensor> order(tensors);
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
        if (a.producedAt != b.producedAt)
        {
            return a.producedAt < b.producedAt;
        }
        if (a.layerIndex != b.layerIndex)
        {
            return a.layerIndex > b.layerIndex;
        }
        return a.id < b.id;
    });
    std::vector<TransferSlice> plan;
    for (const auto& t : order)
    {
        auto s = Slice(t, 0, 0);
        plan.insert(plan.end(), s.begin(), s.end());
    }
    return plan;
}

} // namespace ns3
