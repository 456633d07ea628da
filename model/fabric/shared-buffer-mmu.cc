/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "shared-buffer-mmu.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

const char*
SharedBufferMmu::ReasonName(Verdict v)
{
    switch (v)
    {
    case Verdict::Reserve:
        return "Reserve";
    case Verdict::Shared:
        return "Shared";
    case Verdict::Headroom:
        return "Headroom";
    case Verdict::DropHeadroom:
        return "HeadroomExhausted";
    case Verdict::DropEgress:
        return "EgressThreshold";
    case Verdict::DropBuffer:
        return "BufferFull";
    }
    return "Unknown";
}

void
SharedBufferMmu::Configure(uint32_t nPorts,
                           const MmuConfig& cfg,
                           const std::vector<uint32_t>& headroomPerPort)
{
    if (cfg.pfcAlpha <= 0 || cfg.egressAlpha <= 0)
    {
        throw std::invalid_argument("PfcAlpha and EgressAlpha must be > 0");
    }
    if (headroomPerPort.size() != nPorts)
    {
        throw std::invalid_argument("headroom list must have one entry per port");
    }
    m_cfg = cfg;
    m_queues.assign(size_t(nPorts) * 8, Queue{});
    m_headroomCap = headroomPerPort;
    m_portEgress.assign(nPorts, PortEgress{});
    uint64_t fixed = uint64_t(nPorts) * 8 * cfg.reserveBytes;
    if (cfg.pfcEnabled)
    {
        int lossless = __builtin_popcount(cfg.losslessMask);
        for (uint32_t h : headroomPerPort)
        {
            fixed += uint64_t(h) * lossless;
        }
    }
    if (fixed >= cfg.bufferBytes)
    {
        throw std::invalid_argument(
            "BufferSize (" + std::to_string(cfg.bufferBytes) +
            " B) must exceed the per-queue reserves plus PFC headroom of all ports (" +
            std::to_string(fixed) + " B)");
    }
    m_sharedPool = cfg.bufferBytes - fixed;
    m_sharedUsed = 0;
    m_total = 0;
}

SharedBufferMmu::Verdict
SharedBufferMmu::AdmitAndEnqueue(uint32_t in, uint32_t out, uint8_t cls, uint32_t size)
{
    const Verdict v = Admit(in, out, cls, size);
    if (Admitted(v))
    {
        Enqueue(in, out, cls, size, v);
    }
    return v;
}

void
SharedBufferMmu::Dequeue(uint32_t in, uint32_t out, uint8_t cls, uint32_t size)
{
    Queue& iq = At(in, cls);
    // Headroom drains first: it holds the most recent arrivals' share of the queue's bytes.
    uint64_t fromHeadroom = std::min<uint64_t>(iq.headroom, size);
    iq.headroom -= fromHeadroom;
    uint64_t rest = size - fromHeadroom;
    uint64_t before = SharedOf(iq);
    iq.ingress -= std::min<uint64_t>(iq.ingress, rest);
    m_sharedUsed -= before - SharedOf(iq);
    PortEgress& pb = m_portEgress[out];
    pb.perClass[cls] -= std::min<uint64_t>(pb.perClass[cls], size);
    pb.now -= std::min<uint64_t>(pb.now, size);
    m_total -= std::min<uint64_t>(m_total, size);
}

bool
SharedBufferMmu::NeedPause(uint32_t in, uint8_t cls) const
{
    if (!IsLossless(cls))
    {
        return false;
    }
    const Queue& iq = At(in, cls);
    return iq.headroom > 0 || double(SharedOf(iq)) > PauseThreshold();
}

bool
SharedBufferMmu::CanResume(uint32_t in, uint8_t cls) const
{
    const Queue& iq = At(in, cls);
    if (iq.headroom > 0)
    {
        return false;
    }
    uint64_t shared = SharedOf(iq);
    return shared == 0 || double(shared + m_cfg.pfcResumeOffset) <= PauseThreshold();
}

uint64_t
SharedBufferMmu::EgressBytes(uint32_t out, uint8_t cls) const
{
    return m_portEgress[out].perClass[cls];
}

uint64_t
SharedBufferMmu::IngressBytes(uint32_t in, uint8_t cls) const
{
    return At(in, cls).ingress + At(in, cls).headroom;
}

uint64_t
SharedBufferMmu::HeadroomBytes(uint32_t in, uint8_t cls) const
{
    return At(in, cls).headroom;
}

uint64_t
SharedBufferMmu::SharedUsed() const
{
    return m_sharedUsed;
}

uint64_t
SharedBufferMmu::SharedPool() const
{
    return m_sharedPool;
}

uint64_t
SharedBufferMmu::TotalUsed() const
{
    return m_total;
}

} // namespace ns3
