/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "data-parallel-job.h"

#include "rdma-message-dispatcher.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fifo-tensor-order.h"
#include "ns3/log.h"
#include "ns3/mlnet-enum-accessor.h"
#include "ns3/nstime.h"
#include "ns3/rdma-flow-scheduler.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iomanip>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DataParallelJob");
NS_OBJECT_ENSURE_REGISTERED(GradientAggregator);
NS_OBJECT_ENSURE_REGISTERED(DataParallelJob);

namespace
{
/// \return per server, the bytes of the plan's slices placed on it (place[k]: slice k's server)
std::vector<uint64_t>
BytesPerServer(const std::vector<TransferSlice>& plan,
               const std::vector<uint32_t>& place,
               std::size_t servers,
               uint64_t bytesPerParam)
{
    std::vector<uint64_t> bytes(servers, 0);
    for (std::size_t k = 0; k < place.size(); ++k)
    {
        bytes[place[k]] += plan[k].size * bytesPerParam;
    }
    return bytes;
}
} // namespace

TypeId
GradientAggregator::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GradientAggregator").SetParent<Object>().SetGroupName("Mlnet");
    return tid;
}

GradientAggregator::~GradientAggregator() = default;

TypeId
DataParallelJob::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DataParallelJob")
            .SetParent<TrainingJob>()
            .SetGroupName("Mlnet")
            .AddConstructor<DataParallelJob>()
            .AddAttribute("Mode",
                          "Gradient synchronisation",
                          EnumValue(RING_ALLREDUCE),
                          MakeEnumMemberAccessor(&DataParallelJob::m_mode),
                          MakeEnumChecker(RING_ALLREDUCE,
                                          "RingAllReduce",
                                          PARAMETER_SERVER,
                                          "ParameterServer",
                                          AGGREGATOR,
                                          "Aggregator"))
            .AddAttribute("BatchSize",
                          "Per-worker batch size (>= 1)",
                          UintegerValue(32),
                          MakeUintegerAccessor(&DataParallelJob::m_batch),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("BytesPerParameter",
                          "Gradient bytes per parameter (1..8)",
                          UintegerValue(4),
                          MakeUintegerAccessor(&DataParallelJob::m_bytesPerParam),
                          MakeUintegerChecker<uint32_t>(1, 8))
            .AddAttribute("MaxInflightBytes",
                          "Window of slices in flight when the policy has no credit (0 = "
                          "unlimited; PS and aggregator modes)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DataParallelJob::m_maxInflight),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("SubChunks",
                          "Pipeline pieces per ring all-reduce chunk (1..1024)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&DataParallelJob::m_subChunks),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("FusionBytes",
                          "Ring mode: fuse the gradient slices ready when the ring is free, in "
                          "plan order, into one all-reduce of up to this many bytes (tensor "
                          "fusion as in Horovod, whose default is 64 MiB; 0 = one all-reduce "
                          "per slice)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DataParallelJob::m_fusionBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("GpusPerServer",
                          "GPUs behind each worker NIC (1..64); > 1: ring mode only, "
                          "hierarchical all-reduce (intra-server reduce-scatter, inter-server "
                          "ring, intra-server all-gather)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&DataParallelJob::m_gpusPerServer),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("IntraServerRate",
                          "Per-GPU intra-server rate of the reduce-scatter / all-gather ring. "
                          "Default 150 GB/s: V100 SXM2 NVLink 2.0, 6 links x 25 GB/s per "
                          "direction (NVIDIA V100 datasheet: 300 GB/s bidirectional); "
                          "PCIe 3.0 x16 is about 12 GB/s (96 Gb/s) of its 15.75 GB/s",
                          DataRateValue(DataRate("1200Gbps")),
                          MakeDataRateAccessor(&DataParallelJob::m_intraRate),
                          MakeDataRateChecker())
            .AddAttribute("IntraServerLatency",
                          "Per-step latency of the intra-server ring (an assumption of the "
                          "order of NCCL's per-step latency over NVLink)",
                          TimeValue(MicroSeconds(5)),
                          MakeTimeAccessor(&DataParallelJob::m_intraLatency),
                          MakeTimeChecker(Time(0), Seconds(1)))
            .AddAttribute("MessageOverhead",
                          "PS mode: framework CPU time per message at each end (the sender's "
                          "serialise-and-post, the receiver's receive-and-deserialise), one "
                          "message at a time per host thread, 0..1 s. 0 = ideal host (the "
                          "default, as in earlier versions); doc/workload.rst gives the "
                          "PS-lite/KVStore value the tensor-priority example uses",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&DataParallelJob::m_msgOverhead),
                          MakeTimeChecker(Time(0), Seconds(1)))
            .AddAttribute("ServerSumRate",
                          "PS mode: rate at which a server sums a received push into the "
                          "slice's buffer (bytes / rate of its thread per push; 0 = "
                          "instantaneous, the default)",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&DataParallelJob::m_sumRate),
                          MakeDataRateChecker())
            .AddAttribute("ServerUpdateRate",
                          "PS mode: rate at which a server applies the optimiser update of a "
                          "slice once every push is in (0 = instantaneous, the default)",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&DataParallelJob::m_updateRate),
                          MakeDataRateChecker())
            .AddAttribute("ServerPriority",
                          "PS mode: servers handle queued pushes, updates and pull responses "
                          "in the plan's priority order (P3's server) instead of arrival order",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DataParallelJob::m_serverPriority),
                          MakeBooleanChecker())
            .AddAttribute("OutstandingPerChannel",
                          "PS mode: messages a sender keeps in flight per channel (sender to "
                          "receiver), the rest queued in plan order (0 = the policy's value, "
                          "TicTac's 1; other policies: no limit)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DataParallelJob::m_channelDepth),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CoLocatedServers",
                          "PS mode: a server shard on every worker host (servers = workers; "
                          "do not call SetServers); the shard on a worker's own host is "
                          "reached without the network",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DataParallelJob::m_coLocated),
                          MakeBooleanChecker())
            .AddAttribute(
                "ServerAssignment",
                "PS mode: placement of the gradient slices on the servers. "
                "RoundRobin (the default, TensorFlow's round-robin placement): "
                "slice j of tensor t on server (t + j) mod servers, which can put "
                "most bytes on one server (the large tensors of a model often share "
                "an index parity); BalancedBytes: each slice, largest first, on the "
                "server with the fewest bytes so far (ties: lowest index; the "
                "longest-processing-time-first rule), so servers differ by at most one "
                "slice's bytes",
                EnumValue(ROUND_ROBIN),
                MakeEnumMemberAccessor(&DataParallelJob::m_assignment),
                MakeEnumChecker(ROUND_ROBIN, "RoundRobin", BALANCED_BYTES, "BalancedBytes"))
            .AddAttribute("ServerImbalanceWarning",
                          "PS mode: GetServerImbalanceWarning() (and summary.json's warnings in a "
                          "scenario) reports the placement when the busiest server receives more "
                          "than this many times an even share (1 / servers) of a worker's "
                          "pushed bytes (in [1, 1e9]; 1e9: never)",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&DataParallelJob::m_imbalanceWarning),
                          MakeDoubleChecker<double>(1.0, 1e9));
    return tid;
}

