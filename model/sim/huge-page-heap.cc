/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "huge-page-heap.h"

#include "ns3/log.h"

#include <fstream>
#include <string>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#define MLNET_HUGE_PAGE_HEAP 1
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HugePageHeap");

namespace
{
/// Changes made to the process's allocator and memory map (ProcessChanges()).
uint64_t g_processChanges = 0;
} // namespace

uint64_t
HugePageHeap::ProcessChanges()
{
    return g_processChanges;
}

bool
HugePageHeap::Available()
{
    std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string line;
    // "always [madvise] never": the bracketed word is the mode.
    return std::getline(f, line) && line.find("[never]") == std::string::npos;
}

bool
HugePageHeap::Update()
{
#ifdef MLNET_HUGE_PAGE_HEAP
    if (m_failed)
    {
        return false;
    }
    if (m_start == 0)
    {
        m_page = uintptr_t(sysconf(_SC_PAGESIZE));
        if (!Available())
        {
            NS_LOG_LOGIC("transparent huge pages are disabled: 4 KB pages");
            m_failed = true;
            return false;
        }
        // The heap's start, from the process's own map (the brk heap is one "[heap]" region).
        std::ifstream maps("/proc/self/maps");
        std::string line;
        while (std::getline(maps, line))
        {
            if (line.find("[heap]") != std::string::npos)
            {
                m_begin = uintptr_t(std::stoull(line.substr(0, line.find('-')), nullptr, 16));
                break;
            }
        }
        if (m_begin == 0 || reinterpret_cast<uintptr_t>(sbrk(0)) <= m_begin)
        {
            NS_LOG_LOGIC("no brk heap: 4 KB pages");
            m_failed = true;
            return false;
        }
        m_start = m_begin;
        mallopt(M_TOP_PAD, int(kGrowthStep));
        ++g_processChanges;
    }
    const uintptr_t top = reinterpret_cast<uintptr_t>(sbrk(0)) & ~(m_page - 1);
    if (top <= m_start)
    {
        return true;
    }
    if (madvise(reinterpret_cast<void*>(m_start), top - m_start, MADV_HUGEPAGE) != 0)
    {
        NS_LOG_LOGIC("madvise(MADV_HUGEPAGE) failed: 4 KB pages");
        m_failed = true;
        return false;
    }
    ++g_processChanges;
    NS_LOG_LOGIC("heap " << std::hex << m_start << "-" << top << std::dec << " marked");
    m_start = top;
    return true;
#else
    return false;
#endif
}

std::size_t
HugePageHeap::AdvisedBytes() const
{
    return m_start > m_begin ? std::size_t(m_start - m_begin) : 0;
}

} // namespace ns3
