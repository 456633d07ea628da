/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// pybind11 module `mlnet`: a Pythonic layer over the mlnet C++ helpers for quick experiments.
//
// Every user input is validated here before it reaches ns-3, whose parsers and attribute
// setters abort the process on bad values (Debian's ns-3 also has NS_ASSERT compiled out, so
// misuse segfaults). Errors are raised as std::invalid_argument, which pybind11 turns into
// ValueError.

#include "py-convert.h"
#include "py-parts.h"

#include "ns3/core-module.h"
#include "ns3/dcqcn-profile.h"
#include "ns3/dnn-model.h"
#include "ns3/event-scheduler-helper.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/gpu-profile.h"
#include "ns3/model-zoo.h"
#include "ns3/periodic-job.h"
#include "ns3/rdma-cc-catalog.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulation-session.h"
#include "ns3/tensor-order-factory.h"
#include "ns3/tensor-order-policy.h"

#if __has_include("ns3/scenario-runner.h") && __has_include("ns3/stats-writer.h")
#include "ns3/port-classes.h"
#include "ns3/scenario-runner.h"
#include "ns3/scenario.h"
#include "ns3/stats-writer.h"
#define MLNET_PY_HAVE_SCENARIO 1
#endif

#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace ns3;
using namespace mlnetpy;

namespace
{

// ---------------------------------------------------------------------------------------------
// Tensor order
// ---------------------------------------------------------------------------------------------

py::list
TensorOrder(const std::string& policy,
            const std::vector<uint64_t>& params,
            const std::vector<double>& fwd,
            const std::vector<double>& bwd,
            uint32_t bytesPerParameter,
            uint32_t classes)
{
    // "tictac" is accepted as a synonym of "tac", as in earlier versions of this module.
    Ptr<TensorOrderPolicy> p = CreateTensorOrderPolicy(policy == "tictac" ? "tac" : policy);
    if (params.empty() || params.size() != fwd.size() || params.size() != bwd.size())
    {
        throw std::invalid_argument("layer_parameters, forward_times and backward_times must be "
                                    "non-empty and of the same length");
    }
    for (std::size_t i = 0; i < params.size(); ++i)
    {
        if (params[i] == 0 || !(fwd[i] >= 0) || !(bwd[i] >= 0) || !std::isfinite(fwd[i]) ||
            !std::isfinite(bwd[i]))
        {
            throw std::invalid_argument("layer " + std::to_string(i) +
                                        ": parameters must be > 0 and times finite and >= 0");
        }
    }
    if (bytesPerParameter < 1 || classes < 1 || classes > 8)
    {
        throw std::invalid_argument("bytes_per_parameter must be >= 1, classes in [1, 8]");
    }
    p->SetBytesPerParameter(bytesPerParameter);
    p->SetPriorityClasses(classes);
    auto plan = p->Plan(TensorOrderPolicy::MakeTensors(params, fwd, bwd));
    py::list out;
    for (const auto& s : plan)
    {
        py::dict d;
        d["tensor"] = s.tensorId;
        d["offset"] = s.offset;
        d["size"] = s.size;
        d["priority"] = s.priority;
        d["priority_class"] = s.priorityClass;
        d["ready_time"] = s.readyTime;
        out.append(d);
    }
    return out;
}

#ifdef MLNET_PY_HAVE_SCENARIO
py::dict
RunScenario(const py::object& scenario)
{
    SimulatorGuard::CheckFree("run_scenario()");
    EventSchedulerHelper::UseDefaults(); // mlnet's engine, unless the user chose one
    std::string text;
    if (py::isinstance<py::str>(scenario))
    {
        text = scenario.cast<std::string>();
    }
    else if (py::isinstance<py::dict>(scenario))
    {
        text = py::module_::import("json").attr("dumps")(scenario).cast<std::string>();
    }
    else
    {
        throw std::invalid_argument("run_scenario() takes a dict or a JSON string");
    }
    ScenarioConfig cfg = Scenario::ParseString(text, "<python>");
    ScenarioResult r;
    {
        SimulatorGuard::Running running("run_scenario()");
        py::gil_scoped_release release;
        ScenarioRunner runner(cfg);
        r = runner.Run();
    }
    std::ostringstream summary;
    StatsWriter::WriteSummaryJson(summary, r.summary);
    std::ostringstream flows;
    StatsWriter::WriteFlowsCsv(flows, r.flows);
    std::ostringstream ports;
    StatsWriter::WritePortsCsv(ports, r.ports);
    std::ostringstream portClasses;
    PortClasses::WriteCsv(portClasses, r.portClasses);
    std::ostringstream iterations;
    StatsWriter::WriteIterationsCsv(iterations, r.iterations);
    std::ostringstream hosts;
    StatsWriter::WriteHostsCsv(hosts, r.hosts);
    py::module_ json = py::module_::import("json");
    py::module_ csv = py::module_::import("csv");
    py::module_ io = py::module_::import("io");
    auto rows = [&](const std::string& s) {
        py::list out;
        py::object reader = csv.attr("DictReader")(io.attr("StringIO")(s));
        for (auto row : reader)
        {
            py::dict d;
            for (auto kv : py::reinterpret_borrow<py::dict>(row))
            {
                std::string v = py::str(kv.second);
                // numbers back to numbers
                try
                {
                    std::size_t pos = 0;
                    long long i = std::stoll(v, &pos);
                    if (pos == v.size())
                    {
                        d[kv.first] = i;
                        continue;
                    }
                    double x = std::stod(v, &pos);
                    if (pos == v.size())
                    {
                        d[kv.first] = x;
                        continue;
                    }
                }
                catch (const std::exception&)
                {
                }
                d[kv.first] = v;
            }
            out.append(d);
        }
        return out;
    };
    py::dict out;
    out["summary"] = json.attr("loads")(summary.str());
    out["flows"] = rows(flows.str());
    out["ports"] = rows(ports.str());
    out["port_classes"] = rows(portClasses.str());
    out["iterations"] = rows(iterations.str());
    out["hosts"] = rows(hosts.str());
    return out;
}
#endif

} // namespace

