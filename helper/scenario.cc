/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario.h"

#include "input-limits.h"
#include "scenario-extension.h"
#include "scenario-traffic.h"
#include "unit-parser.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-switch.h"
#include "ns3/log.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Scenario");

// ---------------------------------------------------------------------------------------------
// TopologyConfig

uint32_t
TopologyConfig::NumHosts() const
{
    if (type == "fat-tree")
    {
        return k * (k / 2) * (hostsPerEdge ? hostsPerEdge : k / 2);
    }
    if (type == "leaf-spine")
    {
        return leaves * hostsPerLeaf;
    }
    return left + right;
}

std::string
TopologyConfig::Describe() const
{
    std::ostringstream os;
    if (type == "fat-tree")
    {
        os << "fat-tree k=" << k;
    }
    else if (type == "leaf-spine")
    {
        os << "leaf-spine " << leaves << " leaves x " << spines << " spines";
    }
    else
    {
        os << "dumbbell " << left << "+" << right;
    }
    os << ", " << NumHosts() << " hosts, "
       << UnitParser::FormatNumber(hostLinkRate.GetBitRate() / 1e9) << "/"
       << UnitParser::FormatNumber(fabricLinkRate.GetBitRate() / 1e9) << " Gb/s links, "
       << UnitParser::FormatTime(linkDelay);
    return os.str();
}

// ---------------------------------------------------------------------------------------------
// Scenario

namespace
{

/// How a "fabric" key maps to an ns-3 attribute.
enum class FabricKind
{
    BOOL,
    UINT,
    BYTES,
    DOUBLE,
    SCHEDULER,
    ECN_POINT,
    LOAD_BALANCING,
    DURATION,
};

struct FabricKey
{
    const char* name;      //!< key in the scenario
    bool onSwitch;         //!< FabricSwitch (else FabricNetDevice)
    const char* attribute; //!< ns-3 attribute name
    FabricKind kind;       //!< value kind
};

/// The friendly names of the "fabric" section (documented in doc/scenario.rst).
const FabricKey kFabricKeys[] = {
    {"bufferSize", true, "BufferSize", FabricKind::BYTES},
    {"reservePerQueue", true, "ReservePerQueue", FabricKind::BYTES},
    {"pfc", true, "PfcEnabled", FabricKind::BOOL},
    {"pfcClassMask", true, "PfcClassMask", FabricKind::UINT},
    {"pfcAlpha", true, "PfcAlpha", FabricKind::DOUBLE},
    {"pfcHeadroom", true, "PfcHeadroom", FabricKind::BYTES},
    {"pfcResumeOffset", true, "PfcResumeOffset", FabricKind::BYTES},
    {"pfcPauseQuanta", true, "PfcPauseQuanta", FabricKind::UINT},
    {"egressAlpha", true, "EgressAlpha", FabricKind::DOUBLE},
    {"ecn", true, "EcnEnabled", FabricKind::BOOL},
    {"kmin", true, "EcnKmin", FabricKind::BYTES},
    {"kmax", true, "EcnKmax", FabricKind::BYTES},
    {"pmax", true, "EcnPmax", FabricKind::DOUBLE},
    {"ecnScaleWithRate", true, "EcnScaleWithRate", FabricKind::BOOL},
    {"ecnMarking", true, "EcnMarkingPoint", FabricKind::ECN_POINT},
    {"ecmpSeed", true, "EcmpSeed", FabricKind::UINT},
    {"loadBalancing", true, "LoadBalancing", FabricKind::LOAD_BALANCING},
    {"flowletTimeout", true, "FlowletTimeout", FabricKind::DURATION},
    {"flowletTableSize", true, "FlowletTableSize", FabricKind::UINT},
    {"scheduler", false, "Scheduler", FabricKind::SCHEDULER},
    {"dwrrQuantum", false, "DwrrQuantum", FabricKind::BYTES},
};

void
ParseFabric(ScenarioObject in, FabricConfig& out)
{
    for (const FabricKey& fk : kFabricKeys)
    {
        if (!in.Has(fk.name))
        {
            in.Raw(fk.name); // known, but not set
            continue;
        }
        const TypeId tid = fk.onSwitch ? FabricSwitch::GetTypeId() : FabricNetDevice::GetTypeId();
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(fk.attribute, &info))
        {
            throw std::logic_error(std::string("scenario: no attribute ") + fk.attribute);
        }
        const RealLimit range = InputLimits::OfAttribute(tid, fk.attribute);
        const UintLimit urange = InputLimits::UintOfAttribute(tid, fk.attribute);
        const uint64_t lo = urange.lo;
        const uint64_t hi = urange.hi;
        Ptr<AttributeValue> value;
        switch (fk.kind)
        {
        case FabricKind::BOOL:
            value = Create<BooleanValue>(in.Bool(fk.name, std::nullopt));
            break;
        case FabricKind::UINT:
            value = Create<UintegerValue>(in.Uint(fk.name, lo, hi, std::nullopt));
            break;
        case FabricKind::BYTES:
            value = Create<UintegerValue>(in.Bytes(fk.name, lo, hi, std::nullopt));
            break;
        case FabricKind::DOUBLE:
            value = Create<DoubleValue>(in.Double(fk.name, range.lo, range.hi, std::nullopt));
            break;
        case FabricKind::SCHEDULER:
            // EnumValue(...).Copy(): EnumValue is a class template from ns-3 3.41 on
            value = EnumValue(in.Choice(fk.name, {"strict", "dwrr"}, std::nullopt) == "dwrr"
                                  ? FabricNetDevice::DWRR
                                  : FabricNetDevice::STRICT_PRIORITY)
                        .Copy();
            break;
        case FabricKind::ECN_POINT:
            value = EnumValue(in.Choice(fk.name, {"dequeue", "enqueue"}, std::nullopt) == "enqueue"
                                  ? FabricSwitch::ECN_AT_ENQUEUE
                                  : FabricSwitch::ECN_AT_DEQUEUE)
                        .Copy();
            break;
        case FabricKind::LOAD_BALANCING:
            value = EnumValue(in.Choice(fk.name, {"flowHash", "flowlet"}, std::nullopt) == "flowlet"
                                  ? FabricSwitch::LB_FLOWLET
                                  : FabricSwitch::LB_FLOW_HASH)
                        .Copy();
            break;
        case FabricKind::DURATION:
            value =
                Create<TimeValue>(in.Duration(fk.name, NanoSeconds(1), Seconds(1), std::nullopt));
            break;
        }
        // Setting a value its checker rejects would abort inside ns-3: refuse it here.
        if (!info.checker->Check(*value))
        {
            in.Fail(fk.name,
                    "rejected by ns3::" + tid.GetName().substr(5) + "::" + fk.attribute + " (" +
                        info.checker->GetUnderlyingTypeInformation() + ")");
        }
        (fk.onSwitch ? out.switchAttributes : out.deviceAttributes)
            .emplace_back(fk.attribute, value);
    }
    in.Finish();

