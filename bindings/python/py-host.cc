/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Python function of the host interconnect: host_path(), the analytical operating point of the
// NIC-to-memory path (PCIe, memory bus under a co-located application, IOTLB hit rate of the
// queue pairs' receive buffers) from the pure models, for quick what-ifs without a simulation.
// Scenario runs with a "host" section return one record per host in run_scenario()["hosts"]
// (doc/host.rst).

#include "py-convert.h"
#include "py-parts.h"

#include "ns3/core-module.h"
#include "ns3/input-limits.h"
#include "ns3/mlnet-module.h"
#include "ns3/unit-parser.h"

#include <cmath>
#include <map>
#include <pybind11/stl.h>
#include <sstream>

namespace py = pybind11;
using namespace ns3;

namespace mlnetpy
{

namespace
{

/// How a host_path() argument becomes an attribute value.
enum class Kind
{
    UINT,  //!< Python int
    BYTES, //!< Python int or a size string ("2MiB")
    REAL,  //!< Python number
    BOOL,  //!< Python bool
    TIME,  //!< time string or seconds
    RATE   //!< rate string or bit/s
};

/// host_path() argument -> (HostInterconnect attribute, kind).
const std::map<std::string, std::pair<std::string, Kind>>&
Arguments()
{
    static const std::map<std::string, std::pair<std::string, Kind>> m = {
        {"pcie_generation", {"PcieGeneration", Kind::UINT}},
        {"pcie_lanes", {"PcieLanes", Kind::UINT}},
        {"max_payload_size", {"MaxPayloadSize", Kind::BYTES}},
        {"tlp_overhead", {"TlpOverhead", Kind::UINT}},
        {"write_credits", {"WriteCredits", Kind::UINT}},
        {"read_requests", {"ReadRequests", Kind::UINT}},
        {"read_request_bytes", {"ReadRequestBytes", Kind::BYTES}},
        {"io_latency", {"IoLatency", Kind::TIME}},
        {"iommu", {"Iommu", Kind::BOOL}},
        {"iotlb_entries", {"IotlbEntries", Kind::UINT}},
        {"page_size", {"PageSize", Kind::BYTES}},
        {"rx_buffer_per_qp", {"RxBufferPerQp", Kind::BYTES}},
        {"page_walk_accesses", {"PageWalkAccesses", Kind::REAL}},
        {"memory_bandwidth", {"MemoryBandwidth", Kind::RATE}},
        {"memory_idle_latency", {"MemoryIdleLatency", Kind::TIME}},
        {"memory_queueing_scale", {"MemoryQueueingScale", Kind::TIME}},
        {"memory_max_utilization", {"MemoryMaxUtilization", Kind::REAL}},
        {"memory_app_demand", {"MemoryAppDemand", Kind::REAL}},
    };
    return m;
}

/// The attribute value of one argument (types checked here, ranges by the attribute checker).
Ptr<AttributeValue>
ToValue(const std::string& name, Kind kind, const py::handle& v)
{
    switch (kind)
    {
    case Kind::UINT:
        return Create<UintegerValue>(CheckedUint(v, name, 0, UINT64_MAX));
    case Kind::BYTES:
        if (py::isinstance<py::str>(v))
        {
            try
            {
                return Create<UintegerValue>(UnitParser::Bytes(v.cast<std::string>()));
            }
            catch (const std::exception& e)
            {
                throw std::invalid_argument(name + ": " + e.what());
            }
        }
        return Create<UintegerValue>(CheckedUint(v, name, 0, UINT64_MAX));
    case Kind::REAL:
        if (!py::isinstance<py::float_>(v) && !py::isinstance<py::int_>(v))
        {
            throw std::invalid_argument(name + ": must be a number");
        }
        return Create<DoubleValue>(v.cast<double>());
    case Kind::BOOL:
        if (!py::isinstance<py::bool_>(v))
        {
            throw std::invalid_argument(name + ": must be True or False");
        }
        return Create<BooleanValue>(v.cast<bool>());
    case Kind::TIME:
        return Create<TimeValue>(ToTime(ParseTime(v, name)));
    case Kind::RATE:
        return Create<DoubleValue>(ParseRate(v, name));
    }
    return nullptr;
}

/// Seconds as a reader would write them: "250 s", "1 ms", "2.5 us".
std::string
ReadableSeconds(double s)
{
    const std::pair<double, const char*> units[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "us"}};
    std::ostringstream os;
    for (const auto& [scale, unit] : units)
    {
        if (std::abs(s) >= scale)
        {
            os << s / scale << " " << unit;
            return os.str();
        }
    }
    os << s * 1e9 << " ns";
    return os.str();
}

/// "[0ns, 100us]" from a time checker's "Time +0ns:+100000ns".
std::string
TimeRange(const std::string& info)
{
    const auto space = info.find(' ');
    const auto colon = info.find(':', space == std::string::npos ? 0 : space);
    if (space == std::string::npos || colon == std::string::npos)
    {
        return "(" + info + ")";
    }
    auto show = [](const std::string& t) {
        const int64_t ns = Time(t).GetNanoSeconds();
        const std::pair<int64_t, const char*> units[] = {{1000000000, "s"},
                                                         {1000000, "ms"},
                                                         {1000, "us"}};
        for (const auto& [scale, unit] : units)
        {
            if (ns != 0 && ns % scale == 0)
            {
                return std::to_string(ns / scale) + unit;
            }
        }
        return std::to_string(ns) + "ns";
    };
    return "[" + show(info.substr(space + 1, colon - space - 1)) + ", " +
           show(info.substr(colon + 1)) + "]";
}

/// Attribute of the configured object as a number.
template <class V>
auto
Get(const Ptr<Object>& o, const char* name)
{
    V v;
    o->GetAttribute(name, v);
    return v.Get();
}

/// The analytical operating point of a host path; keyword arguments as Arguments().
py::dict
HostPath(const py::kwargs& kw)
{
    uint64_t flows = 1;
    uint64_t payload = 1000;
    ObjectFactory factory("ns3::HostInterconnect");
    for (const auto& item : kw)
    {
        const std::string k = py::str(item.first);
        if (k == "flows")
        {
            flows = CheckedUint(item.second, "flows", 1, 65536);
            continue;
        }
        if (k == "payload")
        {
            payload = CheckedUint(item.second, "payload", 1, 65536);
            continue;
        }
        auto it = Arguments().find(k);
        if (it == Arguments().end())
        {
            std::string known = "flows, payload";
            for (const auto& [name, attr] : Arguments())
            {
                known += ", " + name;
            }
            throw std::invalid_argument("host_path(): unknown argument \"" + k +
                                        "\" (accepted: " + known + ")");
        }
        // The HostInterconnect attribute checkers (the helper's and the scenario's ranges).
        const std::string& attr = it->second.first;
        struct TypeId::AttributeInformation info;
        HostInterconnect::GetTypeId().LookupAttributeByName(attr, &info);
        Ptr<AttributeValue> v = ToValue("host_path(): " + k, it->second.second, item.second);
        if (!info.checker->CreateValidValue(*v))
        {
            // The accepted range from the checker, in the attribute's unit; a time also says
            // how the value was read (a number is seconds).
            const std::string range = info.checker->GetUnderlyingTypeInformation();
            std::string what = k + " = " + std::string(py::str(item.second));
            if (it->second.second == Kind::TIME)
            {
                what += " (" + ReadableSeconds(DynamicCast<TimeValue>(v)->Get().GetSeconds()) +
                        "): must be a time in " + TimeRange(range);
            }
            else
            {
                const RealLimit l = InputLimits::OfAttribute(HostInterconnect::GetTypeId(), attr);
                std::ostringstream os;
                os << ": must be in [" << l.lo << ", " << l.hi << "]";
                what += os.str();
            }
            throw std::invalid_argument("host_path(): " + what + " (" + info.help + ")");
        }
        factory.Set(attr, *v);
    }
    Ptr<Object> h = factory.Create();
    const uint32_t lanes = uint32_t(Get<UintegerValue>(h, "PcieLanes"));
    if (!Iotlb::IsPowerOfTwo(lanes))
    {
        throw std::invalid_argument("pcie_lanes = " + std::to_string(lanes) +
                                    ": must be a power of two in [1, 32]");
    }
    // The path's models as HostInterconnect builds them from these attributes (their
    // constructors check the remaining combinations), at the MemoryAppDemand operating point.
    Ptr<HostInterconnect> path = h->GetObject<HostInterconnect>();
    path->Configure();
    const HostPathTiming& timing = path->GetTiming();
    const HostPathTiming::Operating op = path->GetOperatingPoint();

    // IOTLB: the queue pairs' receive buffers written round-robin, one packet each, each
    // buffer cyclically from its page-aligned base (as HostInterconnect writes them); the hit
    // rate is measured after one warm-up pass over every buffer.
    const bool iommu = Get<BooleanValue>(h, "Iommu");
    const uint64_t page = Get<UintegerValue>(h, "PageSize");
    const uint64_t perQp = Get<UintegerValue>(h, "RxBufferPerQp");
    Iotlb tlb(uint32_t(Get<UintegerValue>(h, "IotlbEntries")), page);
    const uint64_t span = (perQp + page - 1) / page * page;
    const uint64_t pagesPerQp = span / page;
    std::vector<uint64_t> offset(flows, 0);
    uint64_t hits0 = 0;
    uint64_t misses0 = 0;
    double time = 0;
    uint64_t bytes = 0;
    const uint64_t rounds = 2 * ((perQp + payload - 1) / payload);
    for (uint64_t r = 0; iommu && r < rounds; ++r)
    {
        if (r == rounds / 2)
        {
            hits0 = tlb.GetHits();
            misses0 = tlb.GetMisses();
        }
        for (uint64_t q = 0; q < flows; ++q)
        {
            const uint64_t base = (uint64_t(1) << 40) + q * span;
            const uint32_t misses = tlb.AccessCyclic(base, perQp, offset[q], payload);
            if (r >= rounds / 2)
            {
                time += timing.PacketTime(payload, misses, op);
                bytes += payload;
            }
        }
    }
    const uint64_t hits = tlb.GetHits() - hits0;
    const uint64_t lookups = hits + tlb.GetMisses() - misses0;
    py::dict out;
    out["write_rate_bps"] = op.writeRate;
    out["effective_write_rate_bps"] = iommu && time > 0 ? double(bytes) * 8.0 / time : op.writeRate;
    out["iotlb_hit_rate"] = iommu ? (lookups == 0 ? 0.0 : double(hits) / double(lookups)) : 1.0;
    out["working_set_pages"] = flows * pagesPerQp;
    out["pcie_rate_bps"] = op.pcieRate;
    out["credit_rate_bps"] = op.creditRate;
    out["read_rate_bps"] = op.readRate;
    out["memory_utilization"] = op.memUtil;
    out["memory_latency_s"] = op.memLatency;
    out["app_rate_bps"] = op.appRate;
    return out;
}

} // namespace

void
RegisterHost(py::module_& m)
{
    m.def("host_path",
          &HostPath,
          "Analytical operating point of a host's NIC-to-memory path (no simulation). Keyword "
          "arguments: the HostInterconnect attributes in snake_case (pcie_generation, "
          "pcie_lanes, max_payload_size, iommu, iotlb_entries, page_size, rx_buffer_per_qp, "
          "write_credits, io_latency, memory_bandwidth, memory_app_demand, ...), flows (active "
          "queue pairs, default 1) and payload (bytes per packet, default 1000). Returns a dict: "
          "write_rate_bps, effective_write_rate_bps (with the IOTLB's page walks), "
          "iotlb_hit_rate, working_set_pages, pcie_rate_bps, credit_rate_bps, read_rate_bps, "
          "memory_utilization, memory_latency_s, app_rate_bps. ValueError on bad input.");
}

} // namespace mlnetpy
