/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Python functions of the flow schedulers: the pure policies (decisions, flow-level runs) and
// the CCT flexibility ratio of a model. Packet-level runs go through run_scenario with a
// "scheduler" section.

#include "py-convert.h"
#include "py-parts.h"

#include "ns3/boolean.h"
#include "ns3/compute-dag.h"
#include "ns3/dnn-model.h"
#include "ns3/echelon-flow-policy.h"
#include "ns3/flow-policy-factory.h"
#include "ns3/fluid-flow-model.h"
#include "ns3/gpu-profile.h"
#include "ns3/iteration-dag.h"
#include "ns3/model-zoo.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <limits>
#include <optional>
#include <pybind11/stl.h>
#include <set>
#include <stdexcept>

namespace py = pybind11;
using namespace ns3;

namespace
{

/// Reads the keys of one dict argument, rejecting keys it does not know.
class DictReader
{
  public:
    DictReader(const py::handle& h, std::string what, std::set<std::string> accepted)
        : m_what(std::move(what)),
          m_accepted(std::move(accepted))
    {
        if (!py::isinstance<py::dict>(h))
        {
            throw std::invalid_argument(m_what + " must be a dict");
        }
        m_dict = py::reinterpret_borrow<py::dict>(h);
        for (const auto& kv : m_dict)
        {
            const std::string k = py::str(kv.first);
            if (!m_accepted.count(k))
            {
                std::string all;
                for (const auto& a : m_accepted)
                {
                    all += (all.empty() ? "" : ", ") + a;
                }
                throw std::invalid_argument(m_what + ": unknown key '" + k + "' (accepted: " + all +
                                            ")");
            }
        }
    }

    bool Has(const std::string& k) const
    {
        return m_dict.contains(k) && !m_dict[k.c_str()].is_none();
    }

    uint64_t Uint(const std::string& k, uint64_t lo, uint64_t hi, std::optional<uint64_t> def) const
    {
        if (!Has(k))
        {
            if (!def)
            {
                throw std::invalid_argument(m_what + ": '" + k + "' is required");
            }
            return *def;
        }
        py::handle v = m_dict[k.c_str()];
        if (py::isinstance<py::float_>(v))
        {
            // 1e6 bytes: accept integral floats
            const double x = v.cast<double>();
            if (std::floor(x) != x || x < double(lo) || x > double(hi))
            {
                throw std::invalid_argument(m_what + "['" + k + "'] = " + std::to_string(x) +
                                            " must be an integer in [" + std::to_string(lo) + ", " +
                                            std::to_string(hi) + "]");
            }
            return static_cast<uint64_t>(x);
        }
        return mlnetpy::CheckedUint(v, m_what + "['" + k + "']", lo, hi);
    }

    double Number(const std::string& k, double def) const
    {
        if (!Has(k))
        {
            return def;
        }
        py::handle v = m_dict[k.c_str()];
        if (!py::isinstance<py::float_>(v) && !py::isinstance<py::int_>(v))
        {
            throw std::invalid_argument(m_what + "['" + k + "'] must be a number");
        }
        return v.cast<double>();
    }

    std::string String(const std::string& k, const std::string& def) const
    {
        return Has(k) ? std::string(py::str(m_dict[k.c_str()])) : def;
    }