DataParallelJob::DataParallelJob() = default;
DataParallelJob::~DataParallelJob() = default;

void
DataParallelJob::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_workers.clear();
    m_servers.clear();
    m_policy = nullptr;
    m_aggregator = nullptr;
    m_allReduce = nullptr;
    m_qps.clear();
    TrainingJob::DoDispose();
}

void
DataParallelJob::SetModel(const DnnModel& model, const GpuProfile& gpu)
{
    NS_LOG_FUNCTION(this);
    if (model.GetParameterCount() == 0)
    {
        throw std::invalid_argument("DataParallelJob::SetModel: model has no parameters");
    }
    m_model = model;
    m_gpu = gpu;
    m_hasModel = true;
}

void
DataParallelJob::SetWorkers(const std::vector<Ptr<MessageTransport>>& workers)
{
    NS_LOG_FUNCTION(this);
    if (workers.empty())
    {
        throw std::invalid_argument("DataParallelJob::SetWorkers: workers must be >= 1");
    }
    m_workers = workers;
}

void
DataParallelJob::SetServers(const std::vector<Ptr<MessageTransport>>& servers)
{
    NS_LOG_FUNCTION(this);
    if (servers.empty())
    {
        throw std::invalid_argument("DataParallelJob::SetServers: servers must be >= 1");
    }
    m_servers = servers;
}

