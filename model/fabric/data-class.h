/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_DATA_CLASS_H
#define MLNET_DATA_CLASS_H

#include "ns3/uinteger.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The one place that says which priority class data traffic uses.
 *
 * Every source of data traffic (training jobs and their collectives, parameter-server pushes
 * and pulls, in-network aggregation packets, RDMA flows, background and constant-rate flows)
 * takes its class from a "PriorityClass" attribute whose default is DEFAULT and whose checker
 * is Checker(): all data shares one class unless a user splits it on purpose. Under the
 * fabric's default strict-priority egress a stray default class would decide a comparison by
 * itself (the higher class pre-empts the lower at every hop).
 *
 * DEFAULT = 3: the class RoCE deployments conventionally give RDMA (and mlnet's RDMA flows'
 * default), in the middle of the data classes so that a scenario can put traffic above it
 * (4-6: e.g. latency-sensitive short flows) or below it (0-2: scavenger background) without
 * moving the data. Class 7 (CONTROL) is reserved for ACKs, NACKs and CNPs.
 */
struct DataClass
{
    static constexpr uint8_t DEFAULT = 3; //!< default class of all data traffic
    static constexpr uint8_t MAX = 6;     //!< highest class data may use
    static constexpr uint8_t CONTROL = 7; //!< ACK/NACK/CNP class (never data)

    /// \return the checker of every data "PriorityClass" attribute: an integer in [0, MAX]
    static Ptr<const AttributeChecker> Checker()
    {
        return MakeUintegerChecker<uint8_t>(0, MAX);
    }

    /// \return the help text of a data "PriorityClass" attribute (\param what whose class)
    static std::string Help(const std::string& what)
    {
        return "Priority class of " + what +
               " (0..6; class 7 is reserved for ACK/CNP). "
               "Default 3: all data traffic shares one class unless a user splits it";
    }

    /**
     * Validate a data class (for paths that do not go through an attribute).
     * \param cls the class \param who the parameter's name, for the message
     * \return cls
     * \throws std::invalid_argument "<who> = <cls> is out of range [0, 6] (class 7 is reserved
     * for ACK/CNP)"
     */
    static uint8_t Check(uint64_t cls, const std::string& who)
    {
        if (cls > MAX)
        {
            throw std::invalid_argument(who + " = " + std::to_string(cls) +
                                        " is out of range [0, 6] (class 7 is reserved for "
                                        "ACK/CNP)");
        }
        return static_cast<uint8_t>(cls);
    }
};

} // namespace ns3

#endif /* MLNET_DATA_CLASS_H */
