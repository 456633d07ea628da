/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Host interconnect congestion (Agarwal et al. HotNets 2022; hostCC, SIGCOMM 2023) and the
// IOTLB wall (Farshin et al., PeerJ Computer Science 2023).
//
// --mode=single: one RDMA receiver (100, 200 or 400 Gb/s) with `flows` queue pairs from one
//   sender, a co-located memory application asking for `demand` of the memory bandwidth:
//   goodput (p50/min/max over the measured intervals), host drop rate, host queueing delay
//   (p50/p99 of arrival-to-memory time), IOTLB hit rate, and the analytical DMA bound.
// --mode=sweep: the grids of doc/host.rst (memory demand 0..100% with the IOMMU on/off and
//   the hostCC response off/on; 1..64 flows with 4 KiB / 2 MiB pages at 100 and 200 Gb/s),
//   several seeds, one CSV row per run (--csv).
// --mode=iotlb: the IOTLB miss cost alone and what drops make of it: 100/200/400 Gb/s, IOMMU
//   off / 4 KiB / 2 MiB pages, lossless host path (the NIC pauses its link, Pfc true) and lossy
//   (it drops), several seeds; one row per run (--csv), one per point pooled over the seeds'
//   measured intervals (--summary), each beside the analytical bound from the model's
//   parameters (link payload rate, DMA write rate, one page walk per page when the receive
//   buffers' pages do not fit in the IOTLB).
// --mode=training: a ring all-reduce training job on 4 hosts whose memory is shared with a
//   memory-hungry task: per-iteration times without the task, with it, and with it and the
//   hostCC response given by --response (default 3: both; 0: no response run) (--csv).
//
//   ./host-congestion --mode=single --rate=100 --flows=4 --demand=0.9 --iommu=1 --page=4096
//   ./host-congestion --mode=sweep --seeds=3 --csv=host-sweep.csv
//   ./host-congestion --mode=iotlb --seeds=3 --warmup=2ms --interval=1ms \
//       --csv=host-iotlb-runs.csv --summary=host-iotlb.csv
//   ./host-congestion --mode=training --iterations=30 --demand=0.9 --response=3 \
//       --csv=host-training.csv

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <array>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

using namespace ns3;

namespace
{

/// Bytes a RoCEv2 packet adds to its payload on the wire: IPv4 20 + UDP 8 + BTH 12 + ICRC 4 +
/// Ethernet header, FCS, preamble and inter-frame gap 38.
const uint32_t kWireOverhead = 82;
/// Queue pairs start at a uniform random offset in [0, this) (the only random choice).
const Time kStartJitter = MicroSeconds(10);

/// The host a NIC of that rate sits in (PCIe generation, write credits, memory bandwidth).
struct Platform
{
    uint32_t pcieGeneration;
    uint32_t writeCredits;
    double memoryBandwidth; //!< bit/s
};

/// 100 Gb/s: PCIe Gen3 x16 and the model's defaults (four DDR4-2933 channels). 200 Gb/s:
/// Gen4 x16. 400 Gb/s: Gen5 x16, eight DDR5-4800 channels (80% of 8 x 38.4 GB/s) and twice
/// the write credits, so that without IOMMU the credit limit stays above line rate as it does
/// at 100 and 200 Gb/s (an assumption, not a measured value).
Platform
PlatformFor(double rateGbps)
{
    if (rateGbps > 200)
    {
        return Platform{5, 256, 0.8 * 8 * 38.4e9 * 8};
    }
    if (rateGbps > 100)
    {
        return Platform{4, 128, 600e9};
    }
    return Platform{3, 128, 600e9};
}

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
    std::string cc{"dcqcn"}; //!< sender: "dcqcn" or "fixed" (line rate, RdmaFixedRate)
    Time warmup{MilliSeconds(1)};
    Time interval{MicroSeconds(300)};
    uint32_t intervals{10};
};

