/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// In-network aggregation in small simulations: sums by value, loss recovery, back-pressure,
// pass-through, striping, congestion control.

#include "common/aggregation-scenario.h"

#include "ns3/network-module.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace ns3;
using namespace mlnettest;

TEST_CASE("aggregation: every worker gets the exact FP32 sum (2 jobs, 2 trees, PFC on)",
          "[aggregation]")
{
    AggLeafSpine s(2, 2, 4);
    s.Install("bump");
    Ptr<InNetworkAggregator> j1 = s.agg.InstallJob(s.Hosts({0, 1, 4, 5}), 1, 2);
    Ptr<InNetworkAggregator> j2 = s.agg.InstallJob(s.Hosts({2, 3, 6, 7}), 2, 2);
    std::vector<std::vector<float>> r1, r2;
    const uint32_t n = 40000;
    std::vector<float> e1 = PostValues(j1, n, 1, r1);
    std::vector<float> e2 = PostValues(j2, n, 2, r2);
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    for (const auto& r : r1)
    {
        REQUIRE(r == e1);
    }
    for (const auto& r : r2)
    {
        REQUIRE(r == e2);
    }
    REQUIRE(s.SwitchDrops() == 0);
    Simulator::Destroy();
}

TEST_CASE("aggregation: sums survive loss through retransmission (PFC off, small buffers)",
          "[aggregation]")
{
    AggLeafSpine s(2, 2, 4, false, 300 * 1024);
    s.Install("bump");
    // One tree: the four workers of a leaf share one uplink, 4:1 oversubscribed.
    Ptr<InNetworkAggregator> j = s.agg.InstallJob(s.Hosts({0, 1, 2, 3, 4, 5, 6, 7}), 1, 1);
    std::vector<std::vector<float>> r;
    std::vector<float> e = PostValues(j, 100000, 3, r);
    Simulator::Stop(MilliSeconds(100));
    Simulator::Run();
    uint64_t retx = 0;
    for (const auto& w : j->GetWorkers())
    {
        retx += w->GetStats().retransmitted;
    }
    INFO("switch drops " << s.SwitchDrops() << ", retransmissions " << retx);
    REQUIRE(s.SwitchDrops() > 0);
    REQUIRE(retx > 0);
    for (const auto& x : r)
    {
        REQUIRE(x == e);
    }
    Simulator::Destroy();
}

TEST_CASE("aggregation: a slow datapath back-pressures with PFC instead of dropping",
          "[aggregation]")
{
    AggLeafSpine s(2, 2, 4);
    // 4 lanes at 100 MHz: 1.6 GB/s of FP32, an eighth of a 100 Gb/s port.
    s.agg.SetTimingAttribute("Lanes", UintegerValue(4));
    s.agg.SetTimingAttribute("ClockFrequency", DoubleValue(100e6));
    s.agg.SetDeviceAttribute("InputBufferBytes", UintegerValue(128 * 1024));
    s.Install("bump");
    Ptr<InNetworkAggregator> j = s.agg.InstallJob(s.Hosts({0, 1, 2, 3, 4, 5, 6, 7}), 1, 2);
    std::vector<std::vector<float>> r;
    std::vector<float> e = PostValues(j, 60000, 4, r);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    uint64_t pauses = 0;
    uint64_t drops = 0;
    uint64_t maxBytes = 0;
    NetDeviceContainer ports = AggregationHelper::GetDevices();
    for (auto it = ports.Begin(); it != ports.End(); ++it)
    {
        Ptr<AggregationDevice> d = AggregationHelper::Get(*it);
        pauses += d->GetStats().pauses;
        drops += d->GetStats().drops;
        maxBytes = std::max(maxBytes, d->GetStats().maxInputBytes);
    }
    INFO("device pauses " << pauses << ", largest input buffer " << maxBytes);
    REQUIRE(pauses > 0);
    REQUIRE(drops == 0);
    REQUIRE(maxBytes <= 128 * 1024);
    REQUIRE(s.SwitchDrops() == 0);
    for (const auto& x : r)
    {
        REQUIRE(x == e);
    }
    Simulator::Destroy();
}

