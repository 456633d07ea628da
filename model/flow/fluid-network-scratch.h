/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// FluidNetwork's rate solver, shared by its two files (fluid-network-solver.cc: the
// recomputation, its widening rounds and the max-min conditions; fluid-network-filling.cc: one
// progressive filling): the heap's entries, the working arrays and the constants both use.
// Private to them: cmake/sources-flow.cmake lists it with the sources, not with the module's
// public headers.
#ifndef MLNET_FLUID_NETWORK_SCRATCH_H
#define MLNET_FLUID_NETWORK_SCRATCH_H

#include "fluid-network.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/// The constants of FluidNetwork's solver files.
namespace fluidsolver
{
/**
 * The acknowledgement loads are solved to this share of their links' capacity: one that moves
 * by at most that much from one filling to the next has converged, and a link that carries
 * acknowledgements is full (or not overfull) for the max-min conditions within it. A flow's
 * change moves the acknowledgements of the flows bottlenecked behind it by 84/1082 of it, and
 * theirs the next ones' by as much again (around a ring): at 1e-9 a change of a ring member
 * went 8 links on (one round of widening, or one more filling, each), at this share 5.
 */
constexpr double kAckTolerance = 1e-7;
/// Scratch::guess of a flow whose acknowledgements rise with it in its class's filling.
constexpr double kRising = -1;
/// Scratch::guess of such a flow whose acknowledgements are to be counted at its rate.
constexpr double kToCount = -2;
} // namespace fluidsolver

/// A candidate fill level of the progressive filling: a link saturates or a flow hits its cap.
/// (16 B: a cap's entry is told by its version, kCapEntry.)
struct FluidNetworkLevel
{
    double level;     //!< fill level (bytes/s per unit of weight)
    uint32_t idx;     //!< local link or flow index
    uint32_t version; //!< the link's version when pushed (stale entries are skipped)

    /// FluidNetworkLevel::version of a flow's (or a reserve's) cap: a link's never reaches it
    /// (Scratch::version counts the changes of one filling)
    static constexpr uint32_t kCapEntry = 0xffffffffu;

    /// \return true for a flow's cap, false for a link's saturation
    bool IsFlow() const
    {
        return version == kCapEntry;
    }

    /**
     * The heap's order: by level, then caps before saturations, then by index (and version): a
     * strict order, so that the levels are taken in one order whatever the heap's layout (the
     * entries already taken or left stale change it) and however many stale entries it holds.
     * \param o another level \return true if this one comes after
     */
    bool operator>(const FluidNetworkLevel& o) const
    {
        if (level != o.level)
        {
            return level > o.level;
        }
        if (IsFlow() != o.IsFlow())
        {
            return !IsFlow();
        }
        if (idx != o.idx)
        {
            return idx > o.idx;
        }
        return version > o.version;
    }
};

