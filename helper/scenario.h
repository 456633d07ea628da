/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_SCENARIO_H
#define MLNET_SCENARIO_H

#include "ns3/attribute.h"
#include "ns3/data-class.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class TrafficSpec;

/**
 * \ingroup mlnet
 * \brief Reads one JSON object of a scenario key by key, validating every value, and reports
 * keys nobody asked for.
 *
 * Every error is a std::invalid_argument whose message is one line naming the key path, the
 * offending value and what is accepted, e.g.
 * `scenario: topology.k = 5: must be an even integer in [2, 48]`. Each getter marks its key as
 * known; Finish() then rejects the remaining keys:
 * `scenario: topology.kk: unknown key (accepted: type, k, hostsPerEdge, ...)`.
 * Getters with a default (std::nullopt = required) return it when the key is absent.
 *
 * Traffic types registered in TrafficRegistry receive their entry as a ScenarioObject, so they
 * validate their own keys with the same getters and messages.
 */
class ScenarioObject
{
  public:
    /**
     * \param j the JSON value (must be an object, else invalid_argument)
     * \param path its key path for messages ("topology", "traffic[2]"; "" for the root)
     */
    ScenarioObject(const nlohmann::json& j, std::string path);

    /// \return true if the key is present (does not mark it as known)
    bool Has(const std::string& key) const;
    /// \return the key path of a member, e.g. "topology.k"
    std::string PathOf(const std::string& key) const;
    /// \return this object's key path
    const std::string& Path() const;

    /**
     * A string.
     * \param key the key \param def default (nullopt: required)
     * \return the value
     */
    std::string String(const std::string& key, std::optional<std::string> def);
    /**
     * A string from a fixed set.
     * \param key the key \param accepted the accepted values \param def default
     * \return the value
     */
    std::string Choice(const std::string& key,
                       const std::vector<std::string>& accepted,
                       std::optional<std::string> def);
    /**
     * An integer in [lo, hi].
     * \param key the key \param lo smallest \param hi largest \param def default
     * \return the value
     */
    uint64_t Uint(const std::string& key, uint64_t lo, uint64_t hi, std::optional<uint64_t> def);
    /**
     * A number in [lo, hi].
     * \param key the key \param lo smallest \param hi largest \param def default
     * \return the value
     */
    double Double(const std::string& key, double lo, double hi, std::optional<double> def);
    /**
     * A boolean.
     * \param key the key \param def default
     * \return the value
     */
    bool Bool(const std::string& key, std::optional<bool> def);
    /**
     * A data rate string such as "100Gbps", parsed by UnitParser::Rate (the same parser as the
     * Python module's): a number, then bps, b/s, Bps or B/s with an optional prefix k, M, G, T,
     * Ki, Mi, Gi, Ti; in [1 bit/s, 1 Pbit/s].
     * \param key the key \param def default (a valid rate string)
     * \return the rate
     */
    DataRate Rate(const std::string& key, std::optional<std::string> def);
    /**
     * A time string such as "5ms" (UnitParser::Duration: a number, then s, ms, us, ns, ps, min
     * or h) in [lo, hi].
     * \param key the key \param lo smallest \param hi largest \param def default
     * \return the time
     */
    Time Duration(const std::string& key, Time lo, Time hi, std::optional<std::string> def);
    /**
     * A byte count: an integer, or a string with a unit (UnitParser::Bytes: B, KB, MB, GB, TB =
     * powers of 1000; KiB, MiB, GiB, TiB = powers of 1024), in [lo, hi].
     * \param key the key \param lo smallest \param hi largest \param def default
     * \return bytes
     */
    uint64_t Bytes(const std::string& key, uint64_t lo, uint64_t hi, std::optional<uint64_t> def);
    /**
     * A nested object (an empty one if absent).
     * \param key the key
     * \return a reader for it (call its Finish() when done)
     */
    ScenarioObject Object(const std::string& key);
    /**
     * An array (empty if absent).
     * \param key the key
     * \return the JSON array
     */
    const nlohmann::json& Array(const std::string& key);
    /**
     * The raw JSON value of a key, marked as known (null if absent).
     * \param key the key
     * \return the value
     */
    const nlohmann::json& Raw(const std::string& key);

    /// Reject every key that no getter asked for (listing the ones that were).
    void Finish() const;

    /**
     * Throw the one-line error for a value: "scenario: <path> = <value>: <what>".
     * \param key the key \param what what is accepted ("must be ...")
     */
    [[noreturn]] void Fail(const std::string& key, const std::string& what) const;
    /**
     * Throw the one-line error for a value at any path.
     * \param path key path \param value the offending value \param what what is accepted
     */
    [[noreturn]] static void Fail(const std::string& path,
                                  const nlohmann::json& value,
                                  const std::string& what);

  private:
    const nlohmann::json* Find(const std::string& key);

    const nlohmann::json& m_json;
    std::string m_path;
    std::vector<std::string> m_known; //!< keys asked for, in order
};

/**
 * \ingroup mlnet
 * \brief The "topology" section: which builder of FabricTopologyHelper and its parameters.
 */
