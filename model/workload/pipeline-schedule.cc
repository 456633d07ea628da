/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pipeline-schedule.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ns3
{

PipelineOp
PipelineOp::Forward(uint32_t mb)
{
    return PipelineOp{FORWARD, mb};
}

PipelineOp
PipelineOp::Backward(uint32_t mb)
{
    return PipelineOp{BACKWARD, mb};
}

std::string
PipelineOp::ToString() const
{
    return (type == FORWARD ? "F" : "B") + std::to_string(microBatch);
}

bool
PipelineOp::operator==(const PipelineOp& o) const
{
    return type == o.type && microBatch == o.microBatch;
}

bool
PipelineOp::operator!=(const PipelineOp& o) const
{
    return !(*this == o);
}

namespace
{

void
CheckSizes(uint32_t stages, uint32_t microBatches)
{
    if (stages == 0)
    {
        throw std::invalid_argument("pipeline stages = 0 is out of range (must be >= 1)");
    }
    if (microBatches == 0)
    {
        throw std::invalid_argument("pipeline microBatches = 0 is out of range (must be >= 1)");
    }
}

} // namespace

PipelineSchedule::PipelineSchedule(std::vector<std::vector<PipelineOp>> stageOps,
                                   uint32_t microBatches)
    : m_ops(std::move(stageOps)),
      m_microBatches(microBatches)
{
    CheckSizes(static_cast<uint32_t>(m_ops.size()), microBatches);
}

PipelineSchedule
PipelineSchedule::Gpipe(uint32_t stages, uint32_t microBatches)
{
    CheckSizes(stages, microBatches);
    std::vector<std::vector<PipelineOp>> ops(stages);
    for (auto& list : ops)
    {
        for (uint32_t m = 0; m < microBatches; ++m)
        {
            list.push_back(PipelineOp::Forward(m));
        }
        for (uint32_t m = microBatches; m-- > 0;)
        {
            list.push_back(PipelineOp::Backward(m));
        }
    }
    return PipelineSchedule(std::move(ops), microBatches);
}

PipelineSchedule
PipelineSchedule::OneFOneB(uint32_t stages, uint32_t microBatches)
{
    CheckSizes(stages, microBatches);
    std::vector<std::vector<PipelineOp>> ops(stages);
    for (uint32_t s = 0; s < stages; ++s)
    {
        auto& list = ops[s];
        const uint32_t warmup = std::min(stages - s - 1, microBatches);
        uint32_t nextF = 0;
        uint32_t nextB = 0;
        for (; nextF < warmup; ++nextF)
        {
            list.push_back(PipelineOp::Forward(nextF));
        }
        while (nextF < microBatches)
        {
            list.push_back(PipelineOp::Forward(nextF++));
            list.push_back(PipelineOp::Backward(nextB++));
        }
        while (nextB < microBatches)
        {
            list.push_back(PipelineOp::Backward(nextB++));
        }
    }
    return PipelineSchedule(std::move(ops), microBatches);
}

uint32_t
PipelineSchedule::GetNStages() const
{
    return static_cast<uint32_t>(m_ops.size());
}

uint32_t
PipelineSchedule::GetNMicroBatches() const
{
    return m_microBatches;
}

const std::vector<PipelineOp>&
PipelineSchedule::GetOps(uint32_t stage) const
{
    if (stage >= m_ops.size())
    {
        throw std::invalid_argument("stage = " + std::to_string(stage) +
                                    " is out of range (must be in [0, " +
                                    std::to_string(m_ops.size()) + "))");
    }
    return m_ops[stage];
}

const std::vector<std::vector<PipelineOp>>&
PipelineSchedule::GetAllOps() const
{
    return m_ops;
}

uint32_t
PipelineSchedule::GetMaxInFlight(uint32_t stage) const
{
    int64_t inFlight = 0;
    int64_t maxInFlight = 0;
    for (const auto& op : GetOps(stage))
    {
        inFlight += op.type == PipelineOp::FORWARD ? 1 : -1;
        maxInFlight = std::max(maxInFlight, inFlight);
    }
    return static_cast<uint32_t>(maxInFlight);
}

std::string
PipelineSchedule::Check() const
{
    const uint32_t S = GetNStages();
    const uint32_t M = m_microBatches;
    for (uint32_t s = 0; s < S; ++s)
    {
        std::vector<int> fPos(M, -1);
        std::vector<int> bPos(M, -1);
        for (std::size_t i = 0; i < m_ops[s].size(); ++i)
        {
            const auto& op = m_ops[s][i];
            const std::string where = "stage " + std::to_string(s) + ", op " + std::to_string(i) +
                                      " (" + op.ToString() + ")";
            if (op.microBatch >= M)
            {
                return where + ": micro-batch out of range [0, " + std::to_string(M) + ")";
            }
            auto& pos = op.type == PipelineOp::FORWARD ? fPos : bPos;
            if (pos[op.microBatch] >= 0)
            {
                return where + ": duplicate op";
            }
            pos[op.microBatch] = static_cast<int>(i);
            if (op.type == PipelineOp::BACKWARD && fPos[op.microBatch] < 0)
            {
                return where + ": backward before the forward of the same micro-batch";
            }
        }
        for (uint32_t m = 0; m < M; ++m)
        {
            if (fPos[m] < 0 || bPos[m] < 0)
            {
                return "stage " + std::to_string(s) + ": missing " + (fPos[m] < 0 ? "F" : "B") +
                       std::to_string(m);
            }
        }
    }
    // Replay: advance any stage whose next op has its cross-stage dependency done.
    std::vector<std::vector<char>> fDone(S, std::vector<char>(M, 0));
    std::vector<std::vector<char>> bDone(S, std::vector<char>(M, 0));
    std::vector<std::size_t> next(S, 0);
    bool progress = true;
    while (progress)
    {
        progress = false;
        for (uint32_t s = 0; s < S; ++s)
        {
            while (next[s] < m_ops[s].size())
            {
                const auto& op = m_ops[s][next[s]];
                bool ready = op.type == PipelineOp::FORWARD
                                 ? (s == 0 || fDone[s - 1][op.microBatch])
                                 : (s + 1 == S || bDone[s + 1][op.microBatch]);
                if (!ready)
                {
                    break;
                }
                (op.type == PipelineOp::FORWARD ? fDone : bDone)[s][op.microBatch] = 1;
                ++next[s];
                progress = true;
            }
        }
    }
    for (uint32_t s = 0; s < S; ++s)
    {
        if (next[s] < m_ops[s].size())
        {
            return "deadlock: stage " + std::to_string(s) + " blocks at op " +
                   std::to_string(next[s]) + " (" + m_ops[s][next[s]].ToString() + ")";
        }
    }
    return "";
}

std::vector<std::vector<PipelineOpTiming>>
PipelineSchedule::Execute(double forwardTime, double backwardTime, double commTime) const
{
    auto nonNegative = [](double v, const char* name) {
        if (!(v >= 0.0) || !std::isfinite(v))
        {
            throw std::invalid_argument(std::string(name) + " = " + std::to_string(v) +
                                        " is out of range (must be >= 0 seconds)");
        }
    };
    nonNegative(forwardTime, "forwardTime");
    nonNegative(backwardTime, "backwardTime");
    nonNegative(commTime, "commTime");
    const std::string err = Check();
    if (!err.empty())
    {
        throw std::invalid_argument("invalid pipeline schedule: " + err);
    }
    const uint32_t S = GetNStages();
    const uint32_t M = m_microBatches;
    const double unset = -1.0;
    std::vector<std::vector<double>> fEnd(S, std::vector<double>(M, unset));
    std::vector<std::vector<double>> bEnd(S, std::vector<double>(M, unset));
    std::vector<std::vector<PipelineOpTiming>> out(S);
    std::vector<std::size_t> next(S, 0);
    std::vector<double> freeAt(S, 0.0);
    bool progress = true;
    while (progress)
    {
        progress = false;
        for (uint32_t s = 0; s < S; ++s)
        {
            while (next[s] < m_ops[s].size())
            {
                const auto& op = m_ops[s][next[s]];
                double depEnd = 0.0;
                if (op.type == PipelineOp::FORWARD && s > 0)
                {
                    depEnd = fEnd[s - 1][op.microBatch];
                    if (depEnd < 0)
                    {
                        break;
                    }
                    depEnd += commTime;
                }
                else if (op.type == PipelineOp::BACKWARD && s + 1 < S)
                {
                    depEnd = bEnd[s + 1][op.microBatch];
                    if (depEnd < 0)
                    {
                        break;
                    }
                    depEnd += commTime;
                }
                PipelineOpTiming t;
                t.op = op;
                t.start = std::max(freeAt[s], depEnd);
                t.end = t.start + (op.type == PipelineOp::FORWARD ? forwardTime : backwardTime);
                (op.type == PipelineOp::FORWARD ? fEnd : bEnd)[s][op.microBatch] = t.end;
                freeAt[s] = t.end;
                out[s].push_back(t);
                ++next[s];
                progress = true;
            }
        }
    }
    return out;
}

double
PipelineSchedule::GetMakespan(double forwardTime, double backwardTime, double commTime) const
{
    double end = 0.0;
    for (const auto& stage : Execute(forwardTime, backwardTime, commTime))
    {
        for (const auto& t : stage)
        {
            end = std::max(end, t.end);
        }
    }
    return end;
}

} // namespace ns3
