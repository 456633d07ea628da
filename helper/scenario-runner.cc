/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-runner.h"

#include "flow-backend-helper.h"
#include "scenario-congestion-control.h"

#include "ns3/fabric-switch.h"
#include "ns3/flow-sink.h"
#include "ns3/fluid-network.h"
#include "ns3/host-interconnect-helper.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/port-classes.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-fixed-rate.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rdma-timeout-report.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/stats-writer.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioRunner");

namespace
{
/// Interval of the drain check after the traffic period.
const Time kDrainCheck = MicroSeconds(10);
/// The same at flow level, where events are rare and a check costs more than they do.
const Time kFluidDrainCheck = MicroSeconds(100);
/// Wall-clock time between progress lines (runs shorter than this print none).
const std::chrono::seconds kProgressWall(2);
/// Random stream of the traffic (the switches use 1000 and up, see FabricTopologyHelper).
constexpr int64_t kTrafficStream = 100;
} // namespace

ScenarioRunner::ScenarioRunner(ScenarioConfig cfg)
    : m_cfg(std::move(cfg))
{
}

ScenarioRunner::~ScenarioRunner() = default;

void
ScenarioRunner::SetProgress(bool enable, std::ostream& os)
{
    m_progress = enable;
    m_progressStream = &os;
}

const ScenarioConfig&
ScenarioRunner::GetConfig() const
{
    return m_cfg;
}

const FabricTopology&
ScenarioRunner::Topology() const
{
    return m_topo;
}

const ScenarioConfig&
ScenarioRunner::Config() const
{
    return m_cfg;
}

Time
ScenarioRunner::TrafficEnd() const
{
    return m_cfg.duration;
}

Ptr<UniformRandomVariable>
ScenarioRunner::Random()
{
    return m_rng;
}

Ptr<FlowSink>
ScenarioRunner::Sink(uint32_t host)
{
    Ptr<FlowSink>& sink = m_sinks[host];
    if (!sink)
    {
        sink = CreateObject<FlowSink>();
        m_topo.hosts.Get(host)->AddApplication(sink);
    }
    return sink;
}

uint32_t
ScenarioRunner::NewFlowId()
{
    return m_nextFlowId++;
}

void
ScenarioRunner::AddFlow(FlowCollector collect)
{
    m_collectors.push_back(std::move(collect));
}

void
ScenarioRunner::AddIterations(IterationCollector collect)
{
    m_iterationCollectors.push_back(std::move(collect));
}

void
ScenarioRunner::AddWarning(WarningCollector collect)
{
    m_warningCollectors.push_back(std::move(collect));
}

void
ScenarioRunner::AddActivity(std::function<bool()> busy)
{
    m_activities.push_back(std::move(busy));
}

void
ScenarioRunner::AddCongestionControl(CongestionControlRecord record)
{
    m_cc.push_back(std::move(record));
}

void
ScenarioRunner::AddTrafficClass(TrafficClassRecord record)
{
    m_classes.push_back(std::move(record));
}

void
ScenarioRunner::Build()
{
    const TopologyConfig& t = m_cfg.topology;
    FabricTopologyHelper helper;
    helper.SetHostLinkRate(t.hostLinkRate);
    helper.SetFabricLinkRate(t.fabricLinkRate);
    helper.SetLinkDelay(t.linkDelay);
    for (const auto& kv : m_cfg.fabric.switchAttributes)
    {
        helper.Fabric().SetSwitchAttribute(kv.first, *kv.second);
    }
    for (const auto& kv : m_cfg.fabric.deviceAttributes)
    {
        helper.Fabric().SetDeviceAttribute(kv.first, *kv.second);
    }
    if (t.type == "fat-tree")
    {
        m_topo = helper.BuildFatTree(t.k, t.hostsPerEdge);
    }
    else if (t.type == "leaf-spine")
    {
        m_topo = helper.BuildLeafSpine(t.leaves, t.spines, t.hostsPerLeaf);
    }
    else
    {
        m_topo = helper.BuildDumbbell(t.left, t.right);
    }

    m_names = m_topo.NodeNames();
}

