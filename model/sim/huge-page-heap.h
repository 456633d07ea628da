/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_HUGE_PAGE_HEAP_H
#define MLNET_HUGE_PAGE_HEAP_H

#include <cstddef>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Asks Linux to back the process's malloc heap with transparent huge pages (2 MB), as
 * it grows.
 *
 * A packet simulation touches, per packet-hop, a few lines of each of a dozen objects (two
 * devices, their queues and in-flight frames, a switch, its buffer counters, a queue pair)
 * spread over a heap of megabytes: with 4 KB pages nearly every one of those lines also
 * needs a TLB entry that is not there (a k = 8 web-search run's heap, 13.4 MB, is ~3,400
 * pages), and under virtualisation a TLB miss is a two-dimensional page walk. Each new page
 * also costs a page fault. With 2 MB pages the same heap is seven pages.
 *
 * glibc does this itself under GLIBC_TUNABLES=glibc.malloc.hugetlb=1, which a program must be
 * started with. This class gets the same from inside the process: Update() marks the part of
 * the brk heap [heap start, current break) not yet marked with madvise(MADV_HUGEPAGE) (the
 * kernel then faults 2 MB pages there, in "madvise" as well as "always" mode), and the first
 * call makes malloc grow the heap in steps of kGrowthStep bytes, so that a new step is marked
 * before most of it is touched. Memory that was already touched stays in 4 KB pages unless
 * the kernel's khugepaged collapses it later.
 *
 * Process-wide: the mallopt() and the marks stay after the object is gone (glibc has no way
 * to read M_TOP_PAD back). A library object therefore uses it only when the program asked
 * (MlnetSimulatorImpl's HugePages attribute, off by default; mlnet's programs turn it on).
 *
 * Results never depend on it: only the speed and the resident size (a touched 2 MB page is
 * resident whole: a few MB more for a small simulation). Does nothing where it cannot (not
 * Linux, THP disabled, no brk heap): Update() then returns false.
 */
class HugePageHeap
{
  public:
    /// Bytes by which malloc grows the heap once Update() ran (M_TOP_PAD).
    static constexpr std::size_t kGrowthStep = std::size_t(32) << 20;

    /**
     * Mark the heap grown since the last call (cheap when it did not grow: one comparison).
     * \return true if the heap, up to the current break, is marked
     */
    bool Update();

    /// \return bytes of the heap marked so far
    std::size_t AdvisedBytes() const;

    /// \return true if the kernel offers transparent huge pages to madvise (not "never")
    static bool Available();

    /**
     * \return how many times an Update() in this process changed its allocator or memory
     *         map (mallopt(M_TOP_PAD) once per HugePageHeap, madvise per growth marked): zero
     *         while no one asked for huge pages
     */
    static uint64_t ProcessChanges();

  private:
    uintptr_t m_start{0}; //!< page-aligned start of the part not yet marked (0: first call)
    uintptr_t m_begin{0}; //!< start of the heap
    uintptr_t m_page{0};  //!< the page size
    bool m_failed{false}; //!< gave up (not available)
};

} // namespace ns3

#endif /* MLNET_HUGE_PAGE_HEAP_H */
