/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Google Benchmark micro-benchmarks of the fabric's per-packet hot paths, so regressions show up
// at the function level: flow-key parse and hash, ECMP egress selection on a k=8 fat-tree,
// shared-buffer MMU admission and accounting, the ECN marking curve, IPv4/UDP header
// (de)serialisation, packet creation as the traffic source does it, an RDMA packet's life cycle
// as an ns3::Packet and as a compact frame, and the bare event loop.

#include "ns3/core-module.h"
#include "ns3/ipv4-header.h"
#include "ns3/mlnet-module.h"
#include "ns3/udp-header.h"

#include <benchmark/benchmark.h>
#include <vector>

using namespace ns3;

namespace
{

/// An IPv4/UDP packet as the hosts send it.
Ptr<Packet>
MakeIpv4UdpPacket(uint32_t src, uint32_t dst, uint16_t sport, uint32_t payload = 1000)
{
    Ptr<Packet> p = Create<Packet>(payload);
    UdpHeader udp;
    udp.SetSourcePort(sport);
    udp.SetDestinationPort(9);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address(src));
    ip.SetDestination(Ipv4Address(dst));
    ip.SetProtocol(17);
    ip.SetPayloadSize(p->GetSize());
    ip.SetTtl(64);
    ip.SetEcn(Ipv4Header::ECN_ECT0);
    p->AddHeader(ip);
    return p;
}

void
BM_FlowKeyParse(benchmark::State& state)
{
    Ptr<Packet> p = MakeIpv4UdpPacket(0x0a000001, 0x0a000002, 10000);
    FlowKey k;
    for (auto _ : state)
    {
        benchmark::DoNotOptimize(k.Parse(*p));
        benchmark::ClobberMemory();
    }
}

BENCHMARK(BM_FlowKeyParse);

void
BM_FlowKeyHash(benchmark::State& state)
{
    FlowKey k;
    k.src = 0x0a000001;
    k.dst = 0x0a000002;
    k.protocol = 17;
    k.dport = 9;
    uint16_t sport = 0;
    for (auto _ : state)
    {
        k.sport = sport++;
        benchmark::DoNotOptimize(k.Hash(0x12345678));
    }
}

BENCHMARK(BM_FlowKeyHash);

void
BM_FlowKeyParseAndHash(benchmark::State& state)
{
    Ptr<Packet> p = MakeIpv4UdpPacket(0x0a000001, 0x0a000002, 10000);
    FlowKey k;
    for (auto _ : state)
    {
        k.Parse(*p);
        benchmark::DoNotOptimize(k.Hash(0x12345678));
    }
}

BENCHMARK(BM_FlowKeyParseAndHash);

/// k=8 fat-tree (128 hosts), built once; SelectEgress on an edge and an aggregation switch.
struct FatTree8
{
    FatTree8()
    {
        Time::SetResolution(Time::PS);
        FabricTopologyHelper topo;
        t = topo.BuildFatTree(8);
        for (uint32_t i = 0; i < t.hosts.GetN(); ++i)
        {
            dsts.push_back(t.HostAddress(i).Get());
        }
    }

    FabricTopology t;
    std::vector<uint32_t> dsts;
};

FatTree8&
GetFatTree8()
{
    static FatTree8 ft;
    return ft;
}

void
BM_SelectEgress(benchmark::State& state, bool agg)
{
    FatTree8& ft = GetFatTree8();
    Ptr<FabricSwitch> sw = (agg ? ft.t.agg : ft.t.edge).Get(0)->GetObject<FabricSwitch>();
    FlowKey k;
    k.src = ft.dsts[0];
    k.protocol = 17;
    k.dport = 9;
    std::size_t i = 0;
    for (auto _ : state)
    {
        k.dst = ft.dsts[i];
        k.sport = uint16_t(10000 + i);
        i = (i + 1) % ft.dsts.size();
        benchmark::DoNotOptimize(sw->SelectEgress(k));
    }
}

BENCHMARK_CAPTURE(BM_SelectEgress, k8_edge, false);
BENCHMARK_CAPTURE(BM_SelectEgress, k8_agg, true);

SharedBufferMmu
MakeMmu(uint32_t ports)
{
    SharedBufferMmu mmu;
    MmuConfig cfg;
    mmu.Configure(ports, cfg, std::vector<uint32_t>(ports, 20000));
    return mmu;
}

void
BM_MmuAdmit(benchmark::State& state)
{
    SharedBufferMmu mmu = MakeMmu(64);
    uint32_t in = 0;
    for (auto _ : state)
    {
        in = (in + 1) & 63;
        benchmark::DoNotOptimize(mmu.Admit(in, 63 - in, 3, 1066));
    }
}

BENCHMARK(BM_MmuAdmit);

void
BM_MmuAdmitEnqueueDequeue(benchmark::State& state)
{
    SharedBufferMmu mmu = MakeMmu(64);
    uint32_t in = 0;
    for (auto _ : state)
    {
        in = (in + 1) & 63;
        SharedBufferMmu::Verdict v = mmu.Admit(in, 63 - in, 3, 1066);
        mmu.Enqueue(in, 63 - in, 3, 1066, v);
        benchmark::DoNotOptimize(mmu.NeedPause(in, 3));
        mmu.Dequeue(in, 63 - in, 3, 1066);
        benchmark::DoNotOptimize(mmu.CanResume(in, 3));
    }
}

BENCHMARK(BM_MmuAdmitEnqueueDequeue);

