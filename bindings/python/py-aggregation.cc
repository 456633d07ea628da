/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Python functions of in-network aggregation: the adder-tree timing model, and one in-network
// all-reduce on a leaf-spine or fat-tree (placement, hardware, trees, congestion control;
// values or size-only). Longer studies go through run_scenario() with the "aggregation"
// section and data-parallel-job mode "ina" (doc/aggregation.rst).

#include "py-convert.h"
#include "py-parts.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"
#include "ns3/node-list.h"

#include <map>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace ns3;

namespace mlnetpy
{

namespace
{

AggElementType
ElementType(const std::string& s, const std::string& what)
{
    static const std::map<std::string, AggElementType> m = {{"fp32", AggElementType::FP32},
                                                            {"fp16", AggElementType::FP16},
                                                            {"int32", AggElementType::INT32}};
    auto it = m.find(s);
    if (it == m.end())
    {
        throw std::invalid_argument(what + " = \"" + s + "\": must be fp32, fp16 or int32");
    }
    return it->second;
}

/**
 * A setting with one name in JSON, Python and C++ (doc/scenario.rst, "One naming") that Python
 * also accepted under an older name: either may be given, not both.
 * \param now the value under the current name (None if absent) \param older under the older one
 * \param nowName the current name \param olderName the older name
 * \return the given value, or None
 */
py::object
Renamed(const py::object& now,
        const py::object& older,
        const std::string& nowName,
        const std::string& olderName)
{
    if (!now.is_none() && !older.is_none())
    {
        throw std::invalid_argument(olderName + " is the older name of " + nowName +
                                    ": give one of them, not both");
    }
    return now.is_none() ? older : now;
}

/// The adder-tree timing model, for line-rate what-ifs without a simulation.
struct AdderTree
{
    Ptr<AdderTreeTimingModel> m;

    AdderTree(const py::object& lanes,
              double clockMhz,
              const py::object& treeDepth,
              const std::string& type,
              const py::object& depth)
    {
        const TypeId tid = AdderTreeTimingModel::GetTypeId();
        uint32_t l =
            uint32_t(CheckedUint(lanes, "lanes", InputLimits::UintOfAttribute(tid, "Lanes")));
        const py::object td = Renamed(treeDepth, depth, "tree_depth", "depth");
        uint32_t d = uint32_t(CheckedUint(td.is_none() ? py::int_(12) : td,
                                          "tree_depth",
                                          InputLimits::UintOfAttribute(tid, "TreeDepth")));
        AdderTreeTimingModel::Validate(clockMhz * 1e6, l, d);
        m = CreateObject<AdderTreeTimingModel>();
        m->SetAttribute("Lanes", UintegerValue(l));
        m->SetAttribute("ClockFrequency", DoubleValue(clockMhz * 1e6));
        m->SetAttribute("TreeDepth", UintegerValue(d));
        m->SetAttribute("ElementType", EnumValue(ElementType(type, "element_type")));
    }

