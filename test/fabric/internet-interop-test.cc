/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// An ordinary ns-3 TCP flow (internet stack, BulkSend -> PacketSink) shares the fabric with an
// RDMA flow: the NIC hands non-RoCE packets to the internet stack, switches forward any IPv4.

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>

using namespace ns3;

TEST_CASE("fabric: ns-3 TCP traffic shares the fabric with RDMA traffic", "[fabric]")
{
    FabricTopologyHelper th;
    FabricTopology t = th.BuildDumbbell(2, 2);
    InternetStackHelper internet;
    internet.Install(t.hosts);
    FabricHelper::AttachInternetStack(t.hosts);
    RdmaHelper rdma;
    std::vector<Ptr<RdmaNic>> nics = rdma.Install(t.hosts);

    const uint64_t tcpBytes = 2000000;
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(t.HostAddress(2), 5000));
    bulk.SetAttribute("MaxBytes", UintegerValue(tcpBytes));
    bulk.Install(t.hosts.Get(0)).Start(Seconds(0));
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), 5000));
    ApplicationContainer sinkApp = sinkHelper.Install(t.hosts.Get(2));

    Ptr<RdmaQueuePair> qp = nics[1]->Connect(nics[3]);
    qp->PostSend(5000000);

    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    REQUIRE(DynamicCast<PacketSink>(sinkApp.Get(0))->GetTotalRx() == tcpBytes);
    REQUIRE(qp->GetBytesAcked() == 5000000);
    REQUIRE(nics[3]->GetBytesReceived() == 5000000);
    Simulator::Destroy();
}
