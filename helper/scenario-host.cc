/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Scenario keys of the host interconnect (doc/host.rst, "Usage"):
//
//  "host": {"hosts": [0, 1] (default: every host),
//           "pcieGeneration": 3, "pcieLanes": 16, "maxPayloadSize": 256, "rxBuffer": "1MiB",
//           "iommu": true, "iotlbEntries": 64, "pageSize": "4KiB" | "2MiB",
//           "rxBufferPerQp": "64KiB", "writeCredits": 128, "ioLatency": "250ns",
//           "memoryBandwidth": "600Gbps", "memoryAppDemand": 0.5, "pfc": false,
//           "transmitPath": true, "hostCcMarking": false, "hostCcThrottling": false,
//           "hostCcThreshold": 0.9, "hostCcTarget": 0.8, "enabled": true,
//           "demandChanges": [{"at": "2ms", "memoryAppDemand": 0.9}],
//           "overrides": [{"hosts": [1], "memoryAppDemand": 1.0, ...}]}
// and every other HostInterconnect attribute in camelCase (pageWalkAccesses, hostCcGain, ...;
// HostKeys()). Overrides and demand changes name hosts of "hosts".

#include "flow-backend-helper.h"
#include "host-interconnect-helper.h"
#include "input-limits.h"
#include "scenario-extension.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

