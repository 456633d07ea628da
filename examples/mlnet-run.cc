/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// mlnet-run: run a JSON scenario (or the built-in default), print a summary table, and write
// summary.json, flows.csv and ports.csv into the output directory.
//
//   mlnet-run [--scenario=FILE | FILE] [--out=DIR] [--seed=N | --RngRun=N] [--quiet]
//             [--print-default] [--print-trace-sources] [--scheduler=NAME]
//
// --scheduler: event scheduler (ns-3's Map, Heap, List, Calendar, PriorityQueue; mlnet's
// QuadHeap, TimingWheel; default TimingWheel, the fastest measured: doc/performance.rst); it
// changes speed, not results.
//
// --RngRun=N is --seed=N (ns-3's usual option; both given must agree).
//
// Bad input (unknown key, wrong type, out-of-range value, missing file, bad JSON, bad --seed,
// an --out directory that cannot be written, checked before the run) prints one
// line "mlnet-run: error: <message>" on stderr and exits with status 2. The scenario format is
// described in doc/scenario.rst.

#include "ns3/command-line.h"
#include "ns3/event-scheduler-helper.h"
#include "ns3/input-limits.h"
#include "ns3/scenario-runner.h"
#include "ns3/scenario.h"
#include "ns3/stats-writer.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <exception>
#include <iostream>
#include <stdexcept>

using namespace ns3;

namespace
{
/// --seed or --RngRun: an integer in InputLimits::SEED (CommandLine would wrap "-1" to
/// 4294967295).
uint32_t
ParseSeed(const std::string& option, const std::string& text)
{
    const std::string what = "--" + option + "=" + text + ": must be an integer in [" +
                             std::to_string(InputLimits::SEED.lo) + ", " +
                             std::to_string(InputLimits::SEED.hi) + "]";
    if (text.empty() || text.size() > 10 ||
        text.find_first_not_of("0123456789") != std::string::npos)
    {
        throw std::invalid_argument(what);
    }
    const uint64_t v = std::stoull(text);
    if (v < InputLimits::SEED.lo || v > InputLimits::SEED.hi)
    {
        throw std::invalid_argument(what);
    }
    return static_cast<uint32_t>(v);
}

/// One line per trace source of a TypeId of the group "Mlnet" (doc/trace-sources.rst is
/// generated from this by contrib-scripts/trace-sources.py).
void
PrintTraceSources(std::ostream& os)
{
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        if (tid.GetGroupName() != "Mlnet")
        {
            continue;
        }
        for (std::size_t j = 0; j < tid.GetTraceSourceN(); ++j)
        {
            const TypeId::TraceSourceInformation info = tid.GetTraceSource(j);
            os << tid.GetName() << "\t" << info.name << "\t" << info.callback << "\t" << info.help
               << "\n";
        }
    }
}

