/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLOWLET_TABLE_H
#define MLNET_FLOWLET_TABLE_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief A switch's flowlet table for flowlet load balancing (LetFlow-style: Vanini et al.,
 * NSDI'17): a flow keeps its ECMP member while its packets come closer together than the
 * timeout; after a longer gap (a new flowlet), the member is drawn again, uniformly.
 *
 * As in hardware, the table is an array of Size entries indexed by the flow hash, so flows
 * whose hashes share the low bits share an entry (and its flowlets). An entry also records the
 * ECMP group it was last used for; a packet to another group starts a new flowlet. The draw is
 * a hash of the flow hash and the entry's flowlet count: deterministic for an ECMP seed (and so
 * for RngRun), uniform over the members, and different from flowlet to flowlet.
 */
class FlowletTable
{
  public:
    /**
     * \param size number of entries, a power of two in [1, 2^24]
     * \param timeoutNs the flowlet gap in ns, > 0
     * \throws std::invalid_argument naming FlowletTableSize or FlowletTimeout if out of range
     */
    void Configure(uint32_t size, int64_t timeoutNs);

    /**
     * The member a packet takes.
     * \param flowHash the packet's flow hash (FlowKey::Hash with the switch's seed)
     * \param group the ECMP group's identifier (its route word)
     * \param members the group's size, >= 1
     * \param nowNs the time in ns
     * \return the member index, in [0, members)
     */
    uint32_t Select(uint32_t flowHash, uint32_t group, uint32_t members, int64_t nowNs);

    /// \return flowlets started so far (each a new draw)
    uint64_t GetFlowlets() const;

  private:
    /// One entry: the last packet's time, and its flowlet's group and member.
    struct Entry
    {
        int64_t lastNs{0};
        uint32_t group{0xffffffffu};
        uint32_t member{0};
        uint32_t flowlets{0};
    };

    std::vector<Entry> m_entries;
    uint32_t m_mask{0};
    int64_t m_timeoutNs{0};
    uint64_t m_flowlets{0};
};

} // namespace ns3

#endif /* MLNET_FLOWLET_TABLE_H */