void
ScenarioRunner::BuildFluid()
{
    if (m_cfg.backend == "flow")
    {
        FlowBackendHelper flow;
        std::string granularity = m_cfg.ringGranularity; // "message" -> "Message"
        granularity[0] = char(std::toupper(granularity[0]));
        flow.SetTransportAttribute("RingGranularity", StringValue(granularity));
        m_fluid = flow.Install(m_topo);
        // Line-rate senders (the scenario's "cc": "fixed"): a congested port shared per input
        // port, as the packet switches share it (doc/flow-backend.rst, *Sharing by input port at
        // flow level*), unless the user set FluidNetwork::Sharing's default (Config::SetDefault,
        // --ns3::FluidNetwork::Sharing=...), even to "flow"; a "fluidSharing" section,
        // installed later, sets either mode.
        TypeId::AttributeInformation sharing;
        const bool userSet =
            FluidNetwork::GetTypeId().LookupAttributeByName("Sharing", &sharing) &&
            sharing.initialValue != sharing.originalInitialValue; // (SetDefault: a new value)
        if (!userSet && CongestionControlConfig::ScenarioDefault(m_cfg).Factory().GetTypeId() ==
                            RdmaFixedRate::GetTypeId())
        {
            m_fluid->GetNetwork()->SetSharing("input-port");
        }
    }
}

void
ScenarioRunner::CollectDevices()
{
    m_devices.clear();
    for (auto it = NodeList::Begin(); it != NodeList::End(); ++it)
    {
        for (uint32_t i = 0; i < (*it)->GetNDevices(); ++i)
        {
            if (Ptr<FabricNetDevice> dev = DynamicCast<FabricNetDevice>((*it)->GetDevice(i)))
            {
                m_devices.push_back(dev);
            }
        }
    }
}

uint64_t
ScenarioRunner::BytesInNetwork() const
{
    if (m_fluid)
    {
        // Flow level: a flow still draining counts as one byte (deliveries and completions
        // that follow are the activities' business).
        return m_fluid->GetNetwork()->GetNTransmitting();
    }
    // Frames on the links (sent but not yet received) and packets in the ports' queues.
    uint64_t queued = 0;
    uint64_t txFrames = 0;
    uint64_t rxFrames = 0;
    bool empty = true;
    for (const Ptr<FabricNetDevice>& dev : m_devices)
    {
        txFrames += dev->GetTxFrames();
        rxFrames += dev->GetRxFrames();
        empty = empty && dev->IsEmpty();
        for (uint8_t c = 0; c < FabricNetDevice::kNumClasses; ++c)
        {
            queued += dev->GetQueueBytes(c);
        }
    }
    // A frame on the wire or in propagation is not in a queue: count it as one byte at least.
    return queued + (txFrames - rxFrames) + (empty ? 0 : 1);
}

uint32_t
ScenarioRunner::BusyActivities() const
{
    uint32_t n = 0;
    for (const auto& activity : m_activities)
    {
        n += activity() ? 1 : 0;
    }
    return n;
}

void
ScenarioRunner::CheckDrained()
{
    // Drained when every flow and job is finished by its own transport's state (every posted
    // RDMA message completed, every job's iterations done) and nothing is left in the network.
    const uint32_t busy = BusyActivities();
    const uint64_t inNetwork = BytesInNetwork();
    if (busy == 0 && inNetwork == 0)
    {
        NS_LOG_INFO("traffic drained at " << Simulator::Now().As(Time::US));
        Simulator::Stop();
        return;
    }
    if (Simulator::Now() >= m_cfg.duration + m_cfg.drain)
    {
        std::ostringstream w;
        w << "drain limit reached: the run stopped at " << Simulator::Now().As(Time::US)
          << " (duration + drain) with " << busy << " of " << m_activities.size()
          << " flows/jobs unfinished and " << inNetwork
          << " bytes still in the network; results are cut off (raise \"drain\" to let them "
             "finish)";
        NS_LOG_WARN(w.str());
        m_drained = false;
        m_warnings.push_back(w.str());
        Simulator::Stop();
        return;
    }
    Simulator::Schedule(m_fluid ? kFluidDrainCheck : kDrainCheck,
                        &ScenarioRunner::CheckDrained,
                        this);
}

