/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Host interconnect congestion (Agarwal et al. HotNets 2022; hostCC, SIGCOMM 2023).
//
// --mode=single: one RDMA receiver (100 or 200 Gb/s) with `flows` queue pairs from one sender,
//   a co-located memory application asking for `demand` of the memory bandwidth: goodput,
//   host drop rate, host queueing delay (p50/p99 of arrival-to-memory time), IOTLB hit rate.
// --mode=sweep: the grids of doc/host.rst (memory demand 0..100% with the IOMMU on/off and
//   the hostCC response off/on; 1..64 flows with 4 KiB / 2 MiB pages at 100 and 200 Gb/s),
//   several seeds, one CSV row per run (--csv).
// --mode=training: a ring all-reduce training job on 4 hosts whose memory is shared with a
//   memory-hungry task: per-iteration times without and with the hostCC response (--csv).
//
//   ./host-congestion --mode=single --rate=100 --flows=4 --demand=0.9 --iommu=1 --page=4096
//   ./host-congestion --mode=sweep --seeds=3 --csv=host-sweep.csv
//   ./host-congestion --mode=training --iterations=30 --demand=0.9 --csv=host-training.csv

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{

/// One receiver's run.
struct Case
{
    double rateGbps{100};
    uint32_t flows{4};
    double demand{0};
    bool iommu{true};
    uint64_t page{4096};
    bool pfc{false};
    uint32_t response{0}; //!< hostCC response: 0 none, 1 marking, 2 throttling, 3 both
    uint32_t seed{1};
    uint32_t mtu{1000};
    Time warmup{MilliSeconds(1)};
    Time measure{MilliSeconds(3)};
};

/// What a run measured (over the measurement window).
struct Outcome
{
    double goodput{0};   //!< DMA payload bit/s
    double dropRate{0};  //!< host drops / arrivals
    double delayP50{0};  //!< arrival-to-memory time, us
    double delayP99{0};  //!< us
    double hitRate{0};   //!< IOTLB hits / lookups
    double modelRate{0}; //!< DMA write rate of the pure model at this demand, bit/s
    uint32_t maxLevel{0};
};

double
Percentile(std::vector<double> v, double p)
{
    if (v.empty())
    {
        return 0;
    }
    std::sort(v.begin(), v.end());
    size_t i = size_t(std::min<double>(v.size() - 1, std::floor(p * (v.size() - 1) + 0.5)));
    return v[i];
}

Outcome
RunCase(const Case& c)
{
    RngSeedManager::SetRun(c.seed);
    FabricTopologyHelper th;
    DataRate rate(uint64_t(c.rateGbps * 1e9));
    th.SetHostLinkRate(rate);
    th.SetFabricLinkRate(rate);
    FabricTopology topo = th.BuildDumbbell(1, 1);
    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(c.mtu));
    std::vector<Ptr<RdmaNic>> nics = rdma.Install(topo.hosts);
    HostInterconnectHelper hh;
    hh.SetAttribute("MemoryAppDemand", DoubleValue(c.demand));
    hh.SetAttribute("Iommu", BooleanValue(c.iommu));
    hh.SetAttribute("PageSize", UintegerValue(c.page));
    hh.SetAttribute("Pfc", BooleanValue(c.pfc));
    hh.SetAttribute("HostCcMarking", BooleanValue(c.response & 1));
    hh.SetAttribute("HostCcThrottling", BooleanValue(c.response & 2));
    if (c.rateGbps > 100)
    {
        hh.SetAttribute("PcieGeneration", UintegerValue(4)); // 200G NICs are Gen4 x16
    }
    Ptr<HostInterconnect> host = hh.Install(NodeContainer(topo.hosts.Get(1))).front();
    for (uint32_t f = 0; f < c.flows; ++f)
    {
        nics[0]->Connect(nics[1], 3)->PostSend(uint64_t(1) << 40);
    }
    std::vector<double> delays;
    bool measuring = false;
    host->TraceConnectWithoutContext(
        "DmaWrite", MakeBoundCallback(
                        +[](std::pair<bool*, std::vector<double>*> s, uint32_t, Time d)
                        {
                            if (*s.first)
                            {
                                s.second->push_back(d.GetSeconds() * 1e6);
                            }
                        },
                        std::make_pair(&measuring, &delays)));
    HostPathStats at0;
    uint64_t delivered0 = 0;
    Simulator::Schedule(c.warmup,
                        [&]
                        {
                            measuring = true;
                            at0 = host->GetStats();
                            delivered0 = nics[1]->GetBytesReceived();
                        });
    Simulator::Stop(c.warmup + c.measure);
    Simulator::Run();
    const HostPathStats& s = host->GetStats();
    Outcome o;
    // Goodput: payload the transport accepted in order (resent duplicates excluded).
    o.goodput = (nics[1]->GetBytesReceived() - delivered0) * 8.0 / c.measure.GetSeconds();
    uint64_t rx = s.rxPackets - at0.rxPackets;
    o.dropRate = rx ? double(s.dropPackets - at0.dropPackets) / rx : 0.0;
    o.delayP50 = Percentile(delays, 0.5);
    o.delayP99 = Percentile(delays, 0.99);
    uint64_t hits = s.iotlbHits - at0.iotlbHits;
    uint64_t lookups = hits + s.iotlbMisses - at0.iotlbMisses;
    o.hitRate = lookups ? double(hits) / lookups : 1.0;
    o.modelRate = host->GetOperatingPoint().writeRate;
    o.maxLevel = s.maxThrottleLevel;
    Simulator::Destroy();
    return o;
}

