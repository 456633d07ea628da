/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_SHARED_BUFFER_MMU_H
#define MLNET_SHARED_BUFFER_MMU_H

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Static configuration of a switch's shared-buffer memory management unit.
 */
struct MmuConfig
{
    uint64_t bufferBytes{32u * 1024 * 1024}; //!< total packet buffer (bytes)
    uint32_t reserveBytes{4096};             //!< guaranteed ingress bytes per (port, class)
    bool pfcEnabled{true};                   //!< PFC on the lossless classes
    uint8_t losslessMask{0xff};     //!< bit c set: class c is lossless (paused, not dropped)
    double pfcAlpha{0.125};         //!< dynamic threshold: Xoff = alpha x free shared buffer
    uint32_t pfcResumeOffset{3076}; //!< hysteresis: resume when this far below Xoff (bytes)
    double egressAlpha{1.0};        //!< lossy classes: egress queue limit = alpha x free shared
};

/**
 * \ingroup mlnet
 * \brief Shared-buffer MMU of an output-queued switch: ingress accounting with per-queue reserve,
 * a dynamically thresholded shared pool and PFC headroom; egress accounting for lossy classes.
 *
 * Pure bookkeeping with no simulator dependency: the switch asks Admit() for every arriving
 * packet, then reports Enqueue()/Dequeue(), and asks NeedPause()/CanResume() for PFC.
 *
 * Ingress queue (p, c) first uses its reserve, then the shared pool while its shared usage stays
 * under the dynamic threshold alpha x (shared pool - shared used) (Choudhury & Hahne), then, for a
 * lossless class, its headroom, which absorbs what is in flight after the pause is sent. A lossy
 * class drops at the egress dynamic threshold or when the shared pool is exhausted.
 */
class SharedBufferMmu
{
  public:
    /// Result of admission: where the bytes are accounted, or why the packet is dropped.
    enum class Verdict : uint8_t
    {
        Reserve,      //!< admitted in the queue's reserve
        Shared,       //!< admitted in the shared pool
        Headroom,     //!< admitted in PFC headroom (a pause is due)
        DropHeadroom, //!< lossless class, headroom exhausted (headroom too small)
        DropEgress,   //!< lossy class, egress queue over its dynamic threshold
        DropBuffer,   //!< lossy class, shared pool exhausted
    };

    /// \return true if the verdict admits the packet
    static bool Admitted(Verdict v)
    {
        return v == Verdict::Reserve || v == Verdict::Shared || v == Verdict::Headroom;
    }

    /// \return a stable, grep-able name of a drop reason ("HeadroomExhausted", ...)
    static const char* ReasonName(Verdict v);

    /**
     * (Re)configure for a number of ports; clears all accounting.
     * \param nPorts number of ports
     * \param cfg configuration
     * \param headroomPerPort PFC headroom per lossless (port, class), in bytes, one per port
     * \throws std::invalid_argument if the reserves and headroom do not fit in the buffer
     */
    void Configure(uint32_t nPorts,
                   const MmuConfig& cfg,
                   const std::vector<uint32_t>& headroomPerPort);

    /**
     * Decide whether a packet may be buffered.
     * \param in ingress port \param out egress port \param cls class \param size bytes
     * \return the verdict (nothing is accounted yet)
     */
    Verdict Admit(uint32_t in, uint32_t out, uint8_t cls, uint32_t size) const;
    /// Account an admitted packet (verdict from Admit()).
    void Enqueue(uint32_t in, uint32_t out, uint8_t cls, uint32_t size, Verdict v);
    /**
     * Admit() and, if admitted, Enqueue(): a switch's arriving packet in one call (the two
     * inlined together, sharing their reads).
     * \param in ingress port \param out egress port \param cls class \param size bytes
     * \return the verdict
     */
    Verdict AdmitAndEnqueue(uint32_t in, uint32_t out, uint8_t cls, uint32_t size);
    /// Release a packet leaving the switch.
    void Dequeue(uint32_t in, uint32_t out, uint8_t cls, uint32_t size);

    /// \return true if ingress queue (in, cls) is over its Xoff threshold or in headroom
    bool NeedPause(uint32_t in, uint8_t cls) const;
    /// \return true if ingress queue (in, cls) is back under Xon (Xoff - resume offset)
    bool CanResume(uint32_t in, uint8_t cls) const;

    /// \return true if class cls is lossless (PFC on and class in the lossless mask)
    bool IsLossless(uint8_t cls) const
    {
        return m_cfg.pfcEnabled && ((m_cfg.losslessMask >> cls) & 1u);
    }

    uint64_t EgressBytes(uint32_t out, uint8_t cls) const; //!< \return bytes queued at egress

    /// \return bytes queued at egress port out, all classes
    uint64_t EgressPortBytes(uint32_t out) const
    {
        return m_portEgress[out].now;
    }

