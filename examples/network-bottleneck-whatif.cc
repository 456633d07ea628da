/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Data-parallel training over servers of several GPUs with hierarchical ring all-reduce and
// tensor fusion, over link rates, as in "Is Network the Bottleneck of Distributed Training?"
// (Zhang et al., NetAI 2020). Scaling factor (the paper's definition) = throughput of N GPUs /
// (N x throughput of one GPU) = compute time of one GPU / steady-state iteration time.
// Steady state: the mean over the iterations after --warmup, without the last one; p50 and p99
// of the same iterations are printed next to it. --perIteration writes every iteration.

#include "fluid-cc-option.h"
#include "rdma-timeout-line.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{
std::vector<double>
ParseList(const std::string& s, const std::string& name, double lo, double hi)
{
    std::vector<double> v;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        std::size_t pos = 0;
        double x = 0;
        try
        {
            x = std::stod(item, &pos);
        }
        catch (const std::exception&)
        {
            pos = 0;
        }
        if (pos == 0 || pos != item.size() || !(x >= lo && x <= hi))
        {
            throw std::invalid_argument("--" + name + ": '" + item + "' is not a number in [" +
                                        std::to_string(lo) + ", " + std::to_string(hi) + "]");
        }
        v.push_back(x);
    }
    if (v.empty())
    {
        throw std::invalid_argument("--" + name + ": empty list");
    }
    return v;
}
} // namespace

