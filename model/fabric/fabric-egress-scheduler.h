/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FABRIC_EGRESS_SCHEDULER_H
#define MLNET_FABRIC_EGRESS_SCHEDULER_H

#include "fabric-frame.h"
#include "flow-key.h"

#include "ns3/ring-queue.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The egress queues of a fabric port and the discipline that serves them: one FIFO per
 * priority class, served by strict priority (the highest class that holds frames and is not
 * paused) or by deficit weighted round robin (DWRR: each class in turn, a quantum of bytes per
 * round). FabricNetDevice owns one, as an ns-3 device owns its queue disc; the device keeps the
 * mask of classes that hold frames (it reads it for every frame, with the rest of its transmit
 * state), the PFC control queue and the discipline (its Scheduler attribute), and passes them in.
 */
class FabricEgressScheduler
{
  public:
    static constexpr uint8_t kNumClasses = 8; //!< priority classes

    /**
     * A queued frame with its meta word and, if known, its parsed headers (48 bytes).
     */
    struct KeyedFrame
    {
        /// \param f the frame (moved from) \param w its word \param k its key, or null
        KeyedFrame(FabricFrame&& f, uint32_t w, const FlowKey* k)
            : frame(std::move(f)),
              word(w),
              hasKey(k != nullptr)
        {
            if (k)
            {
                key = *k;
            }
        }

        /// \return the key, or null if none was carried
        FlowKey* Key()
        {
            return hasKey ? &key : nullptr;
        }

        FabricFrame frame;
        uint32_t word{0};   //!< the meta word
        bool hasKey{false}; //!< key is valid
        FlowKey key;        //!< parsed headers (for the port handler)
    };

    /**
     * Append a frame to a class queue.
     * \param cls the class \param f the frame, moved into the queue (left empty)
     * \param meta its meta word \param key its key, or null
     * \return the queued entry
     */
    KeyedFrame& Push(uint8_t cls, FabricFrame& f, uint32_t meta, const FlowKey* key)
    {
        ClassQueue& cq = m_queues[cls];
        cq.bytes += f.GetSize(); // from the frame, not read back from the ring's (cold) slot
        cq.maxBytes = std::max(cq.maxBytes, cq.bytes);
        return cq.q.EmplaceBack(std::move(f), meta, key);
    }

    /**
     * Take the oldest frame of a class (which must hold one).
     * \param cls the class \return the frame
     */
    KeyedFrame Pop(uint8_t cls)
    {
        ClassQueue& cq = m_queues[cls];
        KeyedFrame e = std::move(cq.q.Front());
        cq.q.PopFront();
        cq.bytes -= e.frame.GetSize();
        return e;
    }

    /// \param cls the class \return true if it holds no frame
    bool IsEmpty(uint8_t cls) const
    {
        return m_queues[cls].q.Empty();
    }

    /// \param cls the class \return bytes queued in it
    uint64_t GetBytes(uint8_t cls) const
    {
        return m_queues[cls].bytes;
    }

    /// \param cls the class \return the most bytes it ever held (GetBytes' largest value)
    uint64_t GetMaxBytes(uint8_t cls) const
    {
        return m_queues[cls].maxBytes;
    }

    /**
     * The class to serve next.
     * \param ready the classes that hold frames and are not paused (bit c: class c)
     * \param pausedMask the classes paused by the peer
     * \param dwrr true: deficit weighted round robin; false: strict priority
     * \return the class, or -1 if none is ready
     */
    int Select(uint32_t ready, uint8_t pausedMask, bool dwrr)
    {
        if (ready == 0)
        {
            return -1;
        }
        if (!dwrr)
        {
            return 31 - __builtin_clz(ready); // the highest class with frames, not paused
        }
        return SelectDwrr(pausedMask);
    }

    /// Drop every queued frame (the device is disposed).
    void Clear();

    /// \param bytes the DWRR quantum per class and round
    void SetQuantum(uint32_t bytes)
    {
        m_dwrrQuantum = bytes;
    }

    /// \return the DWRR quantum per class and round (bytes)
    uint32_t GetQuantum() const
    {
        return m_dwrrQuantum;
    }

  private:
    /// One class: its frames, their bytes, its DWRR deficit.
    struct ClassQueue
    {
        RingQueue<KeyedFrame> q;
        uint64_t bytes{0};
        int64_t deficit{0};
        uint64_t maxBytes{0}; //!< the most bytes queued at any time
    };

    /**
     * Deficit round robin: serve the current class while its deficit covers its head frame,
     * then move on and credit the next eligible class one quantum.
     * \param pausedMask the classes paused by the peer \return the class (one is ready)
     */
    int SelectDwrr(uint8_t pausedMask);

    std::array<ClassQueue, kNumClasses> m_queues;
    uint32_t m_dwrrQuantum{1600}; //!< bytes per class and round
    uint8_t m_dwrrNext{0};        //!< the class DWRR serves now
};

} // namespace ns3

#endif /* MLNET_FABRIC_EGRESS_SCHEDULER_H */
