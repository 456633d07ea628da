/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_SCENARIO_TRAFFIC_H
#define MLNET_SCENARIO_TRAFFIC_H

#include "fabric-topology-helper.h"
#include "scenario.h"

#include "ns3/congestion-control-record.h"
#include "ns3/flow-stats-record.h"
#include "ns3/job-records.h"
#include "ns3/nstime.h"
#include "ns3/port-class-record.h"
#include "ns3/ptr.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class FlowSink;
class UniformRandomVariable;

/**
 * \ingroup mlnet
 * \brief What a traffic entry may use while installing itself: the built topology, the
 * run's random stream, per-host sinks and the flow-record bookkeeping. Implemented by
 * ScenarioRunner.
 */
class TrafficContext
{
  public:
    /// A function called after the run that returns a flow's record.
    typedef std::function<FlowStatsRecord()> FlowCollector;

    virtual ~TrafficContext() = default;
    /// \return the built topology (hosts in index order)
    virtual const FabricTopology& Topology() const = 0;
    /// \return the scenario being run
    virtual const ScenarioConfig& Config() const = 0;
    /// \return the end of the traffic period (sources must stop sending by then)
    virtual Time TrafficEnd() const = 0;
    /// \return a random stream of the run (fixed stream index, so RngRun alone changes it)
    virtual Ptr<UniformRandomVariable> Random() = 0;
    /**
     * The FlowSink of a host, installed on first use (one per host, shared by all flows).
     * \param host host index
     * \return the sink
     */
    virtual Ptr<FlowSink> Sink(uint32_t host) = 0;
    /// \return a new flow index (0, 1, ...): use it as FlowStatsRecord::id
    virtual uint32_t NewFlowId() = 0;
    /**
     * Register a flow: its collector is called once after the run.
     * \param collect returns the flow's record
     */
    virtual void AddFlow(FlowCollector collect) = 0;
    /// A function called after the run that returns a training job's iteration records.
    typedef std::function<std::vector<IterationRecord>()> IterationCollector;
    /**
     * Register a training job: its collector is called once after the run; the records go
     * to iterations.csv.
     * \param collect returns the job's iteration records
     */
    virtual void AddIterations(IterationCollector collect) = 0;
    /// A function called after the run that returns a warning about an entry's results (empty:
    /// none).
    typedef std::function<std::string()> WarningCollector;
    /**
     * Register a warning of a traffic entry, found only once it has run (e.g. a parameter
     * server that receives most bytes): summary.json's "warnings" and NS_LOG_WARN.
     * \param collect returns the warning, or an empty string
     */
    virtual void AddWarning(WarningCollector collect) = 0;
    /**
     * Register the transport state of a flow or job: the run continues after the traffic
     * period while it is busy (an RDMA flow until its message is posted and completed, a
     * training job until its last iteration ends, also between iterations when no byte is in
     * flight) and ends when none is busy and the network is empty, or at duration + drain
     * (then with a warning in the summary).
     * \param busy returns true while the activity is not finished
     */
    virtual void AddActivity(std::function<bool()> busy) = 0;
    /**
     * Report the congestion control a traffic entry uses (written to summary.json).
     * \param record the entry, its algorithm and every parameter's effective value
     */
    virtual void AddCongestionControl(CongestionControlRecord record) = 0;
    /**
     * Report the priority class a traffic entry (or a section that assigns classes) sends its
     * data in (summary.json "classes"; the run warns when data leaves the switches in several
     * classes and no entry chose one).
     * \param record the entry, its class, whether the scenario chose it or split on purpose
     */
    virtual void AddTrafficClass(TrafficClassRecord record) = 0;
};

/**
 * The priority class of a scenario's data traffic, from a key in [0, DataClass::MAX].
 * \param in the object \param key the key ("dataClass" at the top level, "class" in an
 * entry) \param def value if absent
 * \return the class
 * \throws std::invalid_argument "scenario: <path> = 7: must be an integer in [0, 6] (class 7
 * is reserved for ACK/CNP)"
 */
uint8_t ParseDataClass(ScenarioObject& in, const std::string& key, uint8_t def);

/**
 * \ingroup mlnet
 * \brief The class a traffic entry sends its data in and whether the scenario chose it.
 */
struct EntryClass
{
    uint8_t cls{3};     //!< the class (the scenario's dataClass unless the entry sets one)
    bool chosen{false}; //!< the entry set "class" (or the older "priority")
};

/**
 * Read a traffic entry's "class" (default: the scenario's dataClass). Entry types that had a
 * "priority" key before "class" existed (rdma, rdma-permutation, periodic-job, constant,
 * permutation) still accept it as another name for "class" (not both).
 * \param in the entry \param cfg the scenario parsed so far (its dataClass)
 * \param priorityAlias accept "priority" as well
 * \return the entry's class
 */
EntryClass ParseEntryClass(ScenarioObject& in, const ScenarioConfig& cfg, bool priorityAlias);