Time
ScenarioRunner::ProgressInterval() const
{
    return std::max(NanoSeconds(100), m_cfg.duration / 1000);
}

void
ScenarioRunner::ReportProgress()
{
    ++m_progressEvents; // not the model's: left out of the summary's event count
    const auto now = std::chrono::steady_clock::now();
    if (now - m_lastReport >= kProgressWall)
    {
        m_lastReport = now;
        const double t = Simulator::Now().GetSeconds();
        const double d = m_cfg.duration.GetSeconds();
        std::ostream& os = *m_progressStream;
        const auto flags = os.flags();
        os << std::fixed << std::setprecision(3) << "mlnet-run: simulated " << t * 1e3 << " ms";
        if (t <= d)
        {
            os << " of " << d * 1e3 << " ms (" << std::setprecision(0) << 100.0 * t / d << "%)";
        }
        else
        {
            os << " (draining in-flight packets)";
        }
        os << std::setprecision(1) << ", " << Simulator::GetEventCount() / 1e6 << " M events, "
           << std::chrono::duration<double>(now - m_wallStart).count() << " s wall" << std::endl;
        os.flags(flags);
    }
    Simulator::Schedule(ProgressInterval(), &ScenarioRunner::ReportProgress, this);
}

std::vector<FlowStatsRecord>
ScenarioRunner::CollectFlows() const
{
    std::vector<FlowStatsRecord> flows;
    flows.reserve(m_collectors.size());
    for (const FlowCollector& c : m_collectors)
    {
        flows.push_back(c());
    }
    return flows;
}

namespace
{

/// Call fn(switch node, switch, port index) for every switch port, in ports.csv's order.
void
ForEachSwitchPort(const FabricTopology& topo,
                  const std::function<void(Ptr<Node>, Ptr<FabricSwitch>, uint32_t)>& fn)
{
    for (uint32_t s = 0; s < topo.switches.GetN(); ++s)
    {
        Ptr<Node> node = topo.switches.Get(s);
        Ptr<FabricSwitch> sw = node->GetObject<FabricSwitch>();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            fn(node, sw, p);
        }
    }
}

} // namespace

double
ScenarioRunner::FluidIpv4Share() const
{
    if (!m_fluid)
    {
        return 1.0;
    }
    m_fluid->GetNetwork()->Advance();
    // Full packets: Mtu payload + headers of the datagram, + FrameOverhead on the wire.
    Ptr<FluidTransport> t = FlowBackendHelper::GetTransport(m_topo.hosts.Get(0));
    UintegerValue mtu;
    UintegerValue overhead;
    t->GetAttribute("Mtu", mtu);
    t->GetAttribute("FrameOverhead", overhead);
    const double wire = double(t->WireBytes(mtu.Get()));
    return (wire - double(overhead.Get())) / wire;
}

