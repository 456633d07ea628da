/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "simulation-session.h"

#include "event-scheduler-helper.h"
#include "rdma-helper.h"
#include "unit-parser.h"

#include "ns3/boolean.h"
#include "ns3/dcqcn-profile.h"
#include "ns3/double.h"
#include "ns3/fabric-switch.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/rdma-cc-catalog.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-timeout-report.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SimulationSession");

namespace
{
/// The session that owns the simulator now (one at a time).
const SimulationSession* g_live = nullptr;
} // namespace

// ---------------------------------------------------------------------------------------------
// SessionFlow

void
SessionFlow::Post()
{
    posted = true;
    if (trace)
    {
        rateTrace.emplace_back(Simulator::Now().GetSeconds(), qp->GetCcState().rate);
    }
    qp->PostSend(bytes, MakeCallback(&SessionFlow::OnComplete, this));
}

void
SessionFlow::OnComplete(uint64_t, uint64_t)
{
    done = true;
    finish = Simulator::Now().GetSeconds();
}

void
SessionFlow::OnRate(double r)
{
    rateTrace.emplace_back(Simulator::Now().GetSeconds(), r);
}

void
SessionFlow::Snapshot()
{
    if (qp)
    {
        bytesAcked = qp->GetBytesAcked();
        bytesSent = qp->GetCcState().bytesSent;
        retx = qp->GetRetransmittedPackets();
        timeouts = qp->GetTimeouts();
        cnps = qp->GetCnpsReceived();
        rate = qp->GetCcState().rate;
        qp = nullptr;
    }
}

uint64_t
SessionFlow::GetBytesAcked() const
{
    return qp ? qp->GetBytesAcked() : bytesAcked;
}

uint64_t
SessionFlow::GetBytesSent() const
{
    return qp ? qp->GetCcState().bytesSent : bytesSent;
}

double
SessionFlow::GetRate() const
{
    return qp ? qp->GetCcState().rate : rate;
}

uint64_t
SessionFlow::GetCnps() const
{
    return qp ? qp->GetCnpsReceived() : cnps;
}

uint64_t
SessionFlow::GetRetransmissions() const
{
    return qp ? qp->GetRetransmittedPackets() : retx;
}

uint64_t
SessionFlow::GetTimeouts() const
{
    return qp ? qp->GetTimeouts() : timeouts;
}

// ---------------------------------------------------------------------------------------------
// SimulationSession

SimulationSession::SimulationSession(uint64_t seed)
{
    NS_LOG_FUNCTION(this << seed);
    if (g_live != nullptr)
    {
        throw std::invalid_argument("another SimulationSession is open (ns-3 has one global "
                                    "simulator): Close() it before opening a new one");
    }
    InputLimits::Check(seed, "seed", InputLimits::SEED);
    Simulator::Destroy();                // start from a clean slate
    EventSchedulerHelper::UseDefaults(); // mlnet's engine, unless the user chose one
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);
    m_seed = seed;
    m_open = true;
    g_live = this;
}

SimulationSession::~SimulationSession()
{
    Close();
}

void
SimulationSession::Close()
{
    if (!m_open)
    {
        return;
    }
    NS_LOG_FUNCTION(this);
    m_warnings = GetWarnings(); // before the entries and the NICs are released
    for (auto& f : m_flows)
    {
        f->Snapshot();
    }
    SnapshotSections();
    m_nics.clear();
    m_topo = FabricTopology();
    m_closedAt = Simulator::Now().GetSeconds();
    Simulator::Destroy();
    m_open = false;
    if (g_live == this)
    {
        g_live = nullptr;
    }
}

bool
SimulationSession::IsOpen() const
{
    return m_open;
}

uint64_t
SimulationSession::Seed() const
{
    return m_seed;
}

double
SimulationSession::Now() const
{
    return m_open ? Simulator::Now().GetSeconds() : m_closedAt;
}

void
SimulationSession::CheckOpen() const
{
    if (!m_open)
    {
        throw std::invalid_argument("this Simulation is closed");
    }
}

