/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "bytescheduler-tensor-order.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ByteSchedulerTensorOrder");

NS_OBJECT_ENSURE_REGISTERED(ByteSchedulerTensorOrder);

TypeId
ByteSchedulerTensorOrder::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ByteSchedulerTensorOrder")
            .SetParent<TensorOrderPolicy>()
            .SetGroupName("Mlnet")
            .AddConstructor<ByteSchedulerTensorOrder>()
            .AddAttribute("PartitionSize",
                          "Tensors larger than this are partitioned into chunks of this size, "
                          "in parameters",
                          UintegerValue(1000000),
                          MakeUintegerAccessor(&ByteSchedulerTensorOrder::m_partitionSize),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("Credit",
                          "Parameters allowed in flight (credit-based preemption)",
                          UintegerValue(4000000),
                          MakeUintegerAccessor(&ByteSchedulerTensorOrder::m_credit),
                          MakeUintegerChecker<uint64_t>(1));
    return tid;
}

ByteSchedulerTensorOrder::ByteSchedulerTensorOrder()
    : m_partitionSize(1000000),
      m_credit(4000000)
{
    NS_LOG_FUNCTION(this);
}

std::string
ByteSchedulerTensorOrder::GetName() const
{
    return "ByteScheduler";
}

uint64_t
ByteSchedulerTensorOrder::GetCreditBytes() const
{
    return m_credit * GetBytesPerParameter();
}

uint64_t
ByteSchedulerTensorOrder::GetPartitionSize() const
{
    return m_partitionSize;
}

void
ByteSchedulerTensorOrder::SetPartitionSize(uint64_t params)
{
    NS_LOG_FUNCTION(this << params);
    if (params < 1)
    {
        throw std::invalid_argument("PartitionSize = 0 is out of range (must be >= 1 parameter)");
    }
    m_partitionSize = params;
}

uint64_t
ByteSchedulerTensorOrder::GetCredit() const
{
    return m_credit;
}

void
ByteSchedulerTensorOrder::SetCredit(uint64_t params)
{
    NS_LOG_FUNCTION(this << params);
    if (params < 1)
    {
        throw std::invalid_argument("Credit = 0 is out of range (must be >= 1 parameter)");
    }
    m_credit = params;
}

std::vector<TransferSlice>
ByteSchedulerTensorOrder::DoPlan(const std::vector<GradientTensor>& tensors) const
{
    NS_LOG_FUNCTION(this);
    std::vector<std::size_t> idx(tensors.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
        if (tensors[a].layerIndex != tensors[b].layerIndex)
        {
            return tensors[a].layerIndex < tensors[b].layerIndex;
        }
        return tensors[a].id < tensors[b].id;
    });
    std::vector<TransferSlice> plan;
    for (std::size_t i : idx)
    {
        const auto& t = tensors[i];
        auto s = Slice(t, t.parameters > m_partitionSize ? m_partitionSize : 0, t.layerIndex);
        plan.insert(plan.end(), s.begin(), s.end());
    }
    return plan;
}

} // namespace ns3