    // Cross-key check: Kmin <= Kmax (with the attribute defaults for an absent one).
    auto effective = [&out](const char* attr) {
        for (const auto& kv : out.switchAttributes)
        {
            if (kv.first == attr)
            {
                return DynamicCast<UintegerValue>(kv.second)->Get();
            }
        }
        TypeId::AttributeInformation info;
        FabricSwitch::GetTypeId().LookupAttributeByName(attr, &info);
        return DynamicCast<const UintegerValue>(info.initialValue)->Get();
    };
    if (effective("EcnKmin") > effective("EcnKmax"))
    {
        in.Fail(in.Has("kmin") ? "kmin" : "kmax",
                "must satisfy kmin <= kmax (kmin " + std::to_string(effective("EcnKmin")) +
                    " B, kmax " + std::to_string(effective("EcnKmax")) + " B)");
    }
}

void
ParseTopology(ScenarioObject in, TopologyConfig& t)
{
    using L = InputLimits;
    auto count = [&in](const char* key, const UintLimit& l, uint64_t def) {
        return static_cast<uint32_t>(in.Uint(key, l.lo, l.hi, def));
    };
    t.type = in.Choice("type", {"fat-tree", "leaf-spine", "dumbbell"}, std::string("fat-tree"));
    if (t.type == "fat-tree")
    {
        const nlohmann::json& k = in.Raw("k");
        if (in.Has("k"))
        {
            if (!k.is_number_unsigned() || k.get<uint64_t>() < L::FAT_TREE_K.lo ||
                k.get<uint64_t>() > L::FAT_TREE_K.hi || k.get<uint64_t>() % 2 != 0)
            {
                in.Fail("k",
                        "must be an even integer in [" + std::to_string(L::FAT_TREE_K.lo) + ", " +
                            std::to_string(L::FAT_TREE_K.hi) + "]");
            }
            t.k = k.get<uint32_t>();
        }
        t.hostsPerEdge =
            static_cast<uint32_t>(in.Uint("hostsPerEdge", 0, L::HOSTS_PER_EDGE_PER_K * t.k, 0));
    }
    else if (t.type == "leaf-spine")
    {
        t.leaves = count("leaves", L::LEAVES, 4);
        t.spines = count("spines", L::SPINES, 2);
        t.hostsPerLeaf = count("hostsPerLeaf", L::HOSTS_PER_LEAF, 4);
    }
    else
    {
        t.left = count("left", L::DUMBBELL_HOSTS, 1);
        t.right = count("right", L::DUMBBELL_HOSTS, 1);
    }
    t.hostLinkRate = in.Rate("hostLinkRate", std::string("100Gbps"));
    t.fabricLinkRate = in.Rate("fabricLinkRate", std::string("100Gbps"));
    t.linkDelay = in.Duration("linkDelay", Time(0), Seconds(1), std::string("1us"));
    in.Finish();
    if (t.NumHosts() > L::MAX_HOSTS)
    {
        in.Fail(t.type == "fat-tree" ? "hostsPerEdge" : "hostsPerLeaf",
                "must keep the topology at most " + std::to_string(L::MAX_HOSTS) +
                    " hosts (it has " + std::to_string(t.NumHosts()) + ")");
    }
    // Every switch holds a route to every host: bound their number (the build time).
    const uint64_t half = t.k / 2;
    const uint64_t switches = t.type == "fat-tree"     ? uint64_t(t.k) * half * 2 + half * half
                              : t.type == "leaf-spine" ? uint64_t(t.leaves) + t.spines
                                                       : 2;
    if (switches * t.NumHosts() > L::MAX_ROUTES)
    {
        in.Fail(t.type == "fat-tree" ? "hostsPerEdge" : "hostsPerLeaf",
                "must keep switches x hosts at most " + std::to_string(L::MAX_ROUTES) +
                    " (the routes every switch holds; it has " + std::to_string(switches) + " x " +
                    std::to_string(t.NumHosts()) + ")");
    }
}

} // namespace

