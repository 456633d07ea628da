/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_SCENARIO_RUNNER_H
#define MLNET_SCENARIO_RUNNER_H

#include "fabric-topology-helper.h"
#include "scenario-traffic.h"
#include "scenario.h"

#include "ns3/flow-stats-record.h"
#include "ns3/host-stats-record.h"
#include "ns3/port-class-record.h"
#include "ns3/port-stats-record.h"
#include "ns3/run-summary.h"

#include <chrono>
#include <iostream>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class FluidFabric;

/**
 * \ingroup mlnet
 * \brief Everything a scenario run produced.
 */
struct ScenarioResult
{
    RunSummary summary;                 //!< totals and run figures
    std::vector<FlowStatsRecord> flows; //!< one record per flow, by id
    std::vector<PortStatsRecord> ports; //!< one record per switch port
    /// one record per (switch port, class) that sent a packet or a PFC pause
    std::vector<PortClassRecord> portClasses;
    std::vector<IterationRecord> iterations; //!< training-job iterations, by job then index
    /// one record per host with a HostInterconnect (the "host" section), by host index
    std::vector<HostStatsRecord> hosts;
};

/**
 * \ingroup mlnet
 * \brief Runs a validated scenario: builds the topology with FabricTopologyHelper, applies the
 * fabric attributes, installs every traffic entry, runs the simulation and collects records.
 *
 * Sources stop at the scenario's duration; the simulation then continues (checked every 10 us)
 * until every flow and job is finished by its own transport's state (every posted RDMA message
 * completed, every job's iterations done; see TrafficContext::AddActivity) and the network is
 * empty (no frame queued in any port or on any link), or for at most the scenario's drain time:
 * then the summary says drained = false and carries a warning.
 *
 * \code
 * ScenarioRunner runner(Scenario::Load("scenario.json"));
 * runner.SetProgress(true);
 * ScenarioResult r = runner.Run();
 * ScenarioRunner::WriteResults(r, runner.GetConfig(), "out");
 * \endcode
 */
class ScenarioRunner : private TrafficContext
{
  public:
    /// \param cfg the scenario
    explicit ScenarioRunner(ScenarioConfig cfg);
    ~ScenarioRunner() override;

    /**
     * Print a progress line (simulated time, share of the duration, events, wall time) every
     * 2 s of wall-clock time while running: runs shorter than that print nothing.
     * \param enable on or off (default off) \param os the stream (default std::cerr)
     */
    void SetProgress(bool enable, std::ostream& os = std::cerr);
    /// \return the scenario
    const ScenarioConfig& GetConfig() const;

    /**
     * Build, run, collect; ends with Simulator::Destroy(), so several runs may follow each
     * other in one process. Sets RngRun to the scenario's seed.
     * \return the records
     */
    ScenarioResult Run();

    /**
     * Write summary.json and (as the scenario's output section asks) flows.csv, ports.csv and
     * port-classes.csv (with ports.csv);
     * iterations.csv when the run had training jobs, hosts.csv when it had host interconnects
     * (a "host" section).
     * \param r the result \param cfg its scenario \param dir output directory (created)
     * \return the paths written
     * \throw std::runtime_error if a file cannot be written
     */
    static std::vector<std::string> WriteResults(const ScenarioResult& r,
                                                 const ScenarioConfig& cfg,
                                                 const std::string& dir);

    /**
     * Create the output directory if needed and check that files can be written in it, so a
     * program can refuse a bad --out before running rather than lose the results after.
     * \param dir output directory
     * \throw std::invalid_argument naming the directory and the reason
     */
    static void PrepareOutputDir(const std::string& dir);

  private:
    // TrafficContext
    const FabricTopology& Topology() const override;
    const ScenarioConfig& Config() const override;
    Time TrafficEnd() const override;
    Ptr<UniformRandomVariable> Random() override;
    Ptr<FlowSink> Sink(uint32_t host) override;
    uint32_t NewFlowId() override;
    void AddFlow(FlowCollector collect) override;
    void AddIterations(IterationCollector collect) override;
    void AddWarning(WarningCollector collect) override;
    void AddActivity(std::function<bool()> busy) override;
    void AddCongestionControl(CongestionControlRecord record) override;
    void AddTrafficClass(TrafficClassRecord record) override;

    void Build();
    /// With "backend": "flow": the FluidFabric and transports over the network as the
    /// topology-changing sections left it.
    void BuildFluid();
    /// Drop the run's state and destroy the simulation (after a run, or a failed install).
    void Reset();
    void CheckDrained();
    void CollectDevices();
    /// \return bytes queued in ports plus one per frame on a link (0 = network empty)
    uint64_t BytesInNetwork() const;
    /// \return number of registered activities that are still busy
    uint32_t BusyActivities() const;
    Time ProgressInterval() const;
    void ReportProgress();
    std::vector<FlowStatsRecord> CollectFlows() const;
    std::vector<PortStatsRecord> CollectPorts() const;
    /// Flow level: brings the fluid links' counters up to now. \return the IPv4 datagrams'
    /// share of a fluid link's (wire) bytes (1 at packet level)
    double FluidIpv4Share() const;
    std::vector<PortClassRecord> CollectPortClasses() const;
    /// \param seconds simulated time of the run \return the hosts' interconnect records
    std::vector<HostStatsRecord> CollectHosts(double seconds) const;

    ScenarioConfig m_cfg;
    FabricTopology m_topo;
    std::map<uint32_t, std::string> m_names; //!< node id -> "host3", "edge1", ...
    std::map<uint32_t, Ptr<FlowSink>> m_sinks;
    std::vector<FlowCollector> m_collectors;
    std::vector<IterationCollector> m_iterationCollectors;
    std::vector<WarningCollector> m_warningCollectors; //!< the entries' warnings after the run
    std::vector<std::function<bool()>> m_activities;
    std::vector<Ptr<FabricNetDevice>> m_devices; //!< every fabric port of the run
    Ptr<FluidFabric> m_fluid; //!< the flow backend's fabric ("backend": "flow"), else null
    bool m_drained{true};
    std::vector<CongestionControlRecord> m_cc; //!< reported by the traffic entries
    std::vector<TrafficClassRecord> m_classes; //!< reported by the traffic entries
    std::vector<std::string> m_warnings;
    Ptr<UniformRandomVariable> m_rng;
    uint32_t m_nextFlowId{0};
    bool m_progress{false};
    uint64_t m_progressEvents{0}; //!< progress events executed (not counted in the summary)
    std::chrono::steady_clock::time_point m_wallStart;
    std::chrono::steady_clock::time_point m_lastReport;
    std::ostream* m_progressStream{nullptr};
};

} // namespace ns3

#endif /* MLNET_SCENARIO_RUNNER_H */