/// What a run measured (after the warm-up) and what the model predicts.
struct Outcome
{
    double goodput{0};            //!< in-order payload accepted by the receiver, bit/s
    std::vector<double> samples;  //!< goodput of each measured interval, bit/s
    SampleSummary perInterval;    //!< their summary
    double dropRate{0};           //!< host drops / arrivals
    double delayP50{0};           //!< arrival-to-memory time, us
    double delayP99{0};           //!< us
    double hitRate{0};            //!< IOTLB hits / lookups
    double missesPerMiB{0};       //!< IOTLB misses per MiB written to memory
    uint64_t pauses{0};           //!< PFC pause frames the host sent
    uint64_t cnps{0};             //!< CNPs the sender's queue pairs received
    uint64_t timeouts{0};         //!< retransmission timeouts of the sender's queue pairs
    double resentFraction{0};     //!< packets sent again (go-back-N) / packets sent
    double linkPayload{0};        //!< payload rate of the link, bit/s
    HostPathTiming::Operating op; //!< the path's operating point at the start
    double walkAccesses{0};       //!< PageWalkAccesses
    uint64_t workingSet{0};       //!< pages of the receive buffers
    uint64_t entries{0};          //!< IotlbEntries
    double streamRate{NAN};       //!< analytical DMA rate with page walks (NaN: no closed form)
    double bound{NAN};            //!< min(link payload, streamRate)
    uint32_t maxLevel{0};
};

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
    rdma.SetCongestionControl(RdmaCcCatalog::TypeIdOf(c.cc));
    std::vector<Ptr<RdmaNic>> nics = rdma.Install(topo.hosts);
    const Platform pf = PlatformFor(c.rateGbps);
    HostInterconnectHelper hh;
    hh.SetAttribute("MemoryAppDemand", DoubleValue(c.demand));
    hh.SetAttribute("Iommu", BooleanValue(c.iommu));
    hh.SetAttribute("PageSize", UintegerValue(c.page));
    hh.SetAttribute("Pfc", BooleanValue(c.pfc));
    hh.SetAttribute("HostCcMarking", BooleanValue(c.response & 1));
    hh.SetAttribute("HostCcThrottling", BooleanValue(c.response & 2));
    hh.SetAttribute("PcieGeneration", UintegerValue(pf.pcieGeneration));
    hh.SetAttribute("WriteCredits", UintegerValue(pf.writeCredits));
    hh.SetAttribute("MemoryBandwidth", DoubleValue(pf.memoryBandwidth));
    Ptr<HostInterconnect> host = hh.Install(NodeContainer(topo.hosts.Get(1))).front();

    Outcome o;
    o.op = host->GetOperatingPoint();
    DoubleValue walk;
    host->GetAttribute("PageWalkAccesses", walk);
    o.walkAccesses = walk.Get();
    UintegerValue perQp;
    host->GetAttribute("RxBufferPerQp", perQp);
    o.workingSet = Iotlb::CyclicWorkingSet(c.page, c.flows, perQp.Get());
    UintegerValue entries;
    host->GetAttribute("IotlbEntries", entries);
    o.entries = entries.Get();
    o.linkPayload = c.rateGbps * 1e9 * c.mtu / double(c.mtu + kWireOverhead);
    if (2 * uint64_t(c.flows) <= o.entries)
    {
        o.streamRate = host->GetStreamWriteRate(c.flows);
        o.bound = std::min(o.linkPayload, o.streamRate);
    }

    Ptr<UniformRandomVariable> start = CreateObject<UniformRandomVariable>();
    start->SetAttribute("Max", DoubleValue(kStartJitter.GetSeconds()));
    std::vector<Ptr<RdmaQueuePair>> qps;
    for (uint32_t f = 0; f < c.flows; ++f)
    {
        Ptr<RdmaQueuePair> qp = nics[0]->Connect(nics[1]);
        qps.push_back(qp);
        Simulator::Schedule(Seconds(start->GetValue()), [qp] { qp->PostSend(uint64_t(1) << 40); });
    }
    std::vector<double> delays;
    bool measuring = false;
    host->TraceConnectWithoutContext(
        "DmaWrite",
        MakeBoundCallback(
            +[](std::pair<bool*, std::vector<double>*> s, uint32_t, Time d) {
                if (*s.first)
                {
                    s.second->push_back(d.GetSeconds() * 1e6);
                }
            },
            std::make_pair(&measuring, &delays)));
    HostPathStats at0;
    // sender counters (CNPs, timeouts, resent and sent packets) at the start and the end
    auto senderCounters = [&qps] {
        std::array<uint64_t, 4> n{0, 0, 0, 0};
        for (const auto& qp : qps)
        {
            n[0] += qp->GetCnpsReceived();
            n[1] += qp->GetTimeouts();
            n[2] += qp->GetRetransmittedPackets();
            n[3] += qp->GetTxPackets();
        }
        return n;
    };
    std::array<uint64_t, 4> sender0{};
    std::vector<uint64_t> received; // receiver's in-order bytes at each interval boundary
    for (uint32_t k = 0; k <= c.intervals; ++k)
    {
        Simulator::Schedule(c.warmup + c.interval * k, [&, k] {
            if (k == 0)
            {
                measuring = true;
                at0 = host->GetStats();
                sender0 = senderCounters();
            }
            received.push_back(nics[1]->GetBytesReceived());
        });
    }
    const Time measure = c.interval * c.intervals;
    Simulator::Stop(c.warmup + measure + NanoSeconds(1));
    Simulator::Run();
    const HostPathStats& s = host->GetStats();
    // Goodput: payload the transport accepted in order (resent duplicates excluded).
    o.goodput = (received.back() - received.front()) * 8.0 / measure.GetSeconds();
    for (uint32_t k = 1; k < received.size(); ++k)
    {
        o.samples.push_back((received[k] - received[k - 1]) * 8.0 / c.interval.GetSeconds());
    }
    o.perInterval = SampleSummary::Of(o.samples);
    uint64_t rx = s.rxPackets - at0.rxPackets;
    o.dropRate = rx ? double(s.dropPackets - at0.dropPackets) / rx : 0.0;
    SampleSummary d = SampleSummary::Of(delays);
    o.delayP50 = d.p50;
    o.delayP99 = d.p99;
    uint64_t hits = s.iotlbHits - at0.iotlbHits;
    uint64_t misses = s.iotlbMisses - at0.iotlbMisses;
    o.hitRate = hits + misses ? double(hits) / (hits + misses) : 1.0;
    uint64_t written = s.dmaPayloadBytes - at0.dmaPayloadBytes;
    o.missesPerMiB = written ? misses * double(1 << 20) / written : 0.0;
    o.pauses = s.pausesSent - at0.pausesSent;
    const std::array<uint64_t, 4> sender1 = senderCounters();
    o.cnps = sender1[0] - sender0[0];
    o.timeouts = sender1[1] - sender0[1];
    const uint64_t sent = sender1[3] - sender0[3];
    o.resentFraction = sent ? double(sender1[2] - sender0[2]) / sent : 0.0;
    o.maxLevel = s.maxThrottleLevel;
    Simulator::Destroy();
    return o;
}

