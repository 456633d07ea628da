/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Parameter-server data-parallel training with different tensor transfer orders: FIFO
// (framework order), FIFO-split (MXNet-style: large tensors split over the servers), TicTac
// (TIC and TAC), P3 and ByteScheduler. Prints, per model and policy, the mean iteration time,
// the training throughput and the speed-up over FIFO and over FIFO-split, to be compared
// with TicTac (MLSys 2019, up to 19.2% throughput), P3 (SysML 2019, up to 66% on VGG-19) and
// ByteScheduler (SOSP 2019, up to 171% with 8 machines on 100 Gbps RDMA).

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

using namespace ns3;

namespace
{
std::vector<std::string>
SplitList(const std::string& s)
{
    std::vector<std::string> v;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        if (!item.empty())
        {
            v.push_back(item);
        }
    }
    return v;
}

/**
 * FIFO as MXNet's parameter-server KVStore does it: tensors in the order the backward pass
 * produces them, all with one priority, but a tensor larger than BigArrayBound parameters is
 * split into one equal part per server (MXNET_KVSTORE_BIGARRAY_BOUND, default 1,000,000), so a
 * large layer is spread over all servers. The baseline P3 and ByteScheduler were measured
 * against; plain FIFO keeps every tensor whole on one server (as TensorFlow places variables).
 */
class FifoSplitTensorOrder : public TensorOrderPolicy
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::FifoSplitTensorOrder")
                                .SetParent<TensorOrderPolicy>()
                                .SetGroupName("Mlnet")
                                .AddConstructor<FifoSplitTensorOrder>();
        return tid;
    }

    std::string GetName() const override
    {
        return "FIFO-split";
    }

    uint64_t m_bound{1000000}; //!< tensors above this many parameters are split
    uint32_t m_parts{1};       //!< parts per split tensor (the number of servers)

  protected:
    std::vector<TransferSlice> DoPlan(const std::vector<GradientTensor>& tensors) const override
    {
        Ptr<FifoTensorOrder> fifo = CreateObject<FifoTensorOrder>();
        std::vector<TransferSlice> plan;
        for (const auto& whole : fifo->Plan(tensors))
        {
            const GradientTensor& t = *std::find_if(tensors.begin(), tensors.end(),
                                                    [&whole](const GradientTensor& x)
                                                    {
                                                        return x.id == whole.tensorId;
                                                    });
            uint64_t part = t.parameters > m_bound && m_parts > 1
                                ? (t.parameters + m_parts - 1) / m_parts
                                : 0;
            for (const auto& sl : Slice(t, part, 0))
            {
                plan.push_back(sl);
            }
        }
        return plan;
    }
};

/// Settings shared by every run.
struct RunConfig
{
    std::string gpu{"v100"};
    uint32_t workers{4};
    uint32_t servers{2};
    uint32_t leaves{1};
    double rate{25};
    uint32_t batch{32};
    uint32_t iterations{3};
    uint32_t mtu{4000};
    uint32_t ackInterval{16};
    uint32_t bytesPerParam{4};
    uint64_t window{4000000};
    uint64_t fifoWindow{0};
    uint64_t bigArrayBound{1000000};
    uint32_t classes{1};
    uint64_t p3Slice{50000};
    uint64_t bsPartition{1000000};
    uint64_t bsCredit{4000000};
};

/// \return the policy named \p name (fifo, fifo-split, tic, tac, p3, bytescheduler)
Ptr<TensorOrderPolicy>
MakePolicy(const std::string& name, const RunConfig& c)
{
    Ptr<TensorOrderPolicy> p;
    if (name == "fifo")
    {
        p = CreateObject<FifoTensorOrder>();
    }
    else if (name == "fifo-split")
    {
        Ptr<FifoSplitTensorOrder> t = CreateObject<FifoSplitTensorOrder>();
        t->m_bound = c.bigArrayBound;
        t->m_parts = c.servers;
        p = t;
    }
    else if (name == "tic" || name == "tac")
    {
        Ptr<TicTacTensorOrder> t = CreateObject<TicTacTensorOrder>();
        t->SetMode(name == "tic" ? TicTacTensorOrder::TIC : TicTacTensorOrder::TAC);
        // TAC's transfer-time estimate: a worker's share of the servers' links
        double share = std::min(1.0, static_cast<double>(c.servers) / c.workers);
        t->SetBandwidth(c.rate * 1e9 / 8 * share);
        p = t;
    }
    else if (name == "p3")
    {
        Ptr<P3TensorOrder> t = CreateObject<P3TensorOrder>();
        t->SetSliceSize(c.p3Slice);
        p = t;
    }
    else if (name == "bytescheduler")
    {
        Ptr<ByteSchedulerTensorOrder> t = CreateObject<ByteSchedulerTensorOrder>();
        t->SetPartitionSize(c.bsPartition);
        t->SetCredit(c.bsCredit);
        p = t;
    }
    else
    {
        throw std::invalid_argument("unknown policy '" + name
                                    + "' (fifo, fifo-split, tic, tac, p3, bytescheduler)");
    }
    p->SetPriorityClasses(c.classes);
    return p;
}