TEST_CASE("aggregation: other packets cross a device byte for byte", "[aggregation]")
{
    AggLeafSpine s(2, 1, 1);
    s.Install("bump");
    NetDeviceContainer ports = AggregationHelper::GetDevices();
    REQUIRE(ports.GetN() == 4); // both ends of both leaf-spine links
    std::vector<Ptr<AggregationDevice>> devs;
    for (auto it = ports.Begin(); it != ports.End(); ++it)
    {
        devs.push_back(AggregationHelper::Get(*it));
        REQUIRE(devs.back()->GetSwitchPort() == *it);
        REQUIRE(AggregationHelper::Get(devs.back()->GetLinkPort()) == devs.back());
    }
    REQUIRE(!AggregationHelper::Get(s.topo.hosts.Get(0)->GetDevice(0))); // not a device's port
    RdmaHelper rdma;
    std::vector<Ptr<RdmaNic>> nics = rdma.Install(s.topo.hosts);
    std::map<Ptr<AggregationDevice>, std::vector<std::vector<uint8_t>>> in, out;
    auto bytes = [](Ptr<const Packet> p) {
        std::vector<uint8_t> b(p->GetSize());
        p->CopyData(b.data(), b.size());
        return b;
    };
    for (auto d : devs)
    {
        for (int side = 0; side < 2; ++side)
        {
            Ptr<FabricNetDevice> port = side ? d->GetLinkPort() : d->GetSwitchPort();
            port->TraceConnectWithoutContext(
                "MacRx",
                Callback<void, Ptr<const Packet>>(
                    [&in, d, bytes](Ptr<const Packet> p) { in[d].push_back(bytes(p)); }));
            port->TraceConnectWithoutContext(
                "PhyTxBegin",
                Callback<void, Ptr<const Packet>>(
                    [&out, d, bytes](Ptr<const Packet> p) { out[d].push_back(bytes(p)); }));
        }
    }
    Ptr<RdmaQueuePair> qp = nics[0]->Connect(nics[1]);
    bool done = false;
    qp->PostSend(2000000,
                 RdmaQueuePair::CompletionCallback([&done](uint64_t, uint64_t) { done = true; }));
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    REQUIRE(done);
    for (auto d : devs)
    {
        REQUIRE(in[d].size() > 100);
        std::sort(in[d].begin(), in[d].end());
        std::sort(out[d].begin(), out[d].end());
        REQUIRE(in[d] == out[d]);
        REQUIRE(d->GetStats().aggregationRx == 0);
    }
    Simulator::Destroy();
}

TEST_CASE("aggregation: striping over trees spreads bytes evenly over their spines",
          "[aggregation]")
{
    for (uint32_t trees : {1u, 4u})
    {
        AggLeafSpine s(4, 4, 2);
        s.Install("bump");
        Ptr<InNetworkAggregator> j = s.agg.InstallJob(s.Hosts({0, 1, 2, 3, 4, 5, 6, 7}), 1, trees);
        std::set<uint32_t> roots;
        for (const auto& t : j->GetTrees())
        {
            roots.insert(t.rootSwitch);
        }
        REQUIRE(roots.size() == trees);
        bool done = false;
        j->Aggregate(0, 2 * 1024 * 1024, 3, Callback<void>([&done]() { done = true; }));
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        REQUIRE(done);
        std::vector<double> perSpine;
        for (uint32_t k = 0; k < s.topo.core.GetN(); ++k)
        {
            Ptr<FabricSwitch> sw = s.topo.core.Get(k)->GetObject<FabricSwitch>();
            uint64_t b = 0;
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                b += sw->GetPortStats(p).txBytes;
            }
            perSpine.push_back(double(b));
        }
        double mx = *std::max_element(perSpine.begin(), perSpine.end());
        double mn = *std::min_element(perSpine.begin(), perSpine.end());
        INFO("trees " << trees << ": spine bytes " << perSpine[0] << " " << perSpine[1] << " "
                      << perSpine[2] << " " << perSpine[3]);
        if (trees == 4)
        {
            REQUIRE(mn >= 0.9 * mx);
        }
        else
        {
            REQUIRE(mn < 0.01 * mx); // single tree: one spine carries everything
        }
        Simulator::Destroy();
    }
}