const char* kHeader = "sweep,rateGbps,flows,demand,iommu,pageBytes,pfc,response,seed,goodputGbps,"
                      "dropRate,delayP50us,delayP99us,iotlbHitRate,modelWriteGbps,maxThrottle,"
                      "goodputP50Gbps,goodputMinGbps,goodputMaxGbps";

void
Row(std::ostream& os, const std::string& sweep, const Case& c, const Outcome& o)
{
    os << sweep << ',' << c.rateGbps << ',' << c.flows << ',' << c.demand << ',' << c.iommu << ','
       << c.page << ',' << c.pfc << ',' << c.response << ',' << c.seed << ',' << o.goodput / 1e9
       << ',' << o.dropRate << ',' << o.delayP50 << ',' << o.delayP99 << ',' << o.hitRate << ','
       << o.op.writeRate / 1e9 << ',' << o.maxLevel << ',' << o.perInterval.p50 / 1e9 << ','
       << o.perInterval.min / 1e9 << ',' << o.perInterval.max / 1e9 << '\n';
}

const char* kIotlbHeader =
    "rateGbps,pageBytes,hostPath,sender,flows,seed,goodputGbps,p50Gbps,minGbps,maxGbps,dropRate,"
    "pausesSent,cnps,timeouts,resentFraction,iotlbHitRate,missesPerMiB,linkPayloadGbps,"
    "dmaWriteGbps,memLatencyNs,"
    "walkAccesses,workingSetPages,modelMissesPerMiB,streamWriteGbps,boundGbps";