PYBIND11_MODULE(mlnet, m)
{
    m.doc() = "mlnet: packet-level simulation of ML-cluster networks (ns-3), Python interface";
    mlnetpy::RegisterFlowScheduling(m);
    mlnetpy::RegisterAggregation(m);
    mlnetpy::RegisterHost(m);

    // Importing binds nothing: each simulation binds mlnet's event engine when it starts
    // (StartSimulation), unless the user chose one.
    m.def(
        "set_scheduler",
        [](const std::string& name) {
            EventSchedulerHelper::Use(name);
            return EventSchedulerHelper::Current();
        },
        py::arg("name"),
        "Choose ns-3's event scheduler for the next simulation ('TimingWheel', mlnet's "
        "default; 'Map', ns-3's; 'Heap', 'List', 'Calendar', 'PriorityQueue', 'QuadHeap', or a "
        "TypeId name): same results, different speed. Returns the TypeId name; ValueError if "
        "unknown.");
    m.def("scheduler",
          &EventSchedulerHelper::Current,
          "The TypeId name ns-3's SchedulerType holds now. Importing mlnet binds nothing; a "
          "simulation (Simulation(), run_scenario(), aggregate()) binds mlnet's default, "
          "'ns3::TimingWheelScheduler', when it starts, unless you chose one (set_scheduler, "
          "NS_GLOBAL_VALUE).");
    m.def(
        "set_simulator",
        [](const std::string& name) {
            EventSchedulerHelper::UseSimulator(name);
            return EventSchedulerHelper::CurrentSimulator();
        },
        py::arg("name"),
        "Choose the simulator implementation for the next simulation ('mlnet': "
        "ns3::MlnetSimulatorImpl, mlnet's default; 'ns3': ns-3's DefaultSimulatorImpl; or a "
        "SimulatorImpl TypeId name): same results, different speed. Returns the TypeId name; "
        "ValueError if unknown.");
    m.def("simulator",
          &EventSchedulerHelper::CurrentSimulator,
          "The TypeId name ns-3's SimulatorImplementationType holds now. Importing mlnet binds "
          "nothing; a simulation binds mlnet's default, 'ns3::MlnetSimulatorImpl', when it "
          "starts, unless you chose one (set_simulator, NS_GLOBAL_VALUE).");

    m.def(
        "parse_rate",
        [](const py::object& v) { return ParseRate(v, "rate"); },
        py::arg("rate"),
        "Parse a rate ('100Gbps', '40Mb/s', a number of bit/s) into bit/s; ValueError if bad.");
    m.def(
        "parse_time",
        [](const py::object& v) { return ParseTime(v, "time"); },
        py::arg("time"),
        "Parse a time ('1us', '10ms', a number of seconds) into seconds; ValueError if bad.");

    mlnetpy::RegisterSimulation(m);
    mlnetpy::RegisterSessionSections(m);

    py::class_<LayerSpec>(m, "Layer")
        .def_readonly("name", &LayerSpec::name)
        .def_property_readonly("kind", [](const LayerSpec& l) { return LayerKindName(l.kind); })
        .def_readonly("parameters", &LayerSpec::parameters)
        .def_readonly("forward_flops", &LayerSpec::forwardFlops)
        .def_readonly("forward_macs", &LayerSpec::forwardMacs)
        .def_readonly("output_elements", &LayerSpec::outputElements)
        .def("__repr__", [](const LayerSpec& l) {
            return "<mlnet.Layer " + l.name + " (" + LayerKindName(l.kind) +
                   "): " + std::to_string(l.parameters) + " parameters>";
        });

    py::class_<DnnModel>(m, "DnnModel")
        .def_property_readonly("name", &DnnModel::GetName)
        .def_property_readonly("parameters", &DnnModel::GetParameterCount)
        .def("parameter_bytes", &DnnModel::GetParameterBytes, py::arg("bytes_per_parameter") = 4)
        .def_property_readonly("forward_flops", &DnnModel::GetForwardFlops)
        .def_property_readonly("forward_macs", &DnnModel::GetForwardMacs)
        .def_property_readonly("layers", &DnnModel::GetLayers)
        .def_property_readonly("parameterized_layers", &DnnModel::GetParameterizedLayers)
        .def("__len__", &DnnModel::GetNLayers)
        .def_static(
            "from_csv",
            [](const std::string& text, const std::string& name) {
                std::istringstream in(text);
                return DnnModel::FromCsv(in, name);
            },
            py::arg("text"),
            py::arg("name") = "csv",
            "Model from a per-layer CSV text: name, parameters, forward_us, backward_us")
        .def("__repr__", [](const DnnModel& d) {
            return "<mlnet.DnnModel " + d.GetName() + ": " + std::to_string(d.GetNLayers()) +
                   " layers, " + std::to_string(d.GetParameterCount()) + " parameters>";
        });

    py::class_<ModelZoo>(m, "ModelZoo")
        .def_static("get",
                    &ModelZoo::Get,
                    py::arg("name"),
                    "A model by name (ValueError for an unknown name)")
        .def_static("names", &ModelZoo::Names);

    py::class_<GpuProfile>(m, "GpuProfile")
        .def(py::init<std::string, double, double, double, uint32_t, double>(),
             py::arg("name"),
             py::arg("peak_flops"),
             py::arg("efficiency") = 0.4,
             py::arg("memory_bandwidth") = 900e9,
             py::arg("bytes_per_element") = 2,
             py::arg("backward_factor") = 2.0)
        .def_static("get",
                    &GpuProfile::Get,
                    py::arg("name"),
                    "A profile by name: raw V100, A100, H100 (efficiency 0.4) or calibrated "
                    "v100-amp, v100-fp32, a100-amp, a100-tf32 (ValueError for others)")
        .def_static("names", &GpuProfile::Names)
        .def("calibrate",
             &GpuProfile::Calibrate,
             py::arg("model"),
             py::arg("batch"),
             py::arg("step_seconds"),
             py::arg("source") = "",
             "Set the efficiency so that forward + backward of model at batch takes step_seconds "
             "(ValueError if no efficiency in (0, 1] does)")
        .def_property_readonly("calibration",
                               [](const GpuProfile& g) {
                                   const GpuProfile::Calibration& c = g.GetCalibration();
                                   py::dict d;
                                   d["model"] = c.model;
                                   d["batch"] = c.batchSize;
                                   d["samples_per_second"] = c.samplesPerSecond;
                                   d["step_seconds"] = c.StepSeconds();
                                   d["source"] = c.source;
                                   return d;
                               })
        .def_property_readonly("name", &GpuProfile::GetName)
        .def_property_readonly("peak_flops", &GpuProfile::GetPeakFlops)
        .def_property_readonly("efficiency", &GpuProfile::GetEfficiency)
        .def_property_readonly("memory_bandwidth", &GpuProfile::GetMemoryBandwidth)
        .def("forward_time",
             &GpuProfile::GetForwardTime,
             py::arg("model"),
             py::arg("batch"),
             "forward time of one batch (s)")
        .def("backward_time",
             &GpuProfile::GetBackwardTime,
             py::arg("model"),
             py::arg("batch"),
             "backward time of one batch (s)");

    m.def("tensor_order",
          &TensorOrder,
          py::arg("policy"),
          py::arg("layer_parameters"),
          py::arg("forward_times"),
          py::arg("backward_times"),
          py::arg("bytes_per_parameter") = 4,
          py::arg("classes") = 8,
          "Plan gradient transfers with a tensor-order policy (fifo, tic, tac, p3, "
          "bytescheduler): list of slices as dicts");

#ifdef MLNET_PY_HAVE_SCENARIO
    m.def("run_scenario",
          &RunScenario,
          py::arg("scenario"),
          "Run a JSON scenario (dict or JSON text); returns {'summary', 'flows', 'ports', "
          "'port_classes', 'iterations', 'hosts'} (port_classes: the port-classes.csv rows, "
          "one per switch port and priority class that carried traffic; iterations: one row "
          "per training-job iteration, times in ns; hosts: one row per host of a \"host\" "
          "section, the hosts.csv columns)");
    m.def(
        "default_scenario",
        []() { return py::module_::import("json").attr("loads")(Scenario::DefaultJson()); },
        "The built-in default scenario as a dict (a template to edit)");
    m.attr("HAVE_SCENARIO") = true;
#else
    m.attr("HAVE_SCENARIO") = false;
#endif

    py::module_::import("atexit").attr("register")(py::cpp_function(&mlnetpy::CloseLiveSimulation));
}
