/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// mlnet.Simulation, mlnet.Flow, mlnet.Job and mlnet.Topology: Python's side of
// ns3::SimulationSession (helper/simulation-session.h). Python values are converted here
// (py-convert.h), the simulator is guarded against other Python threads and the GIL is released
// while it runs; the session holds the simulation and checks every value.

#include "py-convert.h"
#include "py-parts.h"

#include "ns3/core-module.h"
#include "ns3/data-class.h"
#include "ns3/dcqcn-profile.h"
#include "ns3/fabric-switch.h"
#include "ns3/input-limits.h"
#include "ns3/periodic-job.h"
#include "ns3/rdma-cc-catalog.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulation-session.h"

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace ns3;
using namespace mlnetpy;

namespace
{

std::string
CcTypeId(const std::string& cc)
{
    // The catalog's variant names; Python also accepts "dcqcn_vendor" and "fixed-rate".
    if (cc == "dcqcn_vendor")
    {
        return RdmaCcCatalog::TypeIdOf("dcqcn-vendor");
    }
    if (cc == "fixed-rate")
    {
        return RdmaCcCatalog::TypeIdOf("fixed");
    }
    return RdmaCcCatalog::TypeIdOf(cc);
}

// ---------------------------------------------------------------------------------------------
// Flow
// ---------------------------------------------------------------------------------------------

/// State of one RDMA flow (one message on its own queue pair): SimulationSession's.
using FlowState = SessionFlow;

/// Python handle of a flow: keeps the state alive after the simulation is closed.
/// A periodic training job (compute, then send a message, repeat) seen from Python.
class Job
{
  public:
    explicit Job(Ptr<PeriodicJob> job)
        : m_job(job)
    {
    }

    std::string Name() const
    {
        SimulatorGuard::CheckIdle("mlnet.Job");
        return m_job->GetJobName();
    }

    uint64_t IterationsDone() const
    {
        SimulatorGuard::CheckIdle("mlnet.Job");
        return m_job->GetIterationsDone();
    }

    bool Finished() const
    {
        SimulatorGuard::CheckIdle("mlnet.Job");
        return m_job->IsFinished();
    }

    std::vector<double> IterationTimes() const
    {
        SimulatorGuard::CheckIdle("mlnet.Job");
        std::vector<double> t;
        for (const IterationRecord& r : m_job->GetIterationRecords())
        {
            t.push_back(r.Duration().GetSeconds());
        }
        return t;
    }

    py::list Iterations() const
    {
        SimulatorGuard::CheckIdle("mlnet.Job");
        return IterationList(m_job->GetIterationRecords());
    }

    double MeanIterationTime(uint32_t skip) const
    {
        SimulatorGuard::CheckIdle("mlnet.Job");
        return m_job->GetMeanIterationTime(skip).GetSeconds();
    }

  private:
    Ptr<PeriodicJob> m_job;
};

class Flow
{
  public:
    explicit Flow(std::shared_ptr<FlowState> s)
        : m_s(std::move(s))
    {
    }

    /// \return true while the flow's queue pair is live (its simulation not closed)
    bool Live() const
    {
        if (!m_s->qp)
        {
            return false;
        }
        SimulatorGuard::CheckIdle("mlnet.Flow");
        return true;
    }

    py::object Fct() const
    {
        if (!m_s->done)
        {
            return py::none();
        }
        return py::float_(m_s->finish - m_s->start);
    }

    py::object Finish() const
    {
        return m_s->done ? py::object(py::float_(m_s->finish)) : py::object(py::none());
    }

    uint64_t BytesAcked() const
    {
        return Live() ? m_s->qp->GetBytesAcked() : m_s->bytesAcked;
    }

    uint64_t BytesSent() const
    {
        return Live() ? m_s->qp->GetCcState().bytesSent : m_s->bytesSent;
    }

    double Rate() const
    {
        return Live() ? m_s->qp->GetCcState().rate : m_s->rate;
    }

    uint64_t Cnps() const
    {
        return Live() ? m_s->qp->GetCnpsReceived() : m_s->cnps;
    }

    uint64_t Retx() const
    {
        return Live() ? m_s->qp->GetRetransmittedPackets() : m_s->retx;
    }