const char* kSummaryHeader =
    "rateGbps,pageBytes,hostPath,sender,flows,seeds,samples,p50Gbps,minGbps,maxGbps,meanGbps,"
    "dropRate,"
    "iotlbHitRate,missesPerMiB,linkPayloadGbps,dmaWriteGbps,memLatencyNs,streamWriteGbps,"
    "boundGbps,p50OverBound,lossVsIommuOff";

/// pageBytes column: 0 = IOMMU off
uint64_t
PageColumn(const Case& c)
{
    return c.iommu ? c.page : 0;
}

/// Misses per MiB the closed form predicts (Iotlb::CyclicMissesPerByte).
double
ModelMissesPerMiB(const Case& c, const Outcome& o)
{
    return c.iommu && o.workingSet > o.entries ? double(1 << 20) / c.page : 0.0;
}

/// Points of the iotlb grid pooled over seeds.
struct Point
{
    Case c;
    Outcome first; //!< the model's values (identical for every seed)
    std::vector<double> samples;
    double dropSum{0};
    double hitSum{0};
    double missSum{0};
    uint32_t seeds{0};
};

/// The options, checked in one place.
struct Options
{
    std::string mode{"single"};
    Case c;
    std::string response; //!< "" = the mode's default (0; 3 in training)
    std::string flows;    //!< "" = the mode's default (4; 16 in iotlb)
    std::string rates{"100,200,400"};
    uint32_t seeds{3};
    uint32_t iterations{30};
    std::string csv;
    std::string summary;
};

std::vector<double>
ParseRates(const std::string& list)
{
    std::vector<double> v;
    std::stringstream ss(list);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        if (item != "100" && item != "200" && item != "400")
        {
            throw std::invalid_argument("--rates=" + list + ": each rate must be 100, 200 or 400");
        }
        v.push_back(std::stod(item));
    }
    if (v.empty())
    {
        throw std::invalid_argument("--rates=" + list + ": at least one of 100, 200, 400");
    }
    return v;
}