const char* kHeader = "sweep,rateGbps,flows,demand,iommu,pageBytes,pfc,response,seed,goodputGbps,"
                      "dropRate,delayP50us,delayP99us,iotlbHitRate,modelWriteGbps,maxThrottle";

void
Row(std::ostream& os, const std::string& sweep, const Case& c, const Outcome& o)
{
    os << sweep << ',' << c.rateGbps << ',' << c.flows << ',' << c.demand << ',' << c.iommu << ','
       << c.page << ',' << c.pfc << ',' << c.response << ',' << c.seed << ',' << o.goodput / 1e9
       << ',' << o.dropRate << ',' << o.delayP50 << ',' << o.delayP99 << ',' << o.hitRate << ','
       << o.modelRate / 1e9 << ',' << o.maxLevel << '\n';
}

/// Ring all-reduce job on 4 hosts with a memory-hungry co-located task on every host.
std::string
TrainingScenario(uint32_t iterations, double demand, bool response, uint32_t seed)
{
    std::ostringstream j;
    j << R"({"topology": {"type": "leaf-spine", "leaves": 2, "spines": 1, "hostsPerLeaf": 2},
             "fabric": {"pfc": true, "ecn": true}, "duration": "2s", "drain": "1s",
             "seed": )"
      << seed << R"(, "output": {"flows": false, "ports": false},
             "host": {"memoryAppDemand": )"
      << demand << R"(, "hostCcMarking": )" << (response ? "true" : "false")
      << R"(, "hostCcThrottling": )" << (response ? "true" : "false") << R"(},
             "traffic": [{"type": "data-parallel-job", "hosts": [0, 1, 2, 3], "mode": "ring",
                          "model": "cifarnet", "gpu": "a100", "batch": 32,
                          "iterations": )"
      << iterations << "}]}";
    return j.str();
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string mode = "single";
    Case c;
    uint32_t seeds = 3;
    uint32_t iterations = 30;
    std::string csv;
    CommandLine cmd(__FILE__);
    EventSchedulerHelper::UseDefault(cmd); // mlnet's event scheduler; --scheduler=...
    EventSchedulerHelper::UseHugePages();  // a program owns its process: huge-page heap
    cmd.AddValue("mode", "single, sweep or training", mode);
    cmd.AddValue("rate", "Link rate in Gb/s (100 or 200)", c.rateGbps);
    cmd.AddValue("flows", "Queue pairs into the receiver (1..64)", c.flows);
    cmd.AddValue("demand", "Memory bandwidth the co-located application asks for, [0, 1]",
                 c.demand);
    cmd.AddValue("iommu", "IOMMU on", c.iommu);
    cmd.AddValue("page", "IOMMU page size in bytes (4096 or 2097152)", c.page);
    cmd.AddValue("pfc", "PFC from the host instead of drops", c.pfc);
    cmd.AddValue("response", "hostCC response: 0 none, 1 ECN marking, 2 throttling, 3 both",
                 c.response);
    cmd.AddValue("mtu", "RDMA payload bytes per packet", c.mtu);
    cmd.AddValue("seed", "RngRun (single mode)", c.seed);
    cmd.AddValue("seeds", "Seeds per point (sweep and training)", seeds);
    cmd.AddValue("iterations", "Training iterations (training mode)", iterations);
    cmd.AddValue("csv", "Write rows to this CSV file", csv);
    cmd.Parse(argc, argv);
    try
    {
        if (mode != "single" && mode != "sweep" && mode != "training")
        {
            throw std::invalid_argument("--mode=" + mode + ": must be single, sweep or training");
        }
        if (c.rateGbps != 100 && c.rateGbps != 200)
        {
            throw std::invalid_argument("--rate: must be 100 or 200");
        }
        if (c.flows < 1 || c.flows > 64)
        {
            throw std::invalid_argument("--flows=" + std::to_string(c.flows)
                                        + ": must be in [1, 64]");
        }
        if (seeds < 1 || seeds > 100)
        {
            throw std::invalid_argument("--seeds: must be in [1, 100]");
        }
        std::ofstream file;
        if (!csv.empty())
        {
            file.open(csv);
            if (!file)
            {
                throw std::invalid_argument("--csv=" + csv + ": cannot write");
            }
        }
        std::ostream& out = csv.empty() ? std::cout : file;
        if (mode == "single")
        {
            Outcome o = RunCase(c);
            std::cout << std::fixed << std::setprecision(3) << "goodput " << o.goodput / 1e9
                      << " Gb/s (model DMA write rate " << o.modelRate / 1e9 << "), host drops "
                      << 100 * o.dropRate << " %, host delay p50 " << o.delayP50 << " us p99 "
                      << o.delayP99 << " us, IOTLB hit rate " << o.hitRate
                      << ", max throttle level " << o.maxLevel << std::endl;
            return 0;
        }
        if (mode == "sweep")
        {
            out << kHeader << '\n';
            for (uint32_t seed = 1; seed <= seeds; ++seed)
            {
                for (bool iommu : {false, true})
                {
                    for (uint32_t resp : {0u, 3u})
                    {
                        for (int d = 0; d <= 10; ++d)
                        {
                            Case k;
                            k.flows = 4;
                            k.demand = d / 10.0;
                            k.iommu = iommu;
                            k.response = resp;
                            k.seed = seed;
                            Row(out, "demand", k, RunCase(k));
                        }
                    }
                }
                for (double rate : {100.0, 200.0})
                {
                    for (uint64_t page : {uint64_t(0), uint64_t(4096), uint64_t(2) << 20})
                    {
                        for (uint32_t flows : {1u, 2u, 4u, 8u, 16u, 32u, 64u})
                        {
                            Case k;
                            k.rateGbps = rate;
                            k.flows = flows;
                            k.iommu = page != 0;
                            k.page = page == 0 ? 4096 : page;
                            k.seed = seed;
                            Row(out, "flows", k, RunCase(k));
                        }
                    }
                }
                out.flush();
                std::cerr << "seed " << seed << " done" << std::endl;
            }
            return 0;
        }
        out << "demand,response,seed,iteration,iterationUs\n";
        for (uint32_t seed = 1; seed <= seeds; ++seed)
        {
            for (double demand : {0.0, c.demand})
            {
                for (bool resp : {false, true})
                {
                    if (demand == 0.0 && resp)
                    {
                        continue;
                    }
                    ScenarioRunner runner(
                        Scenario::ParseString(TrainingScenario(iterations, demand, resp, seed)));
                    ScenarioResult r = runner.Run();
                    std::vector<double> t;
                    for (const IterationRecord& it : r.iterations)
                    {
                        double us = it.Duration().GetSeconds() * 1e6;
                        out << demand << ',' << resp << ',' << seed << ',' << it.iteration << ','
                            << us << '\n';
                        // Steady state: after 3 warm-up iterations, without the last one
                        // (it also waits for the job's final synchronisation, about 2x long).
                        if (it.iteration >= 3 && it.iteration + 1 < iterations)
                        {
                            t.push_back(us);
                        }
                    }
                    std::cerr << "demand " << demand << " response " << resp << " seed " << seed
                              << ": iteration p50 " << Percentile(t, 0.5) << " us, p99 "
                              << Percentile(t, 0.99) << " us over " << t.size() << " iterations"
                              << (r.summary.drained ? "" : " (not drained)") << std::endl;
                }
            }
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "host-congestion: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}
