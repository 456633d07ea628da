/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "event-scheduler-helper.h"

#include "ns3/command-line.h"
#include "ns3/global-value.h"
#include "ns3/scheduler.h"
#include "ns3/type-id.h"

#include <cstdlib>
#include <iostream>
#include <stdexcept>

namespace ns3
{

namespace
{
const char* const kNs3Default = "ns3::MapScheduler"; //!< ns-3's own SchedulerType default

/// "Map, Heap, ..." for error messages.
std::string
AcceptedList()
{
    std::string s;
    for (const std::string& t : EventSchedulerHelper::KnownTypes())
    {
        s += (s.empty() ? "" : ", ") + t.substr(5, t.size() - 5 - 9); // ns3::<X>Scheduler
    }
    return s + " (or the full TypeId name, e.g. ns3::HeapScheduler)";
}

bool
ParseOption(std::string value)
{
    try
    {
        EventSchedulerHelper::Use(value);
        return true;
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << e.what() << std::endl;
        return false; // CommandLine prints "Invalid command-line argument" and exits
    }
}
} // namespace

std::string
EventSchedulerHelper::DefaultType()
{
    return "ns3::TimingWheelScheduler";
}

const std::vector<std::string>&
EventSchedulerHelper::KnownTypes()
{
    static const std::vector<std::string> types{
        "ns3::MapScheduler",         "ns3::HeapScheduler",          "ns3::ListScheduler",
        "ns3::CalendarScheduler",    "ns3::PriorityQueueScheduler", "ns3::QuadHeapScheduler",
        "ns3::TimingWheelScheduler",
    };
    return types;
}

std::string
EventSchedulerHelper::Resolve(const std::string& name)
{
    std::string full = name;
    if (name.rfind("ns3::", 0) != 0)
    {
        full = "ns3::" + name + "Scheduler";
    }
    TypeId tid;
    if (name.empty() || !TypeId::LookupByNameFailSafe(full, &tid)
        || !tid.IsChildOf(Scheduler::GetTypeId()) || !tid.HasConstructor())
    {
        throw std::invalid_argument(
            "scheduler '" + name + "' is not an ns-3 event scheduler; accepted: " + AcceptedList());
    }
    return full;
}

void
EventSchedulerHelper::Use(const std::string& name)
{
    TypeId tid = TypeId::LookupByName(Resolve(name));
    GlobalValue::Bind("SchedulerType", TypeIdValue(tid));
}

bool
EventSchedulerHelper::UserChose()
{
    const char* env = std::getenv("NS_GLOBAL_VALUE");
    if (env && std::string(env).find("SchedulerType=") != std::string::npos)
    {
        return true;
    }
    return Current() != kNs3Default;
}

void
EventSchedulerHelper::UseDefault(CommandLine& cmd)
{
    if (!UserChose())
    {
        Use(DefaultType());
    }
    cmd.AddValue("scheduler",
                 "ns-3 event scheduler (same results, different speed): " + AcceptedList()
                     + "; mlnet's default is " + DefaultType()
                     + " (ns-3's --SchedulerType=... works too)",
                 MakeCallback(&ParseOption));
}

std::string
EventSchedulerHelper::Current()
{
    TypeIdValue v;
    GlobalValue::GetValueByName("SchedulerType", v);
    return v.Get().GetName();
}

} // namespace ns3