void
DataParallelJob::SetTensorOrderPolicy(Ptr<TensorOrderPolicy> policy)
{
    NS_LOG_FUNCTION(this << policy);
    m_policy = policy;
}

void
DataParallelJob::SetAggregator(Ptr<GradientAggregator> agg)
{
    NS_LOG_FUNCTION(this << agg);
    m_aggregator = agg;
}

const std::vector<TransferSlice>&
DataParallelJob::GetPlan() const
{
    return m_plan;
}

uint64_t
DataParallelJob::GetPushBytes() const
{
    return m_pushBytes;
}

uint64_t
DataParallelJob::GetPullBytes() const
{
    return m_pullBytes;
}

Time
DataParallelJob::GetComputeTime() const
{
    return m_compute;
}

uint64_t
DataParallelJob::GetModelBytes() const
{
    return m_model.GetParameterCount() * m_bytesPerParam;
}

uint32_t
DataParallelJob::GetGpuCount() const
{
    return static_cast<uint32_t>(m_workers.size()) * m_gpusPerServer;
}

uint64_t
DataParallelJob::GetAllReduceCount() const
{
    return m_allReduces;
}

Time
DataParallelJob::GetIntraServerPhaseTime(uint64_t bytes) const
{
    const uint32_t g = m_gpusPerServer;
    if (g <= 1)
    {
        return Time(0);
    }
    const double rate = static_cast<double>(m_intraRate.GetBitRate());
    if (!(rate > 0))
    {
        throw std::invalid_argument("DataParallelJob IntraServerRate = 0 is out of range (must "
                                    "be > 0 with GpusPerServer > 1)");
    }
    const double seconds = (g - 1.0) / g * 8.0 * static_cast<double>(bytes) / rate;
    return Seconds(seconds) + m_intraLatency * int64_t(g - 1);
}

void
DataParallelJob::RunCallback(Callback<void> cb)
{
    NS_LOG_FUNCTION_NOARGS();
    cb();
}

void
DataParallelJob::StartAllReduce(uint64_t bytes, Callback<void> done)
{
    NS_LOG_FUNCTION(this << bytes);
    ++m_allReduces;
    const Time intra = GetIntraServerPhaseTime(bytes);
    if (intra.IsZero())
    {
        InterServerPhase(bytes, done);
        return;
    }
    Simulator::Schedule(intra, &DataParallelJob::InterServerPhase, this, bytes, done);
}

void
DataParallelJob::InterServerPhase(uint64_t bytes, Callback<void> done)
{
    NS_LOG_FUNCTION(this << bytes);
    const Time intra = GetIntraServerPhaseTime(bytes);
    Callback<void> gather = done;
    if (!intra.IsZero())
    {
        gather = Callback<void>(
            [intra, done]() { Simulator::Schedule(intra, &DataParallelJob::RunCallback, done); });
    }
    if (m_workers.size() < 2)
    {
        // one server: nothing crosses the fabric (scheduled, never re-entering the caller)
        Simulator::ScheduleNow(&DataParallelJob::RunCallback, gather);
        return;
    }
    m_allReduce->Start(std::max<uint64_t>(bytes, m_workers.size()),
                       Collective::ParticipantCallback(),
                       Collective::DoneCallback([gather]() { gather(); }));
}

