/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fluid-network.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluidInputPortShare");

/**
 * \ingroup mlnet
 * \brief FluidNetwork's "input-port" Sharing: a congested link shared as a packet switch
 * without congestion control shares its egress port, equally among the input ports its
 * packets arrive by, each input's share equally among the ports before it, and so on up to the
 * senders (a NIC's share equally among its flows); PFC spreads the congestion upstream, so the
 * split holds at every merge of the flows' ways, not only at saturated links.
 *
 * It runs on top of the max-min solver: a flow's weight is its share of this split. For a link
 * b and class c, the flows of class c that b bottlenecks are put in a tree of their ways back
 * from b (the trie of their reversed paths: the children of b are the distinct links just
 * before it, theirs the distinct links before those, down to each flow itself, a child of its
 * first link); a flow's weight is the product of 1 / (children) over the nodes on its way back,
 * times the weight its owner gave it (FluidNetwork::SetWeight), so the flows b bottlenecks get
 * its capacity by this split (their weights sum to 1). A flow capped by its rate cap keeps its
 * own weight. A flow whose path is not a chain (a group: FlowSpec::pathCoef) is a child of b
 * itself. The bottlenecks depend on the weights, so a recomputation solves, sets the weights
 * from the bottlenecks, and solves again until no weight moves, or no rate (at most
 * FluidNetwork::MaxSharingRounds solves more; a recomputation that ends so keeps its last
 * rates and is counted). A flow whose weight moved once in a recomputation only goes down from
 * then on (a flow at a tie between two links would otherwise swing between their trees).
 *
 * Not in the FluidNetwork header: only fluid-network.cc holds one (a pointer), and this file
 * defines FluidNetwork's Sharing methods. The owner's weight is told from the one applied here
 * by its value: an owner that sets exactly the weight applied here last is not seen.
 */
class FluidInputPortShare
{
  public:
    /// \param net the network (outlives this)
    explicit FluidInputPortShare(FluidNetwork& net);

    /// The recomputation event of the "input-port" mode (instead of FluidNetwork::Recompute).
    void Recompute();
    /// Give every live flow its owner's weight back (leaving the mode; the caller recomputes).
    void Restore();

    /// \return solves redone so far for the weights (FluidNetwork::GetSharingRounds)
    uint64_t GetRounds() const;
    /// \return recomputations left unconverged (FluidNetwork::GetSharingUnconverged)
    uint64_t GetUnconverged() const;

  private:
    /// A flow of a bottleneck's tree: its way back from the bottleneck.
    struct Member
    {
        uint32_t slot;
        uint32_t begin; //!< its way back: m_ways[begin, end)
        uint32_t end;
    };

    /**
     * \return the owner's weight of the flow in `slot`: its weight at its first visit, or the
     *         one its owner set since (FluidNetwork::SetWeight: a weight other than the one
     *         applied here)
     */
    double Base(uint32_t slot);
    /// Set m_weight for every live flow from the bottlenecks of the last filling.
    void ComputeWeights();
    /**
     * Split `share` among the members [lo, hi) of one tree (sorted by way back), which agree
     * on their ways' first `depth` entries: equally among the distinct entries at `depth`.
     */
    void Split(uint32_t lo, uint32_t hi, uint32_t depth, double share);
    /// Mark the flow in `slot` for the next solve (FluidNetwork::Touch without scheduling).
    void Mark(uint32_t slot);

    FluidNetwork& m_net;
    std::vector<double> m_base;     //!< per slot: the owner's weight
    std::vector<uint64_t> m_baseOf; //!< per slot: 1 + the id of the flow m_base is of (0: none)
    std::vector<double> m_applied;  //!< per slot: the weight set here last
    std::vector<double> m_weight;   //!< per slot: the weight of the split (ComputeWeights)
    std::vector<double> m_before;   //!< per slot: the rate before a solve
    std::vector<char> m_changed;    //!< per slot: its weight moved in this recomputation
    std::vector<Member> m_members;  //!< ComputeWeights(): the flows by (bottleneck, class)
    std::vector<uint64_t> m_ways;   //!< ComputeWeights(): the members' ways back
    uint64_t m_rounds{0};
    uint64_t m_unconverged{0};
};

namespace
{
/// A way's last entry: the flow itself (above every link id).
constexpr uint64_t kLeaf = uint64_t(1) << 32;
/// Relative move of a rate below which a solve has not moved it (rates are sums of doubles).
constexpr double kRateTolerance = 1e-9;
} // namespace

// FluidNetwork's Sharing (the attribute, its mode's recomputation event and counters).