std::vector<PortStatsRecord>
ScenarioRunner::CollectPorts() const
{
    std::vector<PortStatsRecord> ports;
    const double ipv4Share = FluidIpv4Share();
    for (uint32_t s = 0; s < m_topo.switches.GetN(); ++s)
    {
        Ptr<Node> node = m_topo.switches.Get(s);
        Ptr<FabricSwitch> sw = node->GetObject<FabricSwitch>();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            const SwitchPortStats& st = sw->GetPortStats(p);
            Ptr<FabricNetDevice> dev = sw->GetPort(p);
            // The far end of the link, seen through in-line devices (aggregation bumps).
            Ptr<FabricNetDevice> peer = FabricHelper::GetFarPeer(dev);
            PortStatsRecord r;
            r.node = m_names.at(node->GetId());
            r.port = p;
            r.peer = peer ? m_names.at(peer->GetNode()->GetId()) : "";
            r.rateBps = static_cast<double>(dev->GetDataRate().GetBitRate());
            r.txPackets = st.txPackets;
            r.txBytes = st.txBytes;
            r.drops = st.drops;
            r.dropBytes = st.dropBytes;
            r.ecnMarks = st.ecnMarks;
            r.pfcPauses = st.pauseSent;
            r.pfcResumes = st.resumeSent;
            r.maxQueueBytes = st.maxQueueBytes;
            if (m_fluid)
            {
                r.flowLevel = true;
                const int64_t link = m_fluid->GetLink(dev);
                r.txBytes =
                    link < 0
                        ? 0
                        : uint64_t(std::llround(
                              m_fluid->GetNetwork()->GetLinkBytes(uint32_t(link)) * ipv4Share));
            }
            ports.push_back(r);
        }
    }
    return ports;
}

std::vector<PortClassRecord>
ScenarioRunner::CollectPortClasses() const
{
    std::vector<PortClassRecord> records;
    const double ipv4Share = FluidIpv4Share();
    ForEachSwitchPort(m_topo, [&](Ptr<Node> node, Ptr<FabricSwitch> sw, uint32_t p) {
        if (m_fluid)
        {
            // the classes whose fluid flows crossed the port's link
            const int64_t link = m_fluid->GetLink(sw->GetPort(p));
            for (uint8_t c = 0; link >= 0 && c < FabricNetDevice::kNumClasses; ++c)
            {
                const uint64_t bytes = uint64_t(std::llround(
                    m_fluid->GetNetwork()->GetLinkClassBytes(uint32_t(link), c) * ipv4Share));
                if (bytes > 0)
                {
                    PortClassRecord r;
                    r.node = m_names.at(node->GetId());
                    r.port = p;
                    r.cls = c;
                    r.txBytes = bytes;
                    r.flowLevel = true;
                    records.push_back(r);
                }
            }
            return;
        }
        // the classes that sent a packet or a PFC pause
        for (uint8_t c = 0; c < FabricNetDevice::kNumClasses; ++c)
        {
            const SwitchClassStats st = sw->GetClassStats(p, c);
            if (st.txPackets > 0 || st.pauseSent > 0)
            {
                records.push_back(PortClassRecord{m_names.at(node->GetId()),
                                                  p,
                                                  c,
                                                  st.txPackets,
                                                  st.txBytes,
                                                  st.pauseSent,
                                                  st.maxQueueBytes});
            }
        }
    });
    return records;
}

std::vector<HostStatsRecord>
ScenarioRunner::CollectHosts(double seconds) const
{
    std::vector<HostStatsRecord> hosts;
    for (uint32_t h = 0; h < m_topo.hosts.GetN(); ++h)
    {
        Ptr<Node> node = m_topo.hosts.Get(h);
        Ptr<HostInterconnect> hi = HostInterconnectHelper::Get(node);
        if (!hi)
        {
            continue;
        }
        HostStatsRecord r;
        r.host = h;
        r.name = m_names.at(node->GetId());
        r.stats = hi->GetStats();
        r.bufferedBytes = hi->GetBufferBytes();
        r.simulatedSeconds = seconds;
        r.memoryAppDemand = hi->GetMemoryAppDemand();
        if (Ptr<FluidHost> fh = node->GetObject<FluidHost>())
        {
            // flow level: the fluid links' bytes and the operating point (FluidHost)
            m_fluid->GetNetwork()->Advance();
            r.flowLevel = true;
            r.stats.dmaPayloadBytes = uint64_t(std::llround(fh->GetReceivedPayloadBytes()));
            r.stats.txPayloadBytes = uint64_t(std::llround(fh->GetTransmittedPayloadBytes()));
            const HostPathTiming::Operating op = hi->GetOperatingPoint();
            r.appLoadBps = hi->GetAppLoad();
            r.writeRateBps = op.writeRate;
            r.memoryUtilization = op.memUtil;
        }
        else if (hi->IsActive())
        {
            const HostPathTiming::Operating op = hi->GetOperatingPoint();
            r.appLoadBps = hi->GetAppLoad();
            r.writeRateBps = op.writeRate;
            r.memoryUtilization = op.memUtil;
        }
        hosts.push_back(r);
    }
    return hosts;
}

