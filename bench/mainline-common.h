/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The mainline ns-3 baseline of the benchmarks: point-to-point links, traffic-control
// RedQueueDisc with ECN on every port, Ipv4 global routing with (per-packet) random ECMP, and a
// UDP sender marking its packets ECT(0).

#ifndef MLNET_BENCH_MAINLINE_COMMON_H
#define MLNET_BENCH_MAINLINE_COMMON_H

#include "ns3/application.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/socket.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace bench
{

/// A mainline topology: hosts, routers ("switches") and each host's address.
struct MainlineTopology
{
    NodeContainer hosts;               //!< hosts
    NodeContainer switches;            //!< IPv4 routers standing in for switches
    std::vector<Ipv4Address> hostAddr; //!< address of host i
    uint32_t links{0};                 //!< point-to-point links
};

/// Link and queue parameters, matched to the mlnet fabric's defaults.
struct MainlineLinkParams
{
    DataRate rate{"100Gbps"};    //!< link rate
    Time delay{MicroSeconds(1)}; //!< propagation delay
    uint32_t redMinTh{390};      //!< RED MinTh, packets (~ the fabric's Kmin 400 kB)
    uint32_t redMaxTh{1560};     //!< RED MaxTh, packets (~ the fabric's Kmax 1600 kB)
    double redMaxP{0.2};         //!< RED max marking probability (the fabric's Pmax)
    uint32_t redLimit{10000};    //!< RED queue limit, packets
};

/**
 * Set the global defaults of the baseline (random ECMP). Call before building.
 */
void MainlineDefaults();

/**
 * Dumbbell: nLeft hosts on router 0, nRight hosts on router 1, one link between.
 * \param nLeft left hosts \param nRight right hosts \param lp link parameters
 * \return the topology, routes populated
 */
MainlineTopology BuildMainlineDumbbell(uint32_t nLeft,
                                       uint32_t nRight,
                                       const MainlineLinkParams& lp);

/**
 * k-ary fat-tree with the same node numbering as FabricTopologyHelper::BuildFatTree.
 * \param k arity \param lp link parameters
 * \return the topology, routes populated
 */
MainlineTopology BuildMainlineFatTree(uint32_t k, const MainlineLinkParams& lp);

/**
 * UDP sender at a constant rate; sets IP TOS to ECT(0) after Connect (Connect overwrites it).
 */
class EcnUdpSender : public Application
{
  public:
    static TypeId GetTypeId();
    /**
     * Configure.
     * \param dst destination \param dport destination port \param sport source port
     * \param rate rate (IPv4 bytes) \param payload UDP payload bytes
     */
    void Setup(Ipv4Address dst, uint16_t dport, uint16_t sport, DataRate rate, uint32_t payload);
    uint64_t GetPacketsSent() const; //!< \return packets sent

  private:
    void StartApplication() override;
    void StopApplication() override;
    void SendNext();

    Ptr<Socket> m_socket;
    Ipv4Address m_dst;
    uint16_t m_dport{9};
    uint16_t m_sport{0};
    DataRate m_rate;
    uint32_t m_payload{1000};
    uint64_t m_sent{0};
    EventId m_event;
};

/**
 * Install the traffic source of one flow.
 * \param src source host \param dst destination address \param sport source port
 * \param rate rate \param payload payload bytes
 * \return the application
 */
Ptr<Application> InstallMainlineSource(Ptr<Node> src,
                                       Ipv4Address dst,
                                       uint16_t sport,
                                       DataRate rate,
                                       uint32_t payload);

/**
 * Install a UDP PacketSink on port 9.
 * \param host the host
 * \return the sink
 */
Ptr<Application> InstallMainlineSink(Ptr<Node> host);

/// \return bytes received by a PacketSink
uint64_t MainlineSinkBytes(Ptr<Application> sink);

/// Queue-disc counters summed over every device.
struct MainlineQueueTotals
{
    uint64_t drops{0};    //!< packets dropped by queue discs
    uint64_t ecnMarks{0}; //!< packets CE-marked by queue discs
};

/// \return the queue-disc counters summed over every node
MainlineQueueTotals SumQueueDiscStats();

} // namespace bench
} // namespace ns3

#endif /* MLNET_BENCH_MAINLINE_COMMON_H */