void
FluidNetwork::ScheduleRecompute()
{
    if (m_recompute.IsRunning())
    {
        return;
    }
    if (m_inputPort)
    {
        m_recompute = Simulator::ScheduleNow(&FluidInputPortShare::Recompute, m_inputPort.get());
    }
    else
    {
        m_recompute = Simulator::ScheduleNow(&FluidNetwork::Recompute, this);
    }
}

const std::vector<std::string>&
FluidNetwork::SharingModes()
{
    static const std::vector<std::string> modes = {"flow", "input-port"};
    return modes;
}

void
FluidNetwork::SetSharing(const std::string& mode)
{
    const std::vector<std::string>& modes = SharingModes();
    if (std::find(modes.begin(), modes.end(), mode) == modes.end())
    {
        throw std::invalid_argument("FluidNetwork::Sharing = \"" + mode +
                                    "\" is not a sharing mode (accepted: \"flow\", "
                                    "\"input-port\")");
    }
    const bool on = mode == "input-port";
    if (on == bool(m_inputPort))
    {
        return;
    }
    // The pending recomputation is the other mode's: every flow is recomputed in the new one.
    m_recompute.Cancel();
    if (on)
    {
        m_inputPort = std::make_shared<FluidInputPortShare>(*this);
    }
    else
    {
        m_inputPort->Restore();
        m_inputPort.reset();
    }
    for (const auto& [id, slot] : m_slotOf)
    {
        if (!m_flows[slot].finished)
        {
            Touch(slot);
        }
    }
    if (!m_touched.empty())
    {
        ScheduleRecompute(); // (drained flows waiting to leave their links)
    }
}

std::string
FluidNetwork::GetSharing() const
{
    return m_inputPort ? "input-port" : "flow";
}

uint64_t
FluidNetwork::GetSharingRounds() const
{
    return m_inputPort ? m_inputPort->GetRounds() : 0;
}

uint64_t
FluidNetwork::GetSharingUnconverged() const
{
    return m_inputPort ? m_inputPort->GetUnconverged() : 0;
}

FluidInputPortShare::FluidInputPortShare(FluidNetwork& net)
    : m_net(net)
{
}

uint64_t
FluidInputPortShare::GetRounds() const
{
    return m_rounds;
}

uint64_t
FluidInputPortShare::GetUnconverged() const
{
    return m_unconverged;
}

double
FluidInputPortShare::Base(uint32_t slot)
{
    const FluidNetwork::Flow& f = m_net.m_flows[slot];
    if (m_baseOf.size() <= slot)
    {
        m_base.resize(slot + 1, 0);
        m_baseOf.resize(slot + 1, 0);
        m_applied.resize(slot + 1, 0);
    }
    if (m_baseOf[slot] != f.id + 1 || f.spec.weight != m_applied[slot])
    {
        // a new flow in the slot, or its owner's SetWeight since the last weight set here
        m_base[slot] = f.spec.weight;
        m_baseOf[slot] = f.id + 1;
        m_applied[slot] = f.spec.weight;
    }
    return m_base[slot];
}

void
FluidInputPortShare::Restore()
{
    for (uint32_t s = 0; s < m_net.m_flows.size(); ++s)
    {
        FluidNetwork::Flow& f = m_net.m_flows[s];
        if (f.live)
        {
            f.spec.weight = Base(s);
        }
    }
}

void
FluidInputPortShare::Mark(uint32_t slot)
{
    for (uint32_t l : m_net.m_flows[slot].links)
    {
        ++m_net.m_links[l].version;
    }
    m_net.m_touched.push_back(slot);
}