    /// \return the most bytes queued at egress port out (all classes) at any time
    uint64_t MaxEgressPortBytes(uint32_t out) const
    {
        return m_portEgress[out].max;
    }

    uint64_t IngressBytes(uint32_t in, uint8_t cls) const; //!< \return ingress bytes incl. headroom
    uint64_t HeadroomBytes(uint32_t in, uint8_t cls) const; //!< \return headroom bytes used
    uint64_t SharedUsed() const; //!< \return bytes used in the shared pool
    uint64_t SharedPool() const; //!< \return size of the shared pool
    uint64_t TotalUsed() const;  //!< \return all buffered bytes

    /// \return current Xoff threshold on shared usage (bytes)
    double PauseThreshold() const
    {
        return m_cfg.pfcAlpha * double(m_sharedPool - m_sharedUsed);
    }

    const MmuConfig& Config() const //!< \return the configuration
    {
        return m_cfg;
    }

  private:
    /// An ingress (port, class): 16 bytes, so that one never straddles two cache lines.
    struct Queue
    {
        uint64_t ingress{0};  //!< bytes in reserve + shared
        uint64_t headroom{0}; //!< bytes in headroom
    };

    uint64_t SharedOf(const Queue& q) const
    {
        return q.ingress > m_cfg.reserveBytes ? q.ingress - m_cfg.reserveBytes : 0;
    }

    Queue& At(uint32_t port, uint8_t cls)
    {
        return m_queues[port * 8u + cls];
    }

    const Queue& At(uint32_t port, uint8_t cls) const
    {
        return m_queues[port * 8u + cls];
    }

    /**
     * Egress bytes of a port: all classes (now and the most ever) and per class. Aligned, so
     * that a frame's egress accounting (its class and the port's total) is one cache line for
     * classes 0-5 (two for 6-7) instead of one for the class and one for the port.
     */
    struct alignas(64) PortEgress
    {
        uint64_t now{0};                       //!< queued now, all classes
        uint64_t max{0};                       //!< the most queued at any time, all classes
        std::array<uint64_t, 8> perClass{{0}}; //!< queued now, per class
    };

    // What a frame's admission and accounting read, together (two cache lines of the switch:
    // the scalars and the configuration fill the first, the arrays start the second).
    uint64_t m_sharedPool{0};
    uint64_t m_sharedUsed{0};
    uint64_t m_total{0};
    MmuConfig m_cfg;
    std::vector<Queue> m_queues;
    std::vector<PortEgress> m_portEgress; //!< per port
    std::vector<uint32_t> m_headroomCap;
};

// Inline: a switch's AdmitAndEnqueue() runs them once per packet, sharing their reads.

inline SharedBufferMmu::Verdict
SharedBufferMmu::Admit(uint32_t in, uint32_t out, uint8_t cls, uint32_t size) const
{
    const Queue& iq = At(in, cls);
    uint64_t after = iq.ingress + size;
    uint64_t sharedDelta =
        (after > m_cfg.reserveBytes ? after - m_cfg.reserveBytes : 0) - SharedOf(iq);
    if (IsLossless(cls))
    {
        if (iq.headroom == 0)
        {
            if (after <= m_cfg.reserveBytes)
            {
                return Verdict::Reserve;
            }
            if (double(after - m_cfg.reserveBytes) <= PauseThreshold() &&
                m_sharedUsed + sharedDelta <= m_sharedPool)
            {
                return Verdict::Shared;
            }
        }
        return iq.headroom + size <= m_headroomCap[in] ? Verdict::Headroom : Verdict::DropHeadroom;
    }
    double egressLimit =
        m_cfg.reserveBytes + m_cfg.egressAlpha * double(m_sharedPool - m_sharedUsed);
    if (double(m_portEgress[out].perClass[cls] + size) > egressLimit)
    {
        return Verdict::DropEgress;
    }
    if (m_sharedUsed + sharedDelta > m_sharedPool)
    {
        return Verdict::DropBuffer;
    }
    return sharedDelta == 0 ? Verdict::Reserve : Verdict::Shared;
}

inline void
SharedBufferMmu::Enqueue(uint32_t in, uint32_t out, uint8_t cls, uint32_t size, Verdict v)
{
    Queue& iq = At(in, cls);
    if (v == Verdict::Headroom)
    {
        iq.headroom += size;
    }
    else
    {
        uint64_t before = SharedOf(iq);
        iq.ingress += size;
        m_sharedUsed += SharedOf(iq) - before;
    }
    PortEgress& pb = m_portEgress[out];
    pb.perClass[cls] += size;
    pb.now += size;
    pb.max = std::max(pb.max, pb.now);
    m_total += size;
}

} // namespace ns3

#endif /* MLNET_SHARED_BUFFER_MMU_H */
