/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_EVENT_SCHEDULER_HELPER_H
#define MLNET_EVENT_SCHEDULER_HELPER_H

#include <string>
#include <vector>

namespace ns3
{

class CommandLine;

/**
 * \ingroup mlnet
 * \brief The one place that chooses the event engine of mlnet's programs (mlnet-run, the
 * examples, the benchmarks and the Python module): ns-3's event scheduler (the "SchedulerType"
 * GlobalValue) and the simulator implementation ("SimulatorImplementationType").
 *
 * ns-3 ships five schedulers (Map, the ns-3 default; Heap; List; Calendar; PriorityQueue) and
 * mlnet adds two (QuadHeap: a 4-ary heap, QuadHeapScheduler; TimingWheel: a ring of time
 * buckets sorted when due, TimingWheelScheduler). All order events by (time, insertion uid), so
 * they give identical results; only their speed differs. DefaultType() is the one measured
 * fastest on mlnet's packet-level runs
 * (doc/performance.rst, "Scheduler choice"). A program calls UseDefault(cmd) before
 * cmd.Parse(): it binds the default unless the user already chose one, and adds a
 * `--scheduler` option; ns-3's own `--SchedulerType=...` still overrides it. Both must happen
 * before the simulator is first used (its implementation reads the GlobalValue when it is
 * created, and again after each Simulator::Destroy()).
 *
 * A user's choice is any setting of the GlobalValue before the program's: NS_GLOBAL_VALUE, a
 * GlobalValue::Bind() or SetValue() -- also to ns-3's own default ("ns3::MapScheduler",
 * "ns3::DefaultSimulatorImpl"), which is the user's way to say "ns-3's engine" -- or a parsed
 * `--SchedulerType=...`; GlobalValue::ResetInitialValue() undoes it. Nothing in the library
 * binds by itself: the programs call UseDefault(cmd), the Python module UseDefaults() when a
 * simulation starts (not at import).
 *
 * The simulator implementation is chosen the same way: DefaultSimulatorType() is
 * MlnetSimulatorImpl (ns-3's event loop without its per-event logging, EventId and lock; same
 * event order, same results), `--simulator=mlnet|ns3|<TypeId>` chooses, and ns-3's
 * `--SimulatorImplementationType=...` or NS_GLOBAL_VALUE still override it (e.g. a real-time
 * implementation is kept).
 */
class EventSchedulerHelper
{
  public:
    /// \return the scheduler mlnet's programs use unless told otherwise (a TypeId name)
    static std::string DefaultType();

    /// \return the TypeId names of ns-3's schedulers, in the order of the doc's table
    static const std::vector<std::string>& KnownTypes();

    /**
     * The TypeId name of a scheduler given by its full name ("ns3::HeapScheduler") or its
     * short name ("Heap", "PriorityQueue", case-sensitive).
     * \param name the user's text
     * \return the TypeId name; throws std::invalid_argument naming the accepted values if it is
     *         not an ns-3 event scheduler
     */
    static std::string Resolve(const std::string& name);

    /**
     * Bind "SchedulerType" to a scheduler (Resolve() rules; throws std::invalid_argument).
     * Takes effect when the simulator implementation is next created.
     * \param name the scheduler
     */
    static void Use(const std::string& name);

    /**
     * \return true if the user chose a scheduler: NS_GLOBAL_VALUE sets SchedulerType, or it
     *         was set (Bind, SetValue, a parsed --SchedulerType; to any value, ns-3's default
     *         included) by anything but UseDefaults()
     */
    static bool UserChose();

    /**
     * UseDefaults(), and add `--scheduler=NAME` and `--simulator=NAME` to cmd (call before
     * cmd.Parse()). A bad name prints the accepted values and ends the program with
     * CommandLine's "Invalid command-line argument" exit.
     * \param cmd the program's command line
     */
    static void UseDefault(CommandLine& cmd);

    /// \return the TypeId name "SchedulerType" is bound to now
    static std::string Current();

    /// \return the simulator implementation mlnet's programs use unless told otherwise
    static std::string DefaultSimulatorType();

    /**
     * The TypeId name of a simulator implementation: "mlnet" (MlnetSimulatorImpl), "ns3"
     * (ns-3's DefaultSimulatorImpl) or a TypeId name of a SimulatorImpl, except ns-3's
     * distributed (MPI) ones (see CheckSupportedSimulator()).
     * \param name the user's text
     * \return the TypeId name; throws std::invalid_argument naming the accepted values, or
     *         saying why an MPI implementation is refused, otherwise
     */
    static std::string ResolveSimulator(const std::string& name);

    /**
     * Bind "SimulatorImplementationType" (ResolveSimulator() rules; throws
     * std::invalid_argument). Takes effect when the simulator is next created.
     * \param name the implementation
     */
    static void UseSimulator(const std::string& name);

    /**
     * \return true if the user chose a simulator implementation: NS_GLOBAL_VALUE sets
     *         SimulatorImplementationType, or it was set (Bind, SetValue, a parsed
     *         --SimulatorImplementationType; to any value, ns-3's default included) by
     *         anything but UseDefaults()
     */
    static bool UserChoseSimulator();

    /// \return the TypeId name "SimulatorImplementationType" is bound to now
    static std::string CurrentSimulator();

    /**
     * Refuse ns-3's distributed (MPI) implementations (DistributedSimulatorImpl,
     * NullMessageSimulatorImpl, or a subclass), however they were selected: mlnet's topology
     * puts every node on system 0 and its channel has no remote counterpart, so every rank
     * would simulate the whole fabric. FabricHelper calls it before it installs a link (it
     * creates the simulator if none exists yet).
     * Throws std::invalid_argument saying why, if the simulator is one.
     */
    static void CheckSupportedSimulator();

    /**
     * Let MlnetSimulatorImpl back the process's heap with transparent huge pages (its
     * HugePages attribute, off by default: it changes the process's allocator for the rest of
     * its life, see HugePageHeap). For programs, which own their process (mlnet-run, the
     * examples, the benchmarks); call before cmd.Parse() so that
     * --ns3::MlnetSimulatorImpl::HugePages=false still overrides it. Same results either way.
     * \param enable whether to use huge pages
     */
    static void UseHugePages(bool enable = true);

    /**
     * Bind DefaultType() and DefaultSimulatorType() where the user chose nothing (UserChose(),
     * UserChoseSimulator()): what UseDefault() does, for programs without a CommandLine and
     * for the Python module, which calls it when a simulation starts.
     */
    static void UseDefaults();
};

} // namespace ns3

#endif /* MLNET_EVENT_SCHEDULER_HELPER_H */