  private:
    std::string m_what;
    std::set<std::string> m_accepted;
    py::dict m_dict;
};

/// (up, down) capacities in bytes/s from a number or a 2-sequence.
std::pair<double, double>
PortCapacity(const py::handle& v, uint32_t i)
{
    const std::string what = "ports[" + std::to_string(i) + "]";
    if (py::isinstance<py::float_>(v) || py::isinstance<py::int_>(v))
    {
        double c = v.cast<double>();
        return {c, c};
    }
    auto seq = py::reinterpret_borrow<py::sequence>(v);
    if (!py::isinstance<py::sequence>(v) || py::len(seq) != 2)
    {
        throw std::invalid_argument(what + " must be a number or (up, down) in bytes/s");
    }
    return {seq[0].cast<double>(), seq[1].cast<double>()};
}

FlowGroupSpec
ReadGroup(const py::handle& h, uint32_t i)
{
    DictReader d(
        h,
        "groups[" + std::to_string(i) + "]",
        {"id", "job", "arrangement", "stage_time", "weight", "expected_flows", "priorities"});
    FlowGroupSpec g;
    g.id = d.Uint("id", 0, UINT64_MAX, std::nullopt);
    g.job = static_cast<uint32_t>(d.Uint("job", 0, UINT32_MAX, 0));
    const std::string a = d.String("arrangement", "coflow");
    if (a == "coflow")
    {
        g.arrangement = FlowArrangement::Coflow;
    }
    else if (a == "pipeline")
    {
        g.arrangement = FlowArrangement::Pipeline;
    }
    else if (a == "offsets")
    {
        g.arrangement = FlowArrangement::Offsets;
    }
    else
    {
        throw std::invalid_argument("groups[" + std::to_string(i) + "]['arrangement'] = '" + a +
                                    "': must be coflow, pipeline or offsets");
    }
    g.stageTime = d.Number("stage_time", 0);
    g.weight = d.Number("weight", 1);
    g.expectedFlows = static_cast<uint32_t>(d.Uint("expected_flows", 0, UINT32_MAX, 0));
    g.priorities = static_cast<uint32_t>(d.Uint("priorities", 0, UINT32_MAX, 0));
    return g;
}

/// A flow, its release time and its remaining bytes.
struct PyFlow
{
    FlowDeclaration decl;
    double release{0};
    uint64_t remaining{0};
};

PyFlow
ReadFlow(const py::handle& h, uint32_t i)
{
    DictReader d(h,
                 "flows[" + std::to_string(i) + "]",
                 {"id",
                  "job",
                  "group",
                  "index",
                  "src",
                  "dst",
                  "bytes",
                  "offset",
                  "deadline",
                  "priority",
                  "weight",
                  "release",
                  "remaining"});
    PyFlow f;
    f.decl.id = d.Uint("id", 0, UINT64_MAX, i);
    f.decl.job = static_cast<uint32_t>(d.Uint("job", 0, UINT32_MAX, 0));
    f.decl.group = d.Uint("group", 0, UINT64_MAX, std::nullopt);
    f.decl.index = static_cast<uint32_t>(d.Uint("index", 0, UINT32_MAX, 0));
    f.decl.src = static_cast<uint32_t>(d.Uint("src", 0, UINT32_MAX, std::nullopt));
    f.decl.dst = static_cast<uint32_t>(d.Uint("dst", 0, UINT32_MAX, std::nullopt));
    f.decl.bytes = d.Uint("bytes", 1, UINT64_MAX, std::nullopt);
    f.decl.offset = d.Number("offset", 0);
    f.decl.deadline = d.Number("deadline", std::numeric_limits<double>::infinity());
    f.decl.priority = static_cast<uint32_t>(d.Uint("priority", 0, UINT32_MAX, 0));
    f.decl.weight = d.Number("weight", 1);
    f.release = d.Number("release", 0);
    f.remaining = d.Uint("remaining", 0, f.decl.bytes, f.decl.bytes);
    return f;
}

Ptr<FlowSchedulingPolicy>
MakePolicy(const std::string& name, uint32_t levels, bool correct)
{
    Ptr<FlowSchedulingPolicy> p = CreateFlowSchedulingPolicy(name);
    p->SetPriorityLevels(levels);
    if (name == "echelon")
    {
        p->SetAttribute("CorrectEstimates", BooleanValue(correct));
    }
    return p;
}

/// Set the ports and declare the groups of a FlowSchedulingState or FluidFlowModel; return the
/// flows, read and validated.
template <typename Target>
std::vector<PyFlow>
Load(Target& target,
     const py::sequence& ports,
     const py::sequence& groups,
     const py::sequence& flows)
{
    for (uint32_t i = 0; i < py::len(ports); ++i)
    {
        auto [up, down] = PortCapacity(ports[i], i);
        target.SetPort(i, up, down);
    }
    for (uint32_t i = 0; i < py::len(groups); ++i)
    {
        target.DeclareGroup(ReadGroup(groups[i], i));
    }
    std::vector<PyFlow> out;
    for (uint32_t i = 0; i < py::len(flows); ++i)
    {
        out.push_back(ReadFlow(flows[i], i));
    }
    return out;
}

py::list
Decide(const std::string& policy,
       const py::sequence& ports,
       const py::sequence& groups,
       const py::sequence& flows,
       const py::object& now,
       uint32_t levels,
       bool correct)
{
    Ptr<FlowSchedulingPolicy> p = MakePolicy(policy, levels, correct);
    FlowSchedulingState s;
    double latest = 0;
    for (const PyFlow& f : Load(s, ports, groups, flows))
    {
        s.AddFlow(f.decl, f.release);
        s.SetRemaining(f.decl.id, f.remaining);
        latest = std::max(latest, f.release);
    }
    const double t = now.is_none() ? latest : mlnetpy::ParseTime(now, "now");
    py::list out;
    for (const FlowDecision& d : p->Decide(s, t))
    {
        py::dict x;
        x["id"] = d.id;
        x["rank"] = d.rank;
        x["level"] = d.level;
        x["rate_cap"] = d.rateCap;
        x["ideal_finish"] = d.idealFinish;
        out.append(x);
    }
    return out;
}

py::list
FluidRun(const std::string& policy,
         const py::sequence& ports,
         const py::sequence& groups,
         const py::sequence& flows,
         uint32_t levels,
         bool correct)
{
    FluidFlowModel m(MakePolicy(policy, levels, correct));
    for (const PyFlow& f : Load(m, ports, groups, flows))
    {
        m.AddFlow(f.decl, f.release);
    }
    std::vector<FluidFlowResult> r;
    {
        py::gil_scoped_release nogil;
        r = m.Run();
    }
    py::list out;
    for (const auto& x : r)
    {
        py::dict d;
        d["id"] = x.id;
        d["release"] = x.release;
        d["finish"] = x.finish;
        d["ideal_finish"] = x.idealFinish;
        d["level"] = x.level;
        out.append(d);
    }
    return out;
}

py::dict
CctFlexibility(const std::string& model,
               const std::string& gpu,
               const py::object& batchArg,
               const py::object& rate,
               const py::object& workersArg,
               const py::object& serversArg,
               const py::object& bytesArg,
               const py::object& mtuArg)
{
    // Each argument checked on its own: the message names it and its range.
    auto arg = [](const py::object& v, const char* name, uint64_t lo, uint64_t hi) {
        return static_cast<uint32_t>(
            mlnetpy::CheckedUint(v, std::string("cct_flexibility(): ") + name, lo, hi));
    };
    const uint32_t batch = arg(batchArg, "batch", 1, 65536);
    const uint32_t workers = arg(workersArg, "workers", 1, 65536);
    const uint32_t servers = arg(serversArg, "servers", 0, 65536);
    const uint32_t bytes = arg(bytesArg, "bytes_per_parameter", 1, 16);
    const uint32_t mtu = arg(mtuArg, "mtu", 64, 65536);
    const double bps = mlnetpy::ParseRate(rate, "cct_flexibility(): rate");
    const double goodput = bps / 8 * mtu / (mtu + 82.0); // RoCEv2 + Ethernet framing
    DnnModel m = ModelZoo::Get(model);
    ComputeDag dag = IterationDag::Build(m, GpuProfile::Get(gpu), batch, bytes);
    std::vector<std::vector<ComputeDag::LinkUse>> links(dag.GetTensors().size());
    for (uint32_t t = 0; t < links.size(); ++t)
    {
        links[t] = {{0, 1.0}};
        if (servers > 0)
        {
            links[t].push_back({1 + t % servers, double(workers)});
        }
    }
    DagSchedule s = dag.IdealSchedule(links, std::vector<double>(1 + servers, goodput));
    py::dict d;
    d["min_cct"] = s.minCct;
    d["max_tolerable_cct"] = s.maxTolerableCct;
    d["ratio"] = s.FlexibilityRatio();
    d["makespan"] = s.makespan;
    return d;
}

} // namespace

