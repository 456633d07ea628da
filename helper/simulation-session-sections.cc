/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// SimulationSession::AddSection and AddTraffic: the JSON scenario format's sections ("host",
// "aggregation", "scheduler", ...) and traffic entries in a session, read by the parsers their
// parts registered (ScenarioSectionRegistry, TrafficRegistry) and installed through the same
// TrafficContext interface as ScenarioRunner, so every value is validated in one place.

#include "scenario-extension.h"
#include "scenario-traffic.h"
#include "simulation-session.h"

#include "ns3/flow-sink.h"
#include "ns3/log.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SimulationSessionSections");

namespace
{
/// The random stream of the traffic entries (ScenarioRunner's kTrafficStream: the same draws).
constexpr int64_t kTrafficStream = 100;
/// The traffic period of a session's entries: the longest a scenario may have (its sources
/// stop then; Run(until) stops earlier).
const Time kSessionDuration = Seconds(1000);

/// \param j a JSON value built in C++ \return it with its non-negative integers unsigned, as
/// the JSON parser reads them from a file (C++'s int literals are signed; the scenario's
/// integer getters take unsigned values)
nlohmann::json
AsParsed(const nlohmann::json& j)
{
    if (j.is_number_integer() && !j.is_number_unsigned() && j.get<int64_t>() >= 0)
    {
        return j.get<uint64_t>();
    }
    if (j.is_structured())
    {
        nlohmann::json out = j;
        for (auto& v : out)
        {
            v = AsParsed(v);
        }
        return out;
    }
    return j;
}
} // namespace

/// The run a session's sections and traffic entries install into: the session's topology, a
/// ScenarioConfig that describes it, and the records the entries register.
class SimulationSession::Sections : public TrafficContext
{
  public:
    Sections(const FabricTopology& topo, const SessionFabric& fabric)
        : m_topo(topo)
    {
        TopologyConfig& t = m_cfg.topology;
        if (fabric.kind == "fat_tree")
        {
            t.type = "fat-tree";
            t.k = static_cast<uint32_t>(fabric.dims.at(0));
            t.hostsPerEdge = static_cast<uint32_t>(fabric.dims.at(1));
        }
        else if (fabric.kind == "leaf_spine")
        {
            t.type = "leaf-spine";
            t.leaves = static_cast<uint32_t>(fabric.dims.at(0));
            t.spines = static_cast<uint32_t>(fabric.dims.at(1));
            t.hostsPerLeaf = static_cast<uint32_t>(fabric.dims.at(2));
        }
        else
        {
            t.type = "dumbbell";
            t.left = static_cast<uint32_t>(fabric.dims.at(0));
            t.right = static_cast<uint32_t>(fabric.dims.at(1));
        }
        t.hostLinkRate = DataRate(static_cast<uint64_t>(fabric.hostRate));
        t.fabricLinkRate = DataRate(static_cast<uint64_t>(fabric.fabricRate));
        t.linkDelay = Seconds(fabric.delay);
        m_cfg.name = "session";
        m_cfg.duration = kSessionDuration;
        m_rng = CreateObject<UniformRandomVariable>();
        m_rng->SetStream(kTrafficStream);
    }

    /// \param key a section's key \param value its value
    void AddSection(const std::string& key, const nlohmann::json& value)
    {
        if (ScenarioSectionRegistry::Find(key) == nullptr)
        {
            // the scenario's message for an unknown key, listing the sections
            const nlohmann::json root = {{key, value}};
            ScenarioObject top(root, "");
            for (const std::string& k : ScenarioSectionRegistry::Keys())
            {
                top.Raw(k);
            }
            top.Finish();
        }
        if (std::find(m_cfg.sectionKeys.begin(), m_cfg.sectionKeys.end(), key) !=
            m_cfg.sectionKeys.end())
        {
            throw std::invalid_argument("section '" + key + "': already applied (once per key)");
        }
        std::shared_ptr<const TrafficSpec> spec =
            ScenarioSectionRegistry::Parse(key, AsParsed(value), m_cfg);
        Install(*spec, key);
        m_cfg.sections.push_back(spec);
        m_cfg.sectionKeys.push_back(key);
    }

    /// \param value a traffic entry \return its index
    uint32_t AddTraffic(const nlohmann::json& value)
    {
        const uint32_t index = static_cast<uint32_t>(m_cfg.traffic.size());
        const std::string path = "traffic[" + std::to_string(index) + "]";
        const nlohmann::json parsed = AsParsed(value);
        ScenarioObject entry(parsed, path);
        std::shared_ptr<const TrafficSpec> spec = TrafficRegistry::Parse(entry, m_cfg);
        Install(*spec, path);
        m_cfg.traffic.push_back(spec);
        return index;
    }

    /// The sections' checks against the traffic (as Scenario::Parse makes them).
    void CheckTraffic() const
    {
        for (const auto& section : m_cfg.sections)
        {
            section->CheckTraffic(m_cfg);
        }
    }

