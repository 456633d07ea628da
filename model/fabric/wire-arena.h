/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_WIRE_ARENA_H
#define MLNET_WIRE_ARENA_H

#include "fabric-frame.h"
#include "flow-key.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * A frame on a wire, from the moment its transmission starts to its arrival at the far end:
 * one cache line, in a WireArena, chained to the next frame on the same wire.
 */
struct alignas(64) WireRecord
{
    FabricFrame frame;         //!< the frame
    uint16_t etherType{0};     //!< its EtherType
    bool hasKey{false};        //!< key is valid
    bool live{false};          //!< allocated (on a wire)
    FlowKey key;               //!< parsed headers (for the far end's port handler)
    WireRecord* next{nullptr}; //!< the next frame on the same wire, or null
};

/**
 * \ingroup mlnet
 * \brief Where the frames on every wire of a simulation are kept: records handed out in the
 * order transmissions start, in one ring of cache lines.
 *
 * A frame is written when its transmission starts and read a link delay later, when it
 * arrives; by then thousands of events have run. Kept per receiving device (a ring per port),
 * the frames of a large fabric are scattered over hundreds of rings and each arrival's read is
 * a cache miss. Here they are written one after the other, and arrive nearly in the order they
 * were written (the delays of a fabric's links are alike): both are sequential streams, which
 * the processor's prefetcher follows.
 *
 * Allocate() takes the next record of the ring; a record still on a wire (a slow link) is
 * skipped, and after a few in a row the ring is replaced by one twice the size (records on the
 * old one stay valid until freed; the old ring is kept). Free() marks a record free; its frame
 * must have been moved out.
 */
class WireArena
{
  public:
    /// \param records the ring's initial size (a power of two)
    explicit WireArena(std::size_t records = 4096);
    WireArena(const WireArena&) = delete;
    WireArena& operator=(const WireArena&) = delete;

    /// \return a free record, marked live: its frame empty and its next null (Free() left
    ///         them so), its other fields as its last user left them
    WireRecord* Allocate()
    {
        WireRecord* r = m_ring + m_pos;
        if (r->live)
        {
            return AllocateSlow();
        }
        m_pos = (m_pos + 1) & m_mask;
        r->live = true;
        return r;
    }

    /// \param r a record from Allocate(), its frame moved out
    static void Free(WireRecord* r)
    {
        r->live = false;
        r->next = nullptr;
    }

    /// \return the records of the current ring
    std::size_t Capacity() const;

    /**
     * \return the simulation's arena: exists from the first AddUser() until the last user
     *         leaves (RemoveUser())
     */
    static WireArena& Get()
    {
        return *s_arena;
    }

    /// A device that puts frames on wires exists: the arena is created for the first one.
    static void AddUser();

    /**
     * A device has dropped the frames on its wire (disposed, at Simulator::Destroy() for every
     * node's devices): the last one frees the arena, whose records are all free by then.
     */
    static void RemoveUser();

    /// \return true while the process-wide arena exists (between AddUser() and the last
    ///         RemoveUser())
    static bool Exists();

  private:
    /// Allocate() met a live record: skip a few, else grow. \return a free record
    WireRecord* AllocateSlow();

    std::vector<std::unique_ptr<WireRecord[]>> m_rings; //!< every ring, the current one last
    WireRecord* m_ring{nullptr};                        //!< the current ring
    std::size_t m_mask{0};                              //!< its size - 1
    std::size_t m_pos{0};                               //!< the next record to hand out

    static WireArena* s_arena;  //!< the process-wide arena (Get()), or null
    static std::size_t s_users; //!< AddUser() calls not yet matched by RemoveUser()
};

} // namespace ns3

#endif /* MLNET_WIRE_ARENA_H */