ScenarioResult
ScenarioRunner::Run()
{
    NS_LOG_FUNCTION(m_cfg.name);
    RngSeedManager::SetRun(m_cfg.seed);
    m_names.clear();
    m_sinks.clear();
    m_collectors.clear();
    m_nextFlowId = 0;
    m_cc.clear();
    m_classes.clear();
    m_rng = CreateObject<UniformRandomVariable>();
    m_rng->SetStream(kTrafficStream);

    Build();
    // A problem only the built network shows (an aggregation point too small for a job): one
    // "scenario: <entry>: ..." line, and the simulator left clean for the next run.
    auto install = [this](const TrafficSpec& spec, const std::string& entry) {
        try
        {
            spec.Install(*this);
        }
        catch (const std::invalid_argument& e)
        {
            Reset();
            const std::string what = e.what();
            throw std::invalid_argument(
                what.rfind("scenario: ", 0) == 0 ? what : "scenario: " + entry + ": " + what);
        }
    };
    // The sections that change the network first (aggregation devices), then the flow
    // backend's fabric over the whole network, then the other sections and the traffic.
    for (bool changes : {true, false})
    {
        for (size_t i = 0; i < m_cfg.sections.size(); ++i)
        {
            if (m_cfg.sections[i]->ChangesTopology() == changes)
            {
                install(*m_cfg.sections[i], m_cfg.sectionKeys.at(i));
            }
        }
        if (changes)
        {
            BuildFluid();
        }
    }
    for (size_t i = 0; i < m_cfg.traffic.size(); ++i)
    {
        install(*m_cfg.traffic[i], "traffic[" + std::to_string(i) + "]");
    }
    CollectDevices();
    m_drained = true;
    m_warnings.clear();

    Simulator::Schedule(m_cfg.duration, &ScenarioRunner::CheckDrained, this);
    Simulator::Stop(m_cfg.duration + m_cfg.drain + (m_fluid ? kFluidDrainCheck : kDrainCheck));
    const uint64_t events0 = Simulator::GetEventCount();
    m_progressEvents = 0;
    m_wallStart = std::chrono::steady_clock::now();
    m_lastReport = m_wallStart;
    if (m_progress)
    {
        Simulator::Schedule(ProgressInterval(), &ScenarioRunner::ReportProgress, this);
    }
    Simulator::Run();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_wallStart).count();

    ScenarioResult r;
    r.flows = CollectFlows();
    r.ports = CollectPorts();
    r.portClasses = CollectPortClasses();
    r.hosts = CollectHosts(Simulator::Now().GetSeconds());
    for (const auto& collect : m_iterationCollectors)
    {
        std::vector<IterationRecord> it = collect();
        r.iterations.insert(r.iterations.end(), it.begin(), it.end());
    }
    RunSummary& s = r.summary;
    s.Aggregate(r.flows, r.ports);
    s.scenario = m_cfg.name;
    s.topology = m_cfg.topology.Describe();
    s.hosts = m_topo.hosts.GetN();
    s.switches = m_topo.switches.GetN();
    s.links = m_topo.links;
    s.seed = m_cfg.seed;
    s.backend = m_cfg.backend;
    s.simulatedSeconds = Simulator::Now().GetSeconds();
    s.trafficSeconds = m_cfg.duration.GetSeconds();
    s.wallSeconds = wall;
    s.events = Simulator::GetEventCount() - events0 - m_progressEvents; // same with --quiet
    for (const Ptr<FabricNetDevice>& dev : m_devices)
    {
        s.packetHops += dev->GetTxPackets();
    }
    s.drained = m_drained;
    s.warnings = m_warnings;
    for (const auto& collect : m_warningCollectors)
    {
        const std::string w = collect();
        if (!w.empty())
        {
            NS_LOG_WARN(w);
            s.warnings.push_back(w);
        }
    }
    // the switches' drops are s.bytesDropped
    const std::string rto =
        RdmaTimeoutReport::Count(NodeContainer(m_topo.hosts, m_topo.switches)).Warning();
    if (!rto.empty())
    {
        NS_LOG_WARN(rto);
        s.warnings.push_back(rto);
    }
    const std::string acks = m_fluid ? m_fluid->GetNetwork()->GetUnconvergedWarning() : "";
    if (!acks.empty())
    {
        NS_LOG_WARN(acks);
        s.warnings.push_back(acks);
    }
    s.congestionControl = m_cc;
    s.dataClasses = PortClasses::DataClassesInUse(r.portClasses);
    s.trafficClasses = m_classes;
    const std::string split = PortClasses::SplitWarning(s.dataClasses, m_classes);
    if (!split.empty())
    {
        NS_LOG_WARN(split);
        s.warnings.push_back(split);
    }

    Reset();
    return r;
}

