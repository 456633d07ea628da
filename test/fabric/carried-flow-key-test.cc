/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The parsed FlowKey that travels beside a packet from switch to switch: a packet CE-marked at
// one switch reaches the next one as CE (not marked, nor counted, again), and the mark is in
// the bytes the receiver parses. FlowKey parsed from copied bytes; the pause mask's cache.

#include "common/rdma-scenario.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

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

namespace
{
/// An IPv4 header (IHL words) followed by 4 port bytes, as bytes and as a packet.
std::vector<uint8_t>
Ipv4Bytes(uint8_t ihlWords, uint8_t protocol)
{
    std::vector<uint8_t> b(ihlWords * 4u + 4, 0);
    b[0] = uint8_t(0x40 | ihlWords);
    b[1] = uint8_t((5 << 2) | 2); // DSCP 5, ECT(0)
    b[9] = protocol;
    const uint8_t addrs[8] = {10, 0, 0, 1, 10, 0, 0, 7};
    std::copy(addrs, addrs + 8, b.begin() + 12);
    const uint8_t ports[4] = {0x12, 0x34, 0x12, 0xb7}; // 4660 -> 4791
    std::copy(ports, ports + 4, b.begin() + ihlWords * 4);
    return b;
}
} // namespace

TEST_CASE("fabric: FlowKey parsed from copied bytes equals the key parsed from the packet",
          "[fabric]")
{
    for (uint8_t ihl : {5, 6, 15})
    {
        for (uint8_t proto : {17, 6, 1})
        {
            INFO("IHL " << unsigned(ihl) << ", protocol " << unsigned(proto));
            std::vector<uint8_t> b = Ipv4Bytes(ihl, proto);
            Ptr<Packet> p = Create<Packet>(b.data(), b.size());
            FlowKey fromPacket;
            FlowKey fromBytes;
            REQUIRE(fromPacket.Parse(*p));
            REQUIRE(fromBytes.Parse(b.data(), b.size()));
            CHECK(fromBytes.src == fromPacket.src);
            CHECK(fromBytes.dst == fromPacket.dst);
            CHECK(fromBytes.sport == fromPacket.sport);
            CHECK(fromBytes.dport == fromPacket.dport);
            CHECK(fromBytes.protocol == proto);
            CHECK(fromBytes.dscp == 5);
            CHECK(fromBytes.ecn == 2);
            CHECK(fromBytes.dport == (proto == 1 ? 0 : 4791));
            // Bytes that stop before the ports: the addresses, no ports.
            FlowKey shortKey;
            REQUIRE(shortKey.Parse(b.data(), ihl * 4u + 3));
            CHECK(shortKey.dst == fromPacket.dst);
            CHECK(shortKey.dport == 0);
        }
    }
    std::vector<uint8_t> v6 = Ipv4Bytes(5, 17);
    v6[0] = 0x65;
    FlowKey k;
    CHECK_FALSE(k.Parse(v6.data(), v6.size()));
    CHECK_FALSE(k.Parse(v6.data(), 19));
}

TEST_CASE("fabric: a port's pause mask follows PFC pauses and their expiry, again after an "
          "expiry",
          "[fabric]")
{
    Ptr<FabricNetDevice> dev = CreateObject<FabricNetDevice>(); // not attached: nothing sent
    const Time quantum = dev->GetDataRate().CalculateBytesTxTime(PfcHeader::kBitsPerQuantum / 8);
    auto pause = [dev](uint8_t cls, uint16_t quanta) {
        PfcHeader h;
        h.SetPause(cls, quanta);
        Ptr<Packet> p = Create<Packet>(PfcHeader::kFrameBytes - h.GetSerializedSize());
        p->AddHeader(h);
        dev->Receive(p, PfcHeader::kEtherType);
    };
    std::vector<std::pair<double, unsigned>> seen; // (time in quanta, mask)
    auto look = [&seen, dev, quantum]() {
        seen.emplace_back(Simulator::Now().GetPicoSeconds() / double(quantum.GetPicoSeconds()),
                          dev->GetPausedMask());
    };
    Simulator::Schedule(Time(0), look);
    Simulator::Schedule(quantum, [&pause]() { pause(3, 10); });    // class 3 until 11 quanta
    Simulator::Schedule(quantum * 2, [&pause]() { pause(5, 4); }); // class 5 until 6 quanta
    for (int t : {3, 7, 12, 20})
    {
        Simulator::Schedule(quantum * t, look);
    }
    Simulator::Schedule(quantum * 21, [&pause]() { pause(1, 2); }); // after every expiry
    Simulator::Schedule(quantum * 22, look);
    Simulator::Schedule(quantum * 23, look);
    Simulator::Schedule(quantum * 24, [&pause]() { pause(1, 10); });
    Simulator::Schedule(quantum * 24 + PicoSeconds(1), look);
    Simulator::Schedule(quantum * 25, [&pause]() { pause(1, 0); }); // resumed before it expires
    Simulator::Schedule(quantum * 25 + PicoSeconds(1), look);
    Simulator::Run();
    const std::vector<std::pair<double, unsigned>> expected{{0, 0},
                                                            {3, 0x28},
                                                            {7, 0x08},
                                                            {12, 0},
                                                            {20, 0},
                                                            {22, 0x02},
                                                            {23, 0},
                                                            {24, 0x02},
                                                            {25, 0}};
    REQUIRE(seen.size() == expected.size());
    for (std::size_t i = 0; i < seen.size(); ++i)
    {
        INFO("look " << i << " at " << seen[i].first << " quanta");
        CHECK(std::lround(seen[i].first) == std::lround(expected[i].first));
        CHECK(seen[i].second == expected[i].second);
    }
    Simulator::Destroy();
}
