/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Shared plumbing of the mlnet benchmark programs: wall clock, peak RSS, executed-event count,
// packet-hop counter and the one-line JSON result printer.

#ifndef MLNET_BENCH_COMMON_H
#define MLNET_BENCH_COMMON_H

#include "ns3/event-scheduler-helper.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace bench
{

/// Monotonic wall clock.
class WallClock
{
  public:
    WallClock()
        : m_start(std::chrono::steady_clock::now())
    {
    }

    /// \return seconds since construction or the last Restart()
    double Seconds() const
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    }

    /// Start counting again from now.
    void Restart()
    {
        m_start = std::chrono::steady_clock::now();
    }

  private:
    std::chrono::steady_clock::time_point m_start;
};

/// \return peak resident set size of this process in MiB (VmHWM, or getrusage as a fallback)
double PeakRssMb();

/// \return CPU seconds (user + system) consumed by this process so far
double ProcessCpuSeconds();

/// \return current resident set size of this process in MiB (VmRSS)
double CurrentRssMb();

/**
 * Number of events the simulator has executed so far (Simulator::GetEventCount(): the default
 * simulator implementation increments it once per executed event, so it is exact and free).
 * \return executed events
 */
uint64_t ExecutedEvents();

/**
 * Packet-hop counter: one hop = one frame starting transmission on one link. mlnet's devices
 * count their frames themselves (FabricNetDevice::GetTxFrames(), also counted where
 * "PhyTxBegin" fires): UseFrameCounters() reads those, so the measured run carries no counting
 * cost. Mainline ns-3's PointToPointNetDevice has no such counter: ConnectAll() hooks a trace
 * sink (a plain increment of a global counter) to "PhyTxBegin" of every device, which costs
 * that run a callback per hop.
 */
class HopCounter
{
  public:
    /// \return hops counted since the last Reset()
    static uint64_t Get();
    /// Set the count to zero.
    static void Reset();

    /**
     * Count hops from the frame counters of every device of type T on every node.
     * \tparam T a device type with GetTxFrames() (FabricNetDevice)
     * \return number of devices read
     */
    template <typename T>
    static uint32_t UseFrameCounters()
    {
        std::vector<Ptr<T>> devs;
        for (auto it = NodeList::Begin(); it != NodeList::End(); ++it)
        {
            for (uint32_t i = 0; i < (*it)->GetNDevices(); ++i)
            {
                if (Ptr<T> dev = DynamicCast<T>((*it)->GetDevice(i)))
                {
                    devs.push_back(dev);
                }
            }
        }
        s_frames = [devs]() {
            uint64_t n = 0;
            for (const auto& d : devs)
            {
                n += d->GetTxFrames();
            }
            return n;
        };
        return uint32_t(devs.size());
    }

    /// The trace sink (a plain counter increment).
    static void Count(Ptr<const Packet> p);

    /**
     * Connect Count() to "PhyTxBegin" of every device of type T on every node.
     * \tparam T the device type (FabricNetDevice or PointToPointNetDevice)
     * \return number of devices hooked
     */
    template <typename T>
    static uint32_t ConnectAll()
    {
        uint32_t n = 0;
        for (auto it = NodeList::Begin(); it != NodeList::End(); ++it)
        {
            Ptr<Node> node = *it;
            for (uint32_t i = 0; i < node->GetNDevices(); ++i)
            {
                Ptr<T> dev = DynamicCast<T>(node->GetDevice(i));
                if (dev && dev->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&Count)))
                {
                    ++n;
                }
            }
        }
        return n;
    }

  private:
    static inline std::function<uint64_t()> s_frames; //!< the frame counters' sum, if used
    static inline uint64_t s_base{0};                 //!< their sum at the last Reset()
};

/// One result line: {"key": value, ...}, keys in insertion order.
class JsonLine
{
  public:
    JsonLine& Add(const std::string& key, const std::string& value); //!< a string value
    JsonLine& Add(const std::string& key, const char* value);        //!< a string value
    JsonLine& Add(const std::string& key, double value);             //!< a number
    JsonLine& Add(const std::string& key, uint64_t value);           //!< an integer
    JsonLine& Add(const std::string& key, int64_t value);            //!< an integer
    JsonLine& Add(const std::string& key, uint32_t value);           //!< an integer
    JsonLine& Add(const std::string& key, int value);                //!< an integer
    JsonLine& Add(const std::string& key, bool value);               //!< a boolean
    /// \return the line (without newline)
    std::string Str() const;
    /// Print the line and a newline to stdout and flush.
    void Print() const;

