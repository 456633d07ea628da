/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// DCQCN convergence: 2..8 RDMA flows share a 100 Gbps bottleneck (dumbbell). Prints, per
// sampling interval, each flow's sending rate, the bottleneck queue, and Jain's fairness index;
// optionally writes the same as CSV. Run with --pfc=0 to see the lossy behaviour. With
// --backend=flow the same dumbbell runs at flow level under the fluid DCQCN model (FluidDcqcn,
// doc/flow-backend.rst, *DCQCN at flow level*): the same reaction point (--cc) and the switch's
// own ECN marking on a virtual queue; the queue column is that virtual queue (PFC and drops do
// not exist there). --linkDelay sets every link's propagation delay (1 us), which is the CNP's
// way back at both levels.
//
//   ./dcqcn-convergence --flows=4 --duration=60ms --cc=ns3::Dcqcn --csv=rates.csv
//   ./dcqcn-convergence --flows=4 --duration=60ms --backend=flow

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <stdexcept>

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
    std::string backend = "packet";
    Time step = MicroSeconds(10);
    Time linkDelay = MicroSeconds(1);
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
    cmd.AddValue("backend",
                 "packet, or flow (the fluid DCQCN model FluidDcqcn with the same --cc)",
                 backend);
    cmd.AddValue("step", "FluidDcqcn::Step with --backend=flow, in [100ns, 1ms]", step);
    cmd.AddValue("linkDelay", "Propagation delay of every link, in [0, 1ms]", linkDelay);
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
        if (backend != "packet" && backend != "flow")
        {
            throw std::invalid_argument("--backend = " + backend + ": must be packet or flow");
        }
        if (step < NanoSeconds(100) || step > MilliSeconds(1))
        {
            throw std::invalid_argument("--step = " + std::to_string(step.GetNanoSeconds()) +
                                        "ns: must be in [100ns, 1ms]");
        }
        if (linkDelay < Time(0) || linkDelay > MilliSeconds(1))
        {
            throw std::invalid_argument(
                "--linkDelay = " + std::to_string(linkDelay.GetNanoSeconds()) +
                "ns: must be in [0, 1ms]");
        }
        FabricTopologyHelper th;
        th.SetLinkDelay(linkDelay);
        th.Fabric().SetSwitchAttribute("PfcEnabled", BooleanValue(pfc));
        FabricTopology t = th.BuildDumbbell(flows, flows);
        Ptr<FabricSwitch> left = t.edge.Get(0)->GetObject<FabricSwitch>();
        uint32_t bottleneck = left->GetRoute(t.HostAddress(flows)).at(0);
        // per flow: bytes sent so far; the bottleneck's queue; CNPs so far
        std::function<uint64_t(uint32_t)> sent;
        std::function<uint64_t()> queue;
        std::function<uint64_t()> cnpCount;
        std::vector<Ptr<RdmaQueuePair>> qps;
        std::vector<Ptr<MessageConnection>> conns;
        Ptr<FluidDcqcn> fluidCc;
        if (backend == "packet")
        {
            RdmaHelper rdma;
            rdma.SetCongestionControl(cc);
            std::vector<Ptr<RdmaNic>> nics = rdma.Install(t.hosts);
            for (uint32_t i = 0; i < flows; ++i)
            {
                qps.push_back(nics[i]->Connect(nics[flows + i]));
                Simulator::Schedule(stagger * i,
                                    [qp = qps.back()]() { qp->PostSend(uint64_t(1) << 40); });
            }
            sent = [&qps](uint32_t i) { return qps[i]->GetCcState().bytesSent; };
            queue = [left, bottleneck]() {
                uint64_t q = 0;
                for (uint8_t c = 0; c < 8; ++c)
                {
                    q += left->GetMmu().EgressBytes(bottleneck, c);
                }
                return q;
            };
            cnpCount = [&qps]() {
                uint64_t n = 0;
                for (auto& qp : qps)
                {
                    n += qp->GetCnpsReceived();
                }
                return n;
            };
        }
        else
        {
            FlowBackendHelper flow;
            Ptr<FluidFabric> fabric = flow.Install(t);
            fluidCc = CreateObject<FluidDcqcn>();
            fluidCc->SetAttribute("Step", TimeValue(step));
            fluidCc->SetCongestionControl(ObjectFactory(cc));
            fluidCc->Install(fabric);
            std::vector<uint32_t> all(2 * flows);
            std::iota(all.begin(), all.end(), 0);
            std::vector<Ptr<MessageTransport>> tr = FlowBackendHelper::Transports(t, all);
            for (uint32_t i = 0; i < flows; ++i)
            {
                conns.push_back(tr[i]->Open(tr[flows + i], 3));
                Simulator::Schedule(stagger * i,
                                    [c = conns.back()]() { c->PostSend(uint64_t(1) << 40); });
            }
            const int64_t link = fabric->GetLink(left->GetPort(bottleneck));
            if (link < 0)
            {
                throw std::logic_error("dcqcn-convergence: the bottleneck has no fluid link");
            }
            sent = [&conns](uint32_t i) { return conns[i]->GetBytesSent(); };
            queue = [fluidCc, link]() { return uint64_t(fluidCc->GetQueue(uint32_t(link))); };
            cnpCount = [fluidCc]() { return fluidCc->GetCnps(); };
        }
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
                uint64_t b = sent(i);
                rates.push_back((b - last[i]) * 8.0 / interval.GetSeconds() / 1e9);
                last[i] = b;
            }
            const uint64_t q = queue();
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
        const uint64_t cnps = cnpCount();
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
