/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "event-scheduler-helper.h"

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/fatal-error.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <cstdlib>
#include <iostream>
#include <map>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EventSchedulerHelper");

namespace
{
const char* const kNs3SimulatorDefault = "ns3::DefaultSimulatorImpl"; //!< and its implementation

/// Whether NS_GLOBAL_VALUE sets this GlobalValue.
bool
EnvSets(const std::string& name)
{
    const char* env = std::getenv("NS_GLOBAL_VALUE");
    return env && std::string(env).find(name + "=") != std::string::npos;
}

/*
 * Whether a GlobalValue was set since the program started. ns-3's GlobalValue has no query for
 * it: GetValue() gives the value, and a Bind() to the value it already holds (the user's
 * explicit choice of ns-3's own default) looks like no choice at all. But every SetValue() --
 * Bind(), BindFailSafe(), CommandLine's --Name=value -- stores a new value object, while the
 * constructor and NS_GLOBAL_VALUE store the initial one, and ResetInitialValue() puts that one
 * back (global-value.cc, ns-3.37 to 3.48). So "set" is "the current value object is not the
 * initial one". Both are private members; C++ lets an explicit template instantiation name
 * them ([temp.spec] p6: access is not checked there), which hands out the member pointers
 * below without assuming anything about the class's layout: a change of the members in a
 * later ns-3 is a compile error here, not a wrong answer.
 */
using ValueMember = Ptr<AttributeValue> GlobalValue::*;

struct CurrentValueTag
{
};

struct InitialValueTag
{
};

ValueMember MemberOf(CurrentValueTag);
ValueMember MemberOf(InitialValueTag);

template <class Tag, ValueMember M>
struct ExposeMember
{
    friend ValueMember MemberOf(Tag)
    {
        return M;
    }
};

template struct ExposeMember<CurrentValueTag, &GlobalValue::m_currentValue>;
template struct ExposeMember<InitialValueTag, &GlobalValue::m_initialValue>;

/// \return the GlobalValue of that name (SchedulerType and SimulatorImplementationType exist)
GlobalValue&
Find(const std::string& name)
{
    for (auto it = GlobalValue::Begin(); it != GlobalValue::End(); ++it)
    {
        if ((*it)->GetName() == name)
        {
            return **it;
        }
    }
    NS_FATAL_ERROR("no GlobalValue named " << name);
}

/// \return the value object the GlobalValue holds now
Ptr<AttributeValue>
CurrentObject(const std::string& name)
{
    return Find(name).*MemberOf(CurrentValueTag());
}

/// The value objects UseDefaults() bound (kept alive, so that no other value gets the
/// address): mlnet's own default is not a user's choice.
std::map<std::string, Ptr<AttributeValue>>&
DefaultsBound()
{
    static std::map<std::string, Ptr<AttributeValue>> bound;
    return bound;
}

/// Whether a user chose this GlobalValue: NS_GLOBAL_VALUE, or set since (see above) by
/// anything but UseDefaults().
bool
UserSet(const std::string& name)
{
    if (EnvSets(name))
    {
        return true;
    }
    const GlobalValue& gv = Find(name);
    const Ptr<AttributeValue>& current = gv.*MemberOf(CurrentValueTag());
    if (current == gv.*MemberOf(InitialValueTag()))
    {
        return false;
    }
    auto it = DefaultsBound().find(name);
    return it == DefaultsBound().end() || it->second != current;
}

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

/// A `--scheduler` / `--simulator` value through use(); false (with the reason) if it is bad.
bool
ParseOption(void (*use)(const std::string&), const std::string& value)
{
    try
    {
        use(value);
        return true;
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << e.what() << std::endl;
        return false; // CommandLine prints "Invalid command-line argument" and exits
    }
}

/// ParseOption(Use, value), as the callback ns-3.38+ takes.
template <void (*Use)(const std::string&)>
bool
ParseByRef(const std::string& value)
{
    return ParseOption(Use, value);
}

/// ParseOption(Use, value), as the callback ns-3.37 takes.
template <void (*Use)(const std::string&)>
bool
ParseByValue(std::string value)
{
    return ParseOption(Use, value);
}

/**
 * Add a `--name=VALUE` option handled by a function. CommandLine takes a
 * Callback<bool, const std::string&> from ns-3.38 and a Callback<bool, std::string> in 3.37
 * (each with a default value). The overload is picked by the exact member function this
 * ns-3 declares (a static_cast to its type), never by conversion: ns-3's Callback converts from
 * any other Callback through CallbackBase, which would compile and be undefined behaviour.
 */
template <void (*Use)(const std::string&), class Cmd>
auto
AddParsedOption(Cmd& cmd, const std::string& name, const std::string& help, int)
    -> decltype(static_cast<void (Cmd::*)(const std::string&,
                                          const std::string&,
                                          Callback<bool, const std::string&>,
                                          const std::string&)>(&Cmd::AddValue),
                void())
{
    cmd.AddValue(name, help, Callback<bool, const std::string&>(MakeCallback(&ParseByRef<Use>)));
}

/// ns-3.37's form (see above).
template <void (*Use)(const std::string&), class Cmd>
auto
AddParsedOption(Cmd& cmd, const std::string& name, const std::string& help, long)
    -> decltype(static_cast<void (Cmd::*)(const std::string&,
                                          const std::string&,
                                          Callback<bool, std::string>,
                                          const std::string&)>(&Cmd::AddValue),
                void())
{
    cmd.AddValue(name, help, Callback<bool, std::string>(MakeCallback(&ParseByValue<Use>)));
}
} // namespace