    bool KeepsLineRate(const py::object& rate, const py::object& elements) const
    {
        uint32_t e = uint32_t(CheckedUint(elements, "elements", 1, 4096));
        AggElementType t = m->GetElementType();
        uint32_t wire = e * AggElementBytes(t) + AggregationStackHeader::kSize + 38;
        return m->KeepsLineRate(ParseRate(rate, "port_rate"), e, wire);
    }
};

/// One in-network all-reduce; returns its completion time, results and counters.
py::dict
Aggregate(const py::dict& kw)
{
    SimulatorGuard::CheckFree("aggregate()");
    EventSchedulerHelper::UseDefaults(); // mlnet's engine, unless the user chose one
    if (NodeList::GetNNodes() != 0)
    {
        throw std::invalid_argument("aggregate() needs the simulator: close the live "
                                    "mlnet.Simulation first");
    }
    // The arguments: the scenario's keys in snake_case (doc/scenario.rst, "One naming"), and
    // the older names Python had for three of them.
    static const std::vector<std::string> known = {"topology",       "k",
                                                   "leaves",         "spines",
                                                   "hosts_per_leaf", "rate",
                                                   "delay",          "pfc",
                                                   "placement",      "timing",
                                                   "lanes",          "clock_mhz",
                                                   "tree_depth",     "element_type",
                                                   "buffer_per_job", "max_jobs",
                                                   "input_buffer",   "back_pressure",
                                                   "latency",        "max_slots",
                                                   "hosts",          "trees",
                                                   "slots",          "aggregation_cc",
                                                   "chunk_elements", "scale_exponent",
                                                   "values",         "elements",
                                                   "until",          "seed"};
    static const std::map<std::string, std::string> older = {{"depth", "tree_depth"},
                                                             {"cc", "aggregation_cc"},
                                                             {"workers", "hosts"}};
    py::dict args;
    for (const auto& item : kw)
    {
        std::string k = py::str(item.first);
        auto o = older.find(k);
        const std::string name = o == older.end() ? k : o->second;
        if (std::find(known.begin(), known.end(), name) == known.end())
        {
            std::string list;
            for (const std::string& a : known)
            {
                list += (list.empty() ? "" : ", ") + a;
            }
            throw std::invalid_argument("aggregate(): unknown argument \"" + k + "\" (accepted: " +
                                        list + "; older names: depth, cc, workers)");
        }
        if (args.contains(name.c_str()))
        {
            for (const auto& [was, now] : older)
            {
                if (now == name)
                {
                    Renamed(py::int_(0), py::int_(0), now, was); // throws: both given
                }
            }
        }
        args[name.c_str()] = item.second;
    }
    auto get = [&args](const char* k, py::object def) -> py::object {
        return args.contains(k) ? py::reinterpret_borrow<py::object>(args[k]) : def;
    };
    std::string topo = get("topology", py::str("leaf-spine")).cast<std::string>();
    std::string placement = get("placement", py::str("devices")).cast<std::string>();
    if (topo != "leaf-spine" && topo != "fat-tree")
    {
        throw std::invalid_argument("topology = \"" + topo + "\": must be leaf-spine or fat-tree");
    }
    if (placement != "devices" && placement != "switches")
    {
        throw std::invalid_argument("placement = \"" + placement +
                                    "\": must be devices or switches");
    }
    double rate = ParseRate(get("rate", py::str("100Gbps")), "rate");
    double delay = ParseTime(get("delay", py::str("1us")), "delay");
    bool pfc = get("pfc", py::bool_(true)).cast<bool>();
    // The ranges are the attributes' checkers' (one place), as the scenario parser's.
    const TypeId adder = AdderTreeTimingModel::GetTypeId();
    const TypeId engine = AggregationEngine::GetTypeId();
    const TypeId device = AggregationDevice::GetTypeId();
    const TypeId worker = AggregationWorker::GetTypeId();
    const std::string timing =
        get("timing", py::str(placement == "devices" ? "adder-tree" : "line-rate"))
            .cast<std::string>();
    if (timing != "adder-tree" && timing != "line-rate")
    {
        throw std::invalid_argument("timing = \"" + timing + "\": must be adder-tree or line-rate");
    }
    uint32_t lanes = uint32_t(CheckedUint(get("lanes", py::int_(16)),
                                          "lanes",
                                          InputLimits::UintOfAttribute(adder, "Lanes")));
    double clock = get("clock_mhz", py::float_(300.0)).cast<double>();
    uint32_t depth = uint32_t(CheckedUint(get("tree_depth", py::int_(12)),
                                          "tree_depth",
                                          InputLimits::UintOfAttribute(adder, "TreeDepth")));
    AdderTreeTimingModel::Validate(clock * 1e6, lanes, depth);
    uint64_t bufferPerJob = CheckedUint(get("buffer_per_job", py::int_(2 << 20)),
                                        "buffer_per_job",
                                        InputLimits::UintOfAttribute(engine, "BufferBytesPerJob"));
    uint32_t maxJobs = uint32_t(CheckedUint(get("max_jobs", py::int_(16)),
                                            "max_jobs",
                                            InputLimits::UintOfAttribute(engine, "MaxJobs")));
    uint64_t inputBuffer = CheckedUint(get("input_buffer", py::int_(1 << 20)),
                                       "input_buffer",
                                       InputLimits::UintOfAttribute(device, "InputBufferBytes"));
    bool backPressure = get("back_pressure", py::bool_(true)).cast<bool>();
    double latency = ParseTime(get("latency", py::str("250ns")), "latency");
    uint32_t maxSlots = uint32_t(
        CheckedUint(get("max_slots", py::int_(512)), "max_slots", InputLimits::AGG_MAX_SLOTS));
    uint32_t trees =
        uint32_t(CheckedUint(get("trees", py::int_(1)), "trees", InputLimits::AGG_TREES));
    uint32_t slots =
        uint32_t(CheckedUint(get("slots", py::int_(0)), "slots", InputLimits::AGG_SLOTS));
    std::string cc = get("aggregation_cc", py::str("dcqcn")).cast<std::string>();
    static const std::map<std::string, std::string> kCc = {{"dcqcn", "ns3::AggregationDcqcn"},
                                                           {"dctcp", "ns3::AggregationDctcp"},
                                                           {"none", "ns3::AggregationFixedWindow"}};
    if (!kCc.count(cc))
    {
        throw std::invalid_argument("aggregation_cc = \"" + cc +
                                    "\": must be dcqcn, dctcp or none");
    }
    uint32_t chunk = uint32_t(CheckedUint(get("chunk_elements", py::int_(256)),
                                          "chunk_elements",
                                          InputLimits::UintOfAttribute(worker, "ChunkElements")));
    AggElementType type =
        ElementType(get("element_type", py::str("fp32")).cast<std::string>(), "element_type");
    uint32_t scale = uint32_t(CheckedUint(get("scale_exponent", py::int_(20)),
                                          "scale_exponent",
                                          InputLimits::AGG_SCALE_EXPONENT));
    double until = ParseTime(get("until", py::str("100ms")), "until");
    uint32_t seed = uint32_t(CheckedUint(get("seed", py::int_(1)), "seed", InputLimits::SEED));

    std::vector<std::vector<float>> values;
    if (args.contains("values"))
    {
        for (const auto& row : py::reinterpret_borrow<py::iterable>(args["values"]))
        {
            values.push_back(py::cast<std::vector<float>>(row));
        }
    }
    RngSeedManager::SetRun(seed);
    FabricTopologyHelper th;
    th.SetHostLinkRate(DataRate(uint64_t(rate)));
    th.SetFabricLinkRate(DataRate(uint64_t(rate)));
    th.SetLinkDelay(ToTime(delay));
    th.Fabric().SetSwitchAttribute("PfcEnabled", BooleanValue(pfc));
    FabricTopology t;
    if (topo == "fat-tree")
    {
        t = th.BuildFatTree(
            uint32_t(CheckedUint(get("k", py::int_(4)), "k", InputLimits::FAT_TREE_K)));
    }
    else
    {
        t = th.BuildLeafSpine(
            uint32_t(CheckedUint(get("leaves", py::int_(2)), "leaves", InputLimits::LEAVES)),
            uint32_t(CheckedUint(get("spines", py::int_(2)), "spines", InputLimits::SPINES)),
            uint32_t(CheckedUint(get("hosts_per_leaf", py::int_(2)),
                                 "hosts_per_leaf",
                                 InputLimits::HOSTS_PER_LEAF)));
    }
    std::vector<uint32_t> workers;
    if (args.contains("hosts"))
    {
        for (const auto& h : py::reinterpret_borrow<py::iterable>(args["hosts"]))
        {
            workers.push_back(uint32_t(CheckedUint(h, "hosts[]", 0, t.hosts.GetN() - 1)));
        }
    }
    else
    {
        for (uint32_t h = 0; h < t.hosts.GetN(); ++h)
        {
            workers.push_back(h);
        }
    }
    if (!values.empty() && values.size() != workers.size())
    {
        Simulator::Destroy();
        throw std::invalid_argument("values: one list per host (" + std::to_string(workers.size()) +
                                    ")");
    }
    uint64_t elements =
        values.empty()
            ? CheckedUint(get("elements", py::int_(1 << 20)), "elements", 1, uint64_t(1) << 40)
            : values.front().size();
    if (!values.empty() && args.contains("elements") &&
        CheckedUint(args["elements"], "elements", 1, uint64_t(1) << 40) != elements)
    {
        Simulator::Destroy();
        throw std::invalid_argument("elements = " + std::string(py::str(args["elements"])) +
                                    ": must equal the length of each values list (" +
                                    std::to_string(elements) +
                                    ") when values are given (or leave it out)");
    }
    for (const auto& v : values)
    {
        if (v.size() != elements || elements == 0)
        {
            Simulator::Destroy();
            throw std::invalid_argument("values: every worker needs the same number (>= 1) of "
                                        "elements");
        }
    }
    py::dict out;
    try
    {
        AggregationHelper agg;
        agg.SetNodeNames(t.NodeNames()); // "core0", "host3", as the other outputs
        agg.SetEngineAttribute("BufferBytesPerJob", UintegerValue(bufferPerJob));
        agg.SetEngineAttribute("MaxJobs", UintegerValue(maxJobs));
        if (timing == "line-rate")
        {
            agg.SetTimingModel("ns3::LineRateTimingModel");
        }
        else
        {
            agg.SetTimingModel("ns3::AdderTreeTimingModel");
            agg.SetTimingAttribute("Lanes", UintegerValue(lanes));
            agg.SetTimingAttribute("ClockFrequency", DoubleValue(clock * 1e6));
            agg.SetTimingAttribute("TreeDepth", UintegerValue(depth));
        }
        agg.SetTimingAttribute("ElementType", EnumValue(type));
        agg.SetDeviceAttribute("InputBufferBytes", UintegerValue(inputBuffer));
        agg.SetDeviceAttribute("BackPressure", BooleanValue(backPressure));
        agg.SetLatency(ToTime(latency));
        agg.SetMaxSlots(maxSlots);
        agg.SetCongestionControl(kCc.at(cc));
        agg.SetWorkerAttribute("ChunkElements", UintegerValue(chunk));
        agg.SetWorkerAttribute("ElementType", EnumValue(type));
        agg.SetWorkerAttribute("ScaleExponent", IntegerValue(int32_t(scale)));
        if (placement == "devices")
        {
            agg.InstallDevices(t.edge, "up");
            agg.InstallDevices(t.agg, "up");
            agg.InstallDevices(t.core, "all");
        }
        else
        {
            agg.InstallInSwitch(t.switches);
        }
        NodeContainer nodes;
        for (uint32_t h : workers)
        {
            nodes.Add(t.hosts.Get(h));
        }
        Ptr<InNetworkAggregator> job = agg.InstallJob(nodes, 1, trees, slots);
        const auto& ws = job->GetWorkers();
        std::vector<std::vector<float>> results(ws.size());
        Time done;
        uint32_t pending = ws.size();
        for (uint32_t w = 0; w < ws.size(); ++w)
        {
            AggregationWorker::DoneCallback cb(
                [&results, &done, &pending, w](uint64_t, const std::vector<float>& r) {
                    results[w] = r;
                    if (--pending == 0)
                    {
                        done = Simulator::Now();
                    }
                });
            if (values.empty())
            {
                ws[w]->Post(elements, 3, cb);
            }
            else
            {
                ws[w]->PostValues(values[w], 3, cb);
            }
        }
        {
            SimulatorGuard::Running running("aggregate()");
            py::gil_scoped_release release;
            Simulator::Stop(ToTime(until));
            Simulator::Run();
        }
        out["completed"] = pending == 0;
        out["time"] = pending == 0 ? py::object(py::float_(done.GetSeconds())) : py::none();
        if (!values.empty())
        {
            out["results"] = results;
        }
        py::list tl;
        for (const auto& ti : job->GetTrees())
        {
            py::dict d;
            d["tree"] = ti.treeId;
            d["root_switch"] = ti.rootSwitch;
            d["slots"] = ti.slots;
            d["points"] = ti.points;
            d["depth"] = ti.depth;
            tl.append(d);
        }
        out["trees"] = tl;
        py::list wl;
        for (const auto& w : ws)
        {
            const AggregationWorkerStats& s = w->GetStats();
            py::dict d;
            d["chunks_sent"] = s.chunksSent;
            d["retransmitted"] = s.retransmitted;
            d["timeouts"] = s.timeouts;
            d["results"] = s.results;
            d["marked_results"] = s.markedResults;
            wl.append(d);
        }
        out["workers"] = wl;
        py::list dl;
        const NetDeviceContainer ports = AggregationHelper::GetDevices();
        for (auto it = ports.Begin(); it != ports.End(); ++it)
        {
            Ptr<AggregationDevice> dev = AggregationHelper::Get(*it);
            const AggregationEngineStats& e = dev->GetEngine()->GetStats();
            const AggregationDeviceStats& s = dev->GetStats();
            py::dict d;
            d["name"] = dev->GetEngine()->GetName();
            d["contributions"] = e.contributionsRx;
            d["partials_sent"] = e.partialsTx;
            d["results_sent"] = e.resultsTx;
            d["pass_through"] = s.passThrough[0] + s.passThrough[1];
            d["pauses"] = s.pauses;
            d["max_input_bytes"] = s.maxInputBytes;
            d["drops"] = s.drops;
            dl.append(d);
        }
        out["devices"] = dl;
    }
    catch (...)
    {
        Simulator::Destroy();
        throw;
    }
    Simulator::Destroy();
    return out;
}

} // namespace

void
RegisterAggregation(py::module_& m)
{
    py::class_<AdderTree>(m,
                          "AdderTree",
                          "PANAMA's FPGA adder-tree datapath timing (no simulation)")
        .def(
            py::init<const py::object&,
                     double,
                     const py::object&,
                     const std::string&,
                     const py::object&>(),
            py::arg("lanes") = 16,
            py::arg("clock_mhz") = 300.0,
            py::arg("tree_depth") = py::none(),
            py::arg("element_type") = "fp32",
            py::arg("depth") = py::none(),
            "lanes, clock_mhz, tree_depth (default 12; older name: depth) and element_type, as the "
            "scenario's aggregation section (lanes, clockMHz, treeDepth, elementType)")
        .def_property_readonly(
            "element_rate",
            [](const AdderTree& a) { return a.m->GetElementRate(); },
            "elements summed per second: lanes x clock")
        .def_property_readonly(
            "byte_rate",
            [](const AdderTree& a) { return a.m->GetByteRate(); },
            "input bytes per second: lanes x clock x element size")
        .def_property_readonly(
            "latency",
            [](const AdderTree& a) { return a.m->GetLatency().GetSeconds(); },
            "pipeline latency (s)")
        .def("keeps_line_rate",
             &AdderTree::KeepsLineRate,
             py::arg("port_rate"),
             py::arg("elements") = 256,
             "True if chunks of `elements` arriving back to back at port_rate are summed as "
             "fast as they arrive")
        .def("__repr__", [](const AdderTree& a) { return "<AdderTree " + a.m->Describe() + ">"; });
    m.def(
        "aggregate",
        [](py::kwargs kw) { return Aggregate(kw); },
        "One in-network all-reduce (doc/aggregation.rst). Keyword arguments: topology "
        "('leaf-spine' | 'fat-tree'), k, leaves, spines, hosts_per_leaf, rate, delay, pfc; the "
        "aggregation section's keys in snake_case: placement ('devices' | 'switches'), timing "
        "('adder-tree' | 'line-rate', default by placement), lanes, clock_mhz, tree_depth, "
        "element_type ('fp32' | 'fp16' | 'int32'), buffer_per_job, max_jobs, input_buffer, "
        "back_pressure, latency, max_slots; the job's: hosts (host indices), trees, slots, "
        "aggregation_cc ('dcqcn' | 'dctcp' | 'none'), chunk_elements, scale_exponent; values "
        "(one list per host) or elements, until, seed. Older names: depth, cc, workers. "
        "Returns a dict: completed, time (s), results "
        "(values mode), trees, workers, devices.");
}

} // namespace mlnetpy
