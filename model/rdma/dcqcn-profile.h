/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_DCQCN_PROFILE_H
#define MLNET_DCQCN_PROFILE_H

#include "rdma-congestion-ops.h"

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/ptr.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Per-job DCQCN aggressiveness: one number a mapped to R_AI, R_HAI, the rate-increase
 * timer T and the alpha gain g, so that jobs sharing links can be made deliberately unfair.
 *
 * Rajasekaran et al., "Congestion control in machine learning clusters", HotNets 2022, show that
 * giving compatible training jobs unequal congestion-control aggressiveness ("unfair by design")
 * interleaves their communication phases and improves average iteration time by up to 1.3x. This
 * class is mlnet's knob for it. With the paper's defaults (subscript 0: R_AI0 = 40 Mb/s,
 * R_HAI0 = 200 Mb/s, T0 = 55 us, g0 = 1/256) and a in [0.1, 10]:
 *  - R_AI(a)  = a R_AI0,  R_HAI(a) = a R_HAI0  (larger increase steps),
 *  - T(a)     = T0 / sqrt(a), rounded to the time resolution (more frequent increase events;
 *               the square root keeps T within [17 us, 174 us] over the accepted range),
 *  - g(a)     = min(1, g0 / a) (alpha follows CNPs more slowly: repeated CNPs raise alpha, and so
 *               the cut factor alpha/2, more slowly; the gentler decrease).
 * So a = 1 is plain DCQCN, and every increase-side quantity is monotonic in a: in additive
 * increase R_T grows at a^1.5 R_AI0 / T0 per second.
 *
 * Applied to an algorithm (ApplyTo) or to the factory a NIC creates its queue pairs'
 * algorithms with (Configure), the profile scales the values configured there -- the factory's
 * or instance's own settings, else the attribute defaults (Config::SetDefault,
 * --ns3::DcqcnBase::RateAI=...) -- in the same way: R_AI x a, R_HAI x a, T / sqrt(a),
 * min(1, g / a). With nothing configured that is the mapping above; a = 1 changes nothing.
 * The attributes are named as in ns3::Dcqcn and ns3::DcqcnVendor ("RateAI", "RateHAI",
 * "RateIncreaseTimer", "G"), so a profile configures either.
 */
class DcqcnProfile
{
  public:
    static constexpr double MIN_AGGRESSIVENESS = 0.1; //!< smallest accepted a
    static constexpr double MAX_AGGRESSIVENESS = 10;  //!< largest accepted a

    /// Attribute name / value pairs
    using AttributeList = std::vector<std::pair<std::string, Ptr<AttributeValue>>>;

    /**
     * \param aggressiveness a, in [0.1, 10]; 1 = default DCQCN
     * \throws std::invalid_argument if a is outside [0.1, 10] or not finite
     */
    explicit DcqcnProfile(double aggressiveness = 1.0);

    double GetAggressiveness() const;  //!< \return a
    DataRate GetRateAi() const;        //!< \return R_AI(a)
    DataRate GetRateHai() const;       //!< \return R_HAI(a)
    Time GetRateIncreaseTimer() const; //!< \return T(a)
    double GetG() const;               //!< \return g(a)

    /// \return the four attributes ("RateAI", "RateHAI", "RateIncreaseTimer", "G") and their
    /// values relative to the paper's defaults
    AttributeList GetAttributes() const;
    /**
     * The four attributes scaled from an algorithm's current values.
     * \param base a ns3::Dcqcn or ns3::DcqcnVendor (or any algorithm with these attributes)
     * \return RateAI x a, RateHAI x a, RateIncreaseTimer / sqrt(a), min(1, G / a)
     * \throws std::invalid_argument if base is null or lacks one of the attributes
     */
    AttributeList ScaleFrom(Ptr<const RdmaCongestionOps> base) const;

    /**
     * Scale the values a factory (whose TypeId is ns3::Dcqcn or ns3::DcqcnVendor) would give
     * its objects: its own settings, else the attribute defaults. Nothing changes for a = 1.
     * \param factory the factory
     */
    void Configure(ObjectFactory& factory) const;

    /**
     * Scale an algorithm instance's current values (apply once: twice scales twice).
     * \param cc a ns3::Dcqcn or ns3::DcqcnVendor (or any algorithm with these attributes)
     * \throws std::invalid_argument if cc is null or lacks one of the attributes
     */
    void ApplyTo(Ptr<RdmaCongestionOps> cc) const;

    /**
     * Shorthand for DcqcnProfile(aggressiveness).ApplyTo(cc).
     * \param cc the algorithm
     * \param aggressiveness a, in [0.1, 10]
     */
    static void Apply(Ptr<RdmaCongestionOps> cc, double aggressiveness);

  private:
    double m_a; //!< aggressiveness a
};

} // namespace ns3

#endif /* MLNET_DCQCN_PROFILE_H */
