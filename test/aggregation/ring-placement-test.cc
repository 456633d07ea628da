/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Ring placement in a fat-tree (panama-shared-cluster --ring-order=rack): hop counts by rack
// and pod, the rack order's fewest pod crossings, and a ring all-reduce whose pod-uplink bytes
// follow its hops between pods.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>

using namespace ns3;

TEST_CASE("aggregation: ring hops counted by rack and pod in a fat-tree", "[aggregation]")
{
    // k = 4: 2 hosts per rack, 4 per pod. 0 -> 4 -> 1 -> 5 -> 0 alternates pods 0 and 1.
    RingHops h = CountRingHops({0, 4, 1, 5}, 4);
    REQUIRE(h.interPod == 4);
    REQUIRE(h.samePod == 0);
    REQUIRE(h.sameRack == 0);
    REQUIRE(h.pods == 2);
    // 0 -> 1 (rack 0), 1 -> 2 (rack 0 -> rack 1, pod 0), 2 -> 8 (pod 0 -> 2), 8 -> 0 (pod 2 -> 0)
    h = CountRingHops({0, 1, 2, 8}, 4);
    REQUIRE(h.sameRack == 1);
    REQUIRE(h.samePod == 1);
    REQUIRE(h.interPod == 2);
    REQUIRE(h.pods == 2);
    REQUIRE(RackOrderedRing({5, 0, 4, 1}, 4) == std::vector<uint32_t>{0, 1, 4, 5});
    REQUIRE(CountRingHops(RackOrderedRing({0, 4, 1, 5}, 4), 4).interPod == 2);

    REQUIRE_THROWS_AS(CountRingHops({0}, 4), std::invalid_argument);
    REQUIRE_THROWS_AS(CountRingHops({0, 0}, 4), std::invalid_argument);
    REQUIRE_THROWS_AS(CountRingHops({0, 16}, 4), std::invalid_argument); // 16 hosts at k = 4
    REQUIRE_THROWS_AS(CountRingHops({0, 1}, 3), std::invalid_argument);
    REQUIRE_THROWS_AS(RackOrderedRing({3, 3}, 4), std::invalid_argument);
}

TEST_CASE("aggregation: the rack-ordered ring crosses pods the fewest times of any order",
          "[aggregation]")
{
    // Every 4-host set of a k = 4 fat-tree whose smallest host is 0 or 1 (455 + 364 sets x
    // 24 orders): the rack order has interPod = pods (0 for one pod), no order fewer.
    uint32_t sets = 0;
    for (uint32_t a = 0; a < 2; ++a)
    {
        for (uint32_t b = a + 1; b < 16; ++b)
        {
            for (uint32_t c = b + 1; c < 16; ++c)
            {
                for (uint32_t d = c + 1; d < 16; ++d)
                {
                    std::vector<uint32_t> hosts{a, b, c, d};
                    const RingHops rack = CountRingHops(RackOrderedRing(hosts, 4), 4);
                    INFO(a << " " << b << " " << c << " " << d);
                    REQUIRE(rack.interPod == (rack.pods > 1 ? rack.pods : 0));
                    uint32_t fewest = 4;
                    do
                    {
                        fewest = std::min(fewest, CountRingHops(hosts, 4).interPod);
                    } while (std::next_permutation(hosts.begin(), hosts.end()));
                    REQUIRE(fewest == rack.interPod);
                    ++sets;
                }
            }
        }
    }
    REQUIRE(sets == 455 + 364);
}

namespace
{
/// Bytes out of the aggregation -> core ports after one ring all-reduce of `params` FP32
/// parameters over `ring` (k = 4 fat-tree, 100 Gb/s, DCQCN).
uint64_t
PodUplinkBytes(const std::vector<uint32_t>& ring, uint64_t params)
{
    FabricTopologyHelper th;
    FabricTopology t = th.BuildFatTree(4);
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::Dcqcn");
    std::vector<Ptr<RdmaNic>> nics = rdma.Install(t.hosts);
    std::ostringstream csv;
    csv << "name,parameters,forward_us,backward_us\nfc," << params << ",10,10\n";
    std::istringstream in(csv.str());
    Ptr<DataParallelJob> job = CreateObject<DataParallelJob>();
    job->SetModel(DnnModel::FromCsv(in, "one-layer"), GpuProfile::V100());
    job->SetAttribute("Iterations", UintegerValue(1));
    std::vector<Ptr<RdmaNic>> workers;
    for (uint32_t h : ring)
    {
        workers.push_back(nics[h]);
    }
    job->SetWorkers(workers);
    job->Start();
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    REQUIRE(job->IsFinished());
    uint64_t bytes = 0;
    for (uint32_t s = 0; s < t.agg.GetN(); ++s)
    {
        Ptr<FabricSwitch> sw = t.agg.Get(s)->GetObject<FabricSwitch>();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            Ptr<FabricNetDevice> far = FabricHelper::GetFarPeer(sw->GetPort(p));
            for (uint32_t c = 0; c < t.core.GetN(); ++c)
            {
                if (far && far->GetNode() == t.core.Get(c))
                {
                    bytes += sw->GetPortStats(p).txBytes;
                }
            }
        }
    }
    Simulator::Destroy();
    return bytes;
}
} // namespace

TEST_CASE("aggregation: a ring's pod-uplink bytes follow its hops between pods", "[aggregation]")
{
    // 4 MB of gradient: each hop carries 2(n-1)/n x 4 MB = 6 MB of payload. The order
    // 0, 4, 1, 5 crosses pods 4 times, the rack order 0, 1, 4, 5 twice: the aggregation ->
    // core ports carry twice the bytes (data one way, acknowledgements the other).
    const uint64_t params = 1000000;
    const double hopPayload = 2.0 * 3 / 4 * params * 4;
    const uint64_t random = PodUplinkBytes({0, 4, 1, 5}, params);
    const uint64_t rack = PodUplinkBytes({0, 1, 4, 5}, params);
    INFO("random " << random << " rack " << rack);
    REQUIRE(double(random) / double(rack) == Approx(2.0).epsilon(0.01));
    // each crossing carries the hop's payload plus headers and acknowledgements (< 15%)
    REQUIRE(double(rack) >= 2 * hopPayload);
    REQUIRE(double(rack) <= 2 * hopPayload * 1.15);
}
