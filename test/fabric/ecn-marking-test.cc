/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ECN marking in simulation: a burst into a very slow egress port builds the queue linearly,
// so the i-th packet sees a known queue length; the marked fraction per queue-length bin must
// follow the RED curve, and packets that are not ECN-capable are never marked.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{
const uint64_t kKmin = 100000;
const uint64_t kKmax = 4100000;
const double kPmax = 0.2;
const uint32_t kPacket = 1028; // IPv4 bytes of a 1000-byte UDP payload

/// Returns, for every packet queued at the slow egress port in order, whether it was marked.
std::vector<bool>
RunBurst(bool ect, uint32_t packets, uint32_t run)
{
    RngSeedManager::SetRun(run);
    FabricTopologyHelper topo;
    topo.Fabric().SetSwitchAttribute("PfcEnabled", BooleanValue(false));
    topo.Fabric().SetSwitchAttribute("EcnScaleWithRate", BooleanValue(false));
    topo.Fabric().SetSwitchAttribute("EcnKmin", UintegerValue(kKmin));
    topo.Fabric().SetSwitchAttribute("EcnKmax", UintegerValue(kKmax));
    topo.Fabric().SetSwitchAttribute("EcnPmax", DoubleValue(kPmax));
    topo.SetFabricLinkRate(DataRate("1Mbps")); // the bottleneck between the two switches
    FabricTopology t = topo.BuildDumbbell(1, 1);
    Ptr<FabricSwitch> sw = t.edge.Get(0)->GetObject<FabricSwitch>();
    Ptr<FabricNetDevice> egress = sw->GetPort(sw->GetRoute(t.HostAddress(1)).at(0));
    std::vector<bool> marked;
    egress->TraceConnectWithoutContext("MacTx", Callback<void, Ptr<const Packet>>(
                                                    [&marked](Ptr<const Packet> p)
                                                    {
                                                        FlowKey k;
                                                        k.Parse(*p);
                                                        marked.push_back(k.ecn == 3);
                                                    }));
    Ptr<ConstantRateFlow> f = CreateObject<ConstantRateFlow>();
    f->SetAttribute("Remote", Ipv4AddressValue(t.HostAddress(1)));
    f->SetAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
    f->SetAttribute("MaxBytes", UintegerValue(uint64_t(packets) * kPacket));
    f->SetAttribute("Ect", BooleanValue(ect));
    t.hosts.Get(0)->AddApplication(f);
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    Simulator::Destroy();
    return marked;
}
} // namespace

TEST_CASE("fabric: ecn marking fraction follows the Kmin/Kmax/Pmax curve", "[fabric]")
{
    const uint32_t n = 4500;
    std::vector<bool> m = RunBurst(true, n, 1);
    REQUIRE(m.size() == n);
    // Packet i sees an egress queue of i packets (packet 0 went straight to the wire).
    const int bins = 8;
    const uint32_t lo = kKmin / kPacket + 1;
    const uint32_t hi = kKmax / kPacket;
    for (int b = 0; b < bins; ++b)
    {
        uint32_t from = lo + (hi - lo) * b / bins;
        uint32_t to = lo + (hi - lo) * (b + 1) / bins;
        double expect = 0;
        double seen = 0;
        for (uint32_t i = from; i < to; ++i)
        {
            expect += FabricSwitch::EcnProbability(uint64_t(i) * kPacket, kKmin, kKmax, kPmax);
            seen += m[i] ? 1 : 0;
        }
        expect /= (to - from);
        seen /= (to - from);
        double sigma = std::sqrt(expect * (1 - expect) / (to - from));
        INFO("bin " << b << " expected " << expect << " seen " << seen);
        REQUIRE(std::abs(seen - expect) < 4 * sigma + 0.005);
    }
    for (uint32_t i = 0; i < lo - 1; ++i)
    {
        REQUIRE_FALSE(m[i]);
    }
    for (uint32_t i = hi + 2; i < n; ++i)
    {
        REQUIRE(m[i]);
    }
}

TEST_CASE("fabric: packets that are not ECN-capable are never marked", "[fabric]")
{
    std::vector<bool> m = RunBurst(false, 4500, 1);
    REQUIRE(m.size() == 4500);
    REQUIRE(std::count(m.begin(), m.end(), true) == 0);
}
