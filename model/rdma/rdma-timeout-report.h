/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_RDMA_TIMEOUT_REPORT_H
#define MLNET_RDMA_TIMEOUT_REPORT_H

#include "ns3/node-container.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The RDMA queue pairs' retransmission timeouts of a run, and the one-line warning that
 * mlnet-run puts in summary.json and the examples print.
 *
 * A timeout (RdmaNic::RetransmitTimeout without progress) makes a queue pair go back to its
 * oldest unacknowledged packet and send everything after it again: bytes that load the fabric
 * and lengthen flows and iterations. Without a drop they are spurious (the timeout is below
 * the queueing delay). Count the run before Simulator::Destroy (which disposes the NICs).
 */
struct RdmaTimeoutReport
{
    uint64_t timeouts{0};     //!< retransmission timeouts of every queue pair
    uint32_t queuePairs{0};   //!< queue pairs with at least one
    Time timeout;             //!< RdmaNic::RetransmitTimeout of a NIC with one
    uint64_t droppedBytes{0}; //!< bytes the switches dropped on admission

    /**
     * \param nodes the nodes to look at: the RdmaNics' queue pairs are counted, the
     * FabricSwitches' dropped bytes added up (other nodes are skipped)
     * \return their timeouts and drops
     */
    static RdmaTimeoutReport Count(const NodeContainer& nodes);

    /// \return the warning (number of timeouts, queue pairs, the timeout, whether they recover
    /// drops or are spurious), or an empty string if no queue pair timed out
    std::string Warning() const;
};

} // namespace ns3

#endif /* MLNET_RDMA_TIMEOUT_REPORT_H */
