/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_RING_QUEUE_H
#define MLNET_RING_QUEUE_H

#include <cstdint>
#include <memory>
#include <new>
#include <utility>

namespace ns3
{

/**
 * \ingroup mlnet
 * A FIFO of movable elements in a power-of-two ring of raw slots that grows (doubling) when
 * full and never shrinks, so that it holds about the most elements ever queued and a push or a
 * pop is an index step with no allocation. The queues of a net device (its class queues and the
 * frames on the wire towards it) are touched on every packet-hop: this object is 24 bytes (a
 * std::deque is 80, boost::circular_buffer 40 and of fixed capacity), so a device's per-frame
 * state fits in a few cache lines; and a slot is raw storage until an element is constructed in
 * it, which only stores (assigning to a live slot would first load it: a cache miss, on a queue
 * touched next only when its frame is due). doc/performance.rst, step 18.
 */
template <class T>
class RingQueue
{
  public:
    RingQueue() = default;
    RingQueue(const RingQueue&) = delete;
    RingQueue& operator=(const RingQueue&) = delete;

    ~RingQueue()
    {
        Clear();
    }

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
        return *Slot(m_head);
    }

    /// \return the oldest element (the queue must not be empty)
    const T& Front() const
    {
        return *Slot(m_head);
    }

    /**
     * Construct an element at the back.
     * \param args the constructor's arguments
     * \return the new element
     */
    template <class... Args>
    T& EmplaceBack(Args&&... args)
    {
        if (m_count > m_mask || !m_buf)
        {
            Grow();
        }
        T* slot = new (Raw((m_head + m_count) & m_mask)) T(std::forward<Args>(args)...);
        ++m_count;
        return *slot;
    }

    /// Destroy the oldest element (the queue must not be empty).
    void PopFront()
    {
        Slot(m_head)->~T();
        m_head = (m_head + 1) & m_mask;
        --m_count;
    }

    /// Destroy every element (the capacity stays).
    void Clear()
    {
        while (m_count > 0)
        {
            PopFront();
        }
        m_head = 0;
    }

  private:
    /// Raw storage for one element.
    struct Storage
    {
        alignas(T) unsigned char bytes[sizeof(T)];
    };

    /// \param i a slot index \return its storage
    void* Raw(uint32_t i) const
    {
        return m_buf[i].bytes;
    }

    /// \param i the index of a slot holding an element \return the element
    T* Slot(uint32_t i) const
    {
        return std::launder(reinterpret_cast<T*>(m_buf[i].bytes));
    }

    /// Double the capacity (8 at first), keeping the order.
    void Grow()
    {
        const uint32_t cap = m_buf ? 2 * (m_mask + 1) : 8;
        std::unique_ptr<Storage[]> ring(new Storage[cap]);
        for (uint32_t i = 0; i < m_count; ++i)
        {
            T* from = Slot((m_head + i) & m_mask);
            new (ring[i].bytes) T(std::move(*from));
            from->~T();
        }
        m_buf = std::move(ring);
        m_head = 0;
        m_mask = cap - 1;
    }

    std::unique_ptr<Storage[]> m_buf; //!< the ring, m_mask + 1 slots
    uint32_t m_head{0};               //!< slot of the oldest element
    uint32_t m_count{0};              //!< elements queued
    uint32_t m_mask{0};               //!< capacity - 1
};

} // namespace ns3

#endif /* MLNET_RING_QUEUE_H */
