/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// A user's scenario against the installed mlnet: N senders incast one receiver through a
// dumbbell's 100 Gb/s bottleneck with DCQCN; prints each flow's completion time and the
// number of rate changes of the first queue pair (its "Rate" trace source, whose callback
// signature doc/trace-sources.rst lists: void (double rate)).

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <iostream>

using namespace ns3;

namespace
{
uint32_t g_rateChanges = 0;

void
OnRate(double /* bit/s */)
{
    ++g_rateChanges;
}
} // namespace

int
main(int argc, char* argv[])
{
    uint32_t senders = 4;
    uint64_t bytes = 1000000;
    CommandLine cmd(__FILE__);
    EventSchedulerHelper::UseDefault(cmd); // mlnet's event engine: same results, faster
    cmd.AddValue("senders", "Number of senders (1..64)", senders);
    cmd.AddValue("bytes", "Bytes each sender writes", bytes);
    cmd.Parse(argc, argv);
    if (senders < 1 || senders > 64 || bytes < 1)
    {
        std::cerr << "incast: --senders must be in [1, 64] and --bytes >= 1" << std::endl;
        return 2;
    }

    FabricTopologyHelper topo;
    topo.SetHostLinkRate(UnitParser::Rate("100Gbps"));
    topo.SetFabricLinkRate(UnitParser::Rate("100Gbps"));
    FabricTopology t = topo.BuildDumbbell(senders, 1); // senders left, the receiver right
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::Dcqcn");
    std::vector<Ptr<RdmaNic>> nics = rdma.Install(t.hosts);

    std::vector<Time> done(senders);
    for (uint32_t i = 0; i < senders; ++i)
    {
        Ptr<RdmaQueuePair> qp = nics[i]->Connect(nics[senders]);
        if (i == 0)
        {
            qp->TraceConnectWithoutContext("Rate", MakeCallback(&OnRate));
        }
        qp->PostSend(bytes, RdmaQueuePair::CompletionCallback([&done, i](uint64_t, uint64_t) {
                         done[i] = Simulator::Now();
                     }));
    }
    Simulator::Run();
    for (uint32_t i = 0; i < senders; ++i)
    {
        std::cout << "flow " << i << ": fct " << done[i].GetMicroSeconds() << " us" << std::endl;
    }
    std::cout << "rate changes of flow 0: " << g_rateChanges << std::endl;
    Simulator::Destroy();
    return 0;
}