    uint64_t Timeouts() const
    {
        return Live() ? m_s->qp->GetTimeouts() : m_s->timeouts;
    }

    py::object RateTrace() const
    {
        if (!m_s->trace)
        {
            return py::none();
        }
        return py::cast(m_s->rateTrace);
    }

    py::dict AsDict() const
    {
        py::dict d;
        d["id"] = m_s->id;
        d["src"] = m_s->src;
        d["dst"] = m_s->dst;
        d["bytes"] = m_s->bytes;
        d["start"] = m_s->start;
        d["priority"] = m_s->priority;
        d["aggressiveness"] = m_s->aggressiveness;
        d["done"] = m_s->done;
        d["finish"] = Finish();
        d["fct"] = Fct();
        d["bytes_acked"] = BytesAcked();
        d["bytes_sent"] = BytesSent();
        d["cnps"] = Cnps();
        d["retransmissions"] = Retx();
        d["timeouts"] = Timeouts();
        return d;
    }

    std::string Repr() const
    {
        std::ostringstream os;
        os << "<mlnet.Flow " << m_s->id << ": host " << m_s->src << " -> " << m_s->dst << ", "
           << m_s->bytes << " B, ";
        if (m_s->done)
        {
            os << "fct " << (m_s->finish - m_s->start) * 1e6 << " us>";
        }
        else
        {
            os << BytesAcked() << " B acked>";
        }
        return os.str();
    }

    std::shared_ptr<FlowState> m_s;
};

// ---------------------------------------------------------------------------------------------
// Simulation
// ---------------------------------------------------------------------------------------------

/// Summary of a built topology.
using TopologyInfo = SessionTopologyInfo;

/// mlnet.Simulation: a SimulationSession (helper/simulation-session.h) with Python's values
/// converted, the simulator guarded against other Python threads, and the GIL released while
/// it runs.
class Simulation
{
  public:
    explicit Simulation(uint64_t seed)
    {
        SimulatorGuard::CheckIdle("mlnet.Simulation()");
        if (SimulatorGuard::Owner() != nullptr)
        {
            throw std::invalid_argument(
                "another mlnet.Simulation is live (ns-3 has one global simulator): call close() "
                "on it, or use 'with mlnet.Simulation() as sim:', before creating a new one");
        }
        m_session = std::make_unique<SimulationSession>(seed);
        SimulatorGuard::SetOwner(this);
    }

    ~Simulation()
    {
        try
        {
            Close();
        }
        catch (const std::exception&)
        {
            // only reachable while another thread runs the simulator; it then keeps it
        }
    }

    void Close()
    {
        if (!m_session->IsOpen())
        {
            return;
        }
        SimulatorGuard::CheckIdle("close()");
        m_session->Close();
        if (SimulatorGuard::Owner() == this)
        {
            SimulatorGuard::SetOwner(nullptr);
        }
    }

    bool IsOpen() const
    {
        return m_session->IsOpen();
    }

    uint64_t Seed() const
    {
        return m_session->Seed();
    }

    bool IsRunning() const
    {
        return m_running;
    }

    double Now() const
    {
        if (m_session->IsOpen())
        {
            SimulatorGuard::CheckIdle("now");
        }
        return m_session->Now();
    }