/// One simulation: \return the mean iteration time (s) without the first iteration
double
RunOne(const DnnModel& m, const GpuProfile& g, const std::string& policy, const RunConfig& c,
       Time* compute)
{
    uint32_t hosts = c.workers + c.servers;
    uint32_t perLeaf = (hosts + c.leaves - 1) / c.leaves;
    FabricTopologyHelper th;
    std::ostringstream r;
    r << c.rate << "Gbps";
    th.SetHostLinkRate(DataRate(r.str()));
    th.SetFabricLinkRate(DataRate(r.str()));
    FabricTopology topo = th.BuildLeafSpine(c.leaves, 1, perLeaf);
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::Dcqcn");
    rdma.SetNicAttribute("Mtu", UintegerValue(c.mtu));
    rdma.SetNicAttribute("AckInterval", UintegerValue(c.ackInterval));
    auto nics = rdma.Install(topo.hosts);
    // servers spread over the leaves (the last host of each leaf), workers on the rest
    std::vector<Ptr<RdmaNic>> workers;
    std::vector<Ptr<RdmaNic>> servers;
    for (uint32_t i = 0; i < nics.size(); ++i)
    {
        uint32_t leaf = i / perLeaf;
        uint32_t slot = i % perLeaf;
        bool server = servers.size() < c.servers && slot == perLeaf - 1
                      && leaf < c.servers; // one server per leaf first
        if (server)
        {
            servers.push_back(nics[i]);
        }
        else if (workers.size() < c.workers)
        {
            workers.push_back(nics[i]);
        }
    }
    for (uint32_t i = nics.size(); i-- > 0 && servers.size() < c.servers;)
    {
        // more servers than leaves: take the remaining hosts from the end
        if (std::find(workers.begin(), workers.end(), nics[i]) == workers.end()
            && std::find(servers.begin(), servers.end(), nics[i]) == servers.end())
        {
            servers.push_back(nics[i]);
        }
    }
    if (workers.size() != c.workers || servers.size() != c.servers)
    {
        throw std::logic_error("could not place workers and servers");
    }
    Ptr<DataParallelJob> job = CreateObject<DataParallelJob>();
    job->SetModel(m, g);
    job->SetAttribute("Mode", StringValue("ParameterServer"));
    job->SetAttribute("BatchSize", UintegerValue(c.batch));
    job->SetAttribute("Iterations", UintegerValue(c.iterations));
    job->SetAttribute("BytesPerParameter", UintegerValue(c.bytesPerParam));
    job->SetAttribute("MaxInflightBytes",
                      UintegerValue(policy.compare(0, 4, "fifo") == 0 ? c.fifoWindow : c.window));
    job->SetAttribute("RecordMessages", BooleanValue(false));
    job->SetWorkers(workers);
    job->SetServers(servers);
    Ptr<TensorOrderPolicy> p = MakePolicy(policy, c);
    p->SetBytesPerParameter(c.bytesPerParam);
    job->SetTensorOrderPolicy(p);
    job->Start();
    Simulator::Stop(Seconds(1000));
    Simulator::Run();
    if (!job->IsFinished())
    {
        Simulator::Destroy();
        throw std::runtime_error("job did not finish (policy " + policy + ")");
    }
    // Steady state: every iteration after the first starts its backward pass with no
    // transfer outstanding, so iterations 1..N-2 are identical; the last one also waits for
    // its own synchronisation, the first one has no forward stalls.
    const auto& recs = job->GetIterationRecords();
    std::size_t first = recs.size() > 1 ? 1 : 0;
    std::size_t last = recs.size() > 2 ? recs.size() - 1 : recs.size();
    double iter = 0;
    for (std::size_t i = first; i < last; ++i)
    {
        iter += recs[i].Duration().GetSeconds();
    }
    iter /= (last - first);
    *compute = job->GetComputeTime();
    Simulator::Destroy();
    return iter;
}
} // namespace