namespace ns3
{

namespace
{

/// Attribute values read from one object of the section (the base, or an override).
typedef std::vector<std::pair<std::string, Ptr<AttributeValue>>> HostAttributes;

/// Power-of-two check with the standard one-line error.
uint64_t
PowerOfTwo(ScenarioObject& in, const std::string& key, uint64_t value, uint64_t lo, uint64_t hi)
{
    if (value != 0 && !Iotlb::IsPowerOfTwo(value))
    {
        in.Fail(key,
                "must be a power of two in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                    "]");
    }
    return value;
}

/// How a key's value is read.
enum class Kind
{
    FLAG,  //!< bool
    UINT,  //!< integer
    POW2,  //!< integer, a power of two
    BYTES, //!< byte count (integer or "64KiB")
    PAGE,  //!< byte count, a power of two
    REAL,  //!< number
    TIME,  //!< time string
    RATE   //!< rate string (memoryBandwidth, stored in bit/s as a double)
};

/// A key of the section: its HostInterconnect attribute and kind. Every attribute has one
/// (camelCase of the attribute name; rxBuffer is RxBufferBytes); ranges are the attributes'
/// checkers' (times: the [lo, hi] given here, the same as the checker's).
struct HostKey
{
    const char* key;
    const char* attribute;
    Kind kind;
    Time lo{Time(0)};
    Time hi{Time(0)};
};

const std::vector<HostKey>&
HostKeys()
{
    static const std::vector<HostKey> keys = {
        {"enabled", "Enabled", Kind::FLAG},
        {"pcieGeneration", "PcieGeneration", Kind::UINT},
        {"pcieLanes", "PcieLanes", Kind::POW2},
        {"maxPayloadSize", "MaxPayloadSize", Kind::PAGE},
        {"tlpOverhead", "TlpOverhead", Kind::UINT},
        {"rxBuffer", "RxBufferBytes", Kind::BYTES},
        {"writeCredits", "WriteCredits", Kind::UINT},
        {"readRequests", "ReadRequests", Kind::UINT},
        {"readRequestBytes", "ReadRequestBytes", Kind::BYTES},
        {"ioLatency", "IoLatency", Kind::TIME, Time(0), MicroSeconds(100)},
        {"iommu", "Iommu", Kind::FLAG},
        {"iotlbEntries", "IotlbEntries", Kind::UINT},
        {"pageSize", "PageSize", Kind::PAGE},
        {"rxBufferPerQp", "RxBufferPerQp", Kind::BYTES},
        {"pageWalkAccesses", "PageWalkAccesses", Kind::REAL},
        {"memoryBandwidth", "MemoryBandwidth", Kind::RATE},
        {"memoryIdleLatency", "MemoryIdleLatency", Kind::TIME, NanoSeconds(1), MicroSeconds(100)},
        {"memoryQueueingScale", "MemoryQueueingScale", Kind::TIME, Time(0), MicroSeconds(100)},
        {"memoryMaxUtilization", "MemoryMaxUtilization", Kind::REAL},
        {"memoryAppDemand", "MemoryAppDemand", Kind::REAL},
        {"pfc", "Pfc", Kind::FLAG},
        {"pfcHeadroom", "PfcHeadroom", Kind::BYTES},
        {"pfcResumeOffset", "PfcResumeOffset", Kind::BYTES},
        {"pfcPauseQuanta", "PfcPauseQuanta", Kind::UINT},
        {"transmitPath", "TransmitPath", Kind::FLAG},
        {"hostCcMarking", "HostCcMarking", Kind::FLAG},
        {"hostCcThrottling", "HostCcThrottling", Kind::FLAG},
        {"hostCcThreshold", "HostCcThreshold", Kind::REAL},
        {"hostCcMarkBytes", "HostCcMarkBytes", Kind::BYTES},
        {"hostCcTarget", "HostCcTarget", Kind::REAL},
        {"hostCcGain", "HostCcGain", Kind::REAL},
        {"hostCcInterval", "HostCcInterval", Kind::TIME, NanoSeconds(100), Seconds(1)},
        {"hostCcLevels", "HostCcLevels", Kind::UINT},
    };
    return keys;
}

/// The path parameters present in an object (absent keys keep the defaults / the base); every
/// key is known to the object, so an unknown one is reported with the full list.
HostAttributes
ParseAttributes(ScenarioObject& in)
{
    const TypeId tid = HostInterconnect::GetTypeId();
    HostAttributes a;
    for (const HostKey& k : HostKeys())
    {
        in.Raw(k.key); // known, present or not
        if (!in.Has(k.key))
        {
            continue;
        }
        const UintLimit u = InputLimits::UintOfAttribute(tid, k.attribute);
        const RealLimit r = InputLimits::OfAttribute(tid, k.attribute);
        Ptr<AttributeValue> v;
        switch (k.kind)
        {
        case Kind::FLAG:
            v = Create<BooleanValue>(in.Bool(k.key, std::nullopt));
            break;
        case Kind::UINT:
            v = Create<UintegerValue>(in.Uint(k.key, u.lo, u.hi, std::nullopt));
            break;
        case Kind::POW2:
            v = Create<UintegerValue>(
                PowerOfTwo(in, k.key, in.Uint(k.key, u.lo, u.hi, std::nullopt), u.lo, u.hi));
            break;
        case Kind::BYTES:
            v = Create<UintegerValue>(in.Bytes(k.key, u.lo, u.hi, std::nullopt));
            break;
        case Kind::PAGE:
            v = Create<UintegerValue>(
                PowerOfTwo(in, k.key, in.Bytes(k.key, u.lo, u.hi, std::nullopt), u.lo, u.hi));
            break;
        case Kind::REAL:
            v = Create<DoubleValue>(in.Double(k.key, r.lo, r.hi, std::nullopt));
            break;
        case Kind::TIME:
            v = Create<TimeValue>(in.Duration(k.key, k.lo, k.hi, std::nullopt));
            break;
        case Kind::RATE: {
            const double bps = double(in.Rate(k.key, std::nullopt).GetBitRate());
            if (bps < r.lo || bps > r.hi)
            {
                in.Fail(k.key, "must be in [1Gbps, 100Tbps]");
            }
            v = Create<DoubleValue>(bps);
            break;
        }
        }
        a.emplace_back(k.attribute, v);
    }
    return a;
}

/// Host indices of a "hosts" key (every host if absent).
std::vector<uint32_t>
ParseHostList(ScenarioObject& in, const ScenarioConfig& cfg, bool required)
{
    const uint32_t n = cfg.topology.NumHosts();
    std::vector<uint32_t> hosts;
    in.Raw("hosts"); // known, present or not
    if (!in.Has("hosts"))
    {
        if (required)
        {
            in.Fail("hosts", "is required: the host indices this override applies to");
        }
        for (uint32_t h = 0; h < n; ++h)
        {
            hosts.push_back(h);
        }
        return hosts;
    }
    const nlohmann::json& arr = in.Array("hosts");
    for (const auto& v : arr)
    {
        if (!v.is_number_unsigned() || v.get<uint64_t>() >= n)
        {
            ScenarioObject::Fail(in.PathOf("hosts"),
                                 v,
                                 "must list host indices in [0, " + std::to_string(n - 1) + "]");
        }
        hosts.push_back(v.get<uint32_t>());
    }
    return hosts;
}

/// Refuse hosts of an override or demand change that have no host interconnect (not in the
/// section's "hosts"): they would be ignored.
void
RequireSectionHosts(ScenarioObject& in,
                    const std::vector<uint32_t>& hosts,
                    const std::vector<uint32_t>& section,
                    const std::string& what)
{
    for (uint32_t h : hosts)
    {
        if (std::find(section.begin(), section.end(), h) == section.end())
        {
            in.Fail("hosts",
                    "host " + std::to_string(h) +
                        " is not in the section's \"hosts\" (it has no host "
                        "interconnect, so " +
                        what + " would not apply): add it there");
        }
    }
}

/// A change of the memory application's demand during the run.
struct DemandChange
{
    Time at;
    double demand;
    std::vector<uint32_t> hosts;
};

/// The "host" section: a HostInterconnect on the chosen hosts.
class HostSection : public TrafficSpec
{
  public:
    std::vector<uint32_t> hosts;
    HostAttributes base;
    std::map<uint32_t, HostAttributes> overrides; //!< per host, applied after the base
    std::vector<DemandChange> changes;