    TopologyInfo Build(const std::string& kind,
                       const std::vector<uint64_t>& dims,
                       const py::handle& hostRate,
                       const py::handle& fabricRate,
                       const py::handle& delay,
                       bool pfc,
                       bool ecn,
                       const py::handle& buffer,
                       const py::handle& ecnKmin,
                       const py::handle& ecnKmax,
                       const py::handle& ecnPmax,
                       const py::handle& ecnMarking)
    {
        CheckOpen();
        SessionFabric o;
        o.kind = kind;
        o.dims = dims;
        o.hostRate = ParseRate(hostRate, "host_rate");
        o.fabricRate = ParseRate(fabricRate, "fabric_rate");
        o.delay = ParseTime(delay, "delay");
        o.pfc = pfc;
        o.ecn = ecn;
        // Python integers of any size: the session checks the attributes' ranges.
        const uint64_t any = std::numeric_limits<uint64_t>::max();
        if (!buffer.is_none())
        {
            o.buffer = CheckedUint(buffer, "buffer (bytes)", 0, any);
        }
        if (!ecnKmin.is_none())
        {
            o.ecnKmin = CheckedUint(ecnKmin, "ecn_kmin (bytes)", 0, any);
        }
        if (!ecnKmax.is_none())
        {
            o.ecnKmax = CheckedUint(ecnKmax, "ecn_kmax (bytes)", 0, any);
        }
        if (!ecnPmax.is_none())
        {
            if (py::isinstance<py::bool_>(ecnPmax) ||
                !(py::isinstance<py::float_>(ecnPmax) || py::isinstance<py::int_>(ecnPmax)))
            {
                throw std::invalid_argument("ecn_pmax: expected a number");
            }
            o.ecnPmax = ecnPmax.cast<double>();
        }
        if (!ecnMarking.is_none())
        {
            if (!py::isinstance<py::str>(ecnMarking))
            {
                throw std::invalid_argument(
                    "ecn_marking = " + py::repr(ecnMarking).cast<std::string>() +
                    ": must be 'dequeue' (mark on the queue a packet leaves, the default) or "
                    "'enqueue' (mark on the queue it joins)");
            }
            o.ecnMarking = ecnMarking.cast<std::string>();
        }
        return m_session->Build(o);
    }

    TopologyInfo Info() const
    {
        return m_session->Info();
    }

    void InstallRdma(const std::string& cc, const py::handle& mtu, const py::dict& params)
    {
        CheckOpen();
        m_session->CheckRdmaInstallable();
        const std::string tid = CcTypeId(cc);
        std::optional<uint64_t> m;
        if (!mtu.is_none())
        {
            m = CheckedUint(mtu, "mtu", 0, std::numeric_limits<uint64_t>::max());
        }
        std::vector<std::pair<std::string, Ptr<AttributeValue>>> values;
        for (auto item : params)
        {
            std::string key = py::str(item.first);
            const auto [name, type] = SimulationSession::CcParameter(tid, key);
            values.emplace_back(name, CcValue(key, type, item.second));
        }
        m_session->InstallRdma(tid, m, values);
    }

    /// The arguments rdma_flow() and periodic_job() share, converted and range-checked.
    struct Message
    {
        uint32_t src;
        uint32_t dst;
        uint64_t bytes;
        double start;
        uint8_t priority;
    };

    /// \param caller "rdma_flow()" or "periodic_job()" \return the shared arguments
    Message ParseMessage(const std::string& caller,
                         const py::handle& srcH,
                         const py::handle& dstH,
                         const py::handle& bytesH,
                         const py::handle& startH,
                         const py::handle& prioH) const
    {
        CheckOpen();
        if (!m_session->HasRdma())
        {
            throw std::invalid_argument("call install_rdma() before " + caller);
        }
        const uint32_t n = m_session->GetNHosts();
        Message m;
        m.src = static_cast<uint32_t>(CheckedUint(srcH, "src (host index)", 0, n - 1));
        m.dst = static_cast<uint32_t>(CheckedUint(dstH, "dst (host index)", 0, n - 1));
        m.bytes = CheckedUint(bytesH, "bytes", InputLimits::MESSAGE_BYTES);
        m.start = ParseTime(startH, "start");
        m.priority =
            static_cast<uint8_t>(CheckedUint(prioH, "priority", InputLimits::RDMA_PRIORITY));
        return m;
    }

    Flow RdmaFlow(const py::handle& srcH,
                  const py::handle& dstH,
                  const py::handle& bytesH,
                  const py::handle& startH,
                  const py::handle& prioH,
                  double aggressiveness,
                  bool trace)
    {
        const Message m = ParseMessage("rdma_flow()", srcH, dstH, bytesH, startH, prioH);
        return Flow(
            m_session
                ->AddRdmaFlow(m.src, m.dst, m.bytes, m.start, m.priority, aggressiveness, trace));
    }

