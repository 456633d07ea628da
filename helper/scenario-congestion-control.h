/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_SCENARIO_CONGESTION_CONTROL_H
#define MLNET_SCENARIO_CONGESTION_CONTROL_H

#include "scenario.h"

#include "ns3/attribute.h"
#include "ns3/congestion-control-record.h"
#include "ns3/object-factory.h"
#include "ns3/ptr.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The RDMA congestion control of a scenario's traffic entry: the variant and the
 * parameters the scenario sets explicitly.
 *
 * In a scenario, "cc" is a variant name (``"dcqcn"``, ``"dcqcn-vendor"``, ``"fixed"``) or an
 * object ``{"variant": "dcqcn", "rateAi": "5Gbps", "g": 0.01, ...}`` whose keys are the
 * parameters' JSON names (RdmaCcCatalog). A top-level "cc" object is the scenario's default.
 * Precedence for each parameter: the entry's "cc" object, then the scenario's "cc" object (when
 * the entry keeps its variant), then the attribute default in force when the run starts
 * (Config::SetDefault, ``--ns3::DcqcnBase::RateAI=...`` on mlnet-run's command line), then
 * the built-in default. Values are checked with the attributes' own checkers and setters.
 */
struct CongestionControlConfig
{
    std::string variant{"dcqcn"}; //!< variant name (RdmaCcCatalog::Variants)
    /// parameters the scenario sets: (attribute name, value), checked
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> attributes;

    /// \return the variant's TypeId name
    std::string TypeIdName() const;
    /**
     * The factory of the queue pairs' algorithms: the variant with the explicit parameters
     * (the others take the attribute defaults in force when objects are created), scaled by a
     * DcqcnProfile when aggressiveness is not 1.
     * \param aggressiveness the profile's a (1 = none)
     * \return the factory
     */
    ObjectFactory Factory(double aggressiveness = 1.0) const;
    /**
     * What a factory's objects get: every parameter's effective value.
     * \param factory the factory \param entry the traffic entry ("traffic[0]")
     * \param type its traffic type \param aggressiveness the profile applied
     * \return the record for summary.json
     */
    static CongestionControlRecord Effective(const ObjectFactory& factory,
                                             const std::string& entry,
                                             const std::string& type,
                                             double aggressiveness);

    /**
     * Read the "cc" key of a traffic entry (absent: the scenario's default).
     * \param in the entry \param key the key ("cc") \param cfg the scenario parsed so far
     * \return the entry's congestion control
     */
    static CongestionControlConfig Parse(ScenarioObject& in,
                                         const std::string& key,
                                         const ScenarioConfig& cfg);
    /// \return the scenario's default: its top-level "cc" object, else plain "dcqcn"
    static const CongestionControlConfig& ScenarioDefault(const ScenarioConfig& cfg);
    /**
     * Read a "cc" object's keys on top of a base.
     * \param block the object \param base what the entry inherits
     * \return the merged configuration
     */
    static CongestionControlConfig ParseObject(ScenarioObject& block,
                                               const CongestionControlConfig& base);
};

} // namespace ns3

#endif /* MLNET_SCENARIO_CONGESTION_CONTROL_H */
