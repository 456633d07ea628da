/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLOW_SCHEDULING_STATE_H
#define MLNET_FLOW_SCHEDULING_STATE_H

#include "flow-declaration.h"

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief What a flow-scheduling policy decides from: the ports and their capacities, the
 * declared groups, the live flows (declaration, release time, bytes left) and each group's
 * history (every flow ever added to it, for Echelon's reference times).
 *
 * The network is the "big switch" of coflow scheduling (Varys): each port has an uplink
 * (sending) and a downlink (receiving) capacity in payload bytes/s, and a flow from src to dst
 * uses up[src] and down[dst]. Pure data: the packet-level scheduler (RdmaFlowScheduler) and the
 * flow-level FluidFlowModel both keep one, and tests build them by hand.
 *
 * Every input is validated here, once: a bad value throws std::invalid_argument naming the
 * flow or group, the field and the accepted range.
 */
class FlowSchedulingState
{
  public:
    /// A live flow.
    struct Flow
    {
        FlowDeclaration decl;  //!< what the application declared
        double release{0};     //!< time it was added (s)
        uint64_t remaining{0}; //!< bytes not yet delivered
    };

    /**
     * Add or update a port.
     * \param port port id \param up sending capacity (payload bytes/s, > 0)
     * \param down receiving capacity (payload bytes/s, > 0)
     */
    void SetPort(uint32_t port, double up, double down);
    /// \param port port id \return true if the port exists
    bool HasPort(uint32_t port) const;
    /// \param port an existing port \return its sending capacity (bytes/s)
    double Up(uint32_t port) const;
    /// \param port an existing port \return its receiving capacity (bytes/s)
    double Down(uint32_t port) const;
    /// \param f a flow \return min(Up(src), Down(dst)): its rate when alone
    double PathCapacity(const FlowDeclaration& f) const;

    /**
     * Declare a group. Declaring the same spec again is a no-op; a different spec with the
     * same id is an error while the group is known.
     * \param g the group (stageTime >= 0, weight > 0)
     */
    void DeclareGroup(const FlowGroupSpec& g);
    /// \param id group id \return true if declared and not yet forgotten
    bool HasGroup(uint64_t id) const;
    /// \param id a known group \return its spec
    const FlowGroupSpec& GetGroup(uint64_t id) const;
    /// \param id a known group \return every flow added to it, in order of addition
    const std::vector<Flow>& GetGroupHistory(uint64_t id) const;
    /// \param id a known group \return its live flows count
    uint32_t GetGroupLive(uint64_t id) const;
    /// \return number of known groups
    std::size_t GetNGroups() const;
    /**
     * Forget a group and its history (e.g. once its records are written).
     * \param id a known group without live flows
     */
    void ForgetGroup(uint64_t id);

    /**
     * Add a live flow released now (validated: unique id, known group and ports, bytes >= 1,
     * offset >= 0, deadline >= 0 or infinite, weight > 0).
     * \param d the declaration \param now the release time (s, >= 0)
     */
    void AddFlow(const FlowDeclaration& d, double now);
    /// \param id a live flow \param remaining bytes left (<= its size)
    void SetRemaining(uint64_t id, uint64_t remaining);
    /**
     * Remove a finished flow; a group that reached its expectedFlows with none live is
     * forgotten.
     * \param id a live flow
     */
    void CompleteFlow(uint64_t id);
    /// \param id flow id \return true if live
    bool HasFlow(uint64_t id) const;
    /// \param id a live flow \return it
    const Flow& GetFlow(uint64_t id) const;
    /// \return the live flows (in no particular order)
    const std::vector<Flow>& GetFlows() const;

  private:
    struct Port
    {
        double up{0};
        double down{0};
    };

    struct Group
    {
        FlowGroupSpec spec;
        std::vector<Flow> history;
        uint32_t live{0};
        uint32_t done{0};
    };

    const Group& FindGroup(uint64_t id) const;

    std::map<uint32_t, Port> m_ports;
    std::unordered_map<uint64_t, Group> m_groups;
    std::vector<Flow> m_flows;
    std::unordered_map<uint64_t, std::size_t> m_index; //!< flow id -> position in m_flows
};

} // namespace ns3

#endif /* MLNET_FLOW_SCHEDULING_STATE_H */
