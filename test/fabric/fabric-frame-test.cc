/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The compact frame (FabricFrame): the packet it materialises is the one the RDMA NIC would
// have built, byte for byte; its bytes, ECN marking and FlowKey equal the packet's; copies share
// a packet, moves leave the source empty; and a simulation gives the same results whether
// traces materialise every frame or no frame is ever materialised.

#include "common/rdma-scenario.h"

#include "ns3/fabric-frame.h"
#include "ns3/roce-v2-header.h"

#include <catch2/catch.hpp>
#include <vector>

using namespace ns3;
using mlnettest::RdmaDumbbell;

namespace
{
/// The RoCEv2 headers of a data packet, an ACK and a CNP.
std::vector<RoceV2Header>
SampleHeaders()
{
    std::vector<RoceV2Header> hs;
    for (uint8_t op :
         {uint8_t(RoceHeader::WRITE_MIDDLE), uint8_t(RoceHeader::ACK), uint8_t(RoceHeader::CNP)})
    {
        RoceV2Header h;
        h.src = Ipv4Address("10.0.0.1").Get();
        h.dst = Ipv4Address("10.0.3.7").Get();
        h.dscp = 3;
        h.ecn = op == RoceHeader::WRITE_MIDDLE ? 2 : 0;
        h.sport = 49321;
        h.bth.m_opcode = op;
        h.bth.m_destQp = 0x123456;
        h.bth.m_psn = 0xabcdef;
        h.bth.m_ackRequest = op == RoceHeader::WRITE_MIDDLE;
        h.bth.m_syndrome = op == RoceHeader::ACK ? RoceHeader::kNakSequenceError : 0;
        h.bth.m_msn = 77;
        h.payload = op == RoceHeader::WRITE_MIDDLE ? 1004 : 4; // payload + ICRC
        hs.push_back(h);
    }
    return hs;
}

/// The packet as the NIC built it before compact frames: Create + AddHeader.
Ptr<Packet>
ReferencePacket(const RoceV2Header& h)
{
    Ptr<Packet> p = Create<Packet>(h.payload);
    p->AddHeader(h);
    return p;
}

/// A compact frame of the same headers, as RdmaNic::MakeFrame builds it.
FabricFrame
CompactFrame(const RoceV2Header& h)
{
    FabricFrame f;
    const uint32_t n = h.Write(f.Headers());
    f.SetCompact(n, n + h.payload, &RoceV2Header::Materialise);
    return f;
}

std::vector<uint8_t>
Bytes(const Packet& p)
{
    std::vector<uint8_t> b(p.GetSize());
    p.CopyData(b.data(), b.size());
    return b;
}

std::vector<uint8_t>
Bytes(const FabricFrame& f, uint32_t n)
{
    std::vector<uint8_t> b(n, 0xee);
    b.resize(f.CopyData(b.data(), n));
    return b;
}
} // namespace

TEST_CASE("fabric: a compact frame's bytes, size and materialised packet equal the packet the "
          "RoCEv2 header stack builds",
          "[fabric]")
{
    for (const RoceV2Header& h : SampleHeaders())
    {
        INFO("opcode " << unsigned(h.bth.m_opcode));
        Ptr<Packet> ref = ReferencePacket(h);
        FabricFrame f = CompactFrame(h);
        REQUIRE(f.IsCompact());
        REQUIRE_FALSE(f.IsEmpty());
        REQUIRE(f.GetSize() == ref->GetSize());
        const std::vector<uint8_t> refBytes = Bytes(*ref);
        // Any prefix, shorter or longer than the inline headers, and beyond the size.
        for (uint32_t n : {0u, 1u, 20u, 40u, 44u, 56u, 57u, 200u, ref->GetSize(), 5000u})
        {
            std::vector<uint8_t> want(refBytes.begin(),
                                      refBytes.begin() + std::min<uint32_t>(n, refBytes.size()));
            CHECK(Bytes(f, n) == want);
        }
        FlowKey fromFrame;
        FlowKey fromPacket;
        REQUIRE(fromFrame.Parse(f));
        REQUIRE(fromPacket.Parse(*ref));
        CHECK(fromFrame.src == fromPacket.src);
        CHECK(fromFrame.dst == fromPacket.dst);
        CHECK(fromFrame.sport == fromPacket.sport);
        CHECK(fromFrame.dport == fromPacket.dport);
        CHECK(fromFrame.dscp == fromPacket.dscp);
        CHECK(fromFrame.ecn == fromPacket.ecn);

        Ptr<Packet> p = f.GetPacket();
        REQUIRE(p);
        CHECK_FALSE(f.IsCompact());
        CHECK(f.GetPacket() == p); // materialised once, then the frame is that packet
        CHECK(Bytes(*p) == refBytes);
        RoceV2Header back;
        REQUIRE(p->PeekHeader(back) == h.GetSerializedSize());
        CHECK(back.bth.m_opcode == h.bth.m_opcode);
        CHECK(back.payload == h.payload);
    }
}