TEST_CASE("aggregation: bad set-ups are rejected with a clear error", "[aggregation]")
{
    {
        AggLeafSpine s(2, 2, 2);
        s.agg.SetDeviceAttribute("InputBufferBytes", UintegerValue(1000));
        REQUIRE_THROWS_WITH(s.Install("bump"), Catch::Contains("smaller than one packet"));
        Simulator::Destroy();
    }
    {
        // Two jobs through one leaf uplink device that can hold one job.
        AggLeafSpine s(2, 1, 4);
        s.agg.SetEngineAttribute("MaxJobs", UintegerValue(1));
        s.Install("bump");
        s.agg.InstallJob(s.Hosts({0, 1, 4, 5}), 1, 1);
        REQUIRE_THROWS_WITH(s.agg.InstallJob(s.Hosts({2, 3, 6, 7}), 2, 1),
                            Catch::Contains("MaxJobs = 1"));
        REQUIRE_THROWS_WITH(s.agg.InstallJob(s.Hosts({2, 3}), 3, 0),
                            Catch::Contains("trees = 0 is out of range"));
        Simulator::Destroy();
    }
    {
        AggLeafSpine s(2, 2, 2);
        s.agg.InstallDevices(s.topo.edge); // no devices on the spines: no tree root
        REQUIRE_THROWS_WITH(s.agg.InstallJob(s.Hosts({0, 2}), 1, 1),
                            Catch::Contains("has no aggregation device"));
        Simulator::Destroy();
    }
}

TEST_CASE("aggregation: in-switch INT32 aggregation is within its quantisation bound",
          "[aggregation]")
{
    AggLeafSpine s(2, 2, 3);
    s.agg.SetWorkerAttribute("ElementType", EnumValue(AggElementType::INT32));
    s.agg.SetWorkerAttribute("ScaleExponent", IntegerValue(16));
    s.agg.SetCongestionControl("ns3::AggregationFixedWindow");
    s.Install("switch");
    Ptr<InNetworkAggregator> j = s.agg.InstallJob(s.Hosts({0, 1, 2, 3, 4, 5}), 1, 2, 64);
    const uint32_t n = 20000;
    std::vector<std::vector<float>> exact(6);
    std::vector<double> sum(n, 0.0);
    std::vector<std::vector<float>> r(6);
    for (uint32_t w = 0; w < 6; ++w)
    {
        std::vector<float> g(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            g[i] = float(std::sin(0.001 * i * (w + 1)) * 0.37); // not exactly representable
            sum[i] += g[i];
        }
        j->GetWorkers()[w]->PostValues(
            g,
            3,
            AggregationWorker::DoneCallback(
                [&r, w](uint64_t, const std::vector<float>& x) { r[w] = x; }));
    }
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    const double bound = 6 * 0.5 / 65536.0; // half a step per worker
    for (uint32_t w = 0; w < 6; ++w)
    {
        REQUIRE(r[w].size() == n);
        double worst = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            worst = std::max(worst, std::fabs(double(r[w][i]) - sum[i]));
        }
        INFO("worst error " << worst << ", bound " << bound);
        REQUIRE(worst <= bound + 1e-6);
    }
    Simulator::Destroy();
}