void
ScenarioRunner::Reset()
{
    m_collectors.clear();
    m_iterationCollectors.clear();
    m_warningCollectors.clear();
    m_activities.clear();
    m_devices.clear();
    m_sinks.clear();
    m_fluid = nullptr;
    m_rng = nullptr;
    m_topo = FabricTopology();
    Simulator::Destroy();
}

void
ScenarioRunner::PrepareOutputDir(const std::string& dir)
{
    namespace fs = std::filesystem;
    if (dir.empty())
    {
        throw std::invalid_argument("output directory: must be a non-empty path");
    }
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
    {
        throw std::invalid_argument("cannot create output directory '" + dir +
                                    "': " + ec.message());
    }
    if (!fs::is_directory(dir, ec))
    {
        throw std::invalid_argument("output directory '" + dir + "' is not a directory");
    }
    // Writable? Create (and remove) a probe file: permissions alone miss read-only mounts.
    const fs::path probe = fs::path(dir) / ".mlnet-write-test";
    {
        std::ofstream os(probe);
        if (!os || !(os << "x") || !os.flush())
        {
            throw std::invalid_argument("cannot write in output directory '" + dir +
                                        "': " + std::strerror(errno));
        }
    }
    fs::remove(probe, ec);
}

std::vector<std::string>
ScenarioRunner::WriteResults(const ScenarioResult& r,
                             const ScenarioConfig& cfg,
                             const std::string& dir)
{
    try
    {
        PrepareOutputDir(dir);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::runtime_error(e.what());
    }
    std::vector<std::string> written;
    auto write = [&](const std::string& file, const std::function<void(std::ostream&)>& fn) {
        const std::string path = (std::filesystem::path(dir) / file).string();
        std::ofstream os(path);
        if (os)
        {
            fn(os);
        }
        if (!os)
        {
            throw std::runtime_error("cannot write '" + path + "'");
        }
        written.push_back(path);
    };
    write("summary.json",
          [&](std::ostream& os) { StatsWriter::WriteSummaryJson(os, r.summary, cfg.json); });
    if (cfg.output.flows)
    {
        write("flows.csv", [&](std::ostream& os) { StatsWriter::WriteFlowsCsv(os, r.flows); });
    }
    if (cfg.output.ports)
    {
        write("ports.csv", [&](std::ostream& os) { StatsWriter::WritePortsCsv(os, r.ports); });
        write("port-classes.csv",
              [&](std::ostream& os) { PortClasses::WriteCsv(os, r.portClasses); });
    }
    if (!r.iterations.empty())
    {
        write("iterations.csv",
              [&](std::ostream& os) { StatsWriter::WriteIterationsCsv(os, r.iterations); });
    }
    if (!r.hosts.empty())
    {
        write("hosts.csv", [&](std::ostream& os) { StatsWriter::WriteHostsCsv(os, r.hosts); });
    }
    return written;
}

} // namespace ns3
