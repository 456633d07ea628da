/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_RING_QUEUE_H
#define MLNET_RING_QUEUE_H

#include <cstdint>
#include <memory>
#include <utility>

namespace ns3
{

/**
 * \ingroup mlnet
 * A FIFO of movable elements in a power-of-two ring that grows (doubling) when full and never
 * shrinks, so that it holds about the most elements ever queued and a push or a pop is an
 * index step with no allocation. The queues of a net device (its class queues and the frames
 * on the wire towards it) are touched on every packet-hop: this object is 24 bytes (a
 * std::deque is 80, boost::circular_buffer 40 and of fixed capacity), so a device's per-frame
 * state fits in a few cache lines (doc/performance.rst, step 18).
 */
template<class T>
class RingQueue
{
  public:
    RingQueue() = default;
    RingQueue(const RingQueue&) = delete;
    RingQueue& operator=(const RingQueue&) = delete;

    /// \return true if the queue holds nothing
    bool Empty() const
    {
        return m_count == 0;
    }

    /// \return the number of elements queued
    uint32_t Size() const
    {
        return m_count;
    }

    /// \return the oldest element (the queue must not be empty)
    T& Front()
    {
        return m_buf[m_head];
    }

    /// \return the oldest element (the queue must not be empty)
    const T& Front() const
    {
        return m_buf[m_head];
    }

    /// \return a new default-constructed-then-assigned slot at the back, to fill in place
    T& PushBack()
    {
        if (m_count > m_mask || !m_buf)
        {
            Grow();
        }
        T& slot = m_buf[(m_head + m_count) & m_mask];
        ++m_count;
        return slot;
    }

    /// Remove the oldest element; its slot is reset to T() (releasing what it held).
    void PopFront()
    {
        m_buf[m_head] = T();
        m_head = (m_head + 1) & m_mask;
        --m_count;
    }

    /// Remove every element (the capacity stays).
    void Clear()
    {
        while (m_count > 0)
        {
            PopFront();
        }
        m_head = 0;
    }

  private:
    /// Double the capacity (8 at first), keeping the order.
    void Grow()
    {
        const uint32_t cap = m_buf ? 2 * (m_mask + 1) : 8;
        std::unique_ptr<T[]> ring(new T[cap]);
        for (uint32_t i = 0; i < m_count; ++i)
        {
            ring[i] = std::move(m_buf[(m_head + i) & m_mask]);
        }
        m_buf = std::move(ring);
        m_head = 0;
        m_mask = cap - 1;
    }

    std::unique_ptr<T[]> m_buf; //!< the ring, m_mask + 1 slots
    uint32_t m_head{0};         //!< slot of the oldest element
    uint32_t m_count{0};        //!< elements queued
    uint32_t m_mask{0};         //!< capacity - 1
};

} // namespace ns3

#endif /* MLNET_RING_QUEUE_H */