void
DataParallelJob::DoCheckConfiguration() const
{
    NS_LOG_FUNCTION(this);
    if (!m_hasModel)
    {
        throw std::invalid_argument("DataParallelJob: no model (call SetModel)");
    }
    if (m_workers.empty())
    {
        throw std::invalid_argument("DataParallelJob: no workers (call SetWorkers)");
    }
    if (m_mode == RING_ALLREDUCE && m_workers.size() < 2 && m_gpusPerServer < 2)
    {
        throw std::invalid_argument(
            "DataParallelJob: ring all-reduce needs workers >= 2 (or GpusPerServer >= 2)");
    }
    if (m_mode != RING_ALLREDUCE && m_gpusPerServer > 1)
    {
        throw std::invalid_argument(
            "DataParallelJob: GpusPerServer = " + std::to_string(m_gpusPerServer) +
            " is out of range for this Mode (must be 1 unless Mode is "
            "RingAllReduce)");
    }
    GetIntraServerPhaseTime(1); // validates IntraServerRate
    if (m_mode == PARAMETER_SERVER && m_coLocated && !m_servers.empty() && m_servers != m_workers)
    {
        throw std::invalid_argument("DataParallelJob: CoLocatedServers = true places a server on "
                                    "every worker host; do not also call SetServers");
    }
    if (m_mode == PARAMETER_SERVER && m_servers.empty() && !m_coLocated)
    {
        throw std::invalid_argument("DataParallelJob: parameter-server mode needs servers >= 1 "
                                    "(SetServers) or CoLocatedServers = true");
    }
    if (m_mode == AGGREGATOR && !m_aggregator)
    {
        throw std::invalid_argument("DataParallelJob: aggregator mode needs SetAggregator");
    }
}

void
DataParallelJob::Prepare()
{
    NS_LOG_FUNCTION(this);
    DoCheckConfiguration();
    if (!m_policy)
    {
        m_policy = CreateObject<FifoTensorOrder>();
    }
    m_policy->SetBytesPerParameter(m_bytesPerParam);
    if (m_mode == PARAMETER_SERVER)
    {
        if (m_coLocated)
        {
            m_servers = m_workers;
        }
        const std::size_t hosts = m_workers.size() + m_servers.size();
        m_threads.assign(hosts, HostThread());
        m_channelOut.assign(hosts * hosts, 0);
    }
    m_timing = m_gpu.GetLayerTimings(m_model, m_batch);
    const std::size_t L = m_model.GetNLayers();
    std::vector<uint64_t> params(L);
    std::vector<double> fwd(L), bwd(L);
    m_compute = Time(0);
    Time bwdTotal(0);
    for (std::size_t i = 0; i < L; ++i)
    {
        params[i] = m_model.GetLayer(i).parameters;
        fwd[i] = m_timing[i].forwardSeconds;
        bwd[i] = m_timing[i].backwardSeconds;
        m_compute += Seconds(fwd[i]);
        bwdTotal += Seconds(bwd[i]);
    }
    m_compute += bwdTotal;
    m_tensors = TensorOrderPolicy::MakeTensors(params, fwd, bwd);
    m_plan = m_policy->Plan(m_tensors);
    m_layerTensor.assign(L, -1);
    for (std::size_t t = 0; t < m_tensors.size(); ++t)
    {
        m_layerTensor[m_tensors[t].layerIndex] = t;
    }
    m_tensorSlices.assign(m_tensors.size(), {});
    for (std::size_t k = 0; k < m_plan.size(); ++k)
    {
        m_tensorSlices[m_plan[k].tensorId].push_back(k);
    }
    m_paramReady.assign(L, true);
    m_tensorPending.assign(m_tensors.size(), 0);
    m_eligible.assign(m_plan.size(), false);
    m_launched.assign(m_plan.size(), false);
    m_sliceWait.assign(m_plan.size(), 0);
    m_slicePosted.assign(m_plan.size(), Time(0));
    if (m_mode == PARAMETER_SERVER)
    {
        m_sliceServer = PlaceSlices(m_plan, m_servers.size(), m_assignment);
    }
    if (m_mode == RING_ALLREDUCE && m_workers.size() >= 2)
    {
        m_allReduce = CreateObject<RingAllReduce>();
        m_allReduce->SetAttribute("SubChunks", UintegerValue(m_subChunks));
        m_allReduce->SetAttribute("PriorityClass", UintegerValue(m_class));
        m_allReduce->SetGroup(m_workers);
    }
    else if (m_mode == AGGREGATOR)
    {
        m_aggregator->Setup(m_workers);
    }
    m_prepared = true;
    NS_LOG_INFO(m_name << ": " << m_tensors.size() << " tensors, " << m_plan.size()
                       << " slices, compute " << m_compute.GetMicroSeconds() << " us");
}

