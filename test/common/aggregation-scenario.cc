/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-scenario.h"

using namespace ns3;

namespace mlnettest
{

AggLeafSpine::AggLeafSpine(uint32_t leaves,
                           uint32_t spines,
                           uint32_t hostsPerLeaf,
                           bool pfc,
                           uint64_t buffer,
                           const std::string& rate)
{
    FabricTopologyHelper th;
    th.SetHostLinkRate(DataRate(rate));
    th.SetFabricLinkRate(DataRate(rate));
    th.Fabric().SetSwitchAttribute("PfcEnabled", BooleanValue(pfc));
    th.Fabric().SetSwitchAttribute("BufferSize", UintegerValue(buffer));
    topo = th.BuildLeafSpine(leaves, spines, hostsPerLeaf);
}

void
AggLeafSpine::Install(const std::string& kind)
{
    if (kind == "switch")
    {
        agg.InstallInSwitch(topo.switches);
        return;
    }
    agg.InstallDevices(topo.edge);
    agg.InstallDevices(topo.core);
}

NodeContainer
AggLeafSpine::Hosts(const std::vector<uint32_t>& idx) const
{
    NodeContainer c;
    for (uint32_t i : idx)
    {
        c.Add(topo.hosts.Get(i));
    }
    return c;
}

uint64_t
AggLeafSpine::SwitchDrops() const
{
    uint64_t d = 0;
    for (uint32_t s = 0; s < topo.switches.GetN(); ++s)
    {
        Ptr<FabricSwitch> sw = topo.switches.Get(s)->GetObject<FabricSwitch>();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            d += sw->GetPortStats(p).drops;
        }
    }
    return d;
}

uint64_t
AggLeafSpine::SwitchPauses() const
{
    uint64_t n = 0;
    for (uint32_t s = 0; s < topo.switches.GetN(); ++s)
    {
        Ptr<FabricSwitch> sw = topo.switches.Get(s)->GetObject<FabricSwitch>();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            n += sw->GetPortStats(p).pauseSent;
        }
    }
    return n;
}

std::vector<float>
DyadicGradient(uint32_t worker, uint32_t n, uint32_t salt)
{
    std::vector<float> g(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        int32_t k = int32_t((i * 2654435761u + worker * 40503u + salt * 977u) % 2001u) - 1000;
        g[i] = float(k) / 64.0f; // |g| <= 15.6, 1/64 steps: sums of <= 2^14 of them are exact
    }
    return g;
}

std::vector<float>
PostValues(Ptr<InNetworkAggregator> job,
           uint32_t n,
           uint32_t salt,
           std::vector<std::vector<float>>& results)
{
    const auto& ws = job->GetWorkers();
    results.assign(ws.size(), {});
    std::vector<float> sum(n, 0.0f);
    for (uint32_t w = 0; w < ws.size(); ++w)
    {
        std::vector<float> g = DyadicGradient(w, n, salt);
        for (uint32_t i = 0; i < n; ++i)
        {
            sum[i] += g[i];
        }
        ws[w]->PostValues(
            g,
            3,
            AggregationWorker::DoneCallback(
                [&results, w](uint64_t, const std::vector<float>& r) { results[w] = r; }));
    }
    return sum;
}

} // namespace mlnettest