namespace mlnetpy
{

void
RegisterFlowScheduling(py::module_& m)
{
    m.def("flow_policies",
          &FlowSchedulingPolicyNames,
          "Names of the flow-scheduling policies (fair, fifo, madd, echelon, "
          "cadentflow-priority, cadentflow-deadline).");
    m.def("flow_decide",
          &Decide,
          py::arg("policy"),
          py::arg("ports"),
          py::arg("groups"),
          py::arg("flows"),
          py::arg("now") = py::none(),
          py::arg("priority_levels") = 7,
          py::arg("correct_estimates") = true,
          "A policy's decisions for a set of live flows on a big-switch network. ports: one "
          "capacity per port in bytes/s (a number, or (up, down)); groups: dicts with id and "
          "optional job, arrangement ('coflow', 'pipeline', 'offsets'), stage_time (s), weight, "
          "expected_flows, priorities; flows: dicts with group, src, dst, bytes and optional id, "
          "job, index, offset (s), deadline (s), priority, weight, release (s), remaining. "
          "Returns dicts id, rank, level, rate_cap (bytes/s, inf = none, 0 = paused), "
          "ideal_finish (s); ValueError on bad input.");
    m.def("fluid_run",
          &FluidRun,
          py::arg("policy"),
          py::arg("ports"),
          py::arg("groups"),
          py::arg("flows"),
          py::arg("priority_levels") = 7,
          py::arg("correct_estimates") = true,
          "Flow-level run of a policy (decisions at every release and completion, strict "
          "priority between levels, max-min fair within, rate caps): dicts id, release, finish, "
          "ideal_finish, level per flow, in input order. Same arguments as flow_decide.");
    m.def("cct_flexibility",
          &CctFlexibility,
          py::arg("model"),
          py::arg("gpu") = "v100",
          py::arg("batch") = 32,
          py::arg("rate") = "100Gbps",
          py::arg("workers") = 1,
          py::arg("servers") = 0,
          py::arg("bytes_per_parameter") = 4,
          py::arg("mtu") = 4096,
          "CadentFlow's CCT flexibility ratio of a model's parameter transfers (the pull phase): "
          "tensors arrive in consumption order over the worker's link (and, with servers > 0, "
          "over the uplink of server t mod servers, which carries each of its tensors once per "
          "worker). Returns dict min_cct, max_tolerable_cct, ratio, makespan (s).");
}

} // namespace mlnetpy