namespace
{
/// Refuse a document nested deeper than Scenario::MAX_DEPTH (walked without recursion).
void
CheckDepth(const nlohmann::json& j)
{
    std::vector<std::pair<const nlohmann::json*, uint32_t>> todo{{&j, 1}};
    while (!todo.empty())
    {
        const auto [v, depth] = todo.back();
        todo.pop_back();
        if (!v->is_structured())
        {
            continue;
        }
        if (depth > Scenario::MAX_DEPTH)
        {
            throw std::invalid_argument("scenario: the document nests objects and arrays deeper "
                                        "than " +
                                        std::to_string(Scenario::MAX_DEPTH) + " levels");
        }
        for (const nlohmann::json& child : *v)
        {
            todo.emplace_back(&child, depth + 1);
        }
    }
}
} // namespace

ScenarioConfig
Scenario::Parse(const nlohmann::json& j)
{
    NS_LOG_FUNCTION_NOARGS();
    CheckDepth(j);
    try
    {
        return ParseChecked(j);
    }
    catch (const nlohmann::json::exception& e)
    {
        throw std::invalid_argument("scenario: " + std::string(e.what()));
    }
}

ScenarioConfig
Scenario::ParseChecked(const nlohmann::json& j)
{
    ScenarioConfig cfg;
    ScenarioObject root(j, "");
    cfg.name = root.String("name", std::string("scenario"));
    ParseTopology(root.Object("topology"), cfg.topology);
    ParseFabric(root.Object("fabric"), cfg.fabric);
    cfg.duration = root.Duration("duration", NanoSeconds(1), Seconds(1000), std::nullopt);
    cfg.drain = root.Duration("drain", Time(0), Seconds(10), std::string("10ms"));
    cfg.seed =
        static_cast<uint32_t>(root.Uint("seed", InputLimits::SEED.lo, InputLimits::SEED.hi, 1));
    cfg.backend = root.Choice("backend", {"packet", "flow"}, std::string("packet"));
    cfg.ringGranularity =
        root.Choice("ringGranularity", {"message", "group", "phased"}, cfg.ringGranularity);
    // What the flow backend runs (doc/flow-backend.rst): RDMA messages, the training jobs and
    // the UDP constant-rate flows; a type registered elsewhere runs at packet level only.
    const std::vector<std::string> flowTraffic = {"constant",
                                                  "data-parallel-job",
                                                  "periodic-job",
                                                  "permutation",
                                                  "pipeline-job",
                                                  "rdma",
                                                  "rdma-permutation",
                                                  "tensor-parallel-job"};
    // Sections that have no flow-level model (none now: "host" runs at flow level as fluid
    // links, FluidHost).
    const std::vector<std::string> packetSections = {};
    // Sections read at flow level with a value when absent: "fluidCc" is "dcqcn", the
    // scenario's "cc" modelled at flow level where it is a DCQCN variant (FluidDcqcn; nothing
    // otherwise; "none" for max-min rates only: doc/flow-backend.rst, *DCQCN at flow level*).
    // The value is written into the scenario's echo (cfg.json, summary.json's "config").
    const std::map<std::string, nlohmann::json> flowDefaults = {{"fluidCc", "dcqcn"}};
    nlohmann::json echo = j;
    {
        ScenarioObject out = root.Object("output");
        cfg.output.dir = out.String("dir", cfg.output.dir);
        if (cfg.output.dir.empty())
        {
            out.Fail("dir", "must be a non-empty directory path");
        }
        cfg.output.flows = out.Bool("flows", true);
        cfg.output.ports = out.Bool("ports", true);
        out.Finish();
    }
    cfg.dataClass = ParseDataClass(root, "dataClass", DataClass::DEFAULT);
    // Sections of other parts (e.g. "aggregation"), then the traffic that may use them.
    for (const std::string& key : ScenarioSectionRegistry::Keys())
    {
        const nlohmann::json& raw = root.Raw(key); // known (listed in errors) even if absent
        const auto absentValue = flowDefaults.find(key);
        const bool defaulted =
            !root.Has(key) && cfg.backend == "flow" && absentValue != flowDefaults.end();
        if (!root.Has(key) && !defaulted)
        {
            continue;
        }
        if (cfg.backend == "flow" &&
            std::find(packetSections.begin(), packetSections.end(), key) != packetSections.end())
        {
            root.Fail(key,
                      "is not available with \"backend\": \"flow\" (a packet-level model; "
                      "use \"backend\": \"packet\")");
        }
        if (defaulted)
        {
            echo[key] = absentValue->second;
        }
        cfg.sections.push_back(
            ScenarioSectionRegistry::Parse(key, defaulted ? absentValue->second : raw, cfg));
        cfg.sectionKeys.push_back(key);
    }
    // Traffic last: its entries validate host indices and times against what precedes.
    const nlohmann::json& traffic = root.Array("traffic");
    for (size_t i = 0; i < traffic.size(); ++i)
    {
        ScenarioObject entry(traffic[i], "traffic[" + std::to_string(i) + "]");
        if (cfg.backend == "flow" && traffic[i].is_object() && traffic[i].contains("type") &&
            traffic[i]["type"].is_string() &&
            std::find(flowTraffic.begin(),
                      flowTraffic.end(),
                      traffic[i]["type"].get<std::string>()) == flowTraffic.end())
        {
            std::string accepted;
            for (const std::string& t : flowTraffic)
            {
                accepted += (accepted.empty() ? "" : ", ") + t;
            }
            ScenarioObject::Fail(
                entry.PathOf("type"),
                traffic[i]["type"],
                "is not available with \"backend\": \"flow\" (flow level: " + accepted + ")");
        }
        cfg.traffic.push_back(TrafficRegistry::Parse(entry, cfg));
    }
    for (const auto& section : cfg.sections)
    {
        section->CheckTraffic(cfg);
    }
    root.Finish();
    cfg.json = echo.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return cfg;
}