/// \throws std::invalid_argument naming the option and its accepted range
void
Validate(Options& o)
{
    if (o.mode != "single" && o.mode != "sweep" && o.mode != "iotlb" && o.mode != "training")
    {
        throw std::invalid_argument("--mode=" + o.mode +
                                    ": must be single, sweep, iotlb or training");
    }
    if (o.response.empty())
    {
        o.c.response = o.mode == "training" ? 3 : 0;
    }
    else if (o.response.size() == 1 && o.response[0] >= '0' && o.response[0] <= '3')
    {
        o.c.response = uint32_t(o.response[0] - '0');
        if (o.mode == "sweep" || o.mode == "iotlb")
        {
            throw std::invalid_argument("--response: not used by --mode=" + o.mode +
                                        " (its grid sets the response); use single or "
                                        "training");
        }
    }
    else
    {
        throw std::invalid_argument("--response=" + o.response +
                                    ": must be 0 (none), 1 (ECN marking), 2 (throttling) "
                                    "or 3 (both)");
    }
    if (o.c.rateGbps != 100 && o.c.rateGbps != 200 && o.c.rateGbps != 400)
    {
        throw std::invalid_argument("--rate: must be 100, 200 or 400");
    }
    ParseRates(o.rates);
    try
    {
        RdmaCcCatalog::TypeIdOf(o.c.cc);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument("--cc=" + o.c.cc + ": " + e.what());
    }
    if (o.flows.empty())
    {
        o.c.flows = o.mode == "iotlb" ? 16 : 4;
    }
    else
    {
        if (o.mode == "sweep" || o.mode == "training")
        {
            throw std::invalid_argument("--flows: not used by --mode=" + o.mode +
                                        " (its grid or job sets the flows); use single or iotlb");
        }
        const uint32_t maxFlows = o.mode == "iotlb" ? 32 : 64;
        size_t used = 0;
        unsigned long v = 0;
        try
        {
            v = std::stoul(o.flows, &used);
        }
        catch (const std::exception&)
        {
            used = 0;
        }
        if (used != o.flows.size() || v < 1 || v > maxFlows)
        {
            throw std::invalid_argument(
                "--flows=" + o.flows + ": must be an integer in [1, " + std::to_string(maxFlows) +
                "]" + (o.mode == "iotlb" ? " in iotlb mode (IotlbEntries / 2)" : ""));
        }
        o.c.flows = uint32_t(v);
    }
    if (!(o.c.demand >= 0 && o.c.demand <= 1))
    {
        throw std::invalid_argument("--demand: must be in [0, 1]");
    }
    if (o.mode == "training" && o.c.demand == 0)
    {
        throw std::invalid_argument("--demand: must be in (0, 1] in training mode (the run "
                                    "without a memory task is always made)");
    }
    if (o.seeds < 1 || o.seeds > 100)
    {
        throw std::invalid_argument("--seeds: must be in [1, 100]");
    }
    if (o.c.intervals < 1 || o.c.intervals > 10000)
    {
        throw std::invalid_argument("--intervals: must be in [1, 10000]");
    }
    if (o.c.interval <= Time(0) || o.c.warmup < Time(0))
    {
        throw std::invalid_argument("--interval must be positive and --warmup non-negative");
    }
    if (o.iterations < 5 || o.iterations > 10000)
    {
        throw std::invalid_argument("--iterations: must be in [5, 10000]");
    }
    if (!o.summary.empty() && o.mode != "iotlb")
    {
        throw std::invalid_argument("--summary: only in iotlb mode");
    }
}

/// Ring all-reduce job on 4 hosts with a memory-hungry co-located task on every host.
std::string
TrainingScenario(uint32_t iterations, double demand, uint32_t response, uint32_t seed)
{
    std::ostringstream j;
    j << R"({"topology": {"type": "leaf-spine", "leaves": 2, "spines": 1, "hostsPerLeaf": 2},
             "fabric": {"pfc": true, "ecn": true}, "duration": "2s", "drain": "1s",
             "seed": )"
      << seed << R"(, "output": {"flows": false, "ports": false},
             "host": {"memoryAppDemand": )"
      << demand << R"(, "hostCcMarking": )" << ((response & 1) ? "true" : "false")
      << R"(, "hostCcThrottling": )" << ((response & 2) ? "true" : "false") << R"(},
             "traffic": [{"type": "data-parallel-job", "hosts": [0, 1, 2, 3], "mode": "ring",
                          "model": "cifarnet", "gpu": "a100", "batch": 32,
                          "iterations": )"
      << iterations << "}]}";
    return j.str();
}

/// A point of the sweep or iotlb grid: no memory application, no hostCC response.
/// \param page IOMMU page size, 0 = IOMMU off
Case
IdleCase(const Case& base, double rateGbps, uint64_t page, bool pfc, uint32_t seed)
{
    Case k = base;
    k.rateGbps = rateGbps;
    k.demand = 0;
    k.iommu = page != 0;
    k.page = page == 0 ? 4096 : page;
    k.pfc = pfc;
    k.response = 0;
    k.seed = seed;
    return k;
}

