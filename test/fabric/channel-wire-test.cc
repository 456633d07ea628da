/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// FabricChannel tells each end its peer and the delay (FabricNetDevice::SetWire): a frame
// arrives after its transmission time plus the delay in force when it was sent, also after the
// Delay attribute changed on an attached channel, and a device whose far end was detached
// keeps its frames instead of sending them anywhere.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"
#include "ns3/network-module.h"

#include <catch2/catch.hpp>
#include <vector>

using namespace ns3;

namespace
{

/// Arrival times and sizes of data frames at a device.
struct Arrivals
{
    std::vector<Time> at;
    std::vector<uint32_t> size;

    void OnRx(Ptr<const Packet> p)
    {
        at.push_back(Simulator::Now());
        size.push_back(p->GetSize());
    }
};

/// Two nodes, one FabricNetDevice each, joined by a channel (FabricHelper::Install).
struct Link
{
    NodeContainer nodes;
    Ptr<FabricNetDevice> a;
    Ptr<FabricNetDevice> b;
    Ptr<FabricChannel> ch;
    Arrivals rx;

    explicit Link(const std::string& delay)
    {
        nodes.Create(2);
        FabricHelper fh;
        fh.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
        fh.SetChannelAttribute("Delay", TimeValue(Time(delay)));
        NetDeviceContainer d = fh.Install(nodes.Get(0), nodes.Get(1));
        a = DynamicCast<FabricNetDevice>(d.Get(0));
        b = DynamicCast<FabricNetDevice>(d.Get(1));
        ch = DynamicCast<FabricChannel>(a->GetChannel());
        b->TraceConnectWithoutContext("MacRx", MakeCallback(&Arrivals::OnRx, &rx));
    }

    /// Send one 1000-byte IPv4 packet from a to b.
    void Send()
    {
        a->Send(Create<Packet>(1000), b->GetAddress(), 0x0800);
    }
};

} // namespace

TEST_CASE("fabric: a frame arrives after its transmission time plus the channel's delay, also "
          "after the Delay attribute changed on the attached channel",
          "[fabric]")
{
    Link l("1us");
    REQUIRE(l.a->GetPeer() == l.b);
    REQUIRE(l.b->GetPeer() == l.a);
    Simulator::Schedule(MicroSeconds(10), &Link::Send, &l);
    Simulator::Schedule(MicroSeconds(20),
                        [&l]() { l.ch->SetAttribute("Delay", TimeValue(MicroSeconds(3))); });
    Simulator::Schedule(MicroSeconds(30), &Link::Send, &l);
    Simulator::Run();
    REQUIRE(l.rx.at.size() == 2);
    // The sender's serialisation times, as its own exact clock gives them.
    TxTimeAccumulator clock;
    const uint64_t rate = DataRate("100Gbps").GetBitRate();
    const Time tx0 = clock.Next(l.a->WireBits(l.rx.size[0]), rate);
    const Time tx1 = clock.Next(l.a->WireBits(l.rx.size[1]), rate);
    CHECK(l.rx.at[0] == MicroSeconds(10) + tx0 + MicroSeconds(1));
    CHECK(l.rx.at[1] == MicroSeconds(30) + tx1 + MicroSeconds(3));
    CHECK(l.a->GetDelay() == MicroSeconds(3));
    Simulator::Destroy();
}

TEST_CASE("fabric: a device whose far end was detached sends nothing and keeps its frames",
          "[fabric]")
{
    Link l("1us");
    l.ch->Detach(l.b);
    CHECK(l.a->GetPeer() == nullptr);
    Simulator::Schedule(MicroSeconds(10), &Link::Send, &l);
    Simulator::Run();
    CHECK(l.rx.at.empty());
    CHECK_FALSE(l.a->IsEmpty()); // the frame waits in its queue
    // Attached again, the same far end is reached.
    l.ch->Attach(l.b);
    CHECK(l.a->GetPeer() == l.b);
    Simulator::Schedule(MicroSeconds(1), &Link::Send, &l);
    Simulator::Run();
    CHECK(l.rx.at.size() == 2);
    Simulator::Destroy();
}