namespace
{

/**
 * Checks a document while nlohmann::json parses it: nesting at most Scenario::MAX_DEPTH deep
 * (a deeper one is refused before it is built, so no recursive walk over it can overflow the
 * stack) and no key twice in one object (JSON allows it and would keep the last value).
 */
class ParseChecker
{
  public:
    explicit ParseChecker(std::string source)
        : m_source(std::move(source))
    {
    }

    bool operator()(int /* depth */, nlohmann::json::parse_event_t event, nlohmann::json& parsed)
    {
        using E = nlohmann::json::parse_event_t;
        switch (event)
        {
        case E::object_start:
        case E::array_start:
            if (m_frames.size() >= Scenario::MAX_DEPTH)
            {
                throw std::invalid_argument("scenario: " + m_source + ": " + Where() +
                                            " nests objects and arrays deeper than " +
                                            std::to_string(Scenario::MAX_DEPTH) + " levels");
            }
            m_frames.push_back(Frame{event == E::object_start, {}, "", 0});
            break;
        case E::key: {
            Frame& f = m_frames.back();
            f.key = parsed.get<std::string>();
            if (!f.keys.insert(f.key).second)
            {
                throw std::invalid_argument("scenario: " + m_source + ": " + Where() +
                                            ": duplicate key (each key may appear once)");
            }
            break;
        }
        case E::object_end:
        case E::array_end:
            m_frames.pop_back();
            Next();
            break;
        case E::value:
            Next();
            break;
        }
        return true;
    }

