/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Data-parallel training with ring all-reduce on n workers over link rates: scaling factor
// (compute time / iteration time), as in "Is Network the Bottleneck of Distributed Training?"
// (NetAI 2020).

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

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
            throw std::invalid_argument("--" + name + ": '" + item + "' is not a number in ["
                                        + std::to_string(lo) + ", " + std::to_string(hi) + "]");
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
    std::string gpu = "v100";
    std::string workers = "2,4,8";
    std::string rates = "25,100";
    uint32_t batch = 32;
    uint32_t iterations = 2;
    uint32_t mtu = 4000;
    uint64_t buffer = 32u * 1024 * 1024;
    uint64_t fusion = 0;
    CommandLine cmd(__FILE__);
    cmd.AddValue("model", "Model zoo name", model);
    cmd.AddValue("gpu", "GPU profile (v100, a100, h100)", gpu);
    cmd.AddValue("workers", "Comma-separated worker counts (>= 2)", workers);
    cmd.AddValue("rates", "Comma-separated host link rates in Gbit/s", rates);
    cmd.AddValue("batch", "Per-worker batch size", batch);
    cmd.AddValue("iterations", "Iterations per run (the first is included)", iterations);
    cmd.AddValue("mtu", "RDMA payload bytes per packet", mtu);
    cmd.AddValue("buffer",
                 "Switch buffer in bytes (PFC headroom for many fast ports needs more than the "
                 "32 MiB default, e.g. 64 workers at 400 Gb/s)",
                 buffer);
    cmd.AddValue("fusion",
                 "Tensor-fusion buffer in bytes (0 = one all-reduce per tensor; Horovod's "
                 "default is 67108864)",
                 fusion);
    cmd.Parse(argc, argv);
    try
    {
        DnnModel m = ModelZoo::Get(model);
        GpuProfile g = GpuProfile::Get(gpu);
        std::cout << "model " << model << " (" << m.GetParameterCount() << " parameters), gpu "
                  << gpu << ", batch " << batch << "\n";
        std::cout << std::setw(8) << "workers" << std::setw(10) << "Gbit/s" << std::setw(14)
                  << "compute(ms)" << std::setw(14) << "iter(ms)" << std::setw(10) << "scaling"
                  << "\n";
        if (buffer < 65536 || buffer > (uint64_t(1) << 34))
        {
            throw std::invalid_argument("--buffer = " + std::to_string(buffer)
                                        + ": must be in [65536, 17179869184] bytes");
        }
        for (double rate : ParseList(rates, "rates", 0.001, 1600))
        {
            for (double nd : ParseList(workers, "workers", 2, 1024))
            {
                uint32_t n = static_cast<uint32_t>(nd);
                FabricTopologyHelper th;
                std::ostringstream r;
                r << rate << "Gbps";
                th.SetHostLinkRate(DataRate(r.str()));
                th.SetFabricLinkRate(DataRate(r.str()));
                th.Fabric().SetSwitchAttribute("BufferSize", UintegerValue(buffer));
                FabricTopology topo = th.BuildLeafSpine(1, 1, n);
                RdmaHelper rdma;
                rdma.SetCongestionControl("ns3::Dcqcn");
                rdma.SetNicAttribute("Mtu", UintegerValue(mtu));
                rdma.SetNicAttribute("AckInterval", UintegerValue(16));
                auto nics = rdma.Install(topo.hosts);
                Ptr<DataParallelJob> job = CreateObject<DataParallelJob>();
                job->SetModel(m, g);
                job->SetAttribute("BatchSize", UintegerValue(batch));
                job->SetAttribute("Iterations", UintegerValue(iterations));
                job->SetAttribute("RecordMessages", BooleanValue(false));
                job->SetAttribute("FusionBytes", UintegerValue(fusion));
                job->SetWorkers(nics);
                job->Start();
                Simulator::Stop(Seconds(100));
                Simulator::Run();
                double iter = job->GetMeanIterationTime(iterations > 1 ? 1 : 0).GetSeconds();
                double comp = job->GetComputeTime().GetSeconds();
                std::cout << std::setw(8) << n << std::setw(10) << static_cast<uint32_t>(rate)
                          << std::setw(14) << std::fixed << std::setprecision(2) << comp * 1e3
                          << std::setw(14) << iter * 1e3 << std::setw(10) << std::setprecision(3)
                          << comp / iter << "\n";
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
