/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLOW_DECLARATION_H
#define MLNET_FLOW_DECLARATION_H

#include <cstdint>
#include <limits>
#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief How the flows of a group are meant to finish relative to each other: Echelon's
 * arrangement function A(i) (Pan et al., HotNets 2022), whose ideal finish times are
 * d_ref + A(i).
 */
enum class FlowArrangement : uint8_t
{
    Coflow,   //!< A(i) = 0: all flows of the group are needed at once (data parallel, Varys)
    Pipeline, //!< A(i) = i x stageTime (GPipe / 1F1B micro-batches, i from 0)
    Offsets,  //!< A(i) = the flow's declared offset (e.g. PS with layer-wise forward)
};

/// \param a an arrangement \return "coflow", "pipeline" or "offsets"
std::string FlowArrangementName(FlowArrangement a);

/**
 * \ingroup mlnet
 * \brief A group of flows an application declares once: a coflow or an EchelonFlow.
 */
struct FlowGroupSpec
{
    uint64_t id{0};                                       //!< group id (unique in a scheduler)
    uint32_t job{0};                                      //!< job the group belongs to
    FlowArrangement arrangement{FlowArrangement::Coflow}; //!< arrangement function
    double stageTime{0}; //!< Pipeline: estimated time between consecutive consumptions (s, >= 0)
    double weight{1.0};  //!< group weight (> 0)
    uint32_t expectedFlows{0}; //!< flows the group will have (0 = unknown); the scheduler
                               //!< forgets a group once that many have been added and finished
    uint32_t priorities{0};    //!< distinct priority values its flows use, 0..priorities-1 (0 =
                               //!< unknown): lets priority policies map values to levels stably

    /// \param o other \return true if every field is equal
    bool operator==(const FlowGroupSpec& o) const;
};

/**
 * \ingroup mlnet
 * \brief What an application declares about one message (one flow), CadentFlow's
 * (f_i, T_i) plus Echelon's position in its group.
 *
 * Times are absolute simulation times in seconds. Sizes are payload bytes.
 */
struct FlowDeclaration
{
    uint64_t id{0};    //!< flow id (unique among the live flows)
    uint32_t job{0};   //!< job
    uint64_t group{0}; //!< group id (declared with a FlowGroupSpec first)
    uint32_t index{0}; //!< position in the group (Pipeline: i in A(i) = i x stageTime)
    uint32_t src{0};   //!< sending port (host index)
    uint32_t dst{0};   //!< receiving port (host index)
    uint64_t bytes{0}; //!< size (>= 1)
    double offset{0};  //!< Offsets arrangement: A(i) (s, >= 0)
    double deadline{std::numeric_limits<double>::infinity()}; //!< absolute (s, >= 0; inf = none)
    uint32_t priority{0}; //!< priority value, 0 = most urgent (e.g. DAG consumption order)
    double weight{1.0};   //!< weight (> 0)
};

/**
 * \ingroup mlnet
 * \brief A policy's decision for one live flow.
 *
 * rank orders the flows (0 = served first; equal ranks share). Two ways to enforce it:
 *  - level: a priority level (0 = most urgent) that the enforcement maps to a strict-priority
 *    class (NIC and switches);
 *  - rateCap: an upper bound on the flow's rate in payload bytes/s. Infinity = no cap (the flow
 *    takes what strict priority and fair sharing leave), 0 = paused (a flow the order does not
 *    reach yet, as Varys pauses the coflows it does not schedule).
 */
struct FlowDecision
{
    uint64_t id{0};                                          //!< flow id
    uint32_t rank{0};                                        //!< order, 0 = first
    uint32_t level{0};                                       //!< priority level, 0 = most urgent
    double rateCap{std::numeric_limits<double>::infinity()}; //!< payload bytes/s (inf = none)
    double idealFinish{std::numeric_limits<double>::infinity()}; //!< target finish time (s)
};

} // namespace ns3

#endif /* MLNET_FLOW_DECLARATION_H */
