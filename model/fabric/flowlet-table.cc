/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flowlet-table.h"

#include "flow-key.h"

#include <stdexcept>
#include <string>

namespace ns3
{

void
FlowletTable::Configure(uint32_t size, int64_t timeoutNs)
{
    if (size == 0 || size > (1u << 24) || (size & (size - 1)) != 0)
    {
        throw std::invalid_argument("FabricSwitch: FlowletTableSize = " + std::to_string(size) +
                                    " must be a power of two in [1, 16777216]");
    }
    if (timeoutNs <= 0)
    {
        throw std::invalid_argument("FabricSwitch: FlowletTimeout = " + std::to_string(timeoutNs) +
                                    " ns must be > 0");
    }
    m_entries.assign(size, Entry{});
    m_mask = size - 1;
    m_timeoutNs = timeoutNs;
    m_flowlets = 0;
}

uint32_t
FlowletTable::Select(uint32_t flowHash, uint32_t group, uint32_t members, int64_t nowNs)
{
    Entry& e = m_entries[flowHash & m_mask];
    if (e.group != group || nowNs - e.lastNs > m_timeoutNs)
    {
        ++e.flowlets;
        ++m_flowlets;
        const uint64_t draw = FlowKey::Mix64((uint64_t(flowHash) << 32) | e.flowlets);
        // uniform over the members: the high 32 bits scaled to [0, members)
        e.member = uint32_t(((draw >> 32) * members) >> 32);
        e.group = group;
    }
    e.lastNs = nowNs;
    return e.member;
}

uint64_t
FlowletTable::GetFlowlets() const
{
    return m_flowlets;
}

} // namespace ns3
