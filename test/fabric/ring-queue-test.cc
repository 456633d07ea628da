/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The per-frame containers of a net device: RingQueue keeps FIFO order through wrap-around and
// growth and releases what it held; WatchedTracedCallback keeps its owner's bit equal to "has
// sinks" however a sink is connected or disconnected, so that a device's traces fire exactly
// while connected (Config path, with and without context).

#include "common/rdma-scenario.h"

#include "ns3/config.h"
#include "ns3/fabric-net-device.h"
#include "ns3/node-list.h"
#include "ns3/ring-queue.h"
#include "ns3/watched-traced-callback.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>

using namespace ns3;
using mlnettest::RdmaDumbbell;

TEST_CASE("fabric: a ring queue is a FIFO through wrap-around and growth", "[fabric]")
{
    RingQueue<int> q;
    CHECK(q.Empty());
    int next = 0;
    int expect = 0;
    for (int i = 0; i < 5; ++i)
    {
        q.EmplaceBack(next++);
    }
    for (int i = 0; i < 3; ++i)
    {
        REQUIRE(q.Front() == expect++);
        q.PopFront();
    }
    // The head is now at slot 3 of 8: these wrap around, then grow the ring twice.
    for (int i = 0; i < 30; ++i)
    {
        q.EmplaceBack(next++);
    }
    CHECK(q.Size() == 32);
    while (!q.Empty())
    {
        REQUIRE(q.Front() == expect++);
        q.PopFront();
    }
    CHECK(expect == next);
}

TEST_CASE("fabric: a ring queue releases what it held on pop and on clear", "[fabric]")
{
    auto token = std::make_shared<int>(7);
    RingQueue<std::shared_ptr<int>> q;
    for (int i = 0; i < 10; ++i)
    {
        q.EmplaceBack(token);
    }
    CHECK(token.use_count() == 11);
    q.PopFront();
    CHECK(token.use_count() == 10);
    q.Clear();
    CHECK(q.Empty());
    CHECK(token.use_count() == 1);
    q.EmplaceBack(token); // usable after Clear
    CHECK(q.Front().get() == token.get());
}

namespace
{
void
Count(int* n, int)
{
    ++*n;
}

void
CountWithContext(int* n, std::string, int)
{
    ++*n;
}
} // namespace

TEST_CASE("fabric: a watched trace source keeps its owner's bit equal to 'has sinks'", "[fabric]")
{
    uint16_t mask = 0x8000; // other bits stay as they are
    WatchedTracedCallback<int> tc;
    tc.Watch(&mask, 0x4);
    CHECK(mask == 0x8000);
    int a = 0;
    int b = 0;
    auto ca = MakeBoundCallback(&Count, &a);
    auto cb = MakeBoundCallback(&CountWithContext, &b);
    tc.ConnectWithoutContext(ca);
    CHECK(mask == 0x8004);
    tc.Connect(cb, "ctx");
    CHECK(mask == 0x8004);
    tc(1);
    CHECK(a == 1);
    CHECK(b == 1);
    tc.DisconnectWithoutContext(ca);
    CHECK(mask == 0x8004); // one sink left
    tc.Disconnect(cb, "ctx");
    CHECK(mask == 0x8000);
    tc(2);
    CHECK(a == 1);
    CHECK(b == 1);
}

namespace
{
void
CountFrame(uint64_t* n, Ptr<const Packet>)
{
    ++*n;
}

void
CountFrameWithContext(uint64_t* n, std::string, Ptr<const Packet>)
{
    ++*n;
}

/// What the traces saw while connected, and what the devices sent in all.
struct Seen
{
    uint64_t txBegin{0};      //!< PhyTxBegin (Config, without context) while connected
    uint64_t rxEnd{0};        //!< PhyRxEnd (Config, with context) while connected
    uint64_t atDisconnect{0}; //!< txBegin + rxEnd when the sinks were disconnected
    uint64_t txFrames{0};     //!< frames the devices sent up to the disconnection
    uint64_t rxFrames{0};     //!< frames the devices received up to the disconnection
};

const std::string kTx = "/NodeList/*/DeviceList/*/$ns3::FabricNetDevice/PhyTxBegin";
const std::string kRx = "/NodeList/*/DeviceList/*/$ns3::FabricNetDevice/PhyRxEnd";

/// Sum the devices' frame counters.
void
SumFrames(const RdmaDumbbell& d, uint64_t* tx, uint64_t* rx)
{
    *tx = 0;
    *rx = 0;
    for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
    {
        Ptr<Node> node = NodeList::GetNode(n);
        for (uint32_t i = 0; i < node->GetNDevices(); ++i)
        {
            Ptr<FabricNetDevice> dev = DynamicCast<FabricNetDevice>(node->GetDevice(i));
            if (dev)
            {
                *tx += dev->GetTxFrames();
                *rx += dev->GetRxFrames();
            }
        }
    }
}

void
Disconnect(Seen* s, const RdmaDumbbell* d)
{
    Config::DisconnectWithoutContext(kTx, MakeBoundCallback(&CountFrame, &s->txBegin));
    Config::Disconnect(kRx, MakeBoundCallback(&CountFrameWithContext, &s->rxEnd));
    s->atDisconnect = s->txBegin + s->rxEnd;
    SumFrames(*d, &s->txFrames, &s->rxFrames);
}
} // namespace

TEST_CASE("fabric: a device's traces fire for every frame while connected, and only then",
          "[fabric]")
{
    RdmaDumbbell d(2, 2, true);
    Seen s;
    Config::ConnectWithoutContext(kTx, MakeBoundCallback(&CountFrame, &s.txBegin));
    Config::Connect(kRx, MakeBoundCallback(&CountFrameWithContext, &s.rxEnd));
    d.Connect(0, 2)->PostSend(2000000, MakeNullCallback<void, uint64_t, uint64_t>());
    d.Connect(1, 3)->PostSend(2000000, MakeNullCallback<void, uint64_t, uint64_t>());
    Simulator::Schedule(MicroSeconds(100), &Disconnect, &s, &d);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    uint64_t txAll = 0;
    uint64_t rxAll = 0;
    SumFrames(d, &txAll, &rxAll);
    Simulator::Destroy();
    INFO("PhyTxBegin " << s.txBegin << " of " << s.txFrames << " frames, PhyRxEnd " << s.rxEnd
                       << " of " << s.rxFrames);
    REQUIRE(s.txFrames > 100);
    CHECK(s.txBegin == s.txFrames);               // every frame sent while connected
    CHECK(s.rxEnd == s.rxFrames);                 // every frame received while connected
    CHECK(s.txBegin + s.rxEnd == s.atDisconnect); // nothing after the disconnection
    CHECK(txAll > s.txFrames);                    // although frames kept flowing
}
