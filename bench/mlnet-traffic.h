/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The traffic of the mlnet benchmarks, in one place: today constant-rate UDP-like flows
// (ConstantRateFlow); the RDMA/DCQCN queue pairs replace them here and nowhere else.

#ifndef MLNET_BENCH_MLNET_TRAFFIC_H
#define MLNET_BENCH_MLNET_TRAFFIC_H

#include "ns3/application.h"
#include "ns3/background-traffic.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/flow-sink.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <string>

namespace ns3
{
namespace bench
{

/// Parameters of one benchmark flow.
struct MlnetFlowParams
{
    DataRate rate{"100Gbps"}; //!< sending rate (IPv4 bytes)
    uint32_t payload{1000};   //!< payload bytes per packet
    uint8_t cls{0};           //!< priority class
    Time start;               //!< start time
    Time stop;                //!< stop time (zero: never)
    /// "rdma": an RDMA queue pair with DCQCN (the default); "udp": a ConstantRateFlow
    std::string transport{"rdma"};
    uint32_t ackInterval{1};  //!< RDMA: the receiver acknowledges every this many packets
    uint64_t messageBytes{0}; //!< RDMA: one message of this size (0: endless)
    /// RDMA with messageBytes > 0: called when the message is acknowledged completely
    std::function<void()> onDone;
};

/**
 * Install the traffic source of one flow (the only function creating mlnet traffic): an RDMA
 * queue pair with DCQCN posting one endless message (RDMA NICs are installed on demand), or a
 * ConstantRateFlow at fp.rate.
 * \param src source host \param dst destination host \param sport UDP source port of a
 * ConstantRateFlow (ECMP key; RDMA derives its own from the QP)
 * \param fp parameters
 * \return the queue pair or the application
 */
Ptr<Object> InstallMlnetSource(Ptr<Node> src,
                               Ptr<Node> dst,
                               uint16_t sport,
                               const MlnetFlowParams& fp);
/**
 * \param host a host
 * \return payload bytes received by the host (its FlowSinks and its RDMA NIC together)
 */
uint64_t ReceivedBytes(Ptr<Node> host);

/**
 * Install the receiver on a host.
 * \param host the host
 * \return the sink
 */
Ptr<FlowSink> InstallMlnetSink(Ptr<Node> host);

/**
 * Background traffic on every host of a topology: flows arrive as a Poisson process at each
 * host, sizes drawn from a CDF, each to a uniformly random other host as one RDMA message
 * (BackgroundTraffic; RDMA NICs are installed on demand with fp's Mtu and AckInterval).
 * \param hosts the hosts \param cdf "websearch" or "datamining" \param load offered payload
 * load per host, fraction of fp.rate, (0, 1] \param fp parameters (rate, payload, ackInterval)
 * \param stream first random stream index \return the generator (started at time 0)
 */
Ptr<BackgroundTraffic> InstallMlnetBackground(const NodeContainer& hosts,
                                              const std::string& cdf,
                                              double load,
                                              const MlnetFlowParams& fp,
                                              int64_t stream);

/// Switch counters summed over a topology.
struct MlnetSwitchTotals
{
    uint64_t drops{0};    //!< packets dropped
    uint64_t ecnMarks{0}; //!< packets CE-marked
    uint64_t pauses{0};   //!< PFC pause frames sent
};

/// \return the switch counters summed over every switch of t
MlnetSwitchTotals SumSwitchStats(const FabricTopology& t);

} // namespace bench
} // namespace ns3

#endif /* MLNET_BENCH_MLNET_TRAFFIC_H */
