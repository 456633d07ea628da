/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bench-common.h"

#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>
#include <sys/resource.h>
#include <time.h>

namespace ns3
{
namespace bench
{

namespace
{
uint64_t g_hops = 0;

/// State of the event-loop floor (MeasureEventFloor).
uint64_t g_floorLeft = 0;
uint64_t g_floorRng = 0x9e3779b97f4a7c15ULL;

/// One trivial event: count it and schedule the successor (xorshift delay in 1 ps .. 2 us).
void
FloorEvent()
{
    if (g_floorLeft == 0)
    {
        return;
    }
    --g_floorLeft;
    g_floorRng ^= g_floorRng << 13;
    g_floorRng ^= g_floorRng >> 7;
    g_floorRng ^= g_floorRng << 17;
    Simulator::Schedule(PicoSeconds(1 + int64_t(g_floorRng % 2000000)), &FloorEvent);
}

/// \return the value in kB of a "Name:   123 kB" line of /proc/self/status, or -1
double
ProcStatusKb(const std::string& name)
{
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
    {
        if (line.compare(0, name.size(), name) == 0 && line.size() > name.size() &&
            line[name.size()] == ':')
        {
            return std::strtod(line.c_str() + name.size() + 1, nullptr);
        }
    }
    return -1;
}

std::string
Quote(const std::string& s)
{
    std::string out = "\"";
    for (char c : s)
    {
        if (c == '"' || c == '\\')
        {
            out += '\\';
        }
        out += c;
    }
    return out + "\"";
}
} // namespace

double
PeakRssMb()
{
    double kb = ProcStatusKb("VmHWM");
    if (kb < 0)
    {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        kb = double(ru.ru_maxrss); // kB on Linux
    }
    return kb / 1024.0;
}

double
ProcessCpuSeconds()
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

double
CurrentRssMb()
{
    double kb = ProcStatusKb("VmRSS");
    return kb < 0 ? 0.0 : kb / 1024.0;
}

uint64_t
ExecutedEvents()
{
    return Simulator::GetEventCount();
}

uint64_t
HopCounter::Get()
{
    return s_frames ? s_frames() - s_base : g_hops;
}

void
HopCounter::Reset()
{
    g_hops = 0;
    s_base = s_frames ? s_frames() : 0;
}

void
HopCounter::Count(Ptr<const Packet> /* p */)
{
    ++g_hops;
}

JsonLine&
JsonLine::Add(const std::string& key, const std::string& value)
{
    m_fields.emplace_back(key, Quote(value));
    return *this;
}

JsonLine&
JsonLine::Add(const std::string& key, const char* value)
{
    return Add(key, std::string(value));
}

JsonLine&
JsonLine::Add(const std::string& key, double value)
{
    if (!std::isfinite(value))
    {
        m_fields.emplace_back(key, "null");
        return *this;
    }
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.6g", value);
    m_fields.emplace_back(key, buf);
    return *this;
}

JsonLine&
JsonLine::Add(const std::string& key, uint64_t value)
{
    m_fields.emplace_back(key, std::to_string(value));
    return *this;
}

JsonLine&
JsonLine::Add(const std::string& key, int64_t value)
{
    m_fields.emplace_back(key, std::to_string(value));
    return *this;
}

JsonLine&
JsonLine::Add(const std::string& key, uint32_t value)
{
    return Add(key, uint64_t(value));
}

JsonLine&
JsonLine::Add(const std::string& key, int value)
{
    return Add(key, int64_t(value));
}

JsonLine&
JsonLine::Add(const std::string& key, bool value)
{
    m_fields.emplace_back(key, value ? "true" : "false");
    return *this;
}

std::string
JsonLine::Str() const
{
    std::ostringstream os;
    os << "{";
    for (std::size_t i = 0; i < m_fields.size(); ++i)
    {
        os << (i ? ", " : "") << Quote(m_fields[i].first) << ": " << m_fields[i].second;
    }
    os << "}";
    return os.str();
}

void
JsonLine::Print() const
{
    std::cout << Str() << std::endl;
}

JsonLine
StandardLine(const std::string& bench, const std::string& simulator, const RunStats& s)
{
    JsonLine j;
    j.Add("bench", bench)
        .Add("simulator", simulator)
        .Add("simulator_impl", EventSchedulerHelper::CurrentSimulator())
        .Add("sim_time_s", s.simTimeS)
        .Add("wall_s", s.runWallS)
        .Add("cpu_s", s.runCpuS)
        .Add("events", s.events)
        .Add("packet_hops", s.packetHops)
        .Add("hops_per_wall_s", s.runWallS > 0 ? double(s.packetHops) / s.runWallS : 0.0)
        .Add("hops_per_cpu_s", s.runCpuS > 0 ? double(s.packetHops) / s.runCpuS : 0.0)
        .Add("events_per_wall_s", s.runWallS > 0 ? double(s.events) / s.runWallS : 0.0)
        .Add("events_per_hop", s.packetHops > 0 ? double(s.events) / double(s.packetHops) : 0.0)
        .Add("peak_rss_mb", s.peakRssMb)
        .Add("build_wall_s", s.buildWallS)
        .Add("build_rss_mb", s.buildRssMb);
    if (s.floorEvents > 0 && s.floorCpuS > 0 && s.floorWallS > 0)
    {
        double floorNs = s.floorCpuS * 1e9 / double(s.floorEvents);
        double hopNs = s.packetHops > 0 ? s.runCpuS * 1e9 / double(s.packetHops) : 0.0;
        j.Add("floor_events", s.floorEvents)
            .Add("floor_events_per_wall_s", double(s.floorEvents) / s.floorWallS)
            .Add("floor_events_per_cpu_s", double(s.floorEvents) / s.floorCpuS)
            .Add("floor_ns_per_event", floorNs)
            .Add("ns_per_hop", hopNs)
            .Add("hop_vs_floor", hopNs / floorNs);
    }
    return j;
}

void
Setup(const std::string& scheduler)
{
    Time::SetResolution(Time::PS);
    EventSchedulerHelper::Use(scheduler); // the implementation: UseDefaults() before Parse
}

void
MeasureEventFloor(const std::string& scheduler, uint64_t n, uint32_t population, RunStats& s)
{
    if (n == 0)
    {
        return;
    }
    population = std::max<uint32_t>(1, std::min<uint64_t>(population, n));
    // Every executed event but the first `population` ones was scheduled by a FloorEvent: n
    // events in all, then the last `population` calls find nothing left and stop.
    g_floorLeft = n - population;
    g_floorRng = 0x9e3779b97f4a7c15ULL;
    for (uint32_t i = 0; i < population; ++i)
    {
        Simulator::Schedule(PicoSeconds(1 + i), &FloorEvent);
    }
    uint64_t ev0 = ExecutedEvents();
    double cpu0 = ProcessCpuSeconds();
    WallClock clock;
    Simulator::Run();
    s.floorWallS = clock.Seconds();
    s.floorCpuS = ProcessCpuSeconds() - cpu0;
    s.floorEvents = ExecutedEvents() - ev0;
    Simulator::Destroy(); // the scenario starts from a fresh simulator (same SchedulerType)
}

void
RunAndMeasure(double stop, RunStats& s)
{
    s.buildRssMb = CurrentRssMb();
    HopCounter::Reset();
    Simulator::Stop(Seconds(stop));
    uint64_t ev0 = ExecutedEvents();
    double cpu0 = ProcessCpuSeconds();
    WallClock clock;
    Simulator::Run();
    s.runWallS = clock.Seconds();
    s.runCpuS = ProcessCpuSeconds() - cpu0;
    s.events = ExecutedEvents() - ev0;
    s.packetHops = HopCounter::Get();
    s.simTimeS = Simulator::Now().GetSeconds();
    s.peakRssMb = PeakRssMb();
}

std::vector<uint32_t>
RandomDerangement(uint32_t n, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<uint32_t> p(n);
    // Sattolo's algorithm: a uniformly random single cycle, hence no fixed point.
    std::iota(p.begin(), p.end(), 0u);
    for (uint32_t i = n - 1; i > 0; --i)
    {
        std::uniform_int_distribution<uint32_t> d(0, i - 1);
        std::swap(p[i], p[d(rng)]);
    }
    return p;
}

std::vector<FlowPair>
TrafficPattern(const std::string& pattern, uint32_t nHosts, uint32_t seed)
{
    std::vector<FlowPair> flows;
    if (pattern == "permutation")
    {
        std::vector<uint32_t> perm = RandomDerangement(nHosts, seed);
        for (uint32_t i = 0; i < nHosts; ++i)
        {
            flows.push_back({i, perm[i]});
        }
    }
    else if (pattern == "shuffle")
    {
        flows.reserve(std::size_t(nHosts) * (nHosts - 1));
        for (uint32_t i = 0; i < nHosts; ++i)
        {
            for (uint32_t d = 1; d < nHosts; ++d)
            {
                flows.push_back({i, (i + d) % nHosts});
            }
        }
    }
    else
    {
        throw std::invalid_argument("unknown traffic pattern '" + pattern +
                                    "' (permutation, shuffle)");
    }
    return flows;
}

} // namespace bench
} // namespace ns3
