/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "wire-arena.h"

#include "ns3/log.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WireArena");

namespace
{
/// Live records skipped in a row before the ring is replaced by a larger one.
constexpr int kMaxSkips = 4;
/// The largest ring (4 GB of records): beyond it, frames on wires are not the problem.
constexpr std::size_t kMaxRecords = std::size_t(1) << 26;
} // namespace

WireArena::WireArena(std::size_t records)
{
    if (records < 2 || records > kMaxRecords || (records & (records - 1)) != 0)
    {
        throw std::invalid_argument("WireArena: records must be a power of two in [2, 2^26], got " +
                                    std::to_string(records));
    }
    m_rings.emplace_back(new WireRecord[records]);
    m_ring = m_rings.back().get();
    m_mask = records - 1;
}

WireRecord*
WireArena::AllocateSlow()
{
    for (int i = 0; i < kMaxSkips; ++i)
    {
        m_pos = (m_pos + 1) & m_mask;
        WireRecord* r = m_ring + m_pos;
        if (!r->live)
        {
            m_pos = (m_pos + 1) & m_mask;
            r->live = true;
            return r;
        }
    }
    // The ring is nearly full of frames on wires: a new one, twice as large (the old one's
    // records stay where they are until freed, and it stays allocated).
    const std::size_t size = 2 * (m_mask + 1);
    if (size > kMaxRecords)
    {
        throw std::length_error("WireArena: more than 2^26 frames on wires");
    }
    NS_LOG_LOGIC("wire records: ring of " << size);
    m_rings.emplace_back(new WireRecord[size]);
    m_ring = m_rings.back().get();
    m_mask = size - 1;
    m_pos = 1;
    m_ring[0].live = true;
    return m_ring;
}

std::size_t
WireArena::Capacity() const
{
    return m_mask + 1;
}

WireArena* WireArena::s_arena = nullptr;
std::size_t WireArena::s_users = 0;

void
WireArena::AddUser()
{
    if (s_users++ == 0 && !s_arena)
    {
        s_arena = new WireArena();
    }
}

void
WireArena::RemoveUser()
{
    NS_ASSERT_MSG(s_users > 0, "WireArena::RemoveUser without AddUser");
    if (--s_users == 0)
    {
        // No device holds a frame on a wire any more: every record is free (their frames were
        // moved out or dropped, WireArena::Free), so the rings go with the simulation.
        delete s_arena;
        s_arena = nullptr;
    }
}

bool
WireArena::Exists()
{
    return s_arena != nullptr;
}

} // namespace ns3
