/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_CONGESTION_CONTROL_RECORD_H
#define MLNET_CONGESTION_CONTROL_RECORD_H

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The congestion control a traffic entry of a run actually used: its algorithm and the
 * effective value of every parameter, whatever set it (the scenario, a global attribute
 * default, the built-in default). One entry of summary.json's "congestionControl".
 */
struct CongestionControlRecord
{
    std::string entry;          //!< the traffic entry, e.g. "traffic[2]"
    std::string type;           //!< its traffic type, e.g. "rdma"
    std::string typeId;         //!< the algorithm's TypeId, e.g. "ns3::Dcqcn"
    double aggressiveness{1.0}; //!< the DcqcnProfile applied (1 = none)
    /// (attribute name, value in ns-3's attribute syntax), e.g. ("RateAI", "40000000bps")
    std::vector<std::pair<std::string, std::string>> attributes;
};

} // namespace ns3

#endif /* MLNET_CONGESTION_CONTROL_RECORD_H */