TEST_CASE("aggregation: a data-parallel job trains faster through in-network aggregation than "
          "by ring all-reduce",
          "[aggregation]")
{
    // 1 M parameters: 4 MB of FP32 gradients per iteration and worker.
    std::istringstream csv("name,parameters,forward_us,backward_us\n"
                           "conv1,300000,30,60\n"
                           "conv2,600000,30,60\n"
                           "fc,100000,15,30\n");
    const DnnModel model = DnnModel::FromCsv(csv, "small");
    Time mean[2];
    for (int mode = 0; mode < 2; ++mode)
    {
        AggLeafSpine s(2, 2, 2);
        s.Install("bump");
        RdmaHelper rdma;
        std::vector<Ptr<RdmaNic>> nics = rdma.Install(s.topo.hosts);
        Ptr<DataParallelJob> job = CreateObject<DataParallelJob>();
        job->SetAttribute("Iterations", UintegerValue(3));
        job->SetModel(model, GpuProfile::V100());
        job->SetWorkers(nics);
        Ptr<InNetworkAggregator> agg;
        if (mode == 0)
        {
            agg = s.agg.InstallJob(s.topo.hosts, 1, 2);
            job->SetAttribute("Mode", EnumValue(DataParallelJob::AGGREGATOR));
            job->SetAggregator(agg);
        }
        job->Start();
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        REQUIRE(job->GetIterationsDone() == 3);
        mean[mode] = job->GetMeanIterationTime(1);
        if (mode == 0)
        {
            REQUIRE(agg->GetSlicesDone() == 3 * job->GetPlan().size());
        }
        Simulator::Destroy();
    }
    INFO("in-network " << mean[0].GetMicroSeconds() << " us, ring " << mean[1].GetMicroSeconds()
                       << " us");
    REQUIRE(mean[0] < mean[1]);
}

TEST_CASE("aggregation: with congestion control an aggregation job and an RDMA flow share a "
          "link fairly, without it the RDMA flow starves",
          "[aggregation]")
{
    // Workers 0 (leaf 0) and 2 (leaf 1), one tree through the spine; an RDMA flow from host 1
    // (leaf 0) to host 3 (leaf 1) shares the leaf-0 uplink with worker 0's contributions.
    // 10 Gb/s links: DCQCN (paper defaults) converges in tens of milliseconds.
    // The DCTCP-style window reacts to the same marks but grows by a chunk per round trip
    // (tens of us) where the RDMA flow's DCQCN grows by 40 Mb/s per 55 us: the RDMA flow no
    // longer starves, but the shares are not equal (measured 1.16 / 8.07 Gb/s); DCQCN is the
    // default for that reason. The next test shows the window is fair among its peers and
    // takes the same share against a DCQCN-style aggregation job: the algorithms' interaction.
    for (std::string cc :
         {"ns3::AggregationDcqcn", "ns3::AggregationDctcp", "ns3::AggregationFixedWindow"})
    {
        const bool control = cc == "ns3::AggregationDcqcn";
        const bool window = cc == "ns3::AggregationDctcp";
        AggLeafSpine s(2, 1, 2, true, 32u << 20, "10Gbps");
        s.agg.SetCongestionControl(cc);
        s.Install("bump");
        RdmaHelper rdma;
        std::vector<Ptr<RdmaNic>> nics = rdma.Install(s.topo.hosts);
        Ptr<InNetworkAggregator> j = s.agg.InstallJob(s.Hosts({0, 2}), 1, 1);
        Ptr<RdmaQueuePair> qp = nics[1]->Connect(nics[3]);
        qp->PostSend(2000000000ull);
        j->Aggregate(0, 2000000000ull, 3, Callback<void>());
        const Time from = MilliSeconds(control || window ? 40 : 10);
        const Time to = MilliSeconds(control || window ? 80 : 20);
        uint64_t rdma0 = 0;
        uint64_t agg0 = 0;
        Ptr<AggregationWorker> w0 = j->GetWorkers()[0];
        Simulator::Schedule(from, [&]() {
            rdma0 = nics[3]->GetBytesReceived();
            agg0 = w0->GetStats().results;
        });
        Simulator::Stop(to);
        Simulator::Run();
        double secs = (to - from).GetSeconds();
        double rdmaRate = (nics[3]->GetBytesReceived() - rdma0) * 8 / secs;
        double aggRate = (w0->GetStats().results - agg0) * 1024.0 * 8 / secs;
        INFO(cc << ": RDMA " << rdmaRate / 1e9 << " Gb/s, aggregation " << aggRate / 1e9
                << " Gb/s");
        if (control)
        {
            double fair = (rdmaRate + aggRate) / 2;
            REQUIRE(std::abs(rdmaRate - fair) <= 0.10 * fair);
            REQUIRE(rdmaRate + aggRate > 0.8 * 10e9);
            REQUIRE(w0->GetStats().markedResults > 0);
        }
        else if (window)
        {
            REQUIRE(rdmaRate > 0.08 * 10e9); // ten times what it gets without control
            REQUIRE(rdmaRate < aggRate);
            REQUIRE(rdmaRate + aggRate > 0.8 * 10e9);
            REQUIRE(w0->GetStats().markedResults > 0);
        }
        else
        {
            REQUIRE(rdmaRate < 0.05 * 10e9);
            REQUIRE(aggRate > 0.85 * 10e9);
        }
        Simulator::Destroy();
    }
}

