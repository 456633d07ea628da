/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// mlnet.Simulation's host(), aggregation(), scheduler(), traffic(), iterations and warnings: the
// JSON scenario format's sections and traffic entries in a session (SimulationSession::AddSection,
// AddTraffic). Python's keyword arguments are the JSON keys in snake_case (doc/scenario.rst,
// "One naming"); they become the JSON object the part's own scenario parser reads, so the
// values, ranges and messages are the scenario's, with the keys in snake_case.

#include "py-convert.h"
#include "py-parts.h"

#include "ns3/job-records.h"
#include "ns3/simulation-session.h"

#include <cctype>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <pybind11/stl.h>
#include <stdexcept>
#include <string>

namespace py = pybind11;
using namespace ns3;

namespace mlnetpy
{

namespace
{

/// The scenario key of a Python argument: the same words in camelCase ("pcie_lanes" ->
/// "pcieLanes"). The one key whose words hold an acronym is listed.
std::string
JsonKey(const std::string& arg)
{
    static const std::map<std::string, std::string> acronyms = {{"clock_mhz", "clockMHz"}};
    auto it = acronyms.find(arg);
    if (it != acronyms.end())
    {
        return it->second;
    }
    std::string key;
    bool upper = false;
    for (char c : arg)
    {
        if (c == '_' && !key.empty())
        {
            upper = true;
            continue;
        }
        key += upper ? char(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    return key;
}

/// The Python argument of a scenario key: its words in snake_case ("clockMHz" -> "clock_mhz").
std::string
PythonName(const std::string& key)
{
    std::string out;
    for (size_t i = 0; i < key.size(); ++i)
    {
        const unsigned char c = static_cast<unsigned char>(key[i]);
        if (std::isupper(c) && i > 0 && !std::isupper(static_cast<unsigned char>(key[i - 1])))
        {
            out += '_';
        }
        out += char(std::tolower(c));
    }
    return out;
}

/// A Python value as JSON: None, bool, int, float, str, lists and tuples of them, dicts with
/// string keys (converted to the scenario's words, as the arguments).
nlohmann::json
ToJson(const py::handle& v, const std::string& what)
{
    if (v.is_none())
    {
        return nullptr;
    }
    if (py::isinstance<py::bool_>(v))
    {
        return v.cast<bool>();
    }
    if (py::isinstance<py::int_>(v))
    {
        if (v.cast<py::int_>() < py::int_(0))
        {
            if (v.cast<py::int_>() < py::int_(std::numeric_limits<int64_t>::min()))
            {
                throw std::invalid_argument(what + ": integer out of range");
            }
            return v.cast<int64_t>();
        }
        return CheckedUint(v, what, 0, std::numeric_limits<uint64_t>::max());
    }
    if (py::isinstance<py::float_>(v))
    {
        return v.cast<double>();
    }
    if (py::isinstance<py::str>(v))
    {
        return v.cast<std::string>();
    }
    if (py::isinstance<py::dict>(v))
    {
        nlohmann::json o = nlohmann::json::object();
        for (auto item : v.cast<py::dict>())
        {
            if (!py::isinstance<py::str>(item.first))
            {
                throw std::invalid_argument(what + ": dict keys must be strings");
            }
            const std::string name = item.first.cast<std::string>();
            o[JsonKey(name)] = ToJson(item.second, what + "." + name);
        }
        return o;
    }
    if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v))
    {
        nlohmann::json a = nlohmann::json::array();
        for (auto x : v.cast<py::sequence>())
        {
            a.push_back(ToJson(x, what + "[]"));
        }
        return a;
    }
    throw std::invalid_argument(what + " = " + py::repr(v).cast<std::string>() +
                                ": expected a number, string, bool, list or dict (the values "
                                "of a scenario file)");
}

/// \param kw keyword arguments \param what the call, for messages \return the JSON object
/// (arguments set to None are left out: the section's default)
nlohmann::json
ToObject(const py::kwargs& kw, const std::string& what)
{
    nlohmann::json o = nlohmann::json::object();
    for (auto item : kw)
    {
        if (item.second.is_none())
        {
            continue;
        }
        const std::string name = item.first.cast<std::string>();
        o[JsonKey(name)] = ToJson(item.second, what + "." + name);
    }
    return o;
}

/// Run f, giving its scenario message in Python's words.
template <class F>
auto
InPython(F f) -> decltype(f())
{
    try
    {
        return f();
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(InPythonWords(e.what()));
    }
}

/// Add a method to mlnet.Simulation.
template <class F>
void
DefMethod(py::object& cls, const char* name, F f, const char* doc)
{
    py::cpp_function method(f,
                            py::name(name),
                            py::is_method(cls),
                            py::sibling(py::getattr(cls, name, py::none())),
                            doc);
    py::setattr(cls, name, method);
}

/// A method that applies the scenario section `key`.
void
DefSection(py::object& cls, const char* key, const char* doc)
{
    const std::string k = key;
    DefMethod(
        cls,
        key,
        [k](py::object self, py::kwargs kw) {
            SimulationSession& s = SessionOf(self);
            nlohmann::json section = ToObject(kw, k);
            InPython([&] { s.AddSection(k, section); });
        },
        doc);
}

} // namespace

/// A scenario message with its keys in Python's words: "scenario: host.pcieLanes = 3: ..."
/// -> "host.pcie_lanes = 3: ..." (every word that starts in lower case and has an upper-case
/// letter is a key: values, units and type names do not).
std::string
InPythonWords(const std::string& message)
{
    std::string m = message;
    const std::string prefix = "scenario: ";
    if (m.rfind(prefix, 0) == 0)
    {
        m = m.substr(prefix.size());
    }
    std::string out;
    size_t i = 0;
    while (i < m.size())
    {
        if (!std::isalnum(static_cast<unsigned char>(m[i])))
        {
            out += m[i++];
            continue;
        }
        size_t j = i;
        bool hasUpper = false;
        while (j < m.size() && std::isalnum(static_cast<unsigned char>(m[j])))
        {
            hasUpper = hasUpper || std::isupper(static_cast<unsigned char>(m[j]));
            ++j;
        }
        const std::string word = m.substr(i, j - i);
        const bool key = std::islower(static_cast<unsigned char>(word[0])) && hasUpper;
        out += key ? PythonName(word) : word;
        i = j;
    }
    return out;
}

py::list
IterationList(const std::vector<IterationRecord>& records)
{
    py::list out;
    for (const IterationRecord& r : records)
    {
        py::dict d;
        d["job"] = r.job;
        d["iteration"] = r.iteration;
        d["start"] = r.start.GetSeconds();
        d["end"] = r.end.GetSeconds();
        d["compute"] = r.compute.GetSeconds();
        d["exposed_comm"] = r.exposedComm.GetSeconds();
        d["gpu_idle"] = r.gpuIdle.GetSeconds();
        d["period_wait"] = r.periodWait.GetSeconds();
        d["busy"] = r.BusyTime().GetSeconds();
        out.append(d);
    }
    return out;
}

void
RegisterSessionSections(py::module_& m)
{
    py::object cls = m.attr("Simulation");
    DefSection(cls,
               "host",
               "The host interconnect (NIC buffer, PCIe, IOMMU, memory bus; doc/host.rst) of the "
               "scenario's \"host\" section, keys in snake_case: hosts (default: every host), "
               "pcie_generation, pcie_lanes, max_payload_size, rx_buffer, iommu, iotlb_entries, "
               "page_size, rx_buffer_per_qp, memory_bandwidth, memory_app_demand, pfc, "
               "host_cc_marking, host_cc_throttling, overrides, demand_changes, ... Values as in "
               "a scenario file ('4KiB', '250ns', '600Gbps'). After install_rdma(), before the "
               "first flow, job, traffic() or run()");
    DefSection(cls,
               "aggregation",
               "In-network aggregation points (doc/aggregation.rst) of the scenario's "
               "\"aggregation\" section, keys in snake_case: placement ('devices' | "
               "'switches'), tiers, ports, timing, lanes, clock_mhz, tree_depth, element_type, "
               "buffer_per_job, max_jobs, input_buffer, back_pressure, latency, max_slots. "
               "A traffic('data-parallel-job', mode='ina', ...) then aggregates through them");
    DefSection(cls,
               "scheduler",
               "A flow scheduler (doc/scheduling.rst) of the scenario's \"scheduler\" section, "
               "keys in snake_case: policy ('fair' | 'fifo' | 'madd' | 'echelon' | "
               "'cadentflow-priority' | 'cadentflow-deadline'), mode, control_delay, hosts, "
               "top_class, priority_levels, correct_estimates, cap_tolerance. A parameter-server "
               "data-parallel job or a pipeline job then posts through it (run() refuses a "
               "scheduler no traffic() entry uses)");
    DefMethod(
        cls,
        "traffic",
        [](py::object self, const std::string& type, py::kwargs kw) {
            SimulationSession& s = SessionOf(self);
            nlohmann::json entry = ToObject(kw, type);
            entry["type"] = type;
            return InPython([&] { return s.AddTraffic(entry); });
        },
        "A traffic entry of the scenario format (doc/scenario.rst): type 'data-parallel-job', "
        "'pipeline-job', 'tensor-parallel-job', 'rdma', ...; the entry's keys in snake_case "
        "(hosts, model, iterations, mode, activation_bytes, ...), values as in a scenario "
        "file. Its times count from 0; before the first run(). Returns the entry's index i "
        "(its job is named <type><i>)");
    py::object property = py::module_::import("builtins").attr("property");
    py::setattr(cls,
                "iterations",
                property(py::cpp_function([](py::object self) {
                             return IterationList(RecordsOf(self).GetIterations());
                         }),
                         py::none(),
                         py::none(),
                         "the iteration records of the traffic() jobs (job, iteration, start, "
                         "end, compute, exposed_comm, gpu_idle, period_wait, busy; seconds), "
                         "kept after close()"));
    py::setattr(
        cls,
        "warnings",
        property(py::cpp_function([](py::object self) { return RecordsOf(self).GetWarnings(); }),
                 py::none(),
                 py::none(),
                 "the warnings about the results that a scenario puts in summary.json: "
                 "the traffic() entries' (e.g. a parameter-server job whose servers "
                 "receive unequal bytes) and the RDMA retransmission timeouts' (list of "
                 "str, as of now; kept after close())"));
}

} // namespace mlnetpy