    void Install(TrafficContext& ctx) const override
    {
        const FabricTopology& t = ctx.Topology();
        for (uint32_t h : hosts)
        {
            HostInterconnectHelper helper;
            for (const auto& [name, value] : base)
            {
                helper.SetAttribute(name, *value);
            }
            auto it = overrides.find(h);
            if (it != overrides.end())
            {
                for (const auto& [name, value] : it->second)
                {
                    helper.SetAttribute(name, *value);
                }
            }
            if (ctx.Config().backend == "flow")
            {
                // fluid links at the host path's steady-state rates (FluidHost)
                FlowBackendHelper::InstallHost(NodeContainer(t.hosts.Get(h)), helper);
            }
            else
            {
                helper.Install(NodeContainer(t.hosts.Get(h)));
            }
        }
        for (const DemandChange& c : changes)
        {
            for (uint32_t h : c.hosts)
            {
                Ptr<HostInterconnect> hi = HostInterconnectHelper::Get(t.hosts.Get(h));
                if (hi)
                {
                    Simulator::Schedule(c.at, &HostInterconnect::SetMemoryAppDemand, hi, c.demand);
                }
            }
        }
    }
};

std::shared_ptr<const TrafficSpec>
ParseSection(ScenarioObject& in, const ScenarioConfig& cfg)
{
    auto s = std::make_shared<HostSection>();
    s->hosts = ParseHostList(in, cfg, false);
    s->base = ParseAttributes(in);
    const nlohmann::json& ov = in.Array("overrides");
    for (size_t i = 0; i < ov.size(); ++i)
    {
        ScenarioObject o(ov[i], in.PathOf("overrides") + "[" + std::to_string(i) + "]");
        std::vector<uint32_t> hosts = ParseHostList(o, cfg, true);
        RequireSectionHosts(o, hosts, s->hosts, "an override");
        HostAttributes a = ParseAttributes(o);
        o.Finish();
        for (uint32_t h : hosts)
        {
            auto& dst = s->overrides[h];
            dst.insert(dst.end(), a.begin(), a.end());
        }
    }
    const nlohmann::json& ch = in.Array("demandChanges");
    for (size_t i = 0; i < ch.size(); ++i)
    {
        ScenarioObject o(ch[i], in.PathOf("demandChanges") + "[" + std::to_string(i) + "]");
        DemandChange c;
        c.at = o.Duration("at", Time(0), cfg.duration, std::nullopt);
        c.demand = o.Double("memoryAppDemand", 0.0, 1.0, std::nullopt);
        c.hosts = o.Has("hosts") ? ParseHostList(o, cfg, true) : s->hosts;
        RequireSectionHosts(o, c.hosts, s->hosts, "a demand change");
        o.Finish();
        s->changes.push_back(c);
    }
    return s;
}

ScenarioSectionRegistry::Registrar g_section("host", &ParseSection);

} // namespace

} // namespace ns3