TEST_CASE("aggregation: two aggregation jobs with the DCTCP-style window share a link fairly, "
          "against a DCQCN-style job the window takes the larger share",
          "[aggregation]")
{
    // Jobs 1 (hosts 0, 2) and 2 (hosts 1, 3), one tree each through the spine: their
    // contributions share the leaf-0 uplink; job 2 starts 5 ms later, when job 1 holds the link.
    // With the DCTCP-style window on both (PANAMA's setting) they converge to equal shares,
    // which checks the alpha / window update (a window that did not grow back, or an alpha that
    // did not follow the marked fraction, would leave job 2 behind). With job 2 on the
    // DCQCN-style control the window takes most of the link, as against a DCQCN RDMA flow in
    // the previous test: the unfairness is the interaction of the two algorithms (a window
    // that grows by one chunk per round trip of tens of microseconds against DCQCN's
    // 40 Mb/s per 55 us), not a property of the RDMA path. Measured from 45 to 85 ms: with the
    // devices' default PassThroughPath (Bypass) a result waits while pass-through frames of the
    // other job are queued at its device, so the late job's round trip is longer and its window
    // grows back more slowly (15-35 ms: 5.53 / 3.68 Gb/s; 45-85 ms: 4.24 / 4.98; with
    // SharedFifo 4.54 / 4.68 at 45-85 ms).
    for (std::string second : {"ns3::AggregationDctcp", "ns3::AggregationDcqcn"})
    {
        AggLeafSpine s(2, 1, 2, true, 32u << 20, "10Gbps");
        s.agg.SetCongestionControl("ns3::AggregationDctcp");
        s.Install("bump");
        Ptr<InNetworkAggregator> a = s.agg.InstallJob(s.Hosts({0, 2}), 1, 1);
        s.agg.SetCongestionControl(second);
        Ptr<InNetworkAggregator> b = s.agg.InstallJob(s.Hosts({1, 3}), 2, 1);
        a->Aggregate(0, 2000000000ull, 3, Callback<void>());
        Simulator::Schedule(MilliSeconds(5),
                            [b]() { b->Aggregate(0, 2000000000ull, 3, Callback<void>()); });
        const Time from = MilliSeconds(45);
        const Time to = MilliSeconds(85);
        uint64_t a0 = 0;
        uint64_t b0 = 0;
        Ptr<AggregationWorker> wa = a->GetWorkers()[0];
        Ptr<AggregationWorker> wb = b->GetWorkers()[0];
        Simulator::Schedule(from, [&]() {
            a0 = wa->GetStats().results;
            b0 = wb->GetStats().results;
        });
        Simulator::Stop(to);
        Simulator::Run();
        const double secs = (to - from).GetSeconds();
        const double ra = (wa->GetStats().results - a0) * 1024.0 * 8 / secs;
        const double rb = (wb->GetStats().results - b0) * 1024.0 * 8 / secs;
        INFO("DCTCP job " << ra / 1e9 << " Gb/s, " << second << " job " << rb / 1e9
                          << " Gb/s, marked " << wa->GetStats().markedResults << " / "
                          << wb->GetStats().markedResults);
        REQUIRE(ra + rb > 0.8 * 10e9 * 1024 / 1110); // goodput of a 1110-byte frame
        REQUIRE(wa->GetStats().markedResults > 0);
        REQUIRE(wb->GetStats().markedResults > 0);
        if (second == "ns3::AggregationDctcp")
        {
            const double fair = (ra + rb) / 2;
            REQUIRE(std::abs(ra - fair) <= 0.10 * fair);
        }
        else
        {
            REQUIRE(ra > 2 * rb);
        }
        Simulator::Destroy();
    }
}

