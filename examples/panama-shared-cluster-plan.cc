/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Jobs, placement and their idle-network bounds for the panama-shared-cluster example.

#include "panama-shared-cluster-plan.h"

#include <algorithm>
#include <iostream>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace panamacluster
{

/// A model scaled down: parameters and per-layer compute times times `scale`.
DnnModel
Scaled(const std::string& name, const GpuProfile& gpu, uint32_t batch, double scale)
{
    DnnModel m = ModelZoo::Get(name);
    std::vector<LayerTiming> t = gpu.GetLayerTimings(m, batch);
    std::ostringstream csv;
    csv << "name,parameters,forward_us,backward_us\n";
    for (std::size_t i = 0; i < m.GetNLayers(); ++i)
    {
        const LayerSpec& l = m.GetLayer(i);
        uint64_t p = l.parameters == 0 ? 0 : std::max<uint64_t>(1, uint64_t(l.parameters * scale));
        csv << "l" << i << "," << p << "," << t[i].forwardSeconds * 1e6 * scale << ","
            << t[i].backwardSeconds * 1e6 * scale << "\n";
    }
    std::istringstream in(csv.str());
    return DnnModel::FromCsv(in, name);
}

namespace
{

/// Payload / wire bytes of a full packet: ring (RoCEv2 data packet of Mtu 1000 B) and
/// aggregation (256 elements of 4 B); 38 B of Ethernet framing each.
constexpr double kFrameOverhead = 38;

double
RingPayloadFraction()
{
    return 1000.0 / (1000.0 + RoceV2Header().GetSerializedSize() + kFrameOverhead);
}

double
AggPayloadFraction()
{
    return 1024.0 / (AggregationStackHeader::kSize + 1024.0 + kFrameOverhead);
}

/// Fills gradBits and computeS of a job (the scaled model's gradient and compute time).
void
Describe(const Options& o, JobPlan& j)
{
    GpuProfile gpu = GpuProfile::Get(o.gpu);
    DnnModel m = ModelZoo::Get(j.model);
    j.computeS = (gpu.GetForwardTime(m, o.batch) + gpu.GetBackwardTime(m, o.batch)) * o.scale;
    j.gradBits = m.GetParameterBytes() * 8.0 * o.scale;
    SyncBoundInput in;
    in.forwardS = gpu.GetForwardTime(m, o.batch) * o.scale;
    in.backwardS = gpu.GetBackwardTime(m, o.batch) * o.scale;
    in.gradientBytes = j.gradBits / 8;
    in.workers = o.workers;
    in.linkBps = double(DataRate(o.rate).GetBitRate());
    in.ringPayloadFraction = RingPayloadFraction();
    in.aggPayloadFraction = AggPayloadFraction();
    in.minPeriodS = j.periodS;
    j.bound = RingVsAggregationBound(in);
}

/// --ring-order=rack: the workers in rack order (RackOrderedRing: sorted by host, i.e. by
/// rack and pod), so a ring enters and leaves each pod it visits once.
void
OrderRing(const Options& o, JobPlan& j)
{
    if (o.ringOrder == "rack")
    {
        j.hosts = RackOrderedRing(j.hosts, o.k);
    }
}

/// Draws jobs (a model and o.workers hosts not yet taken each): the same sequence for a seed.
struct JobDrawer
{
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    std::vector<uint32_t> free; //!< hosts not yet taken

    explicit JobDrawer(uint32_t hosts)
        : free(hosts)
    {
        u->SetStream(7);
        std::iota(free.begin(), free.end(), 0);
    }

    JobPlan Draw(const Options& o)
    {
        JobPlan j;
        j.model = o.models[u->GetInteger(0, o.models.size() - 1)];
        for (uint32_t w = 0; w < o.workers; ++w)
        {
            uint32_t pick = u->GetInteger(0, free.size() - 1);
            // --placement=packed: the lowest free host (racks and pods filled in order); the
            // draw is made anyway so that the models are the same as with random placement.
            pick = o.placement == "packed" ? 0 : pick;
            j.hosts.push_back(free[pick]);
            free.erase(free.begin() + pick);
        }
        OrderRing(o, j);
        Describe(o, j);
        return j;
    }
};

} // namespace

/**
 * Fixed-load mode: every host is a worker (hosts / workers jobs, models drawn as in PlanJobs)
 * and every job's iteration period is gradient bits / (load x link rate), so each worker offers
 * exactly `load` of its link in gradient bytes, whatever the scheme. The period is never below
 * the job's compute time (such a job offers less, for every scheme alike).
 */
std::vector<JobPlan>
PlanFixed(const Options& o, double load, uint32_t hosts, double rateBps)
{
    JobDrawer draw(hosts);
    std::vector<JobPlan> jobs;
    while (draw.free.size() >= o.workers)
    {
        JobPlan j = draw.Draw(o);
        // A model whose compute time is longer than the period offers what it can (its
        // iteration rate is then capped by compute alone, the same for every scheme).
        j.periodS = std::max(j.computeS, j.gradBits / (load * rateBps));
        Describe(o, j); // the bound with the period
        j.load = j.gradBits / (j.periodS * rateBps) * o.workers / hosts;
        jobs.push_back(j);
    }
    return jobs;
}

/// Jobs and placement for a load: deterministic for a seed (RngRun).
std::vector<JobPlan>
PlanJobs(const Options& o, double load, uint32_t hosts, double rateBps)
{
    JobDrawer draw(hosts);
    std::vector<JobPlan> jobs;
    double offered = 0;
    GpuProfile gpu = GpuProfile::Get(o.gpu);
    while (offered < load * hosts)
    {
        if (draw.free.size() < o.workers)
        {
            std::ostringstream os;
            os << "--loads: " << load << " needs more than the " << hosts << " hosts (reached "
               << offered / hosts << " with every host a worker); use fewer, a faster --gpu or "
               << "smaller loads";
            throw std::invalid_argument(os.str());
        }
        JobPlan j = draw.Draw(o);
        DnnModel m = ModelZoo::Get(j.model);
        double compute = gpu.GetForwardTime(m, o.batch) + gpu.GetBackwardTime(m, o.batch);
        double perWorker = std::min(1.0, m.GetParameterBytes() * 8.0 / (compute * rateBps));
        j.load = perWorker * o.workers / hosts;
        offered += perWorker * o.workers;
        jobs.push_back(j);
    }
    return jobs;
}

void
PrintPlan(const Options& o,
          double load,
          uint32_t seed,
          const std::vector<JobPlan>& plan,
          uint32_t hosts,
          double achieved)
{
    // The jobs a run would have, without simulating: to choose loads and seeds
    // and to estimate a run's simulated length (12 iterations of the slowest).
    double slowest = 0;
    for (const auto& j : plan)
    {
        RingHops h = CountRingHops(j.hosts, o.k);
        std::cout << "  load " << load << " seed " << seed << " " << j.model << " hosts";
        for (uint32_t host : j.hosts)
        {
            std::cout << " " << host;
        }
        std::cout << " gradient_MB " << j.gradBits / 8e6 << " offered "
                  << j.load * hosts / j.hosts.size() << " compute_ms " << j.computeS * 1e3
                  << " ring_idle_ms " << j.bound.ringOverlapS * 1e3 << " agg_idle_ms "
                  << j.bound.aggOverlapS * 1e3 << " bound " << j.bound.speedup
                  << " ring_inter_pod_hops " << h.interPod << "/" << j.hosts.size() << "\n";
        slowest = std::max(slowest, j.bound.ringOverlapS);
    }
    std::cout << "load " << load << " seed " << seed << ": " << plan.size() << " jobs, offered "
              << achieved << ", slowest idle ring iteration " << slowest * 1e3 << " ms\n";
}

} // namespace panamacluster
} // namespace ns3
