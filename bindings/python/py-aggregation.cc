/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Python functions of in-network aggregation: the adder-tree timing model, and one in-network
// all-reduce on a leaf-spine or fat-tree (placement, hardware, trees, congestion control;
// values or size-only). Longer studies go through run_scenario() with the "aggregation"
// section and data-parallel-job mode "ina" (doc/aggregation.rst).

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"
#include "ns3/node-list.h"
#include "py-convert.h"
#include "py-parts.h"

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

/// The adder-tree timing model, for line-rate what-ifs without a simulation.
struct AdderTree
{
    Ptr<AdderTreeTimingModel> m;

    AdderTree(const py::object& lanes, double clockMhz, const py::object& depth,
              const std::string& type)
    {
        uint32_t l = uint32_t(CheckedUint(lanes, "lanes", 1, 65536));
        uint32_t d = uint32_t(CheckedUint(depth, "depth", 0, 4096));
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
    auto get = [&kw](const char* k, py::object def) -> py::object
    {
        return kw.contains(k) ? py::reinterpret_borrow<py::object>(kw[k]) : def;
    };
    static const std::set<std::string> known = {"topology",
                                                "k",
                                                "leaves",
                                                "spines",
                                                "hosts_per_leaf",
                                                "rate",
                                                "delay",
                                                "pfc",
                                                "placement",
                                                "lanes",
                                                "clock_mhz",
                                                "depth",
                                                "buffer_per_job",
                                                "input_buffer",
                                                "latency",
                                                "workers",
                                                "trees",
                                                "slots",
                                                "cc",
                                                "element_type",
                                                "scale_exponent",
                                                "values",
                                                "elements",
                                                "until",
                                                "seed"};
    for (const auto& item : kw)
    {
        std::string k = py::str(item.first);
        if (!known.count(k))
        {
            throw std::invalid_argument("aggregate(): unknown argument \"" + k + "\"");
        }
    }
    std::string topo = get("topology", py::str("leaf-spine")).cast<std::string>();
    std::string placement = get("placement", py::str("devices")).cast<std::string>();
    if (topo != "leaf-spine" && topo != "fat-tree")
    {
        throw std::invalid_argument("topology = \"" + topo + "\": must be leaf-spine or fat-tree");
    }
    if (placement != "devices" && placement != "switches")
    {
        throw std::invalid_argument("placement = \"" + placement
                                    + "\": must be devices or switches");
    }
    double rate = ParseRate(get("rate", py::str("100Gbps")), "rate");
    double delay = ParseTime(get("delay", py::str("1us")), "delay");
    bool pfc = get("pfc", py::bool_(true)).cast<bool>();
    uint32_t lanes = uint32_t(CheckedUint(get("lanes", py::int_(16)), "lanes", 1, 65536));
    double clock = get("clock_mhz", py::float_(300.0)).cast<double>();
    uint32_t depth = uint32_t(CheckedUint(get("depth", py::int_(12)), "depth", 0, 4096));
    AdderTreeTimingModel::Validate(clock * 1e6, lanes, depth);
    uint64_t bufferPerJob = CheckedUint(get("buffer_per_job", py::int_(2 << 20)), "buffer_per_job",
                                        1, uint64_t(1) << 36);
    uint64_t inputBuffer
        = CheckedUint(get("input_buffer", py::int_(1 << 20)), "input_buffer", 1, uint64_t(1) << 32);
    double latency = ParseTime(get("latency", py::str("250ns")), "latency");
    uint32_t trees = uint32_t(CheckedUint(get("trees", py::int_(1)), "trees", 1, 1024));
    uint32_t slots = uint32_t(CheckedUint(get("slots", py::int_(0)), "slots", 0, 65536));
    std::string cc = get("cc", py::str("dcqcn")).cast<std::string>();
    static const std::map<std::string, std::string> kCc = {{"dcqcn", "ns3::AggregationDcqcn"},
                                                           {"dctcp", "ns3::AggregationDctcp"},
                                                           {"none", "ns3::AggregationFixedWindow"}};
    if (!kCc.count(cc))
    {
        throw std::invalid_argument("cc = \"" + cc + "\": must be dcqcn, dctcp or none");
    }
    AggElementType type
        = ElementType(get("element_type", py::str("fp32")).cast<std::string>(), "element_type");
    uint32_t scale
        = uint32_t(CheckedUint(get("scale_exponent", py::int_(20)), "scale_exponent", 0, 64));
    double until = ParseTime(get("until", py::str("100ms")), "until");
    uint32_t seed = uint32_t(CheckedUint(get("seed", py::int_(1)), "seed", InputLimits::SEED));

    std::vector<std::vector<float>> values;
    if (kw.contains("values"))
    {
        for (const auto& row : py::reinterpret_borrow<py::iterable>(kw["values"]))
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
            uint32_t(CheckedUint(get("hosts_per_leaf", py::int_(2)), "hosts_per_leaf",
                                 InputLimits::HOSTS_PER_LEAF)));
    }
    std::vector<uint32_t> workers;
    if (kw.contains("workers"))
    {
        for (const auto& h : py::reinterpret_borrow<py::iterable>(kw["workers"]))
        {
            workers.push_back(uint32_t(CheckedUint(h, "workers[]", 0, t.hosts.GetN() - 1)));
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
        throw std::invalid_argument("values: one list per worker (" + std::to_string(workers.size())
                                    + ")");
    }
    uint64_t elements = values.empty() ? CheckedUint(get("elements", py::int_(1 << 20)), "elements",
                                                     1, uint64_t(1) << 40)
                                       : values.front().size();
    if (!values.empty() && kw.contains("elements")
        && CheckedUint(kw["elements"], "elements", 1, uint64_t(1) << 40) != elements)
    {
        Simulator::Destroy();
        throw std::invalid_argument("elements = " + std::string(py::str(kw["elements"]))
                                    + ": must equal the length of each values list ("
                                    + std::to_string(elements)
                                    + ") when values are given (or leave it out)");
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
        agg.SetTimingAttribute("Lanes", UintegerValue(lanes));
        agg.SetTimingAttribute("ClockFrequency", DoubleValue(clock * 1e6));
        agg.SetTimingAttribute("TreeDepth", UintegerValue(depth));
        agg.SetTimingAttribute("ElementType", EnumValue(type));
        agg.SetDeviceAttribute("InputBufferBytes", UintegerValue(inputBuffer));
        agg.SetLatency(ToTime(latency));
        agg.SetCongestionControl(kCc.at(cc));
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
                [&results, &done, &pending, w](uint64_t, const std::vector<float>& r)
                {
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
    py::class_<AdderTree>(m, "AdderTree",
                          "PANAMA's FPGA adder-tree datapath timing (no simulation)")
        .def(py::init<const py::object&, double, const py::object&, const std::string&>(),
             py::arg("lanes") = 16, py::arg("clock_mhz") = 300.0, py::arg("depth") = 12,
             py::arg("element_type") = "fp32")
        .def_property_readonly(
            "element_rate",
            [](const AdderTree& a)
            {
                return a.m->GetElementRate();
            },
            "elements summed per second: lanes x clock")
        .def_property_readonly(
            "byte_rate",
            [](const AdderTree& a)
            {
                return a.m->GetByteRate();
            },
            "input bytes per second: lanes x clock x element size")
        .def_property_readonly(
            "latency",
            [](const AdderTree& a)
            {
                return a.m->GetLatency().GetSeconds();
            },
            "pipeline latency (s)")
        .def("keeps_line_rate", &AdderTree::KeepsLineRate, py::arg("port_rate"),
             py::arg("elements") = 256,
             "True if chunks of `elements` arriving back to back at port_rate are summed as "
             "fast as they arrive")
        .def("__repr__",
             [](const AdderTree& a)
             {
                 return "<AdderTree " + a.m->Describe() + ">";
             });
    m.def(
        "aggregate",
        [](py::kwargs kw)
        {
            return Aggregate(kw);
        },
        "One in-network all-reduce (doc/aggregation.rst). Keyword arguments: topology "
        "('leaf-spine' | 'fat-tree'), k, leaves, spines, hosts_per_leaf, rate, delay, pfc, "
        "placement ('devices' | 'switches'), lanes, clock_mhz, depth, buffer_per_job, "
        "input_buffer, latency, workers (host indices), trees, slots, cc ('dcqcn' | 'dctcp' | "
        "'none'), element_type ('fp32' | 'fp16' | 'int32'), scale_exponent, values (one list "
        "per worker) or elements, until, seed. Returns a dict: completed, time (s), results "
        "(values mode), trees, workers, devices.");
}

} // namespace mlnetpy