    Job PeriodicJobOf(const py::handle& srcH,
                      const py::handle& dstH,
                      const py::handle& computeH,
                      const py::handle& bytesH,
                      const py::handle& iterationsH,
                      const py::handle& startH,
                      const py::handle& prioH,
                      double aggressiveness,
                      double slope,
                      double intercept,
                      double computeCv,
                      const py::handle& minPeriodH)
    {
        const Message m = ParseMessage("periodic_job()", srcH, dstH, bytesH, startH, prioH);
        SessionPeriodicJob j;
        j.src = m.src;
        j.dst = m.dst;
        j.compute = ParseTime(computeH, "compute");
        j.bytes = m.bytes;
        j.iterations = CheckedUint(iterationsH, "iterations", InputLimits::ITERATIONS);
        j.start = m.start;
        j.priority = m.priority;
        j.aggressiveness = aggressiveness;
        j.iterGainSlope = slope;
        j.iterGainIntercept = intercept;
        j.computeCv = computeCv;
        j.minIterationPeriod = ParseTime(minPeriodH, "min_iteration_period");
        return Job(m_session->AddPeriodicJob(j));
    }

    void Run(const py::handle& until)
    {
        CheckOpen();
        std::optional<double> t;
        if (!until.is_none())
        {
            t = ParseTime(until, "until");
        }
        SimulatorGuard::Running running("run()");
        m_running = true;

        struct Clear
        {
            bool& flag;

            ~Clear()
            {
                flag = false;
            }
        } clear{m_running};

        py::gil_scoped_release release;
        try
        {
            m_session->Run(t);
        }
        catch (const std::invalid_argument& e)
        {
            // the first run checks the sections against the traffic: the scenario's message
            throw std::invalid_argument(InPythonWords(e.what()));
        }
    }

    std::vector<Flow> Flows() const
    {
        std::vector<Flow> v;
        for (const auto& s : m_session->GetFlows())
        {
            v.emplace_back(s);
        }
        return v;
    }

    py::list PortStats() const
    {
        CheckOpen();
        py::list out;
        const FabricTopology& topo = m_session->GetTopology();
        for (uint32_t i = 0; i < topo.switches.GetN(); ++i)
        {
            Ptr<Node> node = topo.switches.Get(i);
            Ptr<FabricSwitch> sw = node->GetObject<FabricSwitch>();
            if (!sw)
            {
                continue;
            }
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                const SwitchPortStats& st = sw->GetPortStats(p);
                py::dict d;
                d["switch"] = m_session->GetNodeName(node->GetId());
                d["node"] = node->GetId();
                d["port"] = p;
                d["tx_packets"] = st.txPackets;
                d["tx_bytes"] = st.txBytes;
                d["drops"] = st.drops;
                d["drop_bytes"] = st.dropBytes;
                d["ecn_marks"] = st.ecnMarks;
                d["pause_sent"] = st.pauseSent;
                d["resume_sent"] = st.resumeSent;
                d["max_queue_bytes"] = st.maxQueueBytes;
                out.append(d);
            }
        }
        return out;
    }

    py::list NicStats() const
    {
        CheckOpen();
        py::list out;
        const std::vector<Ptr<RdmaNic>>& nics = m_session->GetNics();
        for (uint32_t i = 0; i < nics.size(); ++i)
        {
            py::dict d;
            d["host"] = i;
            d["bytes_received"] = nics[i]->GetBytesReceived();
            d["cnps_sent"] = nics[i]->GetCnpsSent();
            d["naks_sent"] = nics[i]->GetNaksSent();
            out.append(d);
        }
        return out;
    }

    void CheckOpen() const
    {
        SimulatorGuard::CheckIdle("mlnet.Simulation");
        m_session->CheckOpen();
    }

    /// \return the session, open and idle (the other parts' methods: py-session-sections.cc)
    SimulationSession& Session()
    {
        CheckOpen();
        return *m_session;
    }

    /// \return the session, open or closed (its kept records)
    const SimulationSession& Records() const
    {
        if (m_session->IsOpen())
        {
            SimulatorGuard::CheckIdle("mlnet.Simulation");
        }
        return *m_session;
    }