void
DataParallelJob::DoStartIteration()
{
    NS_LOG_FUNCTION(this);
    if (!m_prepared)
    {
        Prepare();
    }
    m_fwdLayer = 0;
    m_bwdDone = false;
    ForwardNext();
}

void
DataParallelJob::ForwardNext()
{
    NS_LOG_FUNCTION(this);
    m_fwdWaiting = false;
    const uint32_t L = m_model.GetNLayers();
    if (m_fwdLayer >= L)
    {
        BackwardStart();
        return;
    }
    if (!m_paramReady[m_fwdLayer])
    {
        m_fwdWaiting = true; // SliceDone resumes
        return;
    }
    Time d = Seconds(m_timing[m_fwdLayer].forwardSeconds);
    ++m_fwdLayer;
    Simulator::Schedule(d, &DataParallelJob::ForwardNext, this);
}

void
DataParallelJob::BackwardStart()
{
    NS_LOG_FUNCTION(this);
    std::fill(m_eligible.begin(), m_eligible.end(), false);
    std::fill(m_launched.begin(), m_launched.end(), false);
    m_nextScan = 0;
    Time total(0);
    for (const auto& lt : m_timing)
    {
        total += Seconds(lt.backwardSeconds);
    }
    m_syncIteration = GetIterationsDone();
    m_nextForward = Simulator::Now() + total;
    for (uint32_t t = 0; t < m_tensors.size(); ++t)
    {
        Simulator::Schedule(Seconds(m_tensors[t].producedAt), &DataParallelJob::Produce, this, t);
    }
    Simulator::Schedule(total, &DataParallelJob::BackwardDone, this);
}

void
DataParallelJob::Produce(uint32_t t)
{
    NS_LOG_FUNCTION(this << t);
    m_paramReady[m_tensors[t].layerIndex] = false;
    m_tensorPending[t] = m_tensorSlices[t].size();
    ++m_unsynced;
    for (uint32_t k : m_tensorSlices[t])
    {
        m_eligible[k] = true;
    }
    Pump();
}

void
DataParallelJob::BackwardDone()
{
    NS_LOG_FUNCTION(this);
    m_bwdDone = true;
    MaybeEnd();
}

void
DataParallelJob::MaybeEnd()
{
    NS_LOG_FUNCTION(this);
    if (!m_bwdDone)
    {
        return;
    }
    bool last = m_iterations != 0 && GetIterationsDone() + 1 >= m_iterations;
    if (last && m_unsynced > 0)
    {
        return;
    }
    m_bwdDone = false;
    EndIteration(m_compute);
}

void
DataParallelJob::Pump()
{
    NS_LOG_FUNCTION(this);
    uint64_t window = m_policy->GetCreditBytes();
    if (window == 0)
    {
        window = m_maxInflight;
    }
    while (m_nextScan < m_plan.size() && m_launched[m_nextScan])
    {
        ++m_nextScan;
    }
    if (m_mode == RING_ALLREDUCE && m_fusionBytes > 0)
    {
        if (m_inflightSlices == 0)
        {
            LaunchFused();
        }
        return;
    }
    for (uint32_t k = m_nextScan; k < m_plan.size(); ++k)
    {
        if (m_launched[k] || !m_eligible[k])
        {
            continue;
        }
        uint64_t bytes = m_plan[k].size * m_bytesPerParam;
        bool fits = m_inflightSlices == 0 || (m_mode != RING_ALLREDUCE &&
                                              (window == 0 || m_inflightBytes + bytes <= window));
        if (!fits)
        {
            return; // strict priority: nothing later overtakes the first eligible slice
        }
        Launch(k);
    }
}

uint8_t
DataParallelJob::SliceClass(uint8_t planClass) const
{
    NS_LOG_FUNCTION(this << planClass);
    // Plans number classes by urgency (0 = most urgent); the fabric and the NIC serve the highest
    // class first. The job's PriorityClass is its most urgent class: plan class c -> class
    // PriorityClass - c (at least 0). A plan of one class (FIFO) sends everything in the job's
    // class, as every other source of data does by default.
    return uint8_t(m_class - std::min<uint8_t>(planClass, m_class));
}