void
SimulationSession::CheckRdmaInstallable() const
{
    CheckOpen();
    if (!m_built)
    {
        throw std::invalid_argument("build a topology (fat_tree, leaf_spine, dumbbell) before "
                                    "install_rdma()");
    }
    if (m_rdma)
    {
        throw std::invalid_argument("install_rdma() was already called");
    }
}

bool
SimulationSession::HasRdma() const
{
    return m_rdma;
}

SessionTopologyInfo
SimulationSession::Build(const SessionFabric& o)
{
    NS_LOG_FUNCTION(this << o.kind);
    CheckOpen();
    if (m_built)
    {
        throw std::invalid_argument("this Simulation already has a topology; create a new "
                                    "Simulation (after close()) for another one");
    }
    const size_t nDims = o.kind == "leaf_spine" ? 3 : 2;
    if ((o.kind != "fat_tree" && o.kind != "leaf_spine" && o.kind != "dumbbell") ||
        o.dims.size() != nDims)
    {
        throw std::invalid_argument("topology kind '" + o.kind +
                                    "': must be fat_tree (k, hosts per edge), leaf_spine "
                                    "(leaves, spines, hosts per leaf) or dumbbell (left, right)");
    }
    FabricTopologyHelper helper;
    helper.SetHostLinkRate(DataRate(static_cast<uint64_t>(o.hostRate)));
    helper.SetFabricLinkRate(DataRate(static_cast<uint64_t>(o.fabricRate)));
    helper.SetLinkDelay(UnitParser::FromSeconds(o.delay));
    FabricHelper& fabric = helper.Fabric();
    fabric.SetSwitchAttribute("PfcEnabled", BooleanValue(o.pfc));
    fabric.SetSwitchAttribute("EcnEnabled", BooleanValue(o.ecn));
    // Ranges and defaults from FabricSwitch's attributes, as the JSON "fabric" section.
    const TypeId sw = FabricSwitch::GetTypeId();
    auto initial = [&sw](const char* name) {
        TypeId::AttributeInformation info;
        sw.LookupAttributeByName(name, &info);
        return DynamicCast<const UintegerValue>(info.initialValue)->Get();
    };
    if (o.buffer)
    {
        uint64_t b = InputLimits::Check(*o.buffer,
                                        "buffer (bytes)",
                                        InputLimits::UintOfAttribute(sw, "BufferSize"));
        fabric.SetSwitchAttribute("BufferSize", UintegerValue(b));
    }
    uint64_t kmin = initial("EcnKmin");
    uint64_t kmax = initial("EcnKmax");
    if (o.ecnKmin)
    {
        kmin = InputLimits::Check(*o.ecnKmin,
                                  "ecn_kmin (bytes)",
                                  InputLimits::UintOfAttribute(sw, "EcnKmin"));
        fabric.SetSwitchAttribute("EcnKmin", UintegerValue(kmin));
    }
    if (o.ecnKmax)
    {
        kmax = InputLimits::Check(*o.ecnKmax,
                                  "ecn_kmax (bytes)",
                                  InputLimits::UintOfAttribute(sw, "EcnKmax"));
        fabric.SetSwitchAttribute("EcnKmax", UintegerValue(kmax));
    }
    if (kmin > kmax)
    {
        throw std::invalid_argument("ecn_kmin must be <= ecn_kmax (kmin " + std::to_string(kmin) +
                                    " B, kmax " + std::to_string(kmax) + " B)");
    }
    if (o.ecnPmax)
    {
        double p =
            InputLimits::Check(*o.ecnPmax, "ecn_pmax", InputLimits::OfAttribute(sw, "EcnPmax"));
        fabric.SetSwitchAttribute("EcnPmax", DoubleValue(p));
    }
    if (o.ecnMarking)
    {
        // the JSON "fabric" key ecnMarking: FabricSwitch::EcnMarkingPoint
        const std::string& point = *o.ecnMarking;
        if (point != "dequeue" && point != "enqueue")
        {
            throw std::invalid_argument(
                "ecn_marking = '" + point +
                "': must be 'dequeue' (mark on the queue a packet leaves, the default) or "
                "'enqueue' (mark on the queue it joins)");
        }
        fabric.SetSwitchAttribute("EcnMarkingPoint",
                                  StringValue(point == "enqueue" ? "Enqueue" : "Dequeue"));
    }
    // The helper checks the dimensions and the host total, naming the parameter.
    if (o.kind == "fat_tree")
    {
        m_topo =
            helper.BuildFatTree(static_cast<uint32_t>(o.dims[0]), static_cast<uint32_t>(o.dims[1]));
    }
    else if (o.kind == "leaf_spine")
    {
        m_topo = helper.BuildLeafSpine(static_cast<uint32_t>(o.dims[0]),
                                       static_cast<uint32_t>(o.dims[1]),
                                       static_cast<uint32_t>(o.dims[2]));
    }
    else
    {
        m_topo = helper.BuildDumbbell(static_cast<uint32_t>(o.dims[0]),
                                      static_cast<uint32_t>(o.dims[1]));
    }
    m_built = true;
    m_kind = o.kind;
    m_fabric = o;
    m_names = m_topo.NodeNames(); // the names of ports.csv
    return Info();
}