struct TopologyConfig
{
    std::string type{"fat-tree"};       //!< "fat-tree", "leaf-spine" or "dumbbell"
    uint32_t k{4};                      //!< fat-tree: k (even, InputLimits::FAT_TREE_K)
    uint32_t hostsPerEdge{0};           //!< fat-tree: hosts per edge switch (0 = k/2)
    uint32_t leaves{4};                 //!< leaf-spine: leaves
    uint32_t spines{2};                 //!< leaf-spine: spines
    uint32_t hostsPerLeaf{4};           //!< leaf-spine: hosts per leaf
    uint32_t left{1};                   //!< dumbbell: hosts on the left switch
    uint32_t right{1};                  //!< dumbbell: hosts on the right switch
    DataRate hostLinkRate{"100Gbps"};   //!< host-to-edge links
    DataRate fabricLinkRate{"100Gbps"}; //!< switch-to-switch links
    Time linkDelay{MicroSeconds(1)};    //!< propagation delay of every link

    /// \return number of hosts the topology will have
    uint32_t NumHosts() const;
    /// \return one-line description, e.g. "fat-tree k=4, 16 hosts, 100Gbps/100Gbps links, 1us"
    std::string Describe() const;
};

/**
 * \ingroup mlnet
 * \brief The "fabric" section: attributes of every FabricSwitch and FabricNetDevice, as
 * (ns-3 attribute name, value) pairs already checked against the attributes' checkers.
 */
struct FabricConfig
{
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> switchAttributes; //!< FabricSwitch
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> deviceAttributes; //!< FabricNetDevice
};

/**
 * \ingroup mlnet
 * \brief The "output" section.
 */
struct OutputConfig
{
    std::string dir{"mlnet-out"}; //!< output directory (mlnet-run's --out overrides it)
    bool flows{true};             //!< write flows.csv
    bool ports{true};             //!< write ports.csv
};

/**
 * \ingroup mlnet
 * \brief A validated scenario: everything ScenarioRunner needs.
 */
struct ScenarioConfig
{
    /// name shown in the summary (Load() defaults it to the file name's stem)
    std::string name{"scenario"};
    TopologyConfig topology;                                 //!< the topology
    FabricConfig fabric;                                     //!< switch and port attributes
    std::vector<std::shared_ptr<const TrafficSpec>> traffic; //!< parsed traffic entries
    /// sections of other parts (ScenarioSectionRegistry), installed before the traffic
    std::vector<std::shared_ptr<const TrafficSpec>> sections;
    /// the top-level key of each of `sections` (in messages)
    std::vector<std::string> sectionKeys;
    Time duration{MilliSeconds(1)}; //!< traffic period: sources stop at this time
    Time drain{MilliSeconds(10)};   //!< longest extra time to let in-flight packets arrive
    uint32_t seed{1};               //!< RngRun
    std::string backend{"packet"};  //!< "packet" or "flow" (doc/flow-backend.rst)
    /// flow backend: a ring collective by "message", as one "group" or "phased"
    /// (FluidTransport::RingGranularity)
    std::string ringGranularity{"message"};
    /// "dataClass": the priority class of every traffic entry without its own "class"
    uint8_t dataClass{DataClass::DEFAULT};
    OutputConfig output; //!< output files
    std::string json;    //!< the scenario text as read (compact), for summary.json
};

/**
 * \ingroup mlnet
 * \brief Parses and validates JSON scenarios: the one place that knows the scenario format
 * (documented in doc/scenario.rst).
 *
 * \code
 * ScenarioConfig cfg = Scenario::Load("incast.json"); // throws std::invalid_argument
 * ScenarioResult r = ScenarioRunner(cfg).Run();
 * \endcode
 *
 * Top-level keys: name, topology, fabric, traffic, duration, drain, seed, dataClass, output.
 * Traffic entries are parsed by the function registered for their "type" in TrafficRegistry (see
 * scenario-traffic.h), which is where new kinds of traffic plug in.
 */
class Scenario
{
  public:
    /**
     * Validate a parsed JSON document.
     * \param j the document
     * \return the scenario
     */
    static ScenarioConfig Parse(const nlohmann::json& j);
    /// Deepest nesting of objects and arrays a scenario may have (deeper is refused).
    static constexpr uint32_t MAX_DEPTH = 64;
    /**
     * Parse JSON text and validate it. Refused besides invalid values: invalid JSON, numbers
     * that fit neither a 64-bit integer nor a double, a key twice in one object, nesting deeper
     * than MAX_DEPTH.
     * \param text JSON text \param source name used in syntax-error messages
     * \return the scenario
     */
    static ScenarioConfig ParseString(const std::string& text,
                                      const std::string& source = "<string>");
    /**
     * Read, parse and validate a JSON file (a directory or unreadable file is an error).
     * \param file path
     * \return the scenario
     */
    static ScenarioConfig Load(const std::string& file);
    /**
     * The built-in default: k=4 fat-tree at 100 Gb/s, 1 us links, PFC and ECN on, a random
     * permutation of 80 Gb/s constant-rate flows among the 16 hosts for 2 ms.
     * \return its JSON text
     */
    static std::string DefaultJson();
    /// \return the parsed built-in default
    static ScenarioConfig Default();

  private:
    /// Parse() after the depth check.
    static ScenarioConfig ParseChecked(const nlohmann::json& j);
};

} // namespace ns3

#endif /* MLNET_SCENARIO_H */