/// Fill()'s working arrays, kept so that a recomputation allocates nothing.
struct FluidNetwork::Scratch
{
    std::vector<double> avail;                  //!< per local link: capacity left
    std::vector<double> wsum;                   //!< per local link: weights of its rising flows
    std::vector<uint32_t> active;               //!< per local link: rising flows of the class
    std::vector<uint32_t> version;              //!< per local link: changes (stale heap entries)
    std::vector<char> frozen;                   //!< per local flow
    std::vector<std::vector<uint32_t>> byClass; //!< local flows by class
    std::vector<uint32_t> touched;              //!< local links of the class being filled
    std::vector<FluidNetworkLevel> heap;        //!< candidate levels (a min-heap)
    std::vector<uint32_t> links;   //!< Recompute(): links whose flows or rates may change
    std::vector<uint32_t> members; //!< Recompute(): flows whose rates are computed
    std::vector<double> old;       //!< Recompute(): their rates before
    std::vector<uint32_t> more;    //!< Violations(): flows to add
    std::vector<std::vector<uint32_t>> reserves; //!< Fill(): local links by reserve class
    std::vector<char> reserveFrozen;             //!< Fill(): per local link
    std::vector<double> base;     //!< Fill(): per local link, capacity less the outside
    std::vector<double> guess;    //!< Fill(): per local flow, its acknowledgements' rate
    std::vector<uint8_t> full;    //!< Fill(): per local link, classes it bottlenecked
    std::vector<uint8_t> used;    //!< Fill(): per local link, classes whose data it carries
    std::vector<uint32_t> acking; //!< Fill(): local flows with acknowledgements elsewhere
    // Fill(): the members' entries and the links' members, copied together once per Fill()
    // (the fillings read them in order, not the flow and link records at random)
    std::vector<uint32_t> entryStart; //!< per local flow + 1: its first entry
    std::vector<uint32_t> entryLink;  //!< per entry: the local link (Flow::links)
    std::vector<double> entryCoef;    //!< per entry: Flow::coef
    /// per local flow: its path's entries and its acknowledgement entries > 0, which come
    /// first (then those <= 0): the entries filled with it when its acknowledgements are
    /// counted at a rate
    std::vector<uint32_t> nFilled;
    std::vector<uint8_t> cls;         //!< per local flow: its class
    std::vector<double> weight;       //!< per local flow: its weight
    std::vector<double> cap;          //!< per local flow: its rate cap (0: none)
    std::vector<double> rate;         //!< per local flow: its rate in the filling
    std::vector<uint32_t> bottleneck; //!< per local flow: its bottleneck in the filling
    std::vector<double> capacity;     //!< per local link: its capacity
    std::vector<uint32_t> dataBegin;  //!< per local link: its first data entry
    std::vector<uint32_t> dataEnd;    //!< per local link: after its last data entry
    /// per data entry: a member with data on the link (coef > 0), in the link's flow order (a
    /// round after the first appends the lists of the links it redoes, and leaves the others)
    std::vector<uint32_t> dataFlow;
    // The links' reserves, read and set here (not in the link records at random); the last
    // filling's grants are written to the links by Violations(), which reads them next
    std::vector<uint8_t> reserveMask; //!< per local link: Link::reserveMask
    std::vector<uint8_t> held;        //!< per local link: Link::reserveHeld as filled
    /// per class, beside `reserves`: Link::ClassState::reserve
    std::vector<std::vector<double>> reserveRate;
    /// per class, beside `reserves`: Link::ClassState::granted as filled
    std::vector<std::vector<double>> granted;
    /// FillOnce(): per local link, its index in `reserves` of the class being filled
    std::vector<uint32_t> reservePos;
    /// FillOnce(): per local link, its level changed since its last heap entry (pushed once
    /// after the level taken has been handled, not once per flow that changed it)
    std::vector<char> relevel;
    std::vector<uint32_t> relevelLinks; //!< FillOnce(): those links
    /// FillOnce(): the largest move of an acknowledgement load counted at a rate that made the
    /// filling inexact, as a share of its link's capacity (0 if exact)
    double moved{0};
    // Fill() of a round after the first: the members and links of the rounds before are in the
    // arrays above (a round only adds flows, and with them links), so only the new ones are
    // copied, and only the links whose outside flows changed (a new member crosses them) are
    // summed again.
    uint32_t filledFlows{0}; //!< members in the arrays (0: a new recomputation)
    uint32_t filledLinks{0}; //!< links in the arrays
    std::vector<char> redo;  //!< Fill(): per local link, its outside sum and data to compute
    std::vector<uint32_t> redoLinks; //!< Fill(): those links (ids), in local order
    /// Fill(): iterate the acknowledgement loads to their fixed point (false: one filling, for
    /// a round of widening that is not the last)
    bool converge{true};
    bool converged{true}; //!< Fill(): its last filling left the acknowledgement loads exact
    /// Fill(): the same members and links as the last Fill(), whose one filling was inexact:
    /// go on to the fixed point from it
    bool resume{false};
};

} // namespace ns3

#endif /* MLNET_FLUID_NETWORK_SCRATCH_H */
