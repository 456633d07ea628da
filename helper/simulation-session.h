/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_SIMULATION_SESSION_H
#define MLNET_SIMULATION_SESSION_H

#include "fabric-topology-helper.h"
#include "input-limits.h"

#include "ns3/attribute.h"
#include "ns3/data-class.h"
#include "ns3/job-records.h"
#include "ns3/object-factory.h"
#include "ns3/periodic-job.h"
#include "ns3/ptr.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief One RDMA flow of a SimulationSession: one message on its own queue pair, filled by the
 * queue pair's callbacks; a snapshot of its counters is kept when the session closes.
 */
struct SessionFlow
{
    uint32_t id{0};                                   //!< index in the session's flows
    uint32_t src{0};                                  //!< sending host index
    uint32_t dst{0};                                  //!< receiving host index
    uint64_t bytes{0};                                //!< message size (bytes)
    double start{0};                                  //!< posting time (s)
    uint8_t priority{DataClass::DEFAULT};             //!< priority class
    double aggressiveness{1.0};                       //!< DcqcnProfile aggressiveness
    bool trace{false};                                //!< the rate is traced
    bool posted{false};                               //!< the message was posted
    bool done{false};                                 //!< the message was acknowledged completely
    double finish{-1};                                //!< completion time (s), -1 if not done
    std::vector<std::pair<double, double>> rateTrace; //!< (time s, rate bit/s)
    Ptr<RdmaQueuePair> qp;                            //!< the queue pair (null once closed)
    // snapshot taken when the session is closed
    uint64_t bytesAcked{0}; //!< payload bytes acknowledged
    uint64_t bytesSent{0};  //!< payload bytes sent (retransmissions included)
    uint64_t retx{0};       //!< retransmitted packets
    uint64_t timeouts{0};   //!< retransmission timeouts
    uint64_t cnps{0};       //!< CNPs received
    double rate{0};         //!< sending rate (bit/s)

    void Post();                         //!< post the message on the queue pair
    void OnComplete(uint64_t, uint64_t); //!< the message was acknowledged
    void OnRate(double r);               //!< \param r the new rate (bit/s)
    void Snapshot();                     //!< keep the counters, release the queue pair
    uint64_t GetBytesAcked() const;      //!< \return live or snapshot value
    uint64_t GetBytesSent() const;       //!< \return live or snapshot value
    double GetRate() const;              //!< \return live or snapshot value (bit/s)
    uint64_t GetCnps() const;            //!< \return live or snapshot value
    uint64_t GetRetransmissions() const; //!< \return live or snapshot value
    uint64_t GetTimeouts() const;        //!< \return live or snapshot value
};

/**
 * \ingroup mlnet
 * \brief Summary of a session's topology.
 */
struct SessionTopologyInfo
{
    std::string kind;                   //!< "fat_tree", "leaf_spine" or "dumbbell"
    uint32_t hosts{0};                  //!< number of hosts
    uint32_t switches{0};               //!< number of switches
    uint32_t links{0};                  //!< number of links
    std::vector<std::string> addresses; //!< the hosts' IPv4 addresses, by host index
};

/**
 * \ingroup mlnet
 * \brief The fabric of a session (SimulationSession::Build): the kind, its dimensions and the
 * link and switch settings; an unset optional keeps FabricSwitch's attribute default.
 */
struct SessionFabric
{
    std::string kind{"fat_tree"};          //!< "fat_tree", "leaf_spine" or "dumbbell"
    std::vector<uint64_t> dims;            //!< fat_tree: k, hosts per edge; leaf_spine: leaves,
                                           //!< spines, hosts per leaf; dumbbell: left, right hosts
    double hostRate{100e9};                //!< host link rate (bit/s)
    double fabricRate{100e9};              //!< switch-to-switch link rate (bit/s)
    double delay{1e-6};                    //!< link propagation delay (s)
    bool pfc{true};                        //!< FabricSwitch::PfcEnabled
    bool ecn{true};                        //!< FabricSwitch::EcnEnabled
    std::optional<uint64_t> buffer;        //!< FabricSwitch::BufferSize (bytes)
    std::optional<uint64_t> ecnKmin;       //!< FabricSwitch::EcnKmin (bytes)
    std::optional<uint64_t> ecnKmax;       //!< FabricSwitch::EcnKmax (bytes)
    std::optional<double> ecnPmax;         //!< FabricSwitch::EcnPmax
    std::optional<std::string> ecnMarking; //!< "dequeue" or "enqueue"
};

/**
 * \ingroup mlnet
 * \brief A periodic job of a session (SimulationSession::AddPeriodicJob): compute, then send a
 * message to one peer, repeat.
 */