Ptr<MessageConnection>
DataParallelJob::Qp(Ptr<MessageTransport> a,
                    Ptr<MessageTransport> b,
                    uint8_t cls,
                    bool push,
                    uint32_t w,
                    uint32_t s)
{
    NS_LOG_FUNCTION(this << a << b << cls << push << w << s);
    auto key = std::make_tuple(w, s, cls, push);
    auto it = m_qps.find(key);
    if (it != m_qps.end())
    {
        return it->second;
    }
    Ptr<MessageConnection> qp = a->Open(b, cls);
    MessageConnection* raw = PeekPointer(qp);
    RdmaMessageDispatcher::Get(b)->Register(
        a->GetAddress(),
        qp->GetQpn(),
        RdmaMessageDispatcher::ReceiveCallback(
            [this, raw, push, w, s, cls](Ipv4Address, uint32_t, uint64_t) {
                uint32_t k = m_qpFifo[raw].front();
                m_qpFifo[raw].pop_front();
                Arrived(push, w, s, k);
            }));
    m_qps[key] = qp;
    return qp;
}

void
DataParallelJob::Launch(uint32_t k)
{
    NS_LOG_FUNCTION(this << k);
    m_launched[k] = true;
    uint64_t bytes = m_plan[k].size * m_bytesPerParam;
    m_inflightBytes += bytes;
    ++m_inflightSlices;
    m_slicePosted[k] = Simulator::Now();
    uint8_t cls = SliceClass(m_plan[k].priorityClass);
    NS_LOG_DEBUG(m_name << " launch slice " << k << " tensor " << m_plan[k].tensorId << " " << bytes
                        << " B class " << unsigned(cls));
    if (m_mode == RING_ALLREDUCE)
    {
        StartAllReduce(bytes, Callback<void>([this, k]() { SliceDone(k); }));
    }
    else if (m_mode == AGGREGATOR)
    {
        m_aggregator->Aggregate(m_sliceSeq++, bytes, cls, Callback<void>([this, k]() {
                                    SliceDone(k);
                                }));
    }
    else
    {
        uint32_t s = m_sliceServer[k];
        m_sliceWait[k] = m_workers.size();
        for (uint32_t w = 0; w < m_workers.size(); ++w)
        {
            Enqueue(w, SEND_PUSH, k, w, s);
        }
    }
}

std::vector<uint32_t>
DataParallelJob::PlaceSlices(const std::vector<TransferSlice>& plan,
                             uint32_t servers,
                             ServerAssignment assignment)
{
    if (servers == 0)
    {
        throw std::invalid_argument("DataParallelJob::PlaceSlices: servers = 0 is out of range "
                                    "(must be >= 1)");
    }
    std::vector<uint32_t> server(plan.size(), 0);
    if (assignment == ROUND_ROBIN)
    {
        // by position in the tensor
        for (std::size_t k = 0; k < plan.size(); ++k)
        {
            server[k] =
                (plan[k].tensorId + plan[k].offset / std::max<uint64_t>(1, plan[k].size)) % servers;
        }
        return server;
    }
    // BalancedBytes: largest slice first (LPT), each to the server with the fewest bytes so far,
    // ties in model order (tensor, then offset), whatever the plan's order, so that every
    // tensor-order policy gets the same placement; the busiest server then carries at most one
    // slice more than the least busy one
    std::vector<uint32_t> order(plan.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&plan](uint32_t a, uint32_t b) {
        return std::make_tuple(plan[b].size, plan[a].tensorId, plan[a].offset) <
               std::make_tuple(plan[a].size, plan[b].tensorId, plan[b].offset);
    });
    std::vector<uint64_t> load(servers, 0);
    for (uint32_t k : order)
    {
        const auto s =
            static_cast<uint32_t>(std::min_element(load.begin(), load.end()) - load.begin());
        server[k] = s;
        load[s] += plan[k].size;
    }
    return server;
}