TEST_CASE("fabric: CE marking a compact frame gives the bytes of CE marking the packet", "[fabric]")
{
    for (const RoceV2Header& h : SampleHeaders())
    {
        INFO("opcode " << unsigned(h.bth.m_opcode));
        Ptr<Packet> ref = ReferencePacket(h);
        FabricFrame::SetEcnCe(*ref); // the switch's marking of a packet (Ipv4Header)
        FabricFrame compact = CompactFrame(h);
        compact.SetEcnCe();
        REQUIRE(compact.IsCompact());
        CHECK(Bytes(compact, compact.GetSize()) == Bytes(*ref));
        CHECK(Bytes(*compact.GetPacket()) == Bytes(*ref));
        FlowKey k;
        REQUIRE(k.Parse(compact));
        CHECK(k.ecn == 3);
        // A frame already materialised is marked in its packet.
        FabricFrame late = CompactFrame(h);
        Ptr<Packet> p = late.GetPacket();
        late.SetEcnCe();
        CHECK(Bytes(*p) == Bytes(*ref));
    }
}

TEST_CASE("fabric: frame copies share a packet, moves leave the source empty", "[fabric]")
{
    Ptr<Packet> p = Create<Packet>(100);
    REQUIRE(p->GetReferenceCount() == 1);
    {
        FabricFrame a(p);
        CHECK(p->GetReferenceCount() == 2);
        FabricFrame b(a);
        CHECK(p->GetReferenceCount() == 3);
        FabricFrame c(std::move(a));
        CHECK(p->GetReferenceCount() == 3);
        CHECK(a.IsEmpty());
        CHECK(a.GetSize() == 0);
        FabricFrame d;
        d = std::move(b);
        CHECK(b.IsEmpty());
        CHECK(p->GetReferenceCount() == 3);
        d = c; // copy over a frame holding the same packet
        CHECK(p->GetReferenceCount() == 3);
        d.Clear();
        CHECK(p->GetReferenceCount() == 2);
        CHECK(c.GetPacket() == p);
        CHECK(c.GetSize() == 100);
        FabricFrame e = CompactFrame(SampleHeaders()[0]);
        c = std::move(e); // the packet's reference goes
        CHECK(p->GetReferenceCount() == 1);
        CHECK(c.IsCompact());
        CHECK(e.IsEmpty());
    }
    CHECK(p->GetReferenceCount() == 1);
    FabricFrame empty;
    CHECK(empty.IsEmpty());
    CHECK_FALSE(empty.GetPacket());
    uint8_t b[4];
    CHECK(empty.CopyData(b, 4) == 0);
}

TEST_CASE("fabric: a frame's note travels with it until its packet is materialised", "[fabric]")
{
    STATIC_REQUIRE(sizeof(FabricFrame) == 24); // a pointer, the note and the size
    FabricFrame a = CompactFrame(SampleHeaders()[0]);
    CHECK(a.GetNote() == 0);
    a.SetNote(0x1234567890abcdefULL);
    FabricFrame b(a); // a copy carries the note, with its own header block
    CHECK(b.GetNote() == 0x1234567890abcdefULL);
    CHECK(Bytes(b, 64) == Bytes(a, 64));
    FabricFrame c(std::move(a)); // a move takes it
    CHECK(c.GetNote() == 0x1234567890abcdefULL);
    CHECK(a.GetNote() == 0);
    FabricFrame d;
    d = std::move(c);
    CHECK(d.GetNote() == 0x1234567890abcdefULL);
    CHECK(c.GetNote() == 0);
    d.SetEcnCe(); // ECN is carried in the flow key, not in notes: a note stays
    CHECK(d.GetNote() == 0x1234567890abcdefULL);
    Ptr<Packet> p = d.GetPacket(); // whoever holds the packet may change it: the note goes
    CHECK(d.GetNote() == 0);
    CHECK_FALSE(d.IsCompact());
    CHECK(p->GetSize() == ReferencePacket(SampleHeaders()[0])->GetSize());
    b.Headers(); // a producer writing new headers drops the old note
    CHECK(b.GetNote() == 0);
    b.Clear();
    CHECK(b.GetNote() == 0);
    CHECK(b.IsEmpty());
}