int
main(int argc, char* argv[])
{
    std::string model = "resnet50";
    std::string gpu = "v100-amp";
    std::string servers = "1,2,4,8";
    std::string rates = "25,100";
    uint32_t gpusPerServer = 8;
    uint32_t batch = 32;
    uint32_t iterations = 30;
    uint32_t warmup = 5;
    uint32_t mtu = 4000;
    uint64_t buffer = 32u * 1024 * 1024;
    uint64_t fusion = 64u * 1024 * 1024;
    std::string intraRate = "1200Gbps";
    std::string intraLatency = "5us";
    std::string perIteration;
    std::string backend = "packet";
    std::string fluidCc = "dcqcn";
    const std::string cc = "ns3::Dcqcn"; // the packet level's (the reaction point at flow level)
    CommandLine cmd(__FILE__);
    EventSchedulerHelper::UseDefault(cmd); // mlnet's event scheduler; --scheduler=...
    EventSchedulerHelper::UseHugePages();  // a program owns its process: huge-page heap
    cmd.AddValue("model", "Model zoo name", model);
    cmd.AddValue("gpu",
                 "GPU profile: calibrated v100-amp, v100-fp32, a100-amp, a100-tf32 (published "
                 "ResNet-50 throughput) or raw V100, A100, H100",
                 gpu);
    cmd.AddValue("servers", "Comma-separated server counts (>= 1), one NIC each", servers);
    cmd.AddValue("gpusPerServer", "GPUs per server (1..64)", gpusPerServer);
    cmd.AddValue("rates", "Comma-separated NIC / fabric link rates in Gbit/s", rates);
    cmd.AddValue("batch", "Per-GPU batch size", batch);
    cmd.AddValue("iterations", "Iterations per run (>= warmup + 2)", iterations);
    cmd.AddValue("warmup", "Iterations left out of the steady state", warmup);
    cmd.AddValue("mtu", "RDMA payload bytes per packet", mtu);
    cmd.AddValue("buffer", "Switch buffer in bytes", buffer);
    cmd.AddValue("fusion",
                 "Tensor-fusion buffer in bytes (Horovod's default 64 MiB; 0 = one all-reduce "
                 "per tensor)",
                 fusion);
    cmd.AddValue("intraRate",
                 "Intra-server rate per GPU (NVLink 2.0: 1200Gbps; PCIe 3: 96Gbps)",
                 intraRate);
    cmd.AddValue("intraLatency", "Intra-server per-step latency", intraLatency);
    cmd.AddValue("perIteration", "CSV file of every iteration (empty: none)", perIteration);
    cmd.AddValue("backend",
                 "packet (RDMA NICs with DCQCN, the default) or flow (the fluid backend; "
                 "--buffer changes nothing there; DCQCN at flow level with --fluid-cc)",
                 backend);
    cmd.AddValue("fluid-cc", mlnetexamples::kFluidCcHelp, fluidCc);
    cmd.Parse(argc, argv);
    try
    {
        if (backend != "packet" && backend != "flow")
        {
            throw std::invalid_argument("--backend=" + backend +
                                        " is out of range (must be packet or flow)");
        }
        fluidCc = mlnetexamples::FluidCc(fluidCc, cc);
        if (iterations < warmup + 2)
        {
            throw std::invalid_argument("--iterations = " + std::to_string(iterations) +
                                        ": must be >= warmup + 2 = " + std::to_string(warmup + 2));
        }
        if (buffer < 65536 || buffer > (uint64_t(1) << 34))
        {
            throw std::invalid_argument("--buffer = " + std::to_string(buffer) +
                                        ": must be in [65536, 17179869184] bytes");
        }
        if (gpusPerServer < 1 || gpusPerServer > 64)
        {
            throw std::invalid_argument("--gpusPerServer = " + std::to_string(gpusPerServer) +
                                        ": must be in [1, 64]");
        }
        DnnModel m = ModelZoo::Get(model);
        GpuProfile g = GpuProfile::Get(gpu);
        std::ofstream csv;
        if (!perIteration.empty())
        {
            csv.open(perIteration);
            if (!csv)
            {
                throw std::invalid_argument("--perIteration: cannot write '" + perIteration + "'");
            }
            csv << "servers,gpus,gbps,fusion,iteration,seconds,steady\n";
        }
        std::cout << "model " << model << " (" << m.GetParameterCount() << " parameters), gpu "
                  << g.GetName() << " (efficiency " << std::setprecision(3) << g.GetEfficiency()
                  << "), batch " << batch << " per GPU, " << gpusPerServer
                  << " GPUs per server, fusion " << fusion << " B, " << iterations
                  << " iterations, warm-up " << warmup << ", " << backend << " level"
                  << (backend == "flow" ? " (fluid cc " + fluidCc + ")" : "") << "\n";
        if (!g.GetCalibration().source.empty())
        {
            std::cout << "calibrated to: " << g.GetCalibration().source << "\n";
        }
        std::cout << std::setw(8) << "servers" << std::setw(6) << "GPUs" << std::setw(8) << "Gbit/s"
                  << std::setw(13) << "compute(ms)" << std::setw(11) << "mean(ms)" << std::setw(10)
                  << "p50(ms)" << std::setw(10) << "p99(ms)" << std::setw(9) << "scaling"
                  << std::setw(12) << "images/s"
                  << "\n";
        for (double rate : ParseList(rates, "rates", 0.001, 1600))
        {
            for (double sd : ParseList(servers, "servers", 1, 1024))
            {
                const uint32_t n = static_cast<uint32_t>(sd);
                if (n < 2 && gpusPerServer < 2)
                {
                    throw std::invalid_argument("--servers = 1 needs --gpusPerServer >= 2");
                }
                FabricTopologyHelper th;
                std::ostringstream r;
                r << rate << "Gbps";
                th.SetHostLinkRate(DataRate(r.str()));
                th.SetFabricLinkRate(DataRate(r.str()));
                th.Fabric().SetSwitchAttribute("BufferSize", UintegerValue(buffer));
                FabricTopology topo = th.BuildLeafSpine(1, 1, std::max<uint32_t>(n, 2));
                std::vector<Ptr<MessageTransport>> nics;
                if (backend == "flow")
                {
                    FlowBackendHelper flow;
                    flow.SetTransportAttribute("Mtu", UintegerValue(mtu));
                    flow.SetTransportAttribute("AckInterval", UintegerValue(16));
                    mlnetexamples::InstallFluidCc(flow.Install(topo), fluidCc, cc);
                    for (uint32_t h = 0; h < n; ++h)
                    {
                        nics.push_back(FlowBackendHelper::GetTransport(topo.hosts.Get(h)));
                    }
                }
                else
                {
                    RdmaHelper rdma;
                    rdma.SetCongestionControl(cc);
                    rdma.SetNicAttribute("Mtu", UintegerValue(mtu));
                    rdma.SetNicAttribute("AckInterval", UintegerValue(16));
                    for (const auto& nic : rdma.Install(topo.hosts))
                    {
                        nics.push_back(nic);
                    }
                    nics.resize(n);
                }
                Ptr<DataParallelJob> job = CreateObject<DataParallelJob>();
                job->SetModel(m, g);
                job->SetAttribute("BatchSize", UintegerValue(batch));
                job->SetAttribute("Iterations", UintegerValue(iterations));
                job->SetAttribute("RecordMessages", BooleanValue(false));
                job->SetAttribute("FusionBytes", UintegerValue(fusion));
                job->SetAttribute("GpusPerServer", UintegerValue(gpusPerServer));
                job->SetAttribute("IntraServerRate", DataRateValue(DataRate(intraRate)));
                job->SetAttribute("IntraServerLatency", TimeValue(Time(intraLatency)));
                job->SetWorkers(nics);
                job->Start();
                Simulator::Stop(Seconds(1000));
                Simulator::Run();
                mlnetexamples::PrintRdmaTimeouts("network-bottleneck-whatif",
                                                 std::to_string(n) + " servers at " +
                                                     std::to_string(static_cast<uint32_t>(rate)) +
                                                     " Gbit/s");
                if (!job->IsFinished())
                {
                    throw std::runtime_error("job did not finish in 1000 simulated seconds");
                }
                const SampleSummary st = job->GetSteadyStateIterationTime(warmup);
                const double comp = job->GetComputeTime().GetSeconds();
                const uint32_t gpus = job->GetGpuCount();
                std::cout << std::setw(8) << n << std::setw(6) << gpus << std::setw(8)
                          << static_cast<uint32_t>(rate) << std::fixed << std::setprecision(2)
                          << std::setw(13) << comp * 1e3 << std::setw(11) << st.mean * 1e3
                          << std::setw(10) << st.p50 * 1e3 << std::setw(10) << st.p99 * 1e3
                          << std::setprecision(3) << std::setw(9) << comp / st.mean
                          << std::setprecision(0) << std::setw(12) << gpus * batch / st.mean
                          << std::defaultfloat << "\n";
                if (csv)
                {
                    const auto& recs = job->GetIterationRecords();
                    for (std::size_t i = 0; i < recs.size(); ++i)
                    {
                        const bool steady = i >= warmup && i + 1 < recs.size();
                        csv << n << "," << gpus << "," << rate << "," << fusion << "," << i << ","
                            << std::setprecision(9) << recs[i].Duration().GetSeconds() << ","
                            << (steady ? 1 : 0) << "\n";
                    }
                }
                Simulator::Destroy();
            }
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "network-bottleneck-whatif: error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