int
main(int argc, char* argv[])
{
    RunConfig c;
    std::string models = "vgg16,resnet50";
    std::string policies = "fifo,fifo-split,tic,tac,p3,bytescheduler";
    CommandLine cmd(__FILE__);
    cmd.AddValue("model", "Comma-separated model zoo names (vgg16, vgg19, resnet50, ...)", models);
    cmd.AddValue("policies",
                 "Comma-separated policies (fifo, fifo-split, tic, tac, p3, bytescheduler); the "
                 "first is the baseline",
                 policies);
    cmd.AddValue("gpu", "GPU profile (v100, a100, h100)", c.gpu);
    cmd.AddValue("workers", "Number of workers (>= 1)", c.workers);
    cmd.AddValue("servers", "Number of parameter servers (>= 1)", c.servers);
    cmd.AddValue("leaves",
                 "Leaf switches of the leaf-spine (one spine at the host rate, so more than one "
                 "leaf oversubscribes the fabric; hosts spread evenly)",
                 c.leaves);
    cmd.AddValue("rate", "Host and fabric link rate in Gbit/s", c.rate);
    cmd.AddValue("batch", "Per-worker batch size", c.batch);
    cmd.AddValue("iterations", "Iterations per run (>= 3: the mean skips the first and the last)",
                 c.iterations);
    cmd.AddValue("mtu", "RDMA payload bytes per packet", c.mtu);
    cmd.AddValue("ackInterval", "RDMA NIC ACK coalescing (packets per ACK)", c.ackInterval);
    cmd.AddValue("bytesPerParam", "Gradient bytes per parameter (4 = FP32, 2 = FP16)",
                 c.bytesPerParam);
    cmd.AddValue("window",
                 "Bytes in flight (per worker) that TicTac and P3 may keep outstanding; the "
                 "policy's order decides which slice goes next (0 = unlimited: every slice is "
                 "posted when produced, so the order has no effect)",
                 c.window);
    cmd.AddValue(
        "fifoWindow",
        "The same for FIFO and FIFO-split (0 = unlimited: gradients are posted as produced, as "
        "frameworks do)",
        c.fifoWindow);
    cmd.AddValue("bigArrayBound",
                 "FIFO-split: tensors above this many parameters are split over the servers",
                 c.bigArrayBound);
    cmd.AddValue("classes", "Network priority classes the policies' priorities map onto",
                 c.classes);
    cmd.AddValue("p3Slice", "P3 slice size (parameters)", c.p3Slice);
    cmd.AddValue("bsPartition", "ByteScheduler partition size (parameters)", c.bsPartition);
    cmd.AddValue("bsCredit", "ByteScheduler credit (parameters)", c.bsCredit);
    cmd.Parse(argc, argv);
    try
    {
        if (c.workers < 1 || c.servers < 1 || c.leaves < 1 || c.iterations < 1)
        {
            throw std::invalid_argument("--workers, --servers, --leaves and --iterations must be "
                                        ">= 1");
        }
        if (c.rate <= 0)
        {
            throw std::invalid_argument("--rate must be > 0");
        }
        GpuProfile g = GpuProfile::Get(c.gpu);
        std::vector<std::string> pol = SplitList(policies);
        if (pol.empty())
        {
            throw std::invalid_argument("--policies is empty");
        }
        for (const auto& p : pol)
        {
            MakePolicy(p, c); // validate the names before the first run
        }
        std::cout << c.workers << " workers, " << c.servers << " parameter server(s), " << c.rate
                  << " Gbit/s, gpu " << c.gpu << ", batch " << c.batch << ", " << c.iterations
                  << " iterations, MTU " << c.mtu << ", window " << c.window << " B (FIFO "
                  << c.fifoWindow << " B), " << c.classes << " priority class(es)\n";
        for (const auto& name : SplitList(models))
        {
            DnnModel m = ModelZoo::Get(name);
            std::cout << "\nmodel " << name << " (" << m.GetParameterCount() << " parameters, "
                      << m.GetParameterBytes(c.bytesPerParam) / 1e6 << " MB of gradients)\n";
            // run every policy first: speed-ups are against FIFO (the first policy listed)
            // and against FIFO-split when it is listed
            std::vector<double> iters;
            Time compute;
            for (const auto& p : pol)
            {
                iters.push_back(RunOne(m, g, p, c, &compute));
            }
            double split = 0;
            for (std::size_t i = 0; i < pol.size(); ++i)
            {
                split = pol[i] == "fifo-split" ? iters[i] : split;
            }
            std::cout << "compute (forward + backward) " << std::fixed << std::setprecision(2)
                      << compute.GetSeconds() * 1e3 << " ms\n";
            std::cout << std::left << std::setw(16) << "policy" << std::right << std::setw(12)
                      << "iter(ms)" << std::setw(12) << "samples/s" << std::setw(12) << "speed-up"
                      << (split > 0 ? "    vs FIFO-split" : "") << "\n";
            for (std::size_t i = 0; i < pol.size(); ++i)
            {
                double tput = c.workers * c.batch / iters[i];
                std::cout << std::left << std::setw(16) << MakePolicy(pol[i], c)->GetName()
                          << std::right << std::fixed << std::setprecision(2) << std::setw(12)
                          << iters[i] * 1e3 << std::setprecision(1) << std::setw(12) << tput
                          << std::showpos << std::setw(11) << (iters[0] / iters[i] - 1) * 100
                          << "%";
                if (split > 0)
                {
                    std::cout << std::setw(17) << (split / iters[i] - 1) * 100 << "%";
                }
                std::cout << std::noshowpos << "\n";
            }
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "tensor-priority: error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
