/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The RDMA NIC's one-pass header stack must be byte-identical to ns-3's own IPv4 and UDP
// headers followed by the BTH, so switches, pcap and Wireshark see ordinary RoCEv2 packets; the
// parsed key the NIC hands its port with a packet is the packet's own.

#include "common/rdma-scenario.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <tuple>

using namespace ns3;

namespace
{
std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}
} // namespace

TEST_CASE("rdma: RoceV2Header equals Ipv4Header + UdpHeader + RoceHeader byte for byte", "[rdma]")
{
    for (uint8_t opcode :
         {uint8_t(RoceHeader::WRITE_ONLY), uint8_t(RoceHeader::ACK), uint8_t(RoceHeader::CNP)})
    {
        RoceHeader bth;
        bth.m_opcode = opcode;
        bth.m_destQp = 0x123456;
        bth.m_psn = 0xabcdef;
        bth.m_ackRequest = true;
        bth.m_syndrome = RoceHeader::kNakSequenceError;
        bth.m_msn = 77;
        const uint32_t payload = 1004;

        Ptr<Packet> a = Create<Packet>(payload);
        RoceV2Header h;
        h.src = Ipv4Address("10.0.0.1").Get();
        h.dst = Ipv4Address("10.0.3.7").Get();
        h.dscp = 3;
        h.ecn = 2;
        h.sport = 50000;
        h.payload = payload;
        h.bth = bth;
        a->AddHeader(h);

        Ptr<Packet> b = Create<Packet>(payload);
        b->AddHeader(bth);
        UdpHeader udp;
        udp.SetSourcePort(50000);
        udp.SetDestinationPort(RoceHeader::kUdpPort);
        b->AddHeader(udp);
        Ipv4Header ip;
        ip.SetSource(Ipv4Address(h.src));
        ip.SetDestination(Ipv4Address(h.dst));
        ip.SetProtocol(17);
        ip.SetPayloadSize(b->GetSize());
        ip.SetTtl(64);
        ip.SetDscp(Ipv4Header::DscpType(3));
        ip.SetEcn(Ipv4Header::ECN_ECT0);
        ip.SetDontFragment();
        b->AddHeader(ip);

        REQUIRE(Bytes(a) == Bytes(b));

        RoceV2Header back;
        a->RemoveHeader(back);
        REQUIRE(back.src == h.src);
        REQUIRE(back.dst == h.dst);
        REQUIRE(back.dscp == 3);
        REQUIRE(back.ecn == 2);
        REQUIRE(back.sport == 50000);
        REQUIRE(back.payload == payload);
        REQUIRE(back.bth.m_opcode == opcode);
        REQUIRE(back.bth.m_destQp == 0x123456);
        REQUIRE(back.bth.m_psn == 0xabcdef);
    }
}

TEST_CASE("rdma: the FlowKey the NIC hands its port with a packet equals the packet's parsed "
          "headers",
          "[rdma]")
{
    // The first switch forwards on this key instead of parsing the packet (FabricPullSource).
    mlnettest::RdmaDumbbell d(2, 1);
    Ptr<RdmaQueuePair> qp = d.Connect(0, 2);
    qp->SetPriorityClass(5);
    // Pulled here instead of by the port (which would take the first packet at once).
    d.nics[0]->GetDevice()->SetPullSource(nullptr);
    qp->PostSend(3000);
    FabricPullSource* nic = PeekPointer(d.nics[0]); // the port's view of its NIC
    const FlowKey* key = nullptr;
    FabricFrame f;
    REQUIRE(nic->PortPull(0, f, key));
    REQUIRE(f.IsCompact());
    REQUIRE(key != nullptr);
    FlowKey parsed;
    REQUIRE(parsed.Parse(*f.GetPacket()));
    CHECK(key->src == parsed.src);
    CHECK(key->dst == parsed.dst);
    CHECK(key->sport == parsed.sport);
    CHECK(key->dport == parsed.dport);
    CHECK(key->protocol == parsed.protocol);
    CHECK(key->dscp == parsed.dscp);
    CHECK(key->ecn == parsed.ecn);
    CHECK(parsed.dscp == 5);
    CHECK(parsed.ecn == 2); // ECT(0)
    CHECK(parsed.dport == RoceHeader::kUdpPort);
    Simulator::Destroy();
}

TEST_CASE("rdma: RoceV2Header::Key() is FlowKey::Parse of the bytes Write() produces", "[rdma]")
{
    // The NIC takes the key from the fields instead of reading back the header block.
    RoceV2Header h;
    uint8_t b[64];
    for (uint8_t opcode : {uint8_t(RoceHeader::WRITE_ONLY), uint8_t(RoceHeader::ACK)})
    {
        for (uint8_t dscp : {uint8_t(0), uint8_t(5), uint8_t(63)})
        {
            for (uint8_t ecn : {uint8_t(0), uint8_t(1), uint8_t(2), uint8_t(3)})
            {
                h.src = Ipv4Address("10.1.2.3").Get();
                h.dst = Ipv4Address("192.168.255.4").Get();
                h.dscp = dscp;
                h.ecn = ecn;
                h.sport = uint16_t(49152 + dscp * 7 + ecn);
                h.payload = 1028;
                h.bth.m_opcode = opcode;
                const uint32_t n = h.Write(b);
                FlowKey parsed;
                REQUIRE(parsed.Parse(b, n));
                const FlowKey k = h.Key();
                auto fields = [](const FlowKey& x) {
                    return std::make_tuple(x.src,
                                           x.dst,
                                           x.sport,
                                           x.dport,
                                           x.protocol,
                                           x.dscp,
                                           x.ecn,
                                           x.reserved);
                };
                CHECK(fields(k) == fields(parsed));
            }
        }
    }
}