SessionTopologyInfo
SimulationSession::Info() const
{
    SessionTopologyInfo t;
    if (!m_built)
    {
        return t;
    }
    t.kind = m_kind;
    t.hosts = m_topo.hosts.GetN();
    t.switches = m_topo.switches.GetN();
    t.links = m_topo.links;
    for (uint32_t i = 0; i < t.hosts; ++i)
    {
        std::ostringstream os;
        os << m_topo.HostAddress(i);
        t.addresses.push_back(os.str());
    }
    return t;
}

std::pair<std::string, std::string>
SimulationSession::CcParameter(const std::string& ccTypeId, const std::string& key)
{
    // snake_case keywords, or the ns-3 attribute names (one table: RdmaCcCatalog)
    const RdmaCcCatalog::Parameter* param = RdmaCcCatalog::Find(key);
    std::string name = param ? param->attribute : key;
    TypeId::AttributeInformation info;
    if (!TypeId::LookupByName(ccTypeId).LookupAttributeByName(name, &info))
    {
        throw std::invalid_argument("cc parameter '" + key + "': " + ccTypeId +
                                    " has no such attribute");
    }
    // "DataRateValue", "ns3::TimeValue", ...: some checkers name their namespace, some not.
    std::string type = info.checker->GetValueTypeName();
    if (type.rfind("ns3::", 0) != 0)
    {
        type = "ns3::" + type;
    }
    return {name, type};
}

void
SimulationSession::InstallRdma(
    const std::string& ccTypeId,
    std::optional<uint64_t> mtu,
    const std::vector<std::pair<std::string, Ptr<AttributeValue>>>& params)
{
    NS_LOG_FUNCTION(this << ccTypeId);
    CheckRdmaInstallable();
    RdmaHelper rdma;
    rdma.SetCongestionControl(ccTypeId);
    if (mtu)
    {
        rdma.SetNicAttribute("Mtu", UintegerValue(InputLimits::Check(*mtu, "mtu", {64, 4096})));
    }
    // Validate every parameter on a scratch instance (SetAttributeChecked throws), then apply
    // the same values to the factory the NICs use.
    ObjectFactory f;
    f.SetTypeId(ccTypeId);
    Ptr<RdmaCongestionOps> probe = f.Create<RdmaCongestionOps>();
    for (const auto& [name, value] : params)
    {
        probe->SetAttributeChecked(name, *value);
        rdma.SetCcAttribute(name, *value);
    }
    m_nics = rdma.Install(m_topo.hosts);
    m_ccFactory = rdma.GetCongestionControl();
    m_ccType = ccTypeId;
    m_rdma = true;
}