  private:
    /// \param key the parameter as given \param type its attribute's value type
    /// \param v the Python value \return the attribute value
    static Ptr<AttributeValue> CcValue(const std::string& key,
                                       const std::string& type,
                                       const py::handle& v)
    {
        if (type == "ns3::DataRateValue")
        {
            return Create<DataRateValue>(
                DataRate(static_cast<uint64_t>(ParseRate(v, "cc parameter " + key))));
        }
        if (type == "ns3::TimeValue")
        {
            return Create<TimeValue>(ToTime(ParseTime(v, "cc parameter " + key)));
        }
        if (type == "ns3::BooleanValue")
        {
            if (!py::isinstance<py::bool_>(v))
            {
                throw std::invalid_argument("cc parameter " + key + ": expected a bool");
            }
            return Create<BooleanValue>(v.cast<bool>());
        }
        if (type == "ns3::DoubleValue")
        {
            if (!(py::isinstance<py::float_>(v) || py::isinstance<py::int_>(v)) ||
                py::isinstance<py::bool_>(v))
            {
                throw std::invalid_argument("cc parameter " + key + ": expected a number");
            }
            double x = v.cast<double>();
            if (!std::isfinite(x))
            {
                throw std::invalid_argument("cc parameter " + key + ": must be finite");
            }
            return Create<DoubleValue>(x);
        }
        if (type == "ns3::UintegerValue")
        {
            return Create<UintegerValue>(
                CheckedUint(v, "cc parameter " + key, 0, uint64_t(1) << 62));
        }
        return Create<StringValue>(std::string(py::str(v)));
    }

    std::unique_ptr<SimulationSession> m_session;
    bool m_running{false};
};

/**
 * Bind one topology builder of Simulation: its own dimension arguments first (converted and
 * checked by `dims`), then the link and switch arguments every builder shares.
 * \param sim the class \param name the method \param dims the dimensions' parser
 * \param doc the docstring \param dimArgs the dimensions' py::arg with their defaults
 */
template <class... D, class... A>
void
DefTopology(py::class_<Simulation>& sim,
            const char* name,
            std::vector<uint64_t> (*dims)(const D&...),
            const char* doc,
            A&&... dimArgs)
{
    const std::string kind = name;
    sim.def(
        name,
        [kind, dims](Simulation& s,
                     const D&... d,
                     const py::object& hostRate,
                     const py::object& fabricRate,
                     const py::object& delay,
                     bool pfc,
                     bool ecn,
                     const py::object& buffer,
                     const py::object& ecnKmin,
                     const py::object& ecnKmax,
                     const py::object& ecnPmax,
                     const py::object& ecnMarking) {
            return s.Build(kind,
                           dims(d...),
                           hostRate,
                           fabricRate,
                           delay,
                           pfc,
                           ecn,
                           buffer,
                           ecnKmin,
                           ecnKmax,
                           ecnPmax,
                           ecnMarking);
        },
        std::forward<A>(dimArgs)...,
        py::arg("host_rate") = "100Gbps",
        py::arg("fabric_rate") = "100Gbps",
        py::arg("delay") = "1us",
        py::arg("pfc") = true,
        py::arg("ecn") = true,
        py::arg("buffer") = py::none(),
        py::arg("ecn_kmin") = py::none(),
        py::arg("ecn_kmax") = py::none(),
        py::arg("ecn_pmax") = py::none(),
        py::arg("ecn_marking") = py::none(),
        doc);
}

} // namespace

