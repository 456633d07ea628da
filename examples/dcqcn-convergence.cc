/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// DCQCN convergence: 2..8 RDMA flows share a 100 Gbps bottleneck (dumbbell). Prints, per
// sampling interval, each flow's sending rate, the bottleneck queue, and Jain's fairness index;
// optionally writes the same as CSV. Run with --pfc=0 to see the lossy behaviour.
//
//   ./dcqcn-convergence --flows=4 --duration=60ms --cc=ns3::Dcqcn --csv=rates.csv

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <fstream>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{
double
Jain(const std::vector<double>& x)
{
    double s = 0;
    double s2 = 0;
    for (double v : x)
    {
        s += v;
        s2 += v * v;
    }
    return s2 > 0 ? s * s / (x.size() * s2) : 0;
}
} // namespace

int
main(int argc, char* argv[])
{
    uint32_t flows = 4;
    bool pfc = true;
    std::string cc = "ns3::Dcqcn";
    Time duration = MilliSeconds(60);
    Time interval = MilliSeconds(1);
    Time stagger = Time(0);
    std::string csv;
    CommandLine cmd(__FILE__);
    EventSchedulerHelper::UseDefault(cmd); // mlnet's event scheduler; --scheduler=...
    EventSchedulerHelper::UseHugePages();  // a program owns its process: huge-page heap
    cmd.AddValue("flows", "Number of flows sharing the bottleneck (2..8)", flows);
    cmd.AddValue("pfc", "PFC on the switches", pfc);
    cmd.AddValue("cc", "Congestion control TypeId (ns3::Dcqcn, ns3::DcqcnVendor)", cc);
    cmd.AddValue("duration", "Simulated time", duration);
    cmd.AddValue("interval", "Sampling interval", interval);
    cmd.AddValue("stagger", "Start flow i at i x stagger", stagger);
    cmd.AddValue("csv", "Write samples to this CSV file", csv);
    cmd.Parse(argc, argv);
    try
    {
        if (flows < 2 || flows > 8)
        {
            throw std::invalid_argument("--flows = " + std::to_string(flows) +
                                        ": must be in [2, 8]");
        }
        if (interval <= Time(0) || duration <= Time(0))
        {
            throw std::invalid_argument("--interval and --duration must be > 0");
        }
        FabricTopologyHelper th;
        th.Fabric().SetSwitchAttribute("PfcEnabled", BooleanValue(pfc));
        FabricTopology t = th.BuildDumbbell(flows, flows);
        RdmaHelper rdma;
        rdma.SetCongestionControl(cc);
        std::vector<Ptr<RdmaNic>> nics = rdma.Install(t.hosts);
        std::vector<Ptr<RdmaQueuePair>> qps;
        for (uint32_t i = 0; i < flows; ++i)
        {
            qps.push_back(nics[i]->Connect(nics[flows + i]));
            Simulator::Schedule(stagger * i,
                                [qp = qps.back()]() { qp->PostSend(uint64_t(1) << 40); });
        }
        Ptr<FabricSwitch> left = t.edge.Get(0)->GetObject<FabricSwitch>();
        uint32_t bottleneck = left->GetRoute(t.HostAddress(flows)).at(0);
        std::ofstream out;
        if (!csv.empty())
        {
            out.open(csv);
            if (!out)
            {
                throw std::invalid_argument("--csv: cannot write " + csv);
            }
            out << "time_s";
            for (uint32_t i = 0; i < flows; ++i)
            {
                out << ",rate" << i << "_gbps";
            }
            out << ",queue_bytes,jain\n";
        }
        std::vector<uint64_t> last(flows, 0);
        std::cout << std::setw(9) << "time_ms";
        for (uint32_t i = 0; i < flows; ++i)
        {
            std::cout << std::setw(9) << ("f" + std::to_string(i) + "_Gbps");
        }
        std::cout << std::setw(12) << "queue_KB" << std::setw(8) << "jain"
                  << "\n";
        uint64_t pausesBefore = 0;
        std::function<void()> sample = [&]() {
            std::vector<double> rates;
            for (uint32_t i = 0; i < flows; ++i)
            {
                uint64_t b = qps[i]->GetCcState().bytesSent;
                rates.push_back((b - last[i]) * 8.0 / interval.GetSeconds() / 1e9);
                last[i] = b;
            }
            uint64_t q = 0;
            for (uint8_t c = 0; c < 8; ++c)
            {
                q += left->GetMmu().EgressBytes(bottleneck, c);
            }
            double jain = Jain(rates);
            std::cout << std::fixed << std::setprecision(1) << std::setw(9)
                      << Simulator::Now().GetSeconds() * 1e3 << std::setprecision(2);
            for (double r : rates)
            {
                std::cout << std::setw(9) << r;
            }
            std::cout << std::setw(12) << q / 1000.0 << std::setw(8) << jain << "\n";
            if (out)
            {
                out << Simulator::Now().GetSeconds();
                for (double r : rates)
                {
                    out << "," << r;
                }
                out << "," << q << "," << jain << "\n";
            }
            Simulator::Schedule(interval, sample);
        };
        Simulator::Schedule(interval, sample);
        Simulator::Stop(duration + NanoSeconds(1));
        Simulator::Run();
        uint64_t drops = 0;
        uint64_t pauses = pausesBefore;
        for (uint32_t s = 0; s < t.switches.GetN(); ++s)
        {
            Ptr<FabricSwitch> sw = t.switches.Get(s)->GetObject<FabricSwitch>();
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                drops += sw->GetPortStats(p).drops;
                pauses += sw->GetPortStats(p).pauseSent;
            }
        }
        uint64_t cnps = 0;
        for (auto& qp : qps)
        {
            cnps += qp->GetCnpsReceived();
        }
        std::cout << "CNPs " << cnps << ", PFC pauses " << pauses << ", drops " << drops << "\n";
        Simulator::Destroy();
    }
    catch (const std::exception& e)
    {
        std::cerr << "dcqcn-convergence: error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