std::shared_ptr<SessionFlow>
SimulationSession::AddRdmaFlow(uint32_t src,
                               uint32_t dst,
                               uint64_t bytes,
                               double start,
                               uint8_t priority,
                               double aggressiveness,
                               bool trace)
{
    NS_LOG_FUNCTION(this << src << dst << bytes << start);
    CheckOpen();
    if (!m_rdma)
    {
        throw std::invalid_argument("call install_rdma() before rdma_flow()");
    }
    const uint32_t n = m_topo.hosts.GetN();
    InputLimits::Check(uint64_t(src), "src (host index)", {0, n - 1});
    InputLimits::Check(uint64_t(dst), "dst (host index)", {0, n - 1});
    if (src == dst)
    {
        throw std::invalid_argument("src and dst must differ");
    }
    InputLimits::Check(bytes, "bytes", InputLimits::MESSAGE_BYTES);
    InputLimits::Check(uint64_t(priority), "priority", InputLimits::RDMA_PRIORITY);
    InputLimits::Check(aggressiveness, "aggressiveness", InputLimits::AGGRESSIVENESS);
    const double now = Simulator::Now().GetSeconds();
    if (start < now)
    {
        throw std::invalid_argument("start is in the simulated past (now = " + std::to_string(now) +
                                    " s)");
    }
    ObjectFactory cc = m_ccFactory;
    if (aggressiveness != 1.0)
    {
        if (m_ccType == "ns3::RdmaFixedRate")
        {
            throw std::invalid_argument("aggressiveness needs cc='dcqcn' or 'dcqcn-vendor'");
        }
        DcqcnProfile(aggressiveness).Configure(cc);
    }
    auto s = std::make_shared<SessionFlow>();
    s->id = static_cast<uint32_t>(m_flows.size());
    s->src = src;
    s->dst = dst;
    s->bytes = bytes;
    s->start = start;
    s->priority = priority;
    s->aggressiveness = aggressiveness;
    s->trace = trace;
    s->qp = m_nics[src]->Connect(m_nics[dst], priority, &cc);
    if (trace)
    {
        s->qp->TraceConnectWithoutContext("Rate", MakeCallback(&SessionFlow::OnRate, s.get()));
    }
    Simulator::Schedule(UnitParser::FromSeconds(start) - Simulator::Now(),
                        &SessionFlow::Post,
                        s.get());
    m_flows.push_back(s);
    return s;
}