std::string
EventSchedulerHelper::DefaultType()
{
    NS_LOG_FUNCTION_NOARGS();
    return "ns3::TimingWheelScheduler";
}

const std::vector<std::string>&
EventSchedulerHelper::KnownTypes()
{
    NS_LOG_FUNCTION_NOARGS();
    static const std::vector<std::string> types{
        "ns3::MapScheduler",
        "ns3::HeapScheduler",
        "ns3::ListScheduler",
        "ns3::CalendarScheduler",
        "ns3::PriorityQueueScheduler",
        "ns3::QuadHeapScheduler",
        "ns3::TimingWheelScheduler",
    };
    return types;
}

std::string
EventSchedulerHelper::Resolve(const std::string& name)
{
    NS_LOG_FUNCTION(name);
    std::string full = name;
    if (name.rfind("ns3::", 0) != 0)
    {
        full = "ns3::" + name + "Scheduler";
    }
    TypeId tid;
    if (name.empty() || !TypeId::LookupByNameFailSafe(full, &tid) ||
        !tid.IsChildOf(Scheduler::GetTypeId()) || !tid.HasConstructor())
    {
        throw std::invalid_argument(
            "scheduler '" + name + "' is not an ns-3 event scheduler; accepted: " + AcceptedList());
    }
    return full;
}

void
EventSchedulerHelper::Use(const std::string& name)
{
    NS_LOG_FUNCTION(name);
    TypeId tid = TypeId::LookupByName(Resolve(name));
    GlobalValue::Bind("SchedulerType", TypeIdValue(tid));
}

bool
EventSchedulerHelper::UserChose()
{
    NS_LOG_FUNCTION_NOARGS();
    return UserSet("SchedulerType");
}

void
EventSchedulerHelper::UseDefaults()
{
    NS_LOG_FUNCTION_NOARGS();
    if (!UserChose())
    {
        Use(DefaultType());
        DefaultsBound()["SchedulerType"] = CurrentObject("SchedulerType");
    }
    if (!UserChoseSimulator())
    {
        UseSimulator(DefaultSimulatorType());
        DefaultsBound()["SimulatorImplementationType"] =
            CurrentObject("SimulatorImplementationType");
    }
}

void
EventSchedulerHelper::UseDefault(CommandLine& cmd)
{
    NS_LOG_FUNCTION_NOARGS();
    UseDefaults();
    AddParsedOption<&EventSchedulerHelper::Use>(
        cmd,
        "scheduler",
        "Event scheduler (same results, different speed): " + AcceptedList() +
            "; mlnet's default is " + DefaultType() + " (ns-3's --SchedulerType=... works too)",
        0);
    AddParsedOption<&EventSchedulerHelper::UseSimulator>(
        cmd,
        "simulator",
        "Simulator implementation (same results, different speed): mlnet "
        "(ns3::MlnetSimulatorImpl, the default), ns3 (ns3::DefaultSimulatorImpl) or "
        "a TypeId name (ns-3's --SimulatorImplementationType=... works too)",
        0);
}