void
BM_EcnProbability(benchmark::State& state)
{
    uint64_t q = 0;
    for (auto _ : state)
    {
        q = (q + 7919) % 2000000;
        benchmark::DoNotOptimize(FabricSwitch::EcnProbability(q, 400000, 1600000, 0.2));
    }
}

BENCHMARK(BM_EcnProbability);

void
BM_Ipv4UdpSerialize(benchmark::State& state)
{
    Ptr<Packet> base = Create<Packet>(1000);
    for (auto _ : state)
    {
        Ptr<Packet> p = base->Copy();
        UdpHeader udp;
        udp.SetSourcePort(10000);
        udp.SetDestinationPort(9);
        p->AddHeader(udp);
        Ipv4Header ip;
        ip.SetSource(Ipv4Address(0x0a000001));
        ip.SetDestination(Ipv4Address(0x0a000002));
        ip.SetProtocol(17);
        ip.SetPayloadSize(p->GetSize());
        p->AddHeader(ip);
        benchmark::DoNotOptimize(p->GetSize());
    }
}

BENCHMARK(BM_Ipv4UdpSerialize);

void
BM_Ipv4UdpDeserialize(benchmark::State& state)
{
    Ptr<Packet> base = MakeIpv4UdpPacket(0x0a000001, 0x0a000002, 10000);
    for (auto _ : state)
    {
        Ptr<Packet> p = base->Copy();
        Ipv4Header ip;
        p->RemoveHeader(ip);
        UdpHeader udp;
        p->RemoveHeader(udp);
        benchmark::DoNotOptimize(udp.GetSourcePort());
    }
}

BENCHMARK(BM_Ipv4UdpDeserialize);

/// Packet creation as ConstantRateFlow does it (payload bytes copied from a vector) and with a
/// zero-filled (virtual) payload.
void
BM_PacketCreate(benchmark::State& state, bool realPayload)
{
    for (auto _ : state)
    {
        Ptr<Packet> p;
        if (realPayload)
        {
            std::vector<uint8_t> payload(1000, 0);
            p = Create<Packet>(payload.data(), 1000);
        }
        else
        {
            p = Create<Packet>(1000);
        }
        benchmark::DoNotOptimize(p->GetSize());
    }
}

BENCHMARK_CAPTURE(BM_PacketCreate, real_payload, true);
BENCHMARK_CAPTURE(BM_PacketCreate, zero_payload, false);

/// The RoCEv2 headers of a 1000-byte RDMA WRITE packet, as the NIC fills them.
RoceV2Header
RdmaDataHeader()
{
    RoceV2Header h;
    h.src = Ipv4Address("10.0.0.1").Get();
    h.dst = Ipv4Address("10.0.0.9").Get();
    h.dscp = 3;
    h.ecn = 2;
    h.sport = 49152;
    h.payload = 1004; // payload + ICRC
    h.bth.m_opcode = RoceHeader::WRITE_MIDDLE;
    h.bth.m_destQp = 7;
    h.bth.m_psn = 1234;
    return h;
}

/// An RDMA packet's life cycle through four hops, as an ns3::Packet (before compact frames):
/// create with the header stack, carry the Ptr through four queues, read the headers at the
/// receiver, destroy.
void
BM_RdmaPacketLifeCycle(benchmark::State& state)
{
    const RoceV2Header h = RdmaDataHeader();
    for (auto _ : state)
    {
        Ptr<Packet> p = Create<Packet>(h.payload);
        p->AddHeader(h);
        for (int hop = 0; hop < 4; ++hop)
        {
            Ptr<Packet> q = p; // queue entry, in-flight slot
            p = q;
        }
        uint8_t b[44];
        benchmark::DoNotOptimize(p->CopyData(b, sizeof(b)));
    }
}

BENCHMARK(BM_RdmaPacketLifeCycle);

/// The same life cycle as a compact frame (FabricFrame): headers written into a pooled block,
/// the frame moved through four queues, the headers read, the block back on the free list.
void
BM_RdmaFrameLifeCycle(benchmark::State& state)
{
    const RoceV2Header h = RdmaDataHeader();
    for (auto _ : state)
    {
        FabricFrame f;
        const uint32_t n = h.Write(f.Headers());
        f.SetCompact(n, n + h.payload, &RoceV2Header::Materialise);
        for (int hop = 0; hop < 4; ++hop)
        {
            FabricFrame q(std::move(f)); // queue entry, in-flight slot
            f = std::move(q);
        }
        uint8_t b[44];
        benchmark::DoNotOptimize(f.CopyData(b, sizeof(b)));
    }
}

BENCHMARK(BM_RdmaFrameLifeCycle);

/// The floor: ns-3's event loop with 64 concurrent chains of trivial events.
uint64_t g_left = 0;

void
Tick()
{
    if (g_left > 0)
    {
        --g_left;
        Simulator::Schedule(NanoSeconds(1 + (g_left & 7)), &Tick);
    }
}

void
BM_EventLoop(benchmark::State& state)
{
    const uint64_t perIter = 100000;
    for (auto _ : state)
    {
        g_left = perIter;
        for (int i = 0; i < 64; ++i)
        {
            Simulator::Schedule(NanoSeconds(i), &Tick);
        }
        Simulator::Run();
    }
    state.SetItemsProcessed(int64_t(state.iterations() * perIter));
    Simulator::Destroy();
}

BENCHMARK(BM_EventLoop)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