namespace
{
struct Outcome
{
    uint64_t marks{0};
    uint64_t ceReceived{0};
    uint64_t received{0};
    uint64_t pauses{0};
    std::vector<double> done; //!< completion time of each sender's message (s)
    uint64_t traced{0};       //!< packets the traces saw
};

void
CountPacket(uint64_t* n, Ptr<const Packet>)
{
    ++*n;
}

void
Done(double* t, uint64_t /* id */, uint64_t /* bytes */)
{
    *t = Simulator::Now().GetSeconds();
}

/// Seven senders into one receiver across two switches, DCQCN, ECN at both switches; with
/// traces on every device (every frame materialised at its first hop) or none.
Outcome
RunIncast(bool traces)
{
    RdmaDumbbell d(4, 4, true, 2u * 1024 * 1024);
    for (uint32_t s = 0; s < d.topo.switches.GetN(); ++s)
    {
        Ptr<FabricSwitch> sw = d.topo.switches.Get(s)->GetObject<FabricSwitch>();
        sw->SetAttribute("EcnKmin", UintegerValue(20000));
        sw->SetAttribute("EcnKmax", UintegerValue(200000));
    }
    Outcome o;
    if (traces)
    {
        for (uint32_t n = 0; n < d.topo.switches.GetN() + d.topo.hosts.GetN(); ++n)
        {
            Ptr<Node> node = n < d.topo.switches.GetN()
                                 ? d.topo.switches.Get(n)
                                 : d.topo.hosts.Get(n - d.topo.switches.GetN());
            for (uint32_t i = 0; i < node->GetNDevices(); ++i)
            {
                Ptr<NetDevice> dev = node->GetDevice(i);
                for (const char* src : {"MacTx", "PhyTxBegin", "PhyRxEnd", "MacRx"})
                {
                    dev->TraceConnectWithoutContext(src,
                                                    MakeBoundCallback(&CountPacket, &o.traced));
                }
            }
        }
    }
    const uint32_t receiver = 4;
    const std::vector<uint32_t> senders{0, 1, 2, 3, 5, 6, 7};
    o.done.assign(senders.size(), -1.0);
    for (uint32_t k = 0; k < senders.size(); ++k)
    {
        d.Connect(senders[k], receiver)->PostSend(400000, MakeBoundCallback(&Done, &o.done[k]));
    }
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    for (uint32_t s = 0; s < d.topo.switches.GetN(); ++s)
    {
        Ptr<FabricSwitch> sw = d.topo.switches.Get(s)->GetObject<FabricSwitch>();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            o.marks += sw->GetPortStats(p).ecnMarks;
        }
    }
    o.ceReceived = d.nics[receiver]->GetCeReceived();
    o.received = d.nics[receiver]->GetBytesReceived();
    o.pauses = d.Pauses();
    Simulator::Destroy();
    return o;
}
} // namespace

TEST_CASE("fabric: traces that materialise every frame change no result of an RDMA incast",
          "[fabric]")
{
    Outcome plain = RunIncast(false);
    Outcome traced = RunIncast(true);
    INFO("marks " << plain.marks << " / " << traced.marks << ", CE " << plain.ceReceived << " / "
                  << traced.ceReceived << ", pauses " << plain.pauses << " / " << traced.pauses);
    REQUIRE(plain.received == 7 * 400000);
    REQUIRE(plain.marks > 0); // the switches marked compact frames and, traced, packets
    CHECK(plain.traced == 0);
    CHECK(traced.traced > 4 * 7 * 400000 / 1000); // every hop of every packet, several traces
    CHECK(traced.received == plain.received);
    CHECK(traced.marks == plain.marks);
    CHECK(traced.ceReceived == plain.ceReceived);
    CHECK(traced.ceReceived == plain.marks);
    CHECK(traced.pauses == plain.pauses);
    for (double t : plain.done)
    {
        CHECK(t > 0); // every message completed
    }
    CHECK(traced.done == plain.done);
}
