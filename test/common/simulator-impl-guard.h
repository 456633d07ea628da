/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_TEST_SIMULATOR_IMPL_GUARD_H
#define MLNET_TEST_SIMULATOR_IMPL_GUARD_H

#include "ns3/core-module.h"

#include <string>

namespace mlnettest
{

/// Selects a simulator implementation and scheduler for one test and restores both after
/// (the whole suite may run with another implementation forced through NS_GLOBAL_VALUE).
struct ImplGuard
{
    ns3::StringValue savedImpl;
    ns3::TypeIdValue savedScheduler;

    ImplGuard()
    {
        ns3::GlobalValue::GetValueByName("SimulatorImplementationType", savedImpl);
        ns3::GlobalValue::GetValueByName("SchedulerType", savedScheduler);
    }

    /// Destroy the current simulator; the next Simulator call creates `impl` with `scheduler`.
    void Use(const std::string& impl, const std::string& scheduler = "ns3::MapScheduler")
    {
        ns3::Simulator::Destroy();
        ns3::GlobalValue::Bind("SimulatorImplementationType", ns3::StringValue(impl));
        ns3::GlobalValue::Bind("SchedulerType",
                               ns3::TypeIdValue(ns3::TypeId::LookupByName(scheduler)));
    }

    ~ImplGuard()
    {
        ns3::Simulator::Destroy();
        ns3::GlobalValue::Bind("SimulatorImplementationType", savedImpl);
        ns3::GlobalValue::Bind("SchedulerType", savedScheduler);
    }
};

} // namespace mlnettest

#endif
