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
//           "overrides": [{"hosts": [3], "memoryAppDemand": 1.0, ...}]}

#include "host-interconnect-helper.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "scenario-extension.h"

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
        in.Fail(key, "must be a power of two in [" + std::to_string(lo) + ", " + std::to_string(hi)
                         + "]");
    }
    return value;
}

/// The path parameters present in an object (absent keys keep the defaults / the base).
HostAttributes
ParseAttributes(ScenarioObject& in)
{
    HostAttributes a;
    auto uint = [&](const char* key, const char* attr, uint64_t lo, uint64_t hi)
    {
        if (in.Has(key))
        {
            a.emplace_back(attr, Create<UintegerValue>(in.Uint(key, lo, hi, std::nullopt)));
        }
    };
    auto dbl = [&](const char* key, const char* attr, double lo, double hi)
    {
        if (in.Has(key))
        {
            a.emplace_back(attr, Create<DoubleValue>(in.Double(key, lo, hi, std::nullopt)));
        }
    };
    auto flag = [&](const char* key, const char* attr)
    {
        if (in.Has(key))
        {
            a.emplace_back(attr, Create<BooleanValue>(in.Bool(key, std::nullopt)));
        }
    };
    auto bytes = [&](const char* key, const char* attr, uint64_t lo, uint64_t hi, bool pow2)
    {
        if (in.Has(key))
        {
            uint64_t v = in.Bytes(key, lo, hi, std::nullopt);
            if (pow2)
            {
                PowerOfTwo(in, key, v, lo, hi);
            }
            a.emplace_back(attr, Create<UintegerValue>(v));
        }
    };
    flag("enabled", "Enabled");
    uint("pcieGeneration", "PcieGeneration", 1, 6);
    if (in.Has("pcieLanes"))
    {
        uint64_t lanes
            = PowerOfTwo(in, "pcieLanes", in.Uint("pcieLanes", 1, 32, std::nullopt), 1, 32);
        a.emplace_back("PcieLanes", Create<UintegerValue>(lanes));
    }
    bytes("maxPayloadSize", "MaxPayloadSize", 128, 4096, true);
    bytes("rxBuffer", "RxBufferBytes", 4096, uint64_t(1) << 32, false);
    flag("iommu", "Iommu");
    uint("iotlbEntries", "IotlbEntries", 1, 1u << 20);
    bytes("pageSize", "PageSize", 4096, uint64_t(1) << 30, true);
    bytes("rxBufferPerQp", "RxBufferPerQp", 4096, uint64_t(1) << 32, false);
    uint("writeCredits", "WriteCredits", 1, 65536);
    if (in.Has("ioLatency"))
    {
        a.emplace_back("IoLatency", Create<TimeValue>(in.Duration(
                                        "ioLatency", Time(0), MicroSeconds(100), std::nullopt)));
    }
    if (in.Has("memoryBandwidth"))
    {
        double bw = double(in.Rate("memoryBandwidth", std::nullopt).GetBitRate());
        if (bw < 1e9 || bw > 1e14)
        {
            in.Fail("memoryBandwidth", "must be in [1Gbps, 100Tbps]");
        }
        a.emplace_back("MemoryBandwidth", Create<DoubleValue>(bw));
    }
    dbl("memoryAppDemand", "MemoryAppDemand", 0.0, 1.0);
    flag("pfc", "Pfc");
    flag("transmitPath", "TransmitPath");
    flag("hostCcMarking", "HostCcMarking");
    flag("hostCcThrottling", "HostCcThrottling");
    dbl("hostCcThreshold", "HostCcThreshold", 0.0, 1.0);
    dbl("hostCcTarget", "HostCcTarget", 0.0, 1.0);
    return a;
}

/// Host indices of a "hosts" key (every host if absent).
std::vector<uint32_t>
ParseHostList(ScenarioObject& in, const ScenarioConfig& cfg, bool required)
{
    const uint32_t n = cfg.topology.NumHosts();
    std::vector<uint32_t> hosts;
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
            ScenarioObject::Fail(in.PathOf("hosts"), v,
                                 "must list host indices in [0, " + std::to_string(n - 1) + "]");
        }
        hosts.push_back(v.get<uint32_t>());
    }
    return hosts;
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
            helper.Install(NodeContainer(t.hosts.Get(h)));
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
        o.Finish();
        s->changes.push_back(c);
    }
    return s;
}

ScenarioSectionRegistry::Registrar g_section("host", &ParseSection);

} // namespace

} // namespace ns3