  private:
    std::vector<std::pair<std::string, std::string>> m_fields;
};

/**
 * Measurements common to every benchmark.
 */
struct RunStats
{
    double simTimeS{0};      //!< simulated seconds
    double buildWallS{0};    //!< wall seconds to build topology, routes and applications
    double runWallS{0};      //!< wall seconds inside Simulator::Run()
    double runCpuS{0};       //!< CPU seconds of this process inside Simulator::Run()
    uint64_t events{0};      //!< events executed during Run()
    uint64_t packetHops{0};  //!< frames that crossed a link during Run()
    double buildRssMb{0};    //!< resident set after the build, MiB
    double peakRssMb{0};     //!< peak resident set, MiB
    uint64_t floorEvents{0}; //!< trivial events of the event-loop floor (0: not measured)
    double floorWallS{0};    //!< wall seconds of the floor's Simulator::Run()
    double floorCpuS{0};     //!< CPU seconds of the floor's Simulator::Run()
};

/**
 * The bare event-loop floor: n trivial events (a static function that counts and schedules
 * its successor, with pseudo-random delays of 1 ps .. 2 us) through the configured scheduler,
 * keeping `population` events pending, in a simulator of its own that is destroyed before
 * returning (call it after Setup(), before building the scenario; the next simulator gets the
 * same scheduler). Fills s.floorEvents/floorWallS/floorCpuS.
 * \param scheduler the scheduler TypeId name given to Setup() \param n events to execute (0: do
 * nothing) \param population events pending at any time \param s filled in
 */
void MeasureEventFloor(const std::string& scheduler, uint64_t n, uint32_t population, RunStats& s);

/**
 * Start the JSON line with the fields every benchmark reports: bench, simulator,
 * simulator_impl (the ns-3 SimulatorImpl TypeId), sim_time_s,
 * wall_s (run), cpu_s (run), events, packet_hops, hops_per_wall_s, events_per_wall_s, peak_rss_mb,
 * build_wall_s, build_rss_mb; with a measured floor also floor_events, floor_events_per_wall_s,
 * floor_events_per_cpu_s, floor_ns_per_event (CPU), ns_per_hop (CPU) and hop_vs_floor (their
 * ratio: what one packet-hop costs in trivial events).
 * \param bench scenario name \param simulator "mlnet" or "mainline" \param s the measurements
 * \return the line (add scenario-specific fields, then Print())
 */
JsonLine StandardLine(const std::string& bench, const std::string& simulator, const RunStats& s);

/**
 * Common set-up at the start of main(): picosecond time resolution and the event scheduler
 * (EventSchedulerHelper::Use: binds "SchedulerType", so the simulators created after each
 * Simulator::Destroy() use it too; a bad name throws std::invalid_argument). The simulator
 * implementation is bound before the command line is parsed (EventSchedulerHelper::
 * UseDefaults(), in each program), so that --SimulatorImplementationType=... overrides it.
 * \param scheduler a name EventSchedulerHelper::Resolve() accepts ("ns3::MapScheduler", "Heap")
 */
void Setup(const std::string& scheduler);

/**
 * Run the simulation until stop and measure it (wall time, events, hops, RSS).
 * \param stop simulated stop time in seconds \param s filled in (buildWallS must be set before)
 */
void RunAndMeasure(double stop, RunStats& s);

/**
 * A random derangement of 0..n-1 (perm[i] != i), reproducible from the seed; the same seed
 * gives the same permutation in every program.
 * \param n size (>= 2) \param seed seed
 * \return the permutation
 */
std::vector<uint32_t> RandomDerangement(uint32_t n, uint32_t seed);

/// A flow of a traffic pattern: source host index, destination host index.
struct FlowPair
{
    uint32_t src; //!< source host index
    uint32_t dst; //!< destination host index
};

/**
 * The flows of a fat-tree traffic pattern, identical in every simulator.
 * \param pattern "permutation" (every host sends to one distinct other host, a random
 *        derangement) or "shuffle" (all-to-all: every host sends to every other host)
 * \param nHosts number of hosts \param seed seed of the permutation
 *
 * \return the flows (throws std::invalid_argument on an unknown pattern)
 */
std::vector<FlowPair> TrafficPattern(const std::string& pattern, uint32_t nHosts, uint32_t seed);

} // namespace bench
} // namespace ns3

#endif /* MLNET_BENCH_COMMON_H */