    /// \return the training jobs' iteration records, by entry then iteration
    std::vector<IterationRecord> Iterations() const
    {
        std::vector<IterationRecord> all;
        for (const auto& collect : m_iterationCollectors)
        {
            std::vector<IterationRecord> it = collect();
            all.insert(all.end(), it.begin(), it.end());
        }
        return all;
    }

    /// \return the traffic entries' warnings (the non-empty ones), in registration order
    std::vector<std::string> Warnings() const
    {
        std::vector<std::string> all;
        for (const auto& collect : m_warningCollectors)
        {
            std::string w = collect();
            if (!w.empty())
            {
                all.push_back(std::move(w));
            }
        }
        return all;
    }

    /// \return true if a traffic entry was added
    bool HasTraffic() const
    {
        return !m_cfg.traffic.empty();
    }

    // TrafficContext
    const FabricTopology& Topology() const override
    {
        return m_topo;
    }

    const ScenarioConfig& Config() const override
    {
        return m_cfg;
    }

    Time TrafficEnd() const override
    {
        return m_cfg.duration;
    }

    Ptr<UniformRandomVariable> Random() override
    {
        return m_rng;
    }

    Ptr<FlowSink> Sink(uint32_t host) override
    {
        Ptr<FlowSink>& sink = m_sinks[host];
        if (!sink)
        {
            sink = CreateObject<FlowSink>();
            m_topo.hosts.Get(host)->AddApplication(sink);
        }
        return sink;
    }

    uint32_t NewFlowId() override
    {
        return m_nextFlowId++;
    }

    void AddFlow(FlowCollector collect) override
    {
        m_flowCollectors.push_back(std::move(collect));
    }

    void AddIterations(IterationCollector collect) override
    {
        m_iterationCollectors.push_back(std::move(collect));
    }

    void AddWarning(WarningCollector collect) override
    {
        m_warningCollectors.push_back(std::move(collect)); // SimulationSession::GetWarnings
    }

    void AddActivity(std::function<bool()> /* busy */) override
    {
        // Run() runs until no event is left (or until its time): nothing waits on activities.
    }

    void AddCongestionControl(CongestionControlRecord /* record */) override
    {
        // summary.json's records: a session writes no summary
    }

    void AddTrafficClass(TrafficClassRecord /* record */) override
    {
        // summary.json's records: a session writes no summary
    }

  private:
    /// Install a validated section or entry; its errors name it as in a scenario.
    void Install(const TrafficSpec& spec, const std::string& where)
    {
        try
        {
            spec.Install(*this);
        }
        catch (const std::invalid_argument& e)
        {
            const std::string what = e.what();
            throw std::invalid_argument(
                what.rfind("scenario: ", 0) == 0 ? what : "scenario: " + where + ": " + what);
        }
    }

    const FabricTopology& m_topo;
    ScenarioConfig m_cfg;
    Ptr<UniformRandomVariable> m_rng;
    std::map<uint32_t, Ptr<FlowSink>> m_sinks;
    std::vector<FlowCollector> m_flowCollectors;
    std::vector<IterationCollector> m_iterationCollectors;
    std::vector<WarningCollector> m_warningCollectors;
    uint32_t m_nextFlowId{0};
};

SimulationSession::Sections&
SimulationSession::GetSections()
{
    if (!m_sections)
    {
        m_sections = std::make_shared<Sections>(m_topo, m_fabric);
    }
    return *m_sections;
}

void
SimulationSession::CheckBeforeRun(const std::string& what) const
{
    CheckOpen();
    if (!m_rdma)
    {
        throw std::invalid_argument("call install_rdma() before " + what);
    }
    if (m_ran)
    {
        throw std::invalid_argument(what + " must come before the first run()");
    }
}

void
SimulationSession::AddSection(const std::string& key, const nlohmann::json& section)
{
    NS_LOG_FUNCTION(this << key);
    CheckBeforeRun("section '" + key + "'");
    if (!m_flows.empty() || !m_jobs.empty() || (m_sections && m_sections->HasTraffic()))
    {
        throw std::invalid_argument("section '" + key +
                                    "' must come before the first flow, job or traffic entry "
                                    "(it changes the network they use)");
    }
    GetSections().AddSection(key, section);
}

uint32_t
SimulationSession::AddTraffic(const nlohmann::json& entry)
{
    NS_LOG_FUNCTION(this);
    CheckBeforeRun("a traffic entry");
    return GetSections().AddTraffic(entry);
}

std::vector<IterationRecord>
SimulationSession::GetIterations() const
{
    if (m_open && m_sections)
    {
        return m_sections->Iterations();
    }
    return m_iterations;
}

void
SimulationSession::CheckSections() const
{
    if (m_sections)
    {
        m_sections->CheckTraffic();
    }
}

std::vector<std::string>
SimulationSession::SectionWarnings() const
{
    return m_sections ? m_sections->Warnings() : std::vector<std::string>();
}

void
SimulationSession::SnapshotSections()
{
    if (m_sections)
    {
        m_iterations = m_sections->Iterations();
        m_sections = nullptr;
    }
}

} // namespace ns3