struct SessionPeriodicJob
{
    uint32_t src{0};                      //!< sending host index
    uint32_t dst{1};                      //!< receiving host index
    double compute{0};                    //!< compute time per iteration (s)
    uint64_t bytes{0};                    //!< message bytes per iteration
    uint64_t iterations{1};               //!< iterations
    double start{0};                      //!< start time (s), not in the past
    uint8_t priority{DataClass::DEFAULT}; //!< priority class
    double aggressiveness{1.0};           //!< DcqcnProfile aggressiveness
    double iterGainSlope{0.0};            //!< Dcqcn IterGainSlope
    double iterGainIntercept{1.0};        //!< Dcqcn IterGainIntercept
    double computeCv{0.0};                //!< coefficient of variation of the compute time
    double minIterationPeriod{0};         //!< PeriodicJob::MinIterationPeriod (s)
};

/**
 * \ingroup mlnet
 * \brief One simulation driven step by step from a program: build a fabric, install RDMA NICs,
 * add flows and periodic jobs, run, read the statistics, close. This is what Python's
 * mlnet.Simulation binds (bindings/python/py-simulation.cc and py-session-sections.cc convert
 * the Python values and call it); C++ programs can use it the same way.
 *
 * ns-3 has one global simulator, so one session may be open at a time: the constructor starts
 * from a clean simulator (Simulator::Destroy) with mlnet's event engine unless one was chosen
 * (EventSchedulerHelper::UseDefaults) and seeds the run; Close() (or the destructor) destroys
 * it. Every configuration error throws std::invalid_argument naming the parameter and the
 * accepted range; the ranges are those of InputLimits and of the attributes' checkers.
 */
class SimulationSession
{
  public:
    /// \param seed ns-3's run number (RngRun), in InputLimits::SEED
    explicit SimulationSession(uint64_t seed = 1);
    ~SimulationSession();
    SimulationSession(const SimulationSession&) = delete;
    SimulationSession& operator=(const SimulationSession&) = delete;

    /// Snapshot the flows' counters and destroy the simulator (idempotent).
    void Close();
    bool IsOpen() const;   //!< \return true until Close()
    uint64_t Seed() const; //!< \return the seed
    double Now() const;    //!< \return simulated time (s); the time of Close() once closed

    /// \param fabric the fabric to build (once) \return its summary
    SessionTopologyInfo Build(const SessionFabric& fabric);
    /// \return the topology's summary (empty before Build)
    SessionTopologyInfo Info() const;

    /**
     * The ns-3 attribute and value type behind a congestion-control parameter.
     * \param ccTypeId the congestion control's TypeId name (RdmaCcCatalog::TypeIdOf)
     * \param key an RdmaCcCatalog keyword (snake_case) or the attribute's name
     * \return (attribute name, value type name with the ns3:: prefix, e.g. "ns3::TimeValue")
     */
    static std::pair<std::string, std::string> CcParameter(const std::string& ccTypeId,
                                                           const std::string& key);

    /**
     * Install RDMA NICs with a congestion control on every host (once, after Build).
     * \param ccTypeId the congestion control's TypeId name (RdmaCcCatalog::TypeIdOf)
     * \param mtu the NICs' MTU (bytes, 64..4096), unset: the default
     * \param params (attribute name, value) of the congestion control, checked by its checkers
     */
    void InstallRdma(const std::string& ccTypeId,
                     std::optional<uint64_t> mtu,
                     const std::vector<std::pair<std::string, Ptr<AttributeValue>>>& params);

    /**
     * Post one message on a new queue pair at time start.
     * \param src sending host \param dst receiving host \param bytes message size
     * \param start posting time (s), not in the past \param priority class
     * \param aggressiveness DcqcnProfile aggressiveness (1: the profile's default)
     * \param trace record the rate at every change \return the flow
     */
    std::shared_ptr<SessionFlow> AddRdmaFlow(uint32_t src,
                                             uint32_t dst,
                                             uint64_t bytes,
                                             double start,
                                             uint8_t priority,
                                             double aggressiveness,
                                             bool trace);

    /// \param job the job \return the started job (named job<i>, JobId i)
    Ptr<PeriodicJob> AddPeriodicJob(const SessionPeriodicJob& job);