namespace mlnetpy
{

SimulationSession&
SessionOf(py::handle simulation)
{
    return simulation.cast<Simulation&>().Session();
}

const SimulationSession&
RecordsOf(py::handle simulation)
{
    return simulation.cast<const Simulation&>().Records();
}

void
CloseLiveSimulation()
{
    // At interpreter exit a run may still be in progress in a daemon thread: leave it alone.
    auto* live = static_cast<Simulation*>(const_cast<void*>(SimulatorGuard::Owner()));
    if (live != nullptr && !live->IsRunning())
    {
        live->Close();
    }
}

void
RegisterSimulation(py::module_& m)
{
    py::class_<TopologyInfo>(m, "Topology", "Summary of a built topology")
        .def_readonly("kind", &TopologyInfo::kind)
        .def_readonly("hosts", &TopologyInfo::hosts)
        .def_readonly("switches", &TopologyInfo::switches)
        .def_readonly("links", &TopologyInfo::links)
        .def_readonly("addresses", &TopologyInfo::addresses)
        .def("__repr__", [](const TopologyInfo& t) {
            return "<mlnet.Topology " + t.kind + ": " + std::to_string(t.hosts) + " hosts, " +
                   std::to_string(t.switches) + " switches, " + std::to_string(t.links) + " links>";
        });

    py::class_<Job>(m, "Job", "A periodic training job (compute, then communicate, repeat)")
        .def_property_readonly("name", &Job::Name)
        .def_property_readonly("iterations_done", &Job::IterationsDone)
        .def_property_readonly("finished", &Job::Finished)
        .def_property_readonly("iteration_times",
                               &Job::IterationTimes,
                               "duration of every finished iteration (s)")
        .def_property_readonly("iterations",
                               &Job::Iterations,
                               "per-iteration records (start, end, compute, exposed_comm, "
                               "gpu_idle; seconds)")
        .def("mean_iteration_time",
             &Job::MeanIterationTime,
             py::arg("skip") = 1,
             "mean iteration time (s), skipping the first `skip` iterations");

    py::class_<Flow>(m, "Flow", "One RDMA message on its own queue pair")
        .def_property_readonly("id", [](const Flow& f) { return f.m_s->id; })
        .def_property_readonly("src", [](const Flow& f) { return f.m_s->src; })
        .def_property_readonly("dst", [](const Flow& f) { return f.m_s->dst; })
        .def_property_readonly("bytes", [](const Flow& f) { return f.m_s->bytes; })
        .def_property_readonly("start", [](const Flow& f) { return f.m_s->start; })
        .def_property_readonly("priority", [](const Flow& f) { return f.m_s->priority; })
        .def_property_readonly("aggressiveness",
                               [](const Flow& f) { return f.m_s->aggressiveness; })
        .def_property_readonly("done", [](const Flow& f) { return f.m_s->done; })
        .def_property_readonly("fct", &Flow::Fct, "flow completion time (s), None if not done")
        .def_property_readonly("finish", &Flow::Finish, "completion time (s), None if not done")
        .def_property_readonly("bytes_acked", &Flow::BytesAcked)
        .def_property_readonly("bytes_sent",
                               &Flow::BytesSent,
                               "payload bytes put on the wire (retransmissions included)")
        .def_property_readonly("rate", &Flow::Rate, "current sending rate (bit/s)")
        .def_property_readonly("cnps", &Flow::Cnps)
        .def_property_readonly("retransmissions", &Flow::Retx)
        .def_property_readonly("timeouts", &Flow::Timeouts)
        .def_property_readonly("rate_trace",
                               &Flow::RateTrace,
                               "list of (time s, rate bit/s); None unless trace=True")
        .def("as_dict", &Flow::AsDict)
        .def("__repr__", &Flow::Repr);

    const char* topoDoc = "Build the topology; rates like '100Gbps', delay like '1us'; "
                          "buffer in bytes; returns a Topology";
    py::class_<Simulation> sim(m, "Simulation", "One ns-3 simulation (only one may be live)");
    DefTopology(
        sim,
        "fat_tree",
        +[](const py::object& k, const py::object& hostsPerEdge) -> std::vector<uint64_t> {
            uint64_t kk = CheckedUint(k, "k", InputLimits::FAT_TREE_K);
            if (kk % 2 != 0)
            {
                throw std::invalid_argument("k = " + std::to_string(kk) + " must be even");
            }
            return {kk,
                    CheckedUint(hostsPerEdge,
                                "hosts_per_edge",
                                0,
                                InputLimits::HOSTS_PER_EDGE_PER_K * kk)};
        },
        topoDoc,
        py::arg("k") = 4,
        py::arg("hosts_per_edge") = 0);
    DefTopology(
        sim,
        "leaf_spine",
        +[](const py::object& l,
            const py::object& sp,
            const py::object& h) -> std::vector<uint64_t> {
            return {CheckedUint(l, "leaves", InputLimits::LEAVES),
                    CheckedUint(sp, "spines", InputLimits::SPINES),
                    CheckedUint(h, "hosts_per_leaf", InputLimits::HOSTS_PER_LEAF)};
        },
        topoDoc,
        py::arg("leaves") = 4,
        py::arg("spines") = 2,
        py::arg("hosts_per_leaf") = 4);
    DefTopology(
        sim,
        "dumbbell",
        +[](const py::object& l, const py::object& r) -> std::vector<uint64_t> {
            return {CheckedUint(l, "left", InputLimits::DUMBBELL_HOSTS),
                    CheckedUint(r, "right", InputLimits::DUMBBELL_HOSTS)};
        },
        "Dumbbell: left hosts then right hosts; fabric_rate is the bottleneck rate",
        py::arg("left") = 1,
        py::arg("right") = 1);
    sim.def(py::init([](const py::object& seed) {
                return std::make_unique<Simulation>(CheckedUint(seed, "seed", InputLimits::SEED));
            }),
            py::arg("seed") = 1)
        .def_property_readonly("seed", &Simulation::Seed)
        .def_property_readonly("now", &Simulation::Now, "simulated time (s)")
        .def_property_readonly("is_open", &Simulation::IsOpen)
        .def_property_readonly("topology", &Simulation::Info)
        .def_property_readonly("flows", &Simulation::Flows)
        .def(
            "install_rdma",
            [](Simulation& s, const std::string& cc, const py::object& mtu, const py::kwargs& kw) {
                s.InstallRdma(cc, mtu, kw);
            },
            py::arg("cc") = "dcqcn",
            py::arg("mtu") = py::none(),
            "Install RDMA NICs on every host; cc in 'dcqcn', 'dcqcn-vendor', 'fixed'; other "
            "keyword arguments are congestion-control attributes (rate_ai='40Mbps', g=1/256, "
            "timer='55us', min_rate=..., or their ns-3 names RateAI, G, ...)")
        .def("rdma_flow",
             &Simulation::RdmaFlow,
             py::arg("src"),
             py::arg("dst"),
             py::arg("bytes"),
             py::arg("start") = "0us",
             py::arg("priority") = DataClass::DEFAULT,
             py::arg("aggressiveness") = 1.0,
             py::arg("trace") = false,
             "Post one RDMA WRITE of `bytes` from host src to host dst at `start` on a new "
             "queue pair; trace=True records the DCQCN rate trajectory")
        .def("periodic_job",
             &Simulation::PeriodicJobOf,
             py::arg("src"),
             py::arg("dst"),
             py::arg("compute"),
             py::arg("bytes"),
             py::arg("iterations"),
             py::arg("start") = "0us",
             py::arg("priority") = DataClass::DEFAULT,
             py::arg("aggressiveness") = 1.0,
             py::arg("iter_gain_slope") = 0.0,
             py::arg("iter_gain_intercept") = 1.0,
             py::arg("compute_cv") = 0.0,
             py::arg("min_iteration_period") = 0.0,
             "A periodic training job: `iterations` times, compute for `compute`, then send "
             "`bytes` from src to dst on its own queue pair (DCQCN profile `aggressiveness`; "
             "iteration-aware gain F(r) = slope * r + intercept). The first iteration starts "
             "at `start` (the offset between jobs); compute_cv in [0, 1] jitters every compute "
             "phase: normal with mean `compute` and standard deviation compute_cv x compute "
             "(bounded to [0, 2 x compute]), drawn from the simulation's seed; "
             "min_iteration_period (0 .. 3600 s, 0 = none) starts iteration i no earlier than "
             "that after iteration i-1 started (a fixed iteration rate)")
        .def("run",
             &Simulation::Run,
             py::arg("until") = py::none(),
             "Run until the absolute simulated time `until` (or until no events are left); "
             "the GIL is released meanwhile")
        .def("port_stats", &Simulation::PortStats, "per switch port counters, list of dicts")
        .def("nic_stats", &Simulation::NicStats, "per host NIC counters, list of dicts")
        .def("close", &Simulation::Close, "Destroy the ns-3 simulator; flows keep their results")
        .def(
            "__enter__",
            [](Simulation& s) -> Simulation& { return s; },
            py::return_value_policy::reference)
        .def("__exit__", [](Simulation& s, py::args) { s.Close(); });
}

} // namespace mlnetpy
