/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_IOTLB_H
#define MLNET_IOTLB_H

#include <cstdint>
#include <list>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The IOMMU's I/O translation lookaside buffer: a fully associative LRU cache of page
 * translations (pure model, no simulator).
 *
 * Every DMA of the NIC to an I/O virtual address looks up the page of that address; a miss
 * costs a page-table walk (HostPathTiming) and installs the translation, evicting the least
 * recently used one. With a cyclic access pattern over W pages and E entries, LRU keeps every
 * page after the W compulsory misses when W <= E, and misses every access when W > E (each
 * page was evicted E accesses after its last use, before it comes round again after W).
 */
class Iotlb
{
  public:
    /**
     * \param entries translations held (>= 1)
     * \param pageBytes page size: a power of two, 4 KiB or larger (4096 and 2 MiB are the
     *        x86 sizes the IOMMU maps)
     * \throws std::invalid_argument naming the parameter and the accepted range
     */
    Iotlb(uint32_t entries, uint64_t pageBytes);

    /**
     * Translate one I/O virtual address.
     * \param address the address
     * \return true on a hit
     */
    bool Access(uint64_t address);
    /**
     * Translate every page of the range [address, address + bytes).
     * \param address first byte \param bytes length (0: no page)
     * \return number of misses
     */
    uint32_t AccessRange(uint64_t address, uint64_t bytes);

    uint64_t GetHits() const;      //!< \return lookups that hit
    uint64_t GetMisses() const;    //!< \return lookups that missed
    double GetHitRate() const;     //!< \return hits / lookups (0 before any lookup)
    uint32_t GetEntries() const;   //!< \return capacity
    uint64_t GetPageBytes() const; //!< \return page size
    uint32_t GetSize() const;      //!< \return translations held now
    void Reset();                  //!< forget every translation and counter

    /// \param v a value \return true if v is a non-zero power of two
    static bool IsPowerOfTwo(uint64_t v);

    /**
     * Steady-state misses per byte written when `buffers` page-aligned buffers of `bufferBytes`
     * each are written sequentially and cyclically, interleaved (HostInterconnect's receive
     * buffers, one per active queue pair): the working set is buffers x ceil(bufferBytes /
     * pageBytes) pages. If it fits in the entries, every page stays (0 misses after the first
     * pass); if not, LRU evicts each page before its buffer comes round again, and every page is
     * missed once when writing enters it: 1 / pageBytes. While a page is being written, the
     * other buffers touch at most two pages each between two writes to it (writes no longer
     * than a page, round-robin), fewer than the entries hold if 2 x buffers <= entries, so its
     * later writes hit.
     * \param entries translations held \param pageBytes page size
     * \param buffers buffers written (active queue pairs) \param bufferBytes bytes per buffer
     * \return misses per byte
     * \throws std::invalid_argument as the constructor, if buffers or bufferBytes is 0, or if
     *         the working set does not fit and 2 x buffers > entries (the interleaving may then
     *         also miss inside a page: no closed form)
     */
    static double CyclicMissesPerByte(uint32_t entries,
                                      uint64_t pageBytes,
                                      uint64_t buffers,
                                      uint64_t bufferBytes);
    /// \return pages of that working set: buffers x ceil(bufferBytes / pageBytes)
    static uint64_t CyclicWorkingSet(uint64_t pageBytes, uint64_t buffers, uint64_t bufferBytes);
    /**
     * Translate the pages of one write into a buffer written cyclically (HostInterconnect's DMA
     * write of a packet into its queue pair's receive buffer): `bytes` from `offset` of the
     * buffer of `bufferBytes` at `base`, the part beyond its end wrapping to its start; the
     * offset then moves on by `bytes`, modulo bufferBytes.
     * \param base first byte of the buffer \param bufferBytes its length (>= 1)
     * \param[in,out] offset where the write starts in the buffer, in [0, bufferBytes)
     * \param bytes length of the write (at most bufferBytes)
     * \return number of misses
     */
    uint32_t AccessCyclic(uint64_t base, uint64_t bufferBytes, uint64_t& offset, uint64_t bytes);
    /**
     * Steady-state misses per byte of the cyclic pattern of CyclicMissesPerByte for any number
     * of buffers, when the buffers are written round-robin, one write of `writeBytes` each in
     * turn (queue pairs receiving at equal rates): the pattern is replayed through an LRU IOTLB
     * of `entries` (AccessCyclic on page-aligned buffers, as HostInterconnect places them), one
     * cycle (every buffer written once through) to warm up, then eight cycles counted (a
     * buffer's count is off by at most one page entered, as the cycles' ends need not fall on
     * write boundaries: within 1/8 of a cycle's pages, 0.8 %, of the closed form where that
     * applies). Beyond 2 x buffers > entries a page may also be evicted between two writes into
     * it (up to one miss per write when buffers >= entries).
     * Cost: buffers x 9 x ceil(bufferBytes / writeBytes) writes.
     * \param entries translations held \param pageBytes page size
     * \param buffers buffers written (active queue pairs, >= 1)
     * \param bufferBytes bytes per buffer (>= 1) \param writeBytes bytes per write, in [1,
     *        bufferBytes]
     * \return misses per byte
     * \throws std::invalid_argument as the constructor, or naming the parameter out of range
     */
    static double InterleavedMissesPerByte(uint32_t entries,
                                           uint64_t pageBytes,
                                           uint64_t buffers,
                                           uint64_t bufferBytes,
                                           uint64_t writeBytes);

  private:
    uint32_t m_entries;
    uint64_t m_pageBytes;
    unsigned m_pageShift;
    std::list<uint64_t> m_lru; //!< page numbers, most recently used first
    std::unordered_map<uint64_t, std::list<uint64_t>::iterator> m_where;
    uint64_t m_hits{0};
    uint64_t m_misses{0};
};

} // namespace ns3

#endif /* MLNET_IOTLB_H */