TEST_CASE("aggregation: pcap traces show the aggregation header of contributions and results",
          "[aggregation]")
{
    std::string file = (std::filesystem::temp_directory_path() /
                        ("mlnet-agg-pcap-" + std::to_string(::getpid()) + ".pcap"))
                           .string();
    std::vector<std::vector<float>> r;
    {
        // In a block: the capture file is closed when the devices are gone.
        AggLeafSpine s(2, 1, 2);
        s.Install("bump");
        Ptr<InNetworkAggregator> j = s.agg.InstallJob(s.Hosts({0, 1, 2, 3}), 5, 1);
        FabricHelper fh;
        fh.EnablePcap(file, s.topo.HostDevice(0), false, true);
        PostValues(j, 1000, 1, r);
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        Simulator::Destroy();
    }
    // Read the capture directly: 24-byte file header, then 16-byte record headers.
    std::ifstream in(file, std::ios::binary);
    std::vector<uint8_t> d((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(d.size() > 24);
    REQUIRE(d[20] == PcapHelper::DLT_EN10MB); // link type, little endian
    uint32_t contributions = 0;
    uint32_t results = 0;
    for (std::size_t off = 24; off + 16 <= d.size();)
    {
        uint32_t read = d[off + 8] | (d[off + 9] << 8) | (d[off + 10] << 16) | (d[off + 11] << 24);
        const uint8_t* buf = d.data() + off + 16;
        off += 16 + read;
        REQUIRE(off <= d.size());
        REQUIRE(((buf[12] << 8) | buf[13]) == 0x0800);
        REQUIRE(buf[14 + 9] == 17);
        REQUIRE(((buf[14 + 22] << 8) | buf[14 + 23]) == AggregationHeader::kUdpPort);
        AggregationHeader h;
        h.Read(buf + 14 + 28);
        REQUIRE(h.jobId == 5);
        REQUIRE(h.elements <= 256);
        REQUIRE(read == 14 + 48 + h.elements * 4u);
        (h.type == AggregationHeader::RESULT ? results : contributions)++;
        if (h.type == AggregationHeader::RESULT)
        {
            REQUIRE(h.fanIn == 4);
        }
    }
    INFO("contributions " << contributions << " results " << results << " r0 " << r[0].size());
    REQUIRE(contributions == 4); // ceil(1000 / 256) chunks, sent and answered
    REQUIRE(results == 4);
    std::remove(file.c_str());
}

TEST_CASE("aggregation: a host's NIC serves its aggregation worker and its queue pairs in turn",
          "[aggregation]")
{
    // Host 0 is a worker (no congestion control: it would take the whole link) and sends an
    // RDMA flow to host 3: its NIC alternates between them.
    AggLeafSpine s(2, 1, 2, true, 32u << 20, "10Gbps");
    s.agg.SetCongestionControl("ns3::AggregationFixedWindow");
    s.Install("bump");
    RdmaHelper rdma;
    std::vector<Ptr<RdmaNic>> nics = rdma.Install(s.topo.hosts);
    Ptr<InNetworkAggregator> j = s.agg.InstallJob(s.Hosts({0, 2}), 1, 1);
    Ptr<RdmaQueuePair> qp = nics[0]->Connect(nics[3]);
    qp->PostSend(1000000000ull);
    j->Aggregate(0, 1000000000ull, 3, Callback<void>());
    uint64_t rdma0 = 0;
    uint64_t agg0 = 0;
    Ptr<AggregationWorker> w0 = j->GetWorkers()[0];
    Simulator::Schedule(MilliSeconds(1), [&]() {
        rdma0 = nics[3]->GetBytesReceived();
        agg0 = w0->GetStats().chunksSent;
    });
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    double rdmaRate = (nics[3]->GetBytesReceived() - rdma0) * 8 / 4e-3;
    double aggRate = (w0->GetStats().chunksSent - agg0) * 1024.0 * 8 / 4e-3;
    INFO("RDMA " << rdmaRate / 1e9 << " Gb/s, aggregation " << aggRate / 1e9 << " Gb/s");
    REQUIRE(rdmaRate == Approx(aggRate).epsilon(0.05));
    REQUIRE(rdmaRate + aggRate > 0.85 * 10e9);
    Simulator::Destroy();
}
