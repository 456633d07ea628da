/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "iotlb.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

namespace
{
/// The buffers of a pattern (CyclicMissesPerByte, InterleavedMissesPerByte): at least one of
/// at least one byte. \throws std::invalid_argument otherwise
void
CheckBuffers(const char* pattern, uint64_t buffers, uint64_t bufferBytes)
{
    if (buffers == 0 || bufferBytes == 0)
    {
        throw std::invalid_argument(std::string("Iotlb: ") + pattern +
                                    " pattern needs at least one buffer of at least one byte "
                                    "(got " +
                                    std::to_string(buffers) + " x " + std::to_string(bufferBytes) +
                                    ")");
    }
}
} // namespace

bool
Iotlb::IsPowerOfTwo(uint64_t v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

Iotlb::Iotlb(uint32_t entries, uint64_t pageBytes)
    : m_entries(entries),
      m_pageBytes(pageBytes),
      m_pageShift(0)
{
    if (entries == 0)
    {
        throw std::invalid_argument("Iotlb: entries must be at least 1 (got 0)");
    }
    if (!IsPowerOfTwo(pageBytes) || pageBytes < 4096)
    {
        throw std::invalid_argument("Iotlb: page size " + std::to_string(pageBytes) +
                                    " bytes must be a power of two of at least 4096 "
                                    "(4 KiB, or 2 MiB huge pages)");
    }
    while ((uint64_t(1) << m_pageShift) < pageBytes)
    {
        ++m_pageShift;
    }
    m_where.reserve(entries * 2);
}

uint64_t
Iotlb::CyclicWorkingSet(uint64_t pageBytes, uint64_t buffers, uint64_t bufferBytes)
{
    return buffers * ((bufferBytes + pageBytes - 1) / pageBytes);
}

double
Iotlb::CyclicMissesPerByte(uint32_t entries,
                           uint64_t pageBytes,
                           uint64_t buffers,
                           uint64_t bufferBytes)
{
    Iotlb check(entries, pageBytes); // the constructor's range checks
    CheckBuffers("cyclic", buffers, bufferBytes);
    if (CyclicWorkingSet(pageBytes, buffers, bufferBytes) <= entries)
    {
        return 0.0;
    }
    if (2 * buffers > entries)
    {
        throw std::invalid_argument("Iotlb: cyclic pattern of " + std::to_string(buffers) +
                                    " buffers: one miss per page needs 2 x buffers <= entries (" +
                                    std::to_string(entries) + ")");
    }
    return 1.0 / double(pageBytes);
}

double
Iotlb::InterleavedMissesPerByte(uint32_t entries,
                                uint64_t pageBytes,
                                uint64_t buffers,
                                uint64_t bufferBytes,
                                uint64_t writeBytes)
{
    Iotlb tlb(entries, pageBytes); // the constructor's range checks
    CheckBuffers("interleaved", buffers, bufferBytes);
    if (writeBytes == 0 || writeBytes > bufferBytes)
    {
        throw std::invalid_argument("Iotlb: write of " + std::to_string(writeBytes) +
                                    " bytes out of range [1, " + std::to_string(bufferBytes) +
                                    "] (the buffer)");
    }
    const uint64_t span = (bufferBytes + pageBytes - 1) / pageBytes * pageBytes;
    const uint64_t rounds = (bufferBytes + writeBytes - 1) / writeBytes; // one cycle
    // Counted: 8 cycles (each buffer's count is off by at most one page entered, 1/8 of a
    // cycle's pages at most, from the cycles' ends not falling on write boundaries).
    const uint64_t counted = 8 * rounds;
    std::vector<uint64_t> offset(buffers, 0);
    uint64_t misses = 0;
    for (uint64_t r = 0; r < rounds + counted; ++r)
    {
        if (r == rounds)
        {
            misses = tlb.GetMisses(); // warmed up by one cycle
        }
        for (uint64_t b = 0; b < buffers; ++b)
        {
            tlb.AccessCyclic(b * span, bufferBytes, offset[b], writeBytes);
        }
    }
    return double(tlb.GetMisses() - misses) / (double(counted) * buffers * writeBytes);
}

uint32_t
Iotlb::AccessCyclic(uint64_t base, uint64_t bufferBytes, uint64_t& offset, uint64_t bytes)
{
    const uint64_t first = std::min<uint64_t>(bytes, bufferBytes - offset);
    uint32_t misses = AccessRange(base + offset, first);
    misses += AccessRange(base, bytes - first); // wrapped around
    offset = (offset + bytes) % bufferBytes;
    return misses;
}

bool
Iotlb::Access(uint64_t address)
{
    uint64_t page = address >> m_pageShift;
    auto it = m_where.find(page);
    if (it != m_where.end())
    {
        m_lru.splice(m_lru.begin(), m_lru, it->second);
        ++m_hits;
        return true;
    }
    ++m_misses;
    if (m_lru.size() >= m_entries)
    {
        m_where.erase(m_lru.back());
        m_lru.pop_back();
    }
    m_lru.push_front(page);
    m_where[page] = m_lru.begin();
    return false;
}

uint32_t
Iotlb::AccessRange(uint64_t address, uint64_t bytes)
{
    if (bytes == 0)
    {
        return 0;
    }
    uint32_t misses = 0;
    uint64_t first = address >> m_pageShift;
    uint64_t last = (address + bytes - 1) >> m_pageShift;
    for (uint64_t p = first; p <= last; ++p)
    {
        misses += Access(p << m_pageShift) ? 0 : 1;
    }
    return misses;
}

uint64_t
Iotlb::GetHits() const
{
    return m_hits;
}

uint64_t
Iotlb::GetMisses() const
{
    return m_misses;
}

double
Iotlb::GetHitRate() const
{
    uint64_t n = m_hits + m_misses;
    return n == 0 ? 0.0 : double(m_hits) / double(n);
}

uint32_t
Iotlb::GetEntries() const
{
    return m_entries;
}

uint64_t
Iotlb::GetPageBytes() const
{
    return m_pageBytes;
}

uint32_t
Iotlb::GetSize() const
{
    return uint32_t(m_lru.size());
}

void
Iotlb::Reset()
{
    m_lru.clear();
    m_where.clear();
    m_hits = 0;
    m_misses = 0;
}

} // namespace ns3