  private:
    struct Frame
    {
        bool object;                //!< object (else array)
        std::set<std::string> keys; //!< keys seen so far (objects)
        std::string key;            //!< the current key (objects)
        size_t index;               //!< the current element (arrays)
    };

    /// An element of the enclosing array is complete.
    void Next()
    {
        if (!m_frames.empty() && !m_frames.back().object)
        {
            m_frames.back().index++;
        }
    }

    /// The key path being parsed, e.g. "traffic[2].src" ("(top level)" for the root).
    std::string Where() const
    {
        std::string path;
        for (const Frame& f : m_frames)
        {
            if (f.object && !f.key.empty())
            {
                path += (path.empty() ? "" : ".") + f.key;
            }
            else if (!f.object)
            {
                path += "[" + std::to_string(f.index) + "]";
            }
        }
        if (path.size() > 60)
        {
            path = path.substr(0, 24) + "..." + path.substr(path.size() - 24);
        }
        return path.empty() ? "(top level)" : path;
    }

    std::string m_source;
    std::vector<Frame> m_frames;
};

/// The message of a JSON-library exception without its "[json.exception.xxx.nnn] " prefix.
std::string
JsonMessage(const nlohmann::json::exception& e)
{
    std::string what = e.what();
    const auto pos = what.find("] ");
    return pos == std::string::npos ? what : what.substr(pos + 2);
}

} // namespace

ScenarioConfig
Scenario::ParseString(const std::string& text, const std::string& source)
{
    nlohmann::json j;
    try
    {
        j = nlohmann::json::parse(text, ParseChecker(source));
    }
    catch (const nlohmann::json::out_of_range& e)
    {
        // e.g. "number overflow parsing '1e400'"
        throw std::invalid_argument("scenario: " + source + ": invalid JSON: " + JsonMessage(e) +
                                    " (numbers must fit a 64-bit integer or a double)");
    }
    catch (const nlohmann::json::exception& e)
    {
        // "[json.exception.parse_error.101] parse error at line 3, column 5: ..." -> keep the
        // part after the bracketed id.
        throw std::invalid_argument("scenario: " + source + ": invalid JSON: " + JsonMessage(e));
    }
    return Parse(j);
}

ScenarioConfig
Scenario::Load(const std::string& file)
{
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec))
    {
        throw std::invalid_argument("scenario: cannot read '" + file +
                                    "': it is a directory, not a JSON file");
    }
    std::ifstream in(file);
    if (!in)
    {
        throw std::invalid_argument("scenario: cannot open '" + file +
                                    "': " + std::strerror(errno));
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
    {
        throw std::invalid_argument("scenario: cannot read '" + file +
                                    "': " + std::strerror(errno));
    }
    ScenarioConfig cfg = ParseString(text.str(), file);
    if (!nlohmann::json::parse(cfg.json).contains("name"))
    {
        cfg.name = std::filesystem::path(file).stem().string(); // "incast" for incast.json
    }
    return cfg;
}

std::string
Scenario::DefaultJson()
{
    return R"({
  "name": "default: k=4 fat-tree, random permutation at 80 Gb/s",
  "topology": {"type": "fat-tree", "k": 4, "hostLinkRate": "100Gbps",
               "fabricLinkRate": "100Gbps", "linkDelay": "1us"},
  "fabric": {"pfc": true, "ecn": true},
  "traffic": [{"type": "permutation", "rate": "80Gbps"}],
  "duration": "2ms",
  "seed": 1
})";
}

ScenarioConfig
Scenario::Default()
{
    return ParseString(DefaultJson(), "default scenario");
}

} // namespace ns3