void
FluidInputPortShare::ComputeWeights()
{
    std::vector<FluidNetwork::Flow>& flows = m_net.m_flows;
    m_weight.assign(flows.size(), 0);
    m_members.clear();
    m_ways.clear();
    for (uint32_t s = 0; s < flows.size(); ++s)
    {
        const FluidNetwork::Flow& f = flows[s];
        if (!f.live || f.finished)
        {
            continue;
        }
        m_weight[s] = 1; // alone, or capped: its owner's weight
        const std::vector<uint32_t>& path = f.spec.path;
        const auto at = std::find(path.begin(), path.end(), f.bottleneck);
        if (f.bottleneck == FluidNetwork::kCapped || at == path.end())
        {
            continue;
        }
        Member m;
        m.slot = s;
        m.begin = uint32_t(m_ways.size());
        if (f.spec.pathCoef.empty())
        {
            // its way back from the bottleneck: the links before it, last first
            for (auto it = std::make_reverse_iterator(at); it != path.rend(); ++it)
            {
                m_ways.push_back(*it);
            }
        }
        m_ways.push_back(kLeaf + s);
        m.end = uint32_t(m_ways.size());
        m_members.push_back(m);
    }
    // By (bottleneck, class), then by way back: each tree's members together, and within a tree
    // the members that share a way's first entries next to each other.
    std::sort(m_members.begin(), m_members.end(), [&](const Member& a, const Member& b) {
        const FluidNetwork::Flow& fa = flows[a.slot];
        const FluidNetwork::Flow& fb = flows[b.slot];
        if (fa.bottleneck != fb.bottleneck || fa.spec.cls != fb.spec.cls)
        {
            return std::tie(fa.bottleneck, fa.spec.cls) < std::tie(fb.bottleneck, fb.spec.cls);
        }
        return std::lexicographical_compare(m_ways.begin() + a.begin,
                                            m_ways.begin() + a.end,
                                            m_ways.begin() + b.begin,
                                            m_ways.begin() + b.end);
    });
    for (uint32_t lo = 0; lo < m_members.size();)
    {
        const FluidNetwork::Flow& f = flows[m_members[lo].slot];
        uint32_t hi = lo + 1;
        while (hi < m_members.size() && flows[m_members[hi].slot].bottleneck == f.bottleneck &&
               flows[m_members[hi].slot].spec.cls == f.spec.cls)
        {
            ++hi;
        }
        Split(lo, hi, 0, 1.0);
        lo = hi;
    }
    for (uint32_t s = 0; s < flows.size(); ++s)
    {
        if (flows[s].live && !flows[s].finished)
        {
            m_weight[s] *= Base(s);
        }
    }
}

void
FluidInputPortShare::Split(uint32_t lo, uint32_t hi, uint32_t depth, double share)
{
    auto entry = [&](uint32_t i) { return m_ways[m_members[i].begin + depth]; };
    uint32_t children = 0;
    for (uint32_t i = lo; i < hi; ++i)
    {
        children += (i == lo || entry(i) != entry(i - 1)) ? 1 : 0;
    }
    const double each = share / children;
    for (uint32_t i = lo; i < hi;)
    {
        uint32_t j = i + 1;
        while (j < hi && entry(j) == entry(i))
        {
            ++j;
        }
        if (entry(i) >= kLeaf)
        {
            m_weight[m_members[i].slot] = each; // the flow itself (a leaf is one member's)
        }
        else
        {
            Split(i, j, depth + 1, each); // the flows that come by this link
        }
        i = j;
    }
}

void
FluidInputPortShare::Recompute()
{
    m_net.Recompute();
    std::vector<FluidNetwork::Flow>& flows = m_net.m_flows;
    m_changed.assign(flows.size(), 0);
    for (uint32_t round = 0;; ++round)
    {
        ComputeWeights();
        // A flow whose weight moved once in this recomputation only goes down from then on: a
        // flow at a tie between two links (its rate the share of either) may otherwise swing
        // between their trees, whose weights differ (the smaller is the share of the one that
        // holds it, the larger would let it take more than it gets there).
        for (uint32_t s = 0; s < flows.size(); ++s)
        {
            if (m_changed[s] && flows[s].live)
            {
                m_weight[s] = std::min(m_weight[s], flows[s].spec.weight);
            }
        }
        bool moved = false;
        for (uint32_t s = 0; s < flows.size() && !moved; ++s)
        {
            moved = flows[s].live && !flows[s].finished && flows[s].spec.weight != m_weight[s];
        }
        if (!moved)
        {
            return; // the weights are those of the bottlenecks they give
        }
        if (round == m_net.m_maxSharingRounds)
        {
            ++m_unconverged;
            NS_LOG_WARN("the input-port weights did not converge in "
                        << round << " solves (" << m_net.m_slotOf.size() << " flows)");
            return;
        }
        m_before.assign(flows.size(), 0);
        for (uint32_t s = 0; s < flows.size(); ++s)
        {
            FluidNetwork::Flow& f = flows[s];
            if (!f.live || f.finished)
            {
                continue;
            }
            m_before[s] = f.rate;
            if (f.spec.weight != m_weight[s])
            {
                f.spec.weight = m_weight[s];
                m_applied[s] = m_weight[s];
                m_changed[s] = 1;
                Mark(s);
            }
        }
        ++m_rounds;
        m_net.Recompute();
        bool rates = false;
        for (uint32_t s = 0; s < flows.size() && !rates; ++s)
        {
            rates = flows[s].live && !flows[s].finished &&
                    std::abs(flows[s].rate - m_before[s]) >
                        kRateTolerance * std::max(flows[s].rate, m_before[s]);
        }
        if (!rates)
        {
            return; // the weights moved but no rate did (e.g. a tie between two bottlenecks)
        }
    }
}

} // namespace ns3
