/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_SCENARIO_EXTENSION_H
#define MLNET_SCENARIO_EXTENSION_H

#include "scenario-traffic.h"

#include "ns3/ptr.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class GradientAggregator;

/**
 * \ingroup mlnet
 * \brief Top-level scenario sections brought by other parts (e.g. "aggregation": the
 * in-network aggregation devices), keyed by their name.
 *
 * A section is parsed after "topology", "fabric" and "output" and before "traffic"; it yields
 * a TrafficSpec whose Install() runs after the topology is built and before the traffic
 * entries are installed (so it can change the network they use). The parser reads the
 * section through a ScenarioObject and calls its Finish() afterwards.
 */
class ScenarioSectionRegistry
{
  public:
    /// Validates one section.
    typedef std::function<std::shared_ptr<const TrafficSpec>(ScenarioObject& section,
                                                             const ScenarioConfig& cfg)>
        ParseFunction;

    /**
     * Add a section.
     * \param key the top-level key \param parse its parse function
     * \param shorthand if not empty, the section may also be a string S, read as the object
     *        {shorthand: S} (e.g. "cc": "dcqcn" for {"variant": "dcqcn"})
     * \throw std::logic_error if the key is already registered
     */
    static void Register(const std::string& key,
                         ParseFunction parse,
                         const std::string& shorthand = "");
    /// \return the registered keys, sorted
    static std::vector<std::string> Keys();
    /// \return the parse function of a key (null if none)
    static const ParseFunction* Find(const std::string& key);
    /// \return the key a string value of the section stands for ("" = no string form)
    static std::string ShorthandOf(const std::string& key);
    /**
     * Validate a section's value: its string form read as {shorthand: S}, then the section's
     * parse function, then its unknown keys refused (ScenarioObject::Finish). Scenario::Parse
     * and SimulationSession::AddSection both read sections through it.
     * \param key a registered key \param value the section's value
     * \param cfg the scenario parsed so far
     * \return the validated section
     * \throw std::invalid_argument the one-line scenario message
     */
    static std::shared_ptr<const TrafficSpec> Parse(const std::string& key,
                                                    const nlohmann::json& value,
                                                    const ScenarioConfig& cfg);

    /// Registers a section when constructed (use as a namespace-scope static).
    struct Registrar
    {
        /// \param key the top-level key \param parse its parse function
        /// \param shorthand the key a string value stands for (see Register)
        Registrar(const std::string& key, ParseFunction parse, const std::string& shorthand = "")
        {
            Register(key, std::move(parse), shorthand);
        }
    };
};

/**
 * \ingroup mlnet
 * \brief Extra "mode" values of "data-parallel-job" entries whose gradients go through a
 * GradientAggregator brought by another part (e.g. "ina": in-network aggregation).
 *
 * The parse function reads the mode's own keys of the entry and returns a factory that builds
 * the job's aggregator when the entry is installed.
 */
class GradientAggregatorRegistry
{
  public:
    /// Builds a job's aggregator: (the run, the job's worker host indices, the job's name for
    /// messages) -> aggregator.
    typedef std::function<Ptr<GradientAggregator>(TrafficContext& ctx,
                                                  const std::vector<uint32_t>& hosts,
                                                  const std::string& job)>
        Factory;
    /// Validates the mode's keys of an entry (hosts, model, ... are read by the job parser).
    typedef std::function<Factory(ScenarioObject& entry, const ScenarioConfig& cfg)> ParseFunction;

    /**
     * Add a mode.
     * \param mode the "mode" value \param parse its parse function
     * \throw std::logic_error if the mode is already registered
     */
    static void Register(const std::string& mode, ParseFunction parse);
    /// \return the registered modes, sorted
    static std::vector<std::string> Modes();
    /// \return the parse function of a mode (null if none)
    static const ParseFunction* Find(const std::string& mode);

    /// Registers a mode when constructed (use as a namespace-scope static).
    struct Registrar
    {
        /// \param mode the "mode" value \param parse its parse function
        Registrar(const std::string& mode, ParseFunction parse)
        {
            Register(mode, std::move(parse));
        }
    };
};

} // namespace ns3

#endif /* MLNET_SCENARIO_EXTENSION_H */