Ptr<PeriodicJob>
SimulationSession::AddPeriodicJob(const SessionPeriodicJob& j)
{
    NS_LOG_FUNCTION(this << j.src << j.dst << j.bytes << j.iterations);
    CheckOpen();
    if (!m_rdma)
    {
        throw std::invalid_argument("call install_rdma() before periodic_job()");
    }
    const uint32_t n = m_topo.hosts.GetN();
    InputLimits::Check(uint64_t(j.src), "src (host index)", {0, n - 1});
    InputLimits::Check(uint64_t(j.dst), "dst (host index)", {0, n - 1});
    if (j.src == j.dst)
    {
        throw std::invalid_argument("src and dst must differ");
    }
    InputLimits::Check(j.bytes, "bytes", InputLimits::MESSAGE_BYTES);
    InputLimits::Check(j.iterations, "iterations", InputLimits::ITERATIONS);
    InputLimits::Check(uint64_t(j.priority), "priority", InputLimits::RDMA_PRIORITY);
    InputLimits::Check(j.aggressiveness, "aggressiveness", InputLimits::AGGRESSIVENESS);
    InputLimits::Check(j.iterGainSlope, "iter_gain_slope", InputLimits::ITER_GAIN_SLOPE);
    InputLimits::Check(j.iterGainIntercept,
                       "iter_gain_intercept",
                       InputLimits::ITER_GAIN_INTERCEPT);
    InputLimits::Check(j.computeCv, "compute_cv", InputLimits::COMPUTE_CV);
    InputLimits::Check(j.minIterationPeriod,
                       "min_iteration_period",
                       InputLimits::MIN_ITERATION_PERIOD_S);
    ObjectFactory cc = m_ccFactory;
    if (m_ccType != "ns3::RdmaFixedRate")
    {
        DcqcnProfile(j.aggressiveness).Configure(cc);
        cc.Set("IterGainSlope", DoubleValue(j.iterGainSlope));
        cc.Set("IterGainIntercept", DoubleValue(j.iterGainIntercept));
    }
    else if (j.aggressiveness != 1.0 || j.iterGainSlope != 0.0 || j.iterGainIntercept != 1.0)
    {
        throw std::invalid_argument(
            "aggressiveness and iteration gain need cc='dcqcn' or 'dcqcn-vendor'");
    }
    const double now = Simulator::Now().GetSeconds();
    if (j.start < now)
    {
        throw std::invalid_argument("start is in the simulated past (now = " + std::to_string(now) +
                                    " s)");
    }
    Ptr<PeriodicJob> job = CreateObject<PeriodicJob>();
    job->SetAttribute("JobName", StringValue("job" + std::to_string(m_jobs.size())));
    job->SetAttribute("JobId", UintegerValue(m_jobs.size()));
    job->SetAttribute("Iterations", UintegerValue(j.iterations));
    job->SetAttribute("ComputeTime", TimeValue(UnitParser::FromSeconds(j.compute)));
    job->SetAttribute("MessageBytes", UintegerValue(j.bytes));
    job->SetAttribute("StartTime", TimeValue(UnitParser::FromSeconds(j.start) - Simulator::Now()));
    job->SetAttribute("MinIterationPeriod",
                      TimeValue(UnitParser::FromSeconds(j.minIterationPeriod)));
    job->SetAttribute("PriorityClass", UintegerValue(j.priority)); // the class of all it sends
    if (j.computeCv > 0.0)
    {
        // one stream per job, so the draws depend on the seed and the job only
        job->SetAttribute("ComputeJitter", PointerValue(PeriodicJob::NormalJitter(j.computeCv)));
        job->AssignStreams(PeriodicJob::JITTER_STREAM_BASE + int64_t(m_jobs.size()));
    }
    job->SetQueuePair(m_nics[j.src]->Connect(m_nics[j.dst], j.priority, &cc));
    job->Start();
    m_jobs.push_back(job);
    return job;
}

void
SimulationSession::Run(std::optional<double> until)
{
    NS_LOG_FUNCTION(this);
    CheckOpen();
    if (!m_ran)
    {
        CheckSections(); // e.g. a scheduler that no traffic entry posts through
    }
    if (until)
    {
        const double now = Simulator::Now().GetSeconds();
        if (*until < now)
        {
            throw std::invalid_argument(
                "until is in the simulated past (now = " + std::to_string(now) + " s)");
        }
        Simulator::Stop(UnitParser::FromSeconds(*until) - Simulator::Now());
    }
    m_ran = true;
    Simulator::Run();
    for (const std::string& w : GetWarnings())
    {
        if (std::find(m_logged.begin(), m_logged.end(), w) == m_logged.end())
        {
            NS_LOG_WARN(w);
            m_logged.push_back(w);
        }
    }
}

std::vector<std::string>
SimulationSession::GetWarnings() const
{
    if (!m_open)
    {
        return m_warnings;
    }
    // The order of summary.json's: the entries', then the timeouts'.
    std::vector<std::string> all = SectionWarnings();
    const std::string rto =
        RdmaTimeoutReport::Count(NodeContainer(m_topo.hosts, m_topo.switches)).Warning();
    if (!rto.empty())
    {
        all.push_back(rto);
    }
    return all;
}

const std::vector<std::shared_ptr<SessionFlow>>&
SimulationSession::GetFlows() const
{
    return m_flows;
}

const std::vector<Ptr<RdmaNic>>&
SimulationSession::GetNics() const
{
    return m_nics;
}

const FabricTopology&
SimulationSession::GetTopology() const
{
    return m_topo;
}

const std::string&
SimulationSession::GetNodeName(uint32_t nodeId) const
{
    return m_names.at(nodeId);
}

uint32_t
SimulationSession::GetNHosts() const
{
    return m_built && m_open ? m_topo.hosts.GetN() : 0;
}

} // namespace ns3