DataParallelJob::ServerAssignment
DataParallelJob::ServerAssignmentFromName(const std::string& name)
{
    if (name == "round-robin")
    {
        return ROUND_ROBIN;
    }
    if (name == "balanced-bytes")
    {
        return BALANCED_BYTES;
    }
    throw std::invalid_argument("serverAssignment = \"" + name +
                                "\": must be round-robin or balanced-bytes");
}

std::string
DataParallelJob::GetServerImbalanceWarning() const
{
    const std::vector<uint64_t> bytes = GetServerBytes();
    const uint64_t total = std::accumulate(bytes.begin(), bytes.end(), uint64_t(0));
    if (bytes.size() < 2 || total == 0)
    {
        return "";
    }
    const auto busiest = std::max_element(bytes.begin(), bytes.end());
    const double share = double(*busiest) / double(total);
    const double even = 1.0 / double(bytes.size());
    if (share <= m_imbalanceWarning * even)
    {
        return "";
    }
    // what BalancedBytes would give the busiest server
    const std::vector<uint64_t> balanced =
        BytesPerServer(m_plan,
                       PlaceSlices(m_plan, bytes.size(), BALANCED_BYTES),
                       bytes.size(),
                       m_bytesPerParam);
    const double best = double(*std::max_element(balanced.begin(), balanced.end())) / double(total);
    std::ostringstream w;
    w << std::fixed << std::setprecision(1) << GetJobName() << ": parameter server "
      << (busiest - bytes.begin()) << " receives " << 100 * share << " % of each worker's " << total
      << " pushed bytes over " << bytes.size() << " servers (" << std::setprecision(2)
      << share / even << "x an even share of " << std::setprecision(1) << 100 * even
      << " %, ServerImbalanceWarning " << m_imbalanceWarning
      << "), so it may bound the iteration; ";
    if (m_assignment == BALANCED_BYTES)
    {
        w << "the placement is already balanced by bytes (its largest slices do not divide "
             "evenly)";
    }
    else
    {
        w << "serverAssignment \"balanced-bytes\" puts at most " << 100 * best << " % on one";
    }
    return w.str();
}

std::vector<uint64_t>
DataParallelJob::GetServerBytes() const
{
    return BytesPerServer(m_plan,
                          m_sliceServer,
                          m_sliceServer.empty() ? 0 : m_servers.size(),
                          m_bytesPerParam);
}

void
DataParallelJob::LaunchFused()
{
    NS_LOG_FUNCTION(this);
    // Every ready slice, in plan order, until the fusion buffer is full (at least one slice).
    std::vector<uint32_t> batch;
    uint64_t total = 0;
    for (uint32_t k = m_nextScan; k < m_plan.size() && total < m_fusionBytes; ++k)
    {
        if (m_launched[k] || !m_eligible[k])
        {
            continue;
        }
        uint64_t bytes = m_plan[k].size * m_bytesPerParam;
        if (!batch.empty() && total + bytes > m_fusionBytes)
        {
            break;
        }
        batch.push_back(k);
        total += bytes;
        m_launched[k] = true;
        m_inflightBytes += bytes;
        ++m_inflightSlices;
        m_slicePosted[k] = Simulator::Now();
    }
    if (batch.empty())
    {
        return;
    }
    NS_LOG_DEBUG(m_name << " launch " << batch.size() << " fused slices, " << total << " B");
    StartAllReduce(total, Callback<void>([this, batch]() {
                       for (uint32_t k : batch)
                       {
                           SliceDone(k);
                       }
                   }));
}

void
DataParallelJob::SliceDone(uint32_t k)
{
    NS_LOG_FUNCTION(this << k);
    m_inflightBytes -= m_plan[k].size * m_bytesPerParam;
    --m_inflightSlices;
    uint32_t t = m_plan[k].tensorId;
    if (--m_tensorPending[t] == 0)
    {
        --m_unsynced;
        uint32_t layer = m_tensors[t].layerIndex;
        m_paramReady[layer] = true;
        if (m_fwdWaiting && m_fwdLayer == layer)
        {
            ForwardNext();
        }
    }
    Pump();
    MaybeEnd();
}

} // namespace ns3