/**
 * A uniformly random derangement of 0..n-1 (no element maps to itself), drawn from rng: the
 * destinations of "permutation" traffic.
 * \param n number of hosts (>= 2) \param rng the run's random stream
 * \return dst[i] for every host i
 */
std::vector<uint32_t> RandomDerangement(uint32_t n, Ptr<UniformRandomVariable> rng);

/**
 * The name of the training job of traffic[index]: its type then its index in the traffic
 * array ("data-parallel-job0", "periodic-job2"), whatever its mode; the job's JobId is the
 * index. iterations.csv, the job's message records and errors about it use this name.
 * \param type the entry's "type" \param index its index in "traffic"
 * \return the name
 */
std::string JobName(const std::string& type, uint32_t index);

/**
 * \ingroup mlnet
 * \brief One validated traffic entry of a scenario, able to install itself.
 *
 * Subclasses hold their parameters (checked at parse time, so Install() cannot meet bad
 * input) and create applications on the hosts in Install().
 */
class TrafficSpec
{
  public:
    virtual ~TrafficSpec() = default;
    /**
     * Create the entry's applications and register its flows.
     * \param ctx the run
     */
    virtual void Install(TrafficContext& ctx) const = 0;

    /**
     * The hosts whose NICs post this entry's messages through a flow scheduler when they have
     * one (the "scheduler" section checks that some entry uses it).
     * \return host indices (default: none)
     */
    virtual std::vector<uint32_t> ScheduledHosts() const
    {
        return {};
    }

    /**
     * For a section (ScenarioSectionRegistry): check it against the parsed traffic, after the
     * whole document is read (default: nothing to check).
     * \param cfg the scenario, traffic included
     * \throw std::invalid_argument with the one-line scenario message
     */
    virtual void CheckTraffic(const ScenarioConfig& cfg) const
    {
    }

    /**
     * For a section: whether its Install() changes the network (splices nodes into links,
     * installs routes), so the runner installs it before it builds the flow backend's fabric.
     * \return false by default
     */
    virtual bool ChangesTopology() const
    {
        return false;
    }
};

/**
 * \ingroup mlnet
 * \brief The traffic types a scenario's "traffic" array accepts, keyed by the entry's "type".
 *
 * Extension point: a part that brings a new kind of traffic (RDMA queue-pair flows, training
 * jobs, background flow-size distributions) registers it from its own .cc file, without
 * touching the scenario parser:
 *
 * \code
 * namespace {
 * class RdmaTrafficSpec : public TrafficSpec
 * {
 *   public:
 *     uint32_t src, dst; uint64_t bytes;
 *     void Install(TrafficContext& ctx) const override
 *     {
 *         // create queue pairs on ctx.Topology().hosts.Get(src) ...,
 *         // uint32_t id = ctx.NewFlowId(); ctx.AddFlow([=] { FlowStatsRecord r; ...; return r; });
 *     }
 * };
 * std::shared_ptr<const TrafficSpec>
 * ParseRdma(ScenarioObject& in, const ScenarioConfig& cfg)
 * {
 *     auto s = std::make_shared<RdmaTrafficSpec>();
 *     s->src = in.Uint("src", 0, cfg.topology.NumHosts() - 1, std::nullopt);
 *     s->bytes = in.Bytes("bytes", 1, UINT64_MAX, std::nullopt);
 *     return s;
 * }
 * TrafficRegistry::Registrar g_rdma("rdma", &ParseRdma); // at library load
 * } // namespace
 * \endcode
 *
 * The parse function reads its keys through the ScenarioObject getters (which produce the
 * standard one-line errors); the parser core consumes "type" before and calls Finish() after,
 * so unknown keys of the entry are rejected automatically. Built-in types: "constant" (one
 * ConstantRateFlow from src to dst) and "permutation" (every host sends to one other host, a
 * random derangement drawn from the run's random stream).
 */
class TrafficRegistry
{
  public:
    /// Validates one entry (topology, duration and seed are already parsed in cfg).
    typedef std::function<std::shared_ptr<const TrafficSpec>(ScenarioObject& entry,
                                                             const ScenarioConfig& cfg)>
        ParseFunction;

    /**
     * Add a traffic type.
     * \param type the "type" value \param parse its parse function
     * \throw std::logic_error if the type is already registered
     */
    static void Register(const std::string& type, ParseFunction parse);
    /// \return the registered type names, sorted
    static std::vector<std::string> Types();
    /**
     * Parse a traffic entry: read "type", dispatch, then reject unknown keys.
     * \param entry the entry \param cfg the scenario parsed so far
     * \return the validated entry
     */
    static std::shared_ptr<const TrafficSpec> Parse(ScenarioObject& entry,
                                                    const ScenarioConfig& cfg);

    /// Registers a type when constructed (use as a namespace-scope static).
    struct Registrar
    {
        /// \param type the "type" value \param parse its parse function
        Registrar(const std::string& type, ParseFunction parse)
        {
            Register(type, std::move(parse));
        }
    };
};

} // namespace ns3

#endif /* MLNET_SCENARIO_TRAFFIC_H */
