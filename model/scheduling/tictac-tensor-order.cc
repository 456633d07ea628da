/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "tictac-tensor-order.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/mlnet-enum-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TicTacTensorOrder");

NS_OBJECT_ENSURE_REGISTERED(TicTacTensorOrder);

TypeId
TicTacTensorOrder::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TicTacTensorOrder")
            .SetParent<TensorOrderPolicy>()
            .SetGroupName("Mlnet")
            .AddConstructor<TicTacTensorOrder>()
            .AddAttribute(
                "Mode",
                "TIC (DAG order only) or TAC (timing-aware)",
                EnumValue(TicTacTensorOrder::TIC),
                MakeEnumMemberAccessor(&TicTacTensorOrder::m_mode),
                MakeEnumChecker(TicTacTensorOrder::TIC, "TIC", TicTacTensorOrder::TAC, "TAC"))
            .AddAttribute("Bandwidth",
                          "Transfer rate TAC assumes to estimate transfer times, in bytes/s",
                          DoubleValue(12.5e9),
                          MakeDoubleAccessor(&TicTacTensorOrder::m_bandwidth),
                          MakeDoubleChecker<double>(1.0))
            .AddAttribute("OutstandingTransfers",
                          "Transfers a sender keeps in flight per channel (sender to receiver), "
                          "started in plan order among the ready ones (1..1024; TicTac's "
                          "enforcement activates one transfer at a time in its order)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TicTacTensorOrder::m_outstanding),
                          MakeUintegerChecker<uint32_t>(1, 1024));
    return tid;
}

TicTacTensorOrder::TicTacTensorOrder()
    : m_mode(TIC),
      m_bandwidth(12.5e9),
      m_outstanding(1)
{
    NS_LOG_FUNCTION(this);
}

uint32_t
TicTacTensorOrder::GetOutstandingPerChannel() const
{
    return m_outstanding;
}

std::string
TicTacTensorOrder::GetName() const
{
    return m_mode == TIC ? "TicTac-TIC" : "TicTac-TAC";
}

TicTacTensorOrder::Mode
TicTacTensorOrder::GetMode() const
{
    return m_mode;
}

void
TicTacTensorOrder::SetMode(Mode mode)
{
    NS_LOG_FUNCTION(this);
    if (mode != TIC && mode != TAC)
    {
        throw std::invalid_argument("Mode is out of range (must be TIC or TAC)");
    }
    m_mode = mode;
}

double
TicTacTensorOrder::GetBandwidth() const
{
    return m_bandwidth;
}

void
TicTacTensorOrder::SetBandwidth(double bytesPerSecond)
{
    NS_LOG_FUNCTION(this << bytesPerSecond);
    if (!(bytesPerSecond >= 1.0) || !std::isfinite(bytesPerSecond))
    {
        throw std::invalid_argument("Bandwidth = " + std::to_string(bytesPerSecond) +
                                    " is out of range (must be >= 1 byte/s)");
    }
    m_bandwidth = bytesPerSecond;
}

std::vector<TransferSlice>
TicTacTensorOrder::DoPlan(const std::vector<GradientTensor>& tensors) const
{
    NS_LOG_FUNCTION(this);
    std::vector<TransferSlice> plan;
    if (m_mode == TIC)
    {
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
            auto s = Slice(tensors[i], 0, ranks[i]);
            plan.insert(plan.end(), s.begin(), s.end());
        }
        return plan;
    }

    // TAC
    const double bytesPerParam = GetBytesPerParameter();
    std::vector<double> comm(tensors.size());
    for (std::size_t i = 0; i < tensors.size(); ++i)
    {
        comm[i] = static_cast<double>(tensors[i].parameters) * bytesPerParam / m_bandwidth;
    }
    std::vector<char> done(tensors.size(), 0);
    auto johnsonBefore = [&](std::size_t a, std::size_t b) {
        const double lhs = std::min(comm[a], tensors[b].consumerComputeTime);
        const double rhs = std::min(comm[b], tensors[a].consumerComputeTime);
        if (lhs != rhs)
        {
            return lhs < rhs;
        }
        if (tensors[a].layerIndex != tensors[b].layerIndex)
        {
            return tensors[a].layerIndex < tensors[b].layerIndex;
        }
        return tensors[a].id < tensors[b].id;
    };
    for (uint32_t pos = 0; pos < tensors.size(); ++pos)
    {
        std::size_t best = tensors.size();
        double bestMplus = 0;
        for (std::size_t r = 0; r < tensors.size(); ++r)
        {
            if (done[r])
            {
                continue;
            }
            double mplus = 0;
            for (std::size_t q = 0; q < tensors.size(); ++q)
            {
                if (!done[q] && tensors[q].consumedAt <= tensors[r].consumedAt)
                {
                    mplus += comm[q];
                }
            }
            if (best == tensors.size() || mplus < bestMplus ||
                (mplus == bestMplus && johnsonBefore(r, best)))
            {
                best = r;
                bestMplus = mplus;
            }
        }
        done[best] = 1;
        auto s = Slice(tensors[best], 0, pos);
        plan.insert(plan.end(), s.begin(), s.end());
    }
    return plan;
}

} // namespace ns3
