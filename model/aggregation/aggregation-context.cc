/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-context.h"

#include "aggregation-values.h"

#include <stdexcept>
#include <string>

namespace ns3
{

AggregationContext::AggregationContext(const AggTreeSpec& spec)
    : m_spec(spec)
{
    if (spec.fanIn == 0)
    {
        throw std::invalid_argument("AggregationContext: fan-in must be >= 1");
    }
    if (spec.slots == 0)
    {
        throw std::invalid_argument("AggregationContext: slots must be >= 1");
    }
    m_slots.resize(size_t(spec.slots) * 2);
}

const AggTreeSpec&
AggregationContext::GetSpec() const
{
    return m_spec;
}

uint64_t
AggregationContext::PoolBytes(uint32_t slots, uint32_t chunkBytes)
{
    return 2 * uint64_t(slots) * chunkBytes;
}

AggregationContext::Slot&
AggregationContext::SlotOf(uint32_t seq)
{
    uint32_t i = seq % m_spec.slots;
    uint32_t v = (seq / m_spec.slots) & 1u;
    return m_slots[size_t(v) * m_spec.slots + i];
}

const AggregationContext::Slot*
AggregationContext::Find(uint32_t seq) const
{
    uint32_t i = seq % m_spec.slots;
    uint32_t v = (seq / m_spec.slots) & 1u;
    const Slot& s = m_slots[size_t(v) * m_spec.slots + i];
    return s.state != State::FREE && s.seq == seq ? &s : nullptr;
}

AggregationContext::Outcome
AggregationContext::OnContribution(uint16_t child,
                                   uint32_t seq,
                                   bool ecn,
                                   uint16_t elements,
                                   uint16_t fanIn,
                                   const std::vector<uint32_t>* values,
                                   int8_t scaleExponent)
{
    if (child >= m_spec.fanIn)
    {
        throw std::invalid_argument("AggregationContext: child index " + std::to_string(child) +
                                    " out of range [0, " + std::to_string(m_spec.fanIn) + ")");
    }
    Slot& s = SlotOf(seq);
    if (s.state != State::FREE && seq < s.seq)
    {
        ++m_stale;
        return {Action::STALE, nullptr};
    }
    if (s.state == State::FREE || seq > s.seq)
    {
        // A new use of this slot version: every child has the result of the previous one.
        s.seq = seq;
        s.state = State::COLLECTING;
        s.count = 0;
        s.fanInSum = 0;
        s.ecn = false;
        s.resultEcn = false;
        s.elements = elements;
        s.scaleExponent = scaleExponent;
        s.seen.assign((m_spec.fanIn + 63) / 64, 0);
        s.acc.clear();
    }
    uint64_t bit = uint64_t(1) << (child % 64);
    uint64_t& word = s.seen[child / 64];
    if (word & bit)
    {
        ++m_duplicates;
        if (s.state == State::DONE)
        {
            return {Action::UNICAST_DOWN, &s};
        }
        if (s.state == State::WAITING)
        {
            return {Action::RESEND_UP, &s};
        }
        return {Action::NONE, &s};
    }
    word |= bit;
    ++m_contributions;
    ++s.count;
    s.fanInSum += fanIn;
    s.ecn = s.ecn || ecn;
    if (values && !values->empty())
    {
        if (s.acc.empty())
        {
            s.acc = *values;
        }
        else
        {
            m_overflows += AggregationValues::Add(s.acc, *values, m_spec.elementType);
        }
    }
    if (s.count < m_spec.fanIn)
    {
        return {Action::NONE, &s};
    }
    ++m_completed;
    if (m_spec.root)
    {
        s.state = State::DONE;
        s.resultEcn = s.ecn;
        return {Action::MULTICAST_DOWN, &s};
    }
    s.state = State::WAITING;
    return {Action::SEND_UP, &s};
}

AggregationContext::Outcome
AggregationContext::OnResult(uint32_t seq, bool ecn, const std::vector<uint32_t>* values)
{
    Slot& s = SlotOf(seq);
    if (s.state == State::FREE || s.seq != seq)
    {
        ++m_stale;
        return {Action::STALE, nullptr};
    }
    if (s.state != State::WAITING)
    {
        return {Action::NONE, &s}; // a repeat (we asked more than once), or not ours yet
    }
    s.state = State::DONE;
    s.resultEcn = ecn || s.ecn;
    if (values && !values->empty())
    {
        s.acc = *values;
    }
    return {Action::MULTICAST_DOWN, &s};
}

uint64_t
AggregationContext::GetContributions() const
{
    return m_contributions;
}

uint64_t
AggregationContext::GetDuplicates() const
{
    return m_duplicates;
}

uint64_t
AggregationContext::GetStale() const
{
    return m_stale;
}

uint64_t
AggregationContext::GetCompleted() const
{
    return m_completed;
}

uint64_t
AggregationContext::GetOverflows() const
{
    return m_overflows;
}

} // namespace ns3