void
RunSweep(const Options& opt, std::ostream& out)
{
    out << kHeader << '\n';
    for (uint32_t seed = 1; seed <= opt.seeds; ++seed)
    {
        for (bool iommu : {false, true})
        {
            for (uint32_t resp : {0u, 3u})
            {
                for (int d = 0; d <= 10; ++d)
                {
                    Case k = opt.c;
                    k.rateGbps = 100;
                    k.flows = 4;
                    k.demand = d / 10.0;
                    k.iommu = iommu;
                    k.page = 4096;
                    k.pfc = false;
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
                    Case k = IdleCase(opt.c, rate, page, false, seed);
                    k.flows = flows;
                    Row(out, "flows", k, RunCase(k));
                }
            }
        }
        out.flush();
        std::cerr << "seed " << seed << " done" << std::endl;
    }
}

void
RunIotlb(const Options& opt, std::ostream& out, std::ostream* summary)
{
    out << kIotlbHeader << '\n';
    using Key = std::tuple<double, uint64_t, bool, std::string>;
    std::map<Key, Point> points;
    std::vector<Key> order;
    for (uint32_t seed = 1; seed <= opt.seeds; ++seed)
    {
        for (double rate : ParseRates(opt.rates))
        {
            for (uint64_t page : {uint64_t(0), uint64_t(4096), uint64_t(2) << 20})
            {
                // the IOTLB cost alone (lossless, line-rate sender), with RoCE's congestion
                // control (lossless, DCQCN), and with drops (lossy, DCQCN: go-back-N)
                for (const auto& [lossless, cc] :
                     std::vector<std::pair<bool, std::string>>{{true, "fixed"},
                                                               {true, "dcqcn"},
                                                               {false, "dcqcn"}})
                {
                    Case k = IdleCase(opt.c, rate, page, lossless, seed);
                    k.cc = cc;
                    Outcome o = RunCase(k);
                    out << rate << ',' << page << ',' << (lossless ? "lossless" : "lossy") << ','
                        << cc << ',' << k.flows << ',' << seed << ',' << o.goodput / 1e9 << ','
                        << o.perInterval.p50 / 1e9 << ',' << o.perInterval.min / 1e9 << ','
                        << o.perInterval.max / 1e9 << ',' << o.dropRate << ',' << o.pauses << ','
                        << o.cnps << ',' << o.timeouts << ',' << o.resentFraction << ','
                        << o.hitRate << ',' << o.missesPerMiB << ',' << o.linkPayload / 1e9 << ','
                        << o.op.writeRate / 1e9 << ',' << o.op.memLatency * 1e9 << ','
                        << o.walkAccesses << ',' << o.workingSet << ',' << ModelMissesPerMiB(k, o)
                        << ',' << o.streamRate / 1e9 << ',' << o.bound / 1e9 << '\n';
                    auto key = std::make_tuple(rate, page, lossless, cc);
                    Point& p = points[key];
                    if (p.seeds == 0)
                    {
                        p.c = k;
                        p.first = o;
                        order.push_back(key);
                    }
                    ++p.seeds;
                    p.dropSum += o.dropRate;
                    p.hitSum += o.hitRate;
                    p.missSum += o.missesPerMiB;
                    // every measured interval of every seed
                    p.samples.insert(p.samples.end(), o.samples.begin(), o.samples.end());
                }
            }
        }
        out.flush();
        std::cerr << "seed " << seed << " done" << std::endl;
    }
    // Pooled over seeds: p50/min/max of every measured interval, beside the bound; the loss is
    // relative to the IOMMU-off point of the same rate and host path (the paper's baseline).
    std::ostringstream table;
    table << kSummaryHeader << '\n';
    std::cout << std::fixed << std::setprecision(1)
              << "rate  pages    path      sender goodput p50 [min, max] Gb/s   bound   p50/bound  "
                 "loss vs IOMMU off  drops\n";
    for (const auto& key : order)
    {
        const Point& p = points.at(key);
        const SampleSummary s = SampleSummary::Of(p.samples);
        const SampleSummary off = SampleSummary::Of(
            points.at(Key(std::get<0>(key), 0, std::get<2>(key), std::get<3>(key))).samples);
        const double loss = off.p50 > 0 ? 1.0 - s.p50 / off.p50 : NAN;
        const Outcome& f = p.first;
        table << p.c.rateGbps << ',' << std::get<1>(key) << ',' << (p.c.pfc ? "lossless" : "lossy")
              << ',' << p.c.cc << ',' << p.c.flows << ',' << p.seeds << ',' << s.n << ','
              << s.p50 / 1e9 << ',' << s.min / 1e9 << ',' << s.max / 1e9 << ',' << s.mean / 1e9
              << ',' << p.dropSum / p.seeds << ',' << p.hitSum / p.seeds << ','
              << p.missSum / p.seeds << ',' << f.linkPayload / 1e9 << ',' << f.op.writeRate / 1e9
              << ',' << f.op.memLatency * 1e9 << ',' << f.streamRate / 1e9 << ',' << f.bound / 1e9
              << ',' << s.p50 / f.bound << ',' << loss << '\n';
        const uint64_t page = std::get<1>(key);
        std::cout << std::setw(4) << p.c.rateGbps << "  " << std::setw(7)
                  << (page == 0      ? "no IOMMU"
                      : page == 4096 ? "4 KiB"
                                     : "2 MiB")
                  << "  " << std::setw(8) << (p.c.pfc ? "lossless" : "lossy") << "  "
                  << std::setw(5) << p.c.cc << "  " << std::setw(7) << s.p50 / 1e9 << " ["
                  << s.min / 1e9 << ", " << s.max / 1e9 << "]  " << std::setw(12) << f.bound / 1e9
                  << "  " << std::setw(6) << std::setprecision(3) << s.p50 / f.bound
                  << std::setprecision(1) << "  " << std::setw(10) << 100 * loss << " %  "
                  << std::setw(8) << std::setprecision(2) << 100 * p.dropSum / p.seeds
                  << std::setprecision(1) << " %\n";
    }
    if (summary)
    {
        *summary << table.str();
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    Options opt;
    CommandLine cmd(__FILE__);
    EventSchedulerHelper::UseDefault(cmd); // mlnet's event scheduler; --scheduler=...
    EventSchedulerHelper::UseHugePages();  // a program owns its process: huge-page heap
    cmd.AddValue("mode", "single, sweep, iotlb or training", opt.mode);
    cmd.AddValue("rate", "Link rate in Gb/s: 100, 200 or 400 (single mode)", opt.c.rateGbps);
    cmd.AddValue("rates", "Link rates of the iotlb grid, a list of 100, 200, 400", opt.rates);
    cmd.AddValue("flows",
                 "Queue pairs into the receiver: single mode 1..64 (default 4), iotlb mode 1..32 "
                 "(default 16: 256 pages of 4 KiB for 64 IOTLB entries)",
                 opt.flows);
    cmd.AddValue("demand",
                 "Memory bandwidth the co-located application asks for, [0, 1] (training: "
                 "(0, 1])",
                 opt.c.demand);
    cmd.AddValue("iommu", "IOMMU on (single mode)", opt.c.iommu);
    cmd.AddValue("page", "IOMMU page size in bytes, 4096 or 2097152 (single mode)", opt.c.page);
    cmd.AddValue("pfc",
                 "Lossless host path: the NIC pauses its link instead of dropping (single)",
                 opt.c.pfc);
    cmd.AddValue("response",
                 "hostCC response: 0 none, 1 ECN marking, 2 throttling, 3 both (single: default "
                 "0; training: the response of the third run, default 3, 0 = no such run)",
                 opt.response);
    cmd.AddValue("mtu", "RDMA payload bytes per packet", opt.c.mtu);
    cmd.AddValue("cc", "Sender (single mode): dcqcn, dcqcn-vendor or fixed (line rate)", opt.c.cc);
    cmd.AddValue("seed", "RngRun (single mode)", opt.c.seed);
    cmd.AddValue("seeds", "Seeds per point (sweep, iotlb and training)", opt.seeds);
    cmd.AddValue("warmup", "Time before the measurement (discarded)", opt.c.warmup);
    cmd.AddValue("interval", "Length of one measured interval", opt.c.interval);
    cmd.AddValue("intervals", "Measured intervals per run (>= 10 for a spread)", opt.c.intervals);
    cmd.AddValue("iterations", "Training iterations (training mode), 5..10000", opt.iterations);
    cmd.AddValue("csv", "Write rows to this CSV file", opt.csv);
    cmd.AddValue("summary", "iotlb mode: write the pooled summary to this CSV file", opt.summary);
    cmd.Parse(argc, argv);
    try
    {
        Validate(opt);
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "host-congestion: " << e.what() << std::endl;
        return 2;
    }
    try
    {
        std::ofstream file;
        if (!opt.csv.empty())
        {
            file.open(opt.csv);
            if (!file)
            {
                throw std::invalid_argument("--csv=" + opt.csv + ": cannot write");
            }
        }
        std::ostream& out = opt.csv.empty() ? std::cout : file;
        if (opt.mode == "single")
        {
            Outcome o = RunCase(opt.c);
            std::cout << std::fixed << std::setprecision(3) << "goodput " << o.goodput / 1e9
                      << " Gb/s (p50 " << o.perInterval.p50 / 1e9 << ", min "
                      << o.perInterval.min / 1e9 << ", max " << o.perInterval.max / 1e9 << " over "
                      << opt.c.intervals << " intervals; bound " << o.bound / 1e9
                      << " = min(link payload " << o.linkPayload / 1e9 << ", DMA with page walks "
                      << o.streamRate / 1e9 << "); model DMA write rate " << o.op.writeRate / 1e9
                      << "), host drops " << 100 * o.dropRate << " %, host delay p50 " << o.delayP50
                      << " us p99 " << o.delayP99 << " us, IOTLB hit rate " << o.hitRate
                      << ", max throttle level " << o.maxLevel << ", host pauses " << o.pauses
                      << ", sender CNPs " << o.cnps << " timeouts " << o.timeouts << " resent "
                      << 100 * o.resentFraction << " % of packets" << std::endl;
            return 0;
        }
        if (opt.mode == "sweep")
        {
            RunSweep(opt, out);
            return 0;
        }
        if (opt.mode == "iotlb")
        {
            std::ofstream sum;
            if (!opt.summary.empty())
            {
                sum.open(opt.summary);
                if (!sum)
                {
                    throw std::invalid_argument("--summary=" + opt.summary + ": cannot write");
                }
            }
            RunIotlb(opt, out, opt.summary.empty() ? nullptr : &sum);
            return 0;
        }
        const uint32_t response = opt.c.response;
        out << "demand,response,seed,iteration,iterationUs\n";
        for (uint32_t seed = 1; seed <= opt.seeds; ++seed)
        {
            std::vector<std::pair<double, uint32_t>> runs{{0.0, 0}, {opt.c.demand, 0}};
            if (response != 0)
            {
                runs.emplace_back(opt.c.demand, response);
            }
            for (const auto& [demand, resp] : runs)
            {
                ScenarioRunner runner(
                    Scenario::ParseString(TrainingScenario(opt.iterations, demand, resp, seed)));
                ScenarioResult r = runner.Run();
                std::vector<double> t;
                for (const IterationRecord& it : r.iterations)
                {
                    double us = it.Duration().GetSeconds() * 1e6;
                    out << demand << ',' << resp << ',' << seed << ',' << it.iteration << ',' << us
                        << '\n';
                    // Steady state: after 3 warm-up iterations, without the last one
                    // (it also waits for the job's final synchronisation, about 2x long).
                    if (it.iteration >= 3 && it.iteration + 1 < opt.iterations)
                    {
                        t.push_back(us);
                    }
                }
                SampleSummary s = SampleSummary::Of(t);
                std::cerr << "demand " << demand << " response " << resp << " seed " << seed
                          << ": iteration p50 " << s.p50 << " us, p99 " << s.p99 << " us over "
                          << s.n << " iterations" << (r.summary.drained ? "" : " (not drained)")
                          << std::endl;
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