int
Main(int argc, char* argv[])
{
    std::string scenarioOption;
    std::string scenarioArg;
    std::string out;
    std::string seedText;
    std::string rngRunText;
    std::string backend;
    bool quiet = false;
    bool printDefault = false;
    bool printTraceSources = false;

    CommandLine cmd(__FILE__);
    // ns-3's fastest event scheduler for these runs (doc/performance.rst); --scheduler=... and
    // --SchedulerType=... override it.
    EventSchedulerHelper::UseDefault(cmd);
    EventSchedulerHelper::UseHugePages(); // this process is ours: huge pages for the heap
    cmd.Usage("Run an mlnet scenario (JSON; the built-in default without one) and write "
              "summary.json, flows.csv and ports.csv.");
    cmd.AddValue("scenario", "JSON scenario file (default: the built-in scenario)", scenarioOption);
    cmd.AddValue("out", "Output directory (default: the scenario's output.dir, ./mlnet-out)", out);
    cmd.AddValue("seed",
                 "Override the scenario's seed (RngRun, an integer in [1, 4294967295])",
                 seedText);
    // ns-3's own run-number option, as the examples take it: here a program option (CommandLine
    // looks its options up before global values), so the runner's RngRun = seed cannot undo it.
    cmd.AddValue("RngRun",
                 "Same as --seed (ns-3's run number; the scenario's seed is the RngRun)",
                 rngRunText);
    cmd.AddValue("backend",
                 "Override the scenario's backend: packet or flow (the file is validated again "
                 "with it: what the flow backend does not model is refused)",
                 backend);
    cmd.AddValue("quiet", "Print no progress and no table (files only)", quiet);
    cmd.AddValue("print-default",
                 "Print the built-in default scenario as JSON and exit",
                 printDefault);
    cmd.AddValue("print-trace-sources",
                 "Print every trace source of mlnet's classes (type, name, callback signature "
                 "type, help; tab-separated) and exit",
                 printTraceSources);
    cmd.AddNonOption("file", "JSON scenario file (same as --scenario)", scenarioArg);
    cmd.Parse(argc, argv);

    if (printTraceSources)
    {
        PrintTraceSources(std::cout);
        return 0;
    }
    if (printDefault)
    {
        std::cout << Scenario::DefaultJson() << std::endl;
        return 0;
    }
    if (!scenarioOption.empty() && !scenarioArg.empty() && scenarioOption != scenarioArg)
    {
        throw std::invalid_argument("give the scenario either as --scenario=FILE or as FILE, "
                                    "not both");
    }
    const std::string file = scenarioOption.empty() ? scenarioArg : scenarioOption;

    ScenarioConfig cfg = file.empty() ? Scenario::Default() : Scenario::Load(file);
    if (!backend.empty())
    {
        if (backend != "packet" && backend != "flow")
        {
            throw std::invalid_argument("--backend=" + backend +
                                        " is out of range (must be packet or flow)");
        }
        nlohmann::json j = nlohmann::json::parse(cfg.json);
        j["backend"] = backend;
        const std::string name = cfg.name;
        cfg = Scenario::Parse(j);
        cfg.name = name;
    }
    if (!seedText.empty())
    {
        cfg.seed = ParseSeed("seed", seedText);
    }
    if (!rngRunText.empty())
    {
        const uint32_t run = ParseSeed("RngRun", rngRunText);
        if (!seedText.empty() && run != cfg.seed)
        {
            throw std::invalid_argument("--seed=" + seedText + " and --RngRun=" + rngRunText +
                                        " disagree: they are the same setting, give one");
        }
        cfg.seed = run;
    }
    const std::string dir = out.empty() ? cfg.output.dir : out;
    // Before the run, not after it: a bad --out must not cost the results.
    ScenarioRunner::PrepareOutputDir(dir);

    ScenarioRunner runner(cfg);
    runner.SetProgress(!quiet, std::cerr);
    if (!quiet)
    {
        std::cerr << "mlnet-run: " << cfg.name << " (" << cfg.topology.Describe() << ")"
                  << std::endl;
    }
    const ScenarioResult result = runner.Run();
    const std::vector<std::string> files = ScenarioRunner::WriteResults(result, cfg, dir);
    for (const std::string& w : result.summary.warnings)
    {
        std::cerr << "mlnet-run: warning: " << w << std::endl;
    }
    if (!quiet)
    {
        StatsWriter::WriteSummaryTable(std::cout, result.summary);
        std::cout << "wrote";
        for (const std::string& f : files)
        {
            std::cout << " " << f;
        }
        std::cout << std::endl;
    }
    return 0;
}
} // namespace

int
main(int argc, char* argv[])
{
    try
    {
        return Main(argc, argv);
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "mlnet-run: error: " << e.what() << std::endl;
        return 2;
    }
    catch (const std::exception& e)
    {
        std::cerr << "mlnet-run: error: " << e.what() << std::endl;
        return 1;
    }
}
