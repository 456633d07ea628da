/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_AGGREGATION_CONTEXT_H
#define MLNET_AGGREGATION_CONTEXT_H

#include "aggregation-header.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief What an aggregation point knows about one tree of one job.
 */
struct AggTreeSpec
{
    uint16_t jobId{0};          //!< job
    uint16_t treeId{0};         //!< tree of the job
    uint16_t fanIn{1};          //!< children of this point (workers or devices), >= 1
    uint32_t slots{1};          //!< slot pool size S per version (the workers' window cap)
    bool root{false};           //!< the tree's root (sends results down)
    uint16_t subtreeWorkers{1}; //!< workers below this point (fan-in field of its partials)
    uint16_t jobWorkers{1};     //!< workers of the job (fan-in field of results)
    AggElementType elementType{AggElementType::FP32}; //!< element type of the job
};

/**
 * \ingroup mlnet
 * \brief The aggregation state of one tree of one job at one aggregation point: a pool of S
 * slots with two versions each (SwitchML's shadow copies), a bitmap of the children seen per
 * slot, the running sum, the OR of the ECN marks, and what to do with every packet.
 *
 * A pure state machine: packets in, decisions out, no simulator. Chunk s uses slot s mod S,
 * version (s / S) mod 2. A worker may send chunk s only once it holds the results of every
 * chunk before s - S + 1 (its window is at most S), so the version of a slot is never reused
 * while a child may still need its result, and losses are recovered by retransmission:
 * - a new contribution is summed and its child's bit set; when every child is in, a root
 *   multicasts the result, another point sends its partial sum up (and keeps it);
 * - a duplicate contribution (the child timed out) gets the result back by unicast if the
 *   point has it, or makes a non-root point resend its partial sum if it is still waiting for
 *   the result (the partial or the result was lost above);
 * - a result from the parent is stored and multicast to the children once; repeats are ignored;
 * - anything for a chunk older than the one its slot now holds is stale and ignored.
 */
class AggregationContext
{
  public:
    /// Decision taken on a packet.
    enum class Action : uint8_t
    {
        NONE,           //!< summed (or duplicate while collecting): nothing to send
        SEND_UP,        //!< every child is in: send the partial sum to the parent
        MULTICAST_DOWN, //!< result ready: send it to every child
        UNICAST_DOWN,   //!< duplicate from a child: send it the stored result
        RESEND_UP,      //!< duplicate while waiting for the result: send the partial again
        STALE,          //!< packet of an older use of the slot: ignored
    };

    /// Slot state.
    enum class State : uint8_t
    {
        FREE,       //!< never used
        COLLECTING, //!< waiting for children
        WAITING,    //!< partial sum sent up, waiting for the result (non-root)
        DONE,       //!< result held
    };

    /// One slot version.
    struct Slot
    {
        uint32_t seq{0};            //!< chunk held
        State state{State::FREE};   //!< state
        uint16_t count{0};          //!< children seen
        uint32_t fanInSum{0};       //!< workers summed
        bool ecn{false};            //!< OR of the ECN marks of the contributions
        bool resultEcn{false};      //!< ECN-OR flag of the result
        uint16_t elements{0};       //!< elements of the chunk
        int8_t scaleExponent{0};    //!< INT32 scaling exponent
        std::vector<uint64_t> seen; //!< bitmap of the children seen
        std::vector<uint32_t> acc;  //!< running sum, then the result (values mode)
    };

    /// Outcome of a packet: the action and the slot it concerns.
    struct Outcome
    {
        Action action{Action::NONE}; //!< what to do
        const Slot* slot{nullptr};   //!< the slot (null if STALE)
    };

    /**
     * \param spec the tree as seen by this point
     * \throws std::invalid_argument if fanIn or slots is 0
     */
    explicit AggregationContext(const AggTreeSpec& spec);

    /**
     * A contribution arrived.
     * \param child sender's child index (< fanIn)
     * \param seq chunk sequence number
     * \param ecn true if the packet was CE-marked or carried the ECN_OR flag
     * \param elements element count
     * \param fanIn workers summed in the packet
     * \param values element words, or null (size-only)
     * \param scaleExponent INT32 scaling exponent
     * \return the decision
     * \throws std::invalid_argument if child >= fanIn
     */
    Outcome OnContribution(uint16_t child,
                           uint32_t seq,
                           bool ecn,
                           uint16_t elements,
                           uint16_t fanIn,
                           const std::vector<uint32_t>* values,
                           int8_t scaleExponent = 0);

    /**
     * A result arrived from the parent (non-root points).
     * \param seq chunk sequence number \param ecn its ECN-OR flag or CE mark
     * \param values element words, or null
     * \return the decision (MULTICAST_DOWN the first time)
     */
    Outcome OnResult(uint32_t seq, bool ecn, const std::vector<uint32_t>* values);

    /// \return the slot holding chunk seq, or null if its slot moved on (or never held it)
    const Slot* Find(uint32_t seq) const;
    const AggTreeSpec& GetSpec() const; //!< \return the tree
    /// \return on-chip bytes the pool occupies: 2 x slots x chunk payload bytes
    static uint64_t PoolBytes(uint32_t slots, uint32_t chunkBytes);

    uint64_t GetContributions() const; //!< \return contributions summed
    uint64_t GetDuplicates() const;    //!< \return duplicate contributions
    uint64_t GetStale() const;         //!< \return stale packets ignored
    uint64_t GetCompleted() const;     //!< \return slots completed (all children in)
    uint64_t GetOverflows() const;     //!< \return INT32 additions that overflowed

  private:
    Slot& SlotOf(uint32_t seq);

    AggTreeSpec m_spec;
    std::vector<Slot> m_slots; //!< 2 x slots: version v of slot i at v * slots + i
    uint64_t m_contributions{0};
    uint64_t m_duplicates{0};
    uint64_t m_stale{0};
    uint64_t m_completed{0};
    uint64_t m_overflows{0};
};

} // namespace ns3

#endif /* MLNET_AGGREGATION_CONTEXT_H */
