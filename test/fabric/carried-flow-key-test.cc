/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The parsed FlowKey that travels beside a packet from switch to switch: a packet CE-marked at
// one switch reaches the next one as CE (not marked, nor counted, again), and the mark is in
// the bytes the receiver parses.

#include "common/rdma-scenario.h"

#include <catch2/catch.hpp>

using namespace ns3;
using mlnettest::RdmaDumbbell;

namespace
{
struct MarkCount
{
    uint64_t left{0};  //!< marks at the senders' switch (egress to the bottleneck link)
    uint64_t right{0}; //!< marks at the receiver's switch (egress to the receiver)
    uint64_t ceReceived{0};
    uint64_t received{0};
};

/// Four senders on the left switch and three on the right, all to one receiver on the right:
/// the bottleneck link and the receiver's port both queue, so packets from the left cross two
/// marking queues in series. Fixed-rate senders keep both queues above a low Kmin.
MarkCount
RunTwoQueues(const std::string& point)
{
    RdmaDumbbell d(4, 4, true, 32u * 1024 * 1024, "ns3::RdmaFixedRate");
    for (uint32_t s = 0; s < d.topo.switches.GetN(); ++s)
    {
        Ptr<FabricSwitch> sw = d.topo.switches.Get(s)->GetObject<FabricSwitch>();
        sw->SetAttribute("EcnKmin", UintegerValue(20000));
        sw->SetAttribute("EcnKmax", UintegerValue(200000));
        sw->SetAttribute("EcnPmax", DoubleValue(0.5));
        sw->SetAttribute("EcnMarkingPoint", StringValue(point));
    }
    const uint32_t receiver = 4;
    for (uint32_t i : {0u, 1u, 2u, 3u, 5u, 6u, 7u})
    {
        d.Connect(i, receiver)->PostSend(300000);
    }
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    MarkCount c;
    Ptr<FabricSwitch> left = d.topo.switches.Get(0)->GetObject<FabricSwitch>();
    Ptr<FabricSwitch> right = d.topo.switches.Get(1)->GetObject<FabricSwitch>();
    for (uint32_t p = 0; p < left->GetNPorts(); ++p)
    {
        c.left += left->GetPortStats(p).ecnMarks;
    }
    for (uint32_t p = 0; p < right->GetNPorts(); ++p)
    {
        c.right += right->GetPortStats(p).ecnMarks;
    }
    c.ceReceived = d.nics[receiver]->GetCeReceived();
    c.received = d.nics[receiver]->GetBytesReceived();
    Simulator::Destroy();
    return c;
}
} // namespace

TEST_CASE("fabric: a packet CE-marked at one switch is not marked again at the next one, and "
          "the mark reaches the receiver in the bytes",
          "[fabric]")
{
    for (const std::string point : {"Dequeue", "Enqueue"})
    {
        INFO("EcnMarkingPoint " << point);
        MarkCount c = RunTwoQueues(point);
        INFO("marks left " << c.left << ", right " << c.right << ", CE received " << c.ceReceived);
        REQUIRE(c.received == 7 * 300000);
        // Both queues marked: packets from the left crossed two marking queues in series.
        REQUIRE(c.left > 0);
        REQUIRE(c.right > 0);
        // Every mark is one CE packet at the receiver: none was marked (counted) twice, and
        // the receiver read CE from the packet bytes.
        REQUIRE(c.left + c.right == c.ceReceived);
    }
}