    /**
     * Apply a top-level section of the JSON scenario format ("host", "aggregation",
     * "scheduler", "cc": ScenarioSectionRegistry::Keys()), parsed by the section's own parser
     * and installed at once: once per key, after InstallRdma() and before the first flow, job,
     * traffic entry or Run(). Times in it count from 0; the topology is the session's.
     * \param key the section's key \param section its JSON value (an object, or the section's
     * string form)
     * \throw std::invalid_argument the scenario's one-line message, e.g.
     * "scenario: host.pcieLanes = 3: must be a power of two in [1, 32]"
     */
    void AddSection(const std::string& key, const nlohmann::json& section);
    /**
     * Add a traffic entry of the JSON scenario format (its "type" one of
     * TrafficRegistry::Types(), e.g. a "data-parallel-job" in "mode": "ina" over the
     * "aggregation" section, or in "mode": "ps" through the "scheduler"), parsed by the type's
     * own parser and installed at once; before the first Run(). Its "start" counts from 0.
     * \param entry the entry (with its "type")
     * \return its index i (a job is named <type><i>, as traffic[i] of a scenario)
     * \throw std::invalid_argument the scenario's one-line message, e.g.
     * "scenario: traffic[0].iterations = 0: must be an integer in [1, 1000000]"
     */
    uint32_t AddTraffic(const nlohmann::json& entry);
    /// \return the iteration records of the training jobs added with AddTraffic (by entry,
    /// then iteration; kept when the session is closed)
    std::vector<IterationRecord> GetIterations() const;

    /**
     * The warnings about the results that a scenario run puts in summary.json's "warnings":
     * the traffic entries' (AddTraffic; e.g. a parameter-server job whose servers receive
     * unequal bytes, DataParallelJob::GetServerImbalanceWarning) and the RDMA queue pairs'
     * retransmission timeouts (RdmaTimeoutReport). Each is also logged once with NS_LOG_WARN
     * (component SimulationSession) after the Run() that found it.
     * \return the warnings as of now (after Run()); once closed, those at Close()
     */
    std::vector<std::string> GetWarnings() const;

    /**
     * Run the simulation (until it runs out of events, or until the time given). Run to the
     * end, the simulated time is then that of the last event that did something: the RDMA
     * queue pairs' idle retransmission timers are not waited for (see MlnetSimulatorImpl; under
     * ns-3's DefaultSimulatorImpl, chosen by the user, the clock goes on to them).
     * \param until stop time (s), not in the past; unset: run to the end
     */
    void Run(std::optional<double> until = std::nullopt);

    /// \return the flows, in the order they were added
    const std::vector<std::shared_ptr<SessionFlow>>& GetFlows() const;
    /// \return the NICs, by host index (empty before InstallRdma and after Close)
    const std::vector<Ptr<RdmaNic>>& GetNics() const;
    /// \return the topology (empty after Close)
    const FabricTopology& GetTopology() const;
    /// \param nodeId a switch's node id \return its name (as in ports.csv)
    const std::string& GetNodeName(uint32_t nodeId) const;
    /// \return the number of hosts (0 before Build)
    uint32_t GetNHosts() const;

    /// Throw std::invalid_argument if the session is closed.
    void CheckOpen() const;
    /// Throw std::invalid_argument unless InstallRdma() may be called now (open, built, once).
    void CheckRdmaInstallable() const;
    /// \return true once InstallRdma() was called
    bool HasRdma() const;

  private:
    class Sections; // AddSection/AddTraffic's TrafficContext (simulation-session-sections.cc)
    /// \return the sections' context, created on first use
    Sections& GetSections();
    /// Throw unless sections and traffic entries may be added now (before the first Run()).
    void CheckBeforeRun(const std::string& what) const;
    /// The sections' checks against the traffic (ScenarioSectionRegistry), at the first Run().
    void CheckSections() const;
    /// Keep the traffic entries' records and release them (Close()).
    void SnapshotSections();
    /// \return the traffic entries' warnings (empty without AddTraffic)
    std::vector<std::string> SectionWarnings() const;

    bool m_open{false};
    bool m_ran{false}; //!< Run() was called
    bool m_built{false};
    bool m_rdma{false};
    uint64_t m_seed{1};
    double m_closedAt{0};
    std::string m_kind;
    SessionFabric m_fabric; //!< as built (the sections' topology)
    std::string m_ccType;
    FabricTopology m_topo;
    std::vector<Ptr<RdmaNic>> m_nics;
    ObjectFactory m_ccFactory;
    std::vector<std::shared_ptr<SessionFlow>> m_flows;
    std::vector<Ptr<PeriodicJob>> m_jobs;
    std::map<uint32_t, std::string> m_names;
    std::shared_ptr<Sections> m_sections;      //!< null until AddSection/AddTraffic
    std::vector<IterationRecord> m_iterations; //!< the traffic entries' records, once closed
    std::vector<std::string> m_warnings;       //!< GetWarnings() at Close(), once closed
    std::vector<std::string> m_logged;         //!< the warnings logged (NS_LOG_WARN) so far
};

} // namespace ns3

#endif /* MLNET_SIMULATION_SESSION_H */