void
EventSchedulerHelper::UseHugePages(bool enable)
{
    NS_LOG_FUNCTION(enable);
    Config::SetDefault("ns3::MlnetSimulatorImpl::HugePages", BooleanValue(enable));
}

std::string
EventSchedulerHelper::DefaultSimulatorType()
{
    NS_LOG_FUNCTION_NOARGS();
    return "ns3::MlnetSimulatorImpl";
}

namespace
{
/// ns-3's distributed (MPI) simulator implementations, in an ns-3 built with --enable-mpi.
const char* const kDistributed[] = {"ns3::DistributedSimulatorImpl",
                                    "ns3::NullMessageSimulatorImpl"};

/// Why mlnet refuses them (until the fabric is partitioned across ranks).
std::string
DistributedRefusal(const std::string& name)
{
    return "simulator '" + name +
           "' is ns-3's distributed (MPI) implementation, which mlnet does not support: its "
           "topology helpers put every node on system 0 and its fabric channel has no remote "
           "counterpart, so every MPI rank would simulate the whole fabric on its own. Run "
           "without MPI: --simulator=mlnet (the default) or ns3";
}

/// \return true if tid is one of kDistributed or derives from one
bool
IsDistributed(TypeId tid)
{
    for (const char* name : kDistributed)
    {
        TypeId mpi;
        if (tid.GetName() == name ||
            (TypeId::LookupByNameFailSafe(name, &mpi) && tid.IsChildOf(mpi)))
        {
            return true;
        }
    }
    return false;
}
} // namespace

void
EventSchedulerHelper::CheckSupportedSimulator()
{
    NS_LOG_FUNCTION_NOARGS();
    const TypeId tid = Simulator::GetImplementation()->GetInstanceTypeId();
    if (IsDistributed(tid))
    {
        throw std::invalid_argument(DistributedRefusal(tid.GetName()));
    }
}

std::string
EventSchedulerHelper::ResolveSimulator(const std::string& name)
{
    NS_LOG_FUNCTION(name);
    std::string full = name == "mlnet" ? "ns3::MlnetSimulatorImpl"
                       : name == "ns3" ? kNs3SimulatorDefault
                                       : name;
    for (const char* mpi : kDistributed)
    {
        if (full == mpi) // refused whether or not this ns-3 was built with MPI
        {
            throw std::invalid_argument(DistributedRefusal(full));
        }
    }
    TypeId tid;
    if (full.empty() || !TypeId::LookupByNameFailSafe(full, &tid) ||
        !tid.IsChildOf(SimulatorImpl::GetTypeId()) || !tid.HasConstructor())
    {
        throw std::invalid_argument("simulator '" + name +
                                    "' is not an ns-3 simulator implementation; accepted: "
                                    "mlnet, ns3 (or the full TypeId name, e.g. "
                                    "ns3::RealtimeSimulatorImpl)");
    }
    if (IsDistributed(tid))
    {
        throw std::invalid_argument(DistributedRefusal(full));
    }
    return full;
}

void
EventSchedulerHelper::UseSimulator(const std::string& name)
{
    NS_LOG_FUNCTION(name);
    GlobalValue::Bind("SimulatorImplementationType", StringValue(ResolveSimulator(name)));
}

bool
EventSchedulerHelper::UserChoseSimulator()
{
    NS_LOG_FUNCTION_NOARGS();
    return UserSet("SimulatorImplementationType");
}

std::string
EventSchedulerHelper::CurrentSimulator()
{
    NS_LOG_FUNCTION_NOARGS();
    StringValue v;
    GlobalValue::GetValueByName("SimulatorImplementationType", v);
    return v.Get();
}

std::string
EventSchedulerHelper::Current()
{
    NS_LOG_FUNCTION_NOARGS();
    TypeIdValue v;
    GlobalValue::GetValueByName("SchedulerType", v);
    return v.Get().GetName();
}

} // namespace ns3
