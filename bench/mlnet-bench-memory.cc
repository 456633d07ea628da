/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Memory of the model: resident set after building k-ary fat-trees (per host, per switch) and
// after creating queue pairs (per QP), printed as JSON lines, so the growth can be checked for
// linearity. Nothing is simulated.
//
//   ./mlnet-bench-memory --k=16 --qps=100000

#include "bench-common.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <iostream>

using namespace ns3;
using namespace ns3::bench;

int
main(int argc, char* argv[])
{
    uint32_t k = 16;
    uint32_t qps = 100000;
    uint32_t steps = 4;
    CommandLine cmd(__FILE__);
    cmd.AddValue("k", "Fat-tree arity of the queue-pair measurement (k^3/4 hosts)", k);
    cmd.AddValue("qps", "Queue pairs created in all (in `steps` equal steps)", qps);
    cmd.AddValue("steps", "Measurement points for the queue pairs", steps);
    cmd.Parse(argc, argv);
    try
    {
        if (k < 4 || k > 32 || k % 2 != 0 || steps == 0)
        {
            throw std::invalid_argument("--k must be even in [4, 32] and --steps >= 1");
        }
        double base = CurrentRssMb();
        // Per host: fat-trees of growing size, each destroyed before the next.
        for (uint32_t kk = 4; kk <= k; kk *= 2)
        {
            double before = CurrentRssMb();
            WallClock clock;
            FabricTopology t = FabricTopologyHelper().BuildFatTree(kk);
            RdmaHelper().Install(t.hosts);
            double wall = clock.Seconds();
            double after = CurrentRssMb();
            JsonLine()
                .Add("bench", "memory-topology")
                .Add("k", kk)
                .Add("hosts", t.hosts.GetN())
                .Add("switches", t.switches.GetN())
                .Add("links", t.links)
                .Add("build_wall_s", wall)
                .Add("rss_mb", after)
                .Add("delta_mb", after - before)
                .Add("kb_per_host", (after - before) * 1024 / t.hosts.GetN())
                .Print();
            Simulator::Destroy();
        }
        // Per queue pair: random host pairs of one k-ary fat-tree.
        FabricTopology t = FabricTopologyHelper().BuildFatTree(k);
        std::vector<Ptr<RdmaNic>> nics = RdmaHelper().Install(t.hosts);
        const uint32_t n = nics.size();
        double before = CurrentRssMb();
        uint32_t created = 0;
        for (uint32_t s = 1; s <= steps; ++s)
        {
            uint32_t target = uint64_t(qps) * s / steps;
            for (; created < target; ++created)
            {
                uint32_t a = created % n;
                uint32_t b = (a + 1 + (created / n) % (n - 1)) % n;
                nics[a]->Connect(nics[b]);
            }
            double rss = CurrentRssMb();
            JsonLine()
                .Add("bench", "memory-queue-pairs")
                .Add("k", k)
                .Add("queue_pairs", created)
                .Add("rss_mb", rss)
                .Add("delta_mb", rss - before)
                .Add("bytes_per_qp", created ? (rss - before) * 1048576.0 / created : 0.0)
                .Print();
        }
        JsonLine().Add("bench", "memory-base").Add("rss_mb_at_start", base).Print();
        Simulator::Destroy();
    }
    catch (const std::exception& e)
    {
        std::cerr << "mlnet-bench-memory: error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
