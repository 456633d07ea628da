/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Scenario keys of in-network aggregation (doc/aggregation.rst, "Usage"):
//
//  "aggregation": {"placement": "devices" | "switches", "tiers": ["edge", "agg", "core"],
//                  "ports": "up" | "all", "timing": "adder-tree" | "line-rate",
//                  "lanes": 16, "clockMHz": 300, "treeDepth": 12, "elementType": "fp32",
//                  "bufferPerJob": "2MiB", "maxJobs": 16, "inputBuffer": "1MiB",
//                  "backPressure": true, "latency": "250ns", "maxSlots": 512}
//  traffic: {"type": "data-parallel-job", "mode": "ina", "trees": 4, "slots": 0,
//            "aggregationCc": "dcqcn" | "dctcp" | "none", "chunkElements": 256,
//            "elementType": "fp32" | "fp16" | "int32", "scaleExponent": 20, ...}

#include "aggregation-helper.h"
#include "flow-backend-helper.h"
#include "input-limits.h"
#include "scenario-extension.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <map>
#include <nlohmann/json.hpp>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioAggregation");

namespace
{

const std::map<std::string, AggElementType> kTypes = {{"fp32", AggElementType::FP32},
                                                      {"fp16", AggElementType::FP16},
                                                      {"int32", AggElementType::INT32}};

/// The "aggregation" section: where the aggregation points are and their hardware.
class AggregationSection : public TrafficSpec
{
  public:
    bool devices{true};
    std::vector<std::string> tiers;
    bool upOnly{true};
    bool lineRate{false};
    uint32_t lanes{16};
    double clock{300e6};
    uint32_t depth{12};
    AggElementType type{AggElementType::FP32};
    uint64_t bufferPerJob{2u * 1024 * 1024};
    uint32_t maxJobs{16};
    uint64_t inputBuffer{1024 * 1024};
    bool backPressure{true};
    Time latency{NanoSeconds(250)};
    uint32_t maxSlots{512};

    /// Devices are spliced into links: before the flow backend's fabric is built.
    bool ChangesTopology() const override
    {
        return true;
    }

    void Install(TrafficContext& ctx) const override
    {
        const FabricTopology& t = ctx.Topology();
        AggregationHelper agg;
        agg.SetNodeNames(t.NodeNames()); // points named as in ports.csv ("core0")
        agg.SetEngineAttribute("BufferBytesPerJob", UintegerValue(bufferPerJob));
        agg.SetEngineAttribute("MaxJobs", UintegerValue(maxJobs));
        if (lineRate)
        {
            agg.SetTimingModel("ns3::LineRateTimingModel");
            agg.SetTimingAttribute("ElementType", EnumValue(type));
        }
        else
        {
            agg.SetTimingModel("ns3::AdderTreeTimingModel");
            agg.SetTimingAttribute("Lanes", UintegerValue(lanes));
            agg.SetTimingAttribute("ClockFrequency", DoubleValue(clock));
            agg.SetTimingAttribute("TreeDepth", UintegerValue(depth));
            agg.SetTimingAttribute("ElementType", EnumValue(type));
        }
        agg.SetDeviceAttribute("InputBufferBytes", UintegerValue(inputBuffer));
        agg.SetDeviceAttribute("BackPressure", BooleanValue(backPressure));
        agg.SetLatency(latency);
        for (const std::string& tier : tiers)
        {
            const NodeContainer& c = tier == "edge" ? t.edge : (tier == "agg" ? t.agg : t.core);
            if (devices)
            {
                agg.InstallDevices(c, upOnly ? "up" : "all");
            }
            else
            {
                agg.InstallInSwitch(c);
            }
        }
    }
};

std::shared_ptr<const TrafficSpec>
ParseSection(ScenarioObject& in, const ScenarioConfig& cfg)
{
    auto s = std::make_shared<AggregationSection>();
    s->devices =
        in.Choice("placement", {"devices", "switches"}, std::string("devices")) == "devices";
    const nlohmann::json& tiers = in.Array("tiers");
    const bool fatTree = cfg.topology.type == "fat-tree";
    std::vector<std::string> accepted{"edge", "core"};
    if (fatTree)
    {
        accepted.insert(accepted.begin() + 1, "agg");
    }
    for (const auto& v : tiers)
    {
        if (!v.is_string() ||
            std::find(accepted.begin(), accepted.end(), v.get<std::string>()) == accepted.end())
        {
            ScenarioObject::Fail(in.PathOf("tiers"),
                                 v,
                                 fatTree ? "must list tiers among \"edge\", \"agg\", \"core\""
                                         : "must list tiers among \"edge\", \"core\"");
        }
        s->tiers.push_back(v.get<std::string>());
    }
    if (!in.Has("tiers"))
    {
        s->tiers = accepted; // every tier
    }
    else if (s->tiers.empty())
    {
        in.Fail("tiers",
                std::string("must list at least one tier among ") +
                    (fatTree ? "\"edge\", \"agg\", \"core\"" : "\"edge\", \"core\"") +
                    " (absent: every tier)");
    }
    s->upOnly = in.Choice("ports", {"up", "all"}, std::string("up")) == "up";
    std::string timing = in.Choice("timing",
                                   {"adder-tree", "line-rate"},
                                   std::string(s->devices ? "adder-tree" : "line-rate"));
    s->lineRate = timing == "line-rate";
    // Ranges: the attributes' checkers (one place), as Python's aggregate().
    const TypeId adder = AdderTreeTimingModel::GetTypeId();
    const TypeId engine = AggregationEngine::GetTypeId();
    const UintLimit lanes = InputLimits::UintOfAttribute(adder, "Lanes");
    const UintLimit depth = InputLimits::UintOfAttribute(adder, "TreeDepth");
    const UintLimit perJob = InputLimits::UintOfAttribute(engine, "BufferBytesPerJob");
    const UintLimit maxJobs = InputLimits::UintOfAttribute(engine, "MaxJobs");
    const UintLimit input =
        InputLimits::UintOfAttribute(AggregationDevice::GetTypeId(), "InputBufferBytes");
    s->lanes = static_cast<uint32_t>(in.Uint("lanes", lanes.lo, lanes.hi, 16));
    s->clock = in.Double("clockMHz", 1, 10000, 300) * 1e6;
    s->depth = static_cast<uint32_t>(in.Uint("treeDepth", depth.lo, depth.hi, 12));
    s->type = kTypes.at(in.Choice("elementType", {"fp32", "fp16", "int32"}, std::string("fp32")));
    s->bufferPerJob = in.Bytes("bufferPerJob", perJob.lo, perJob.hi, 2u * 1024 * 1024);
    s->maxJobs = static_cast<uint32_t>(in.Uint("maxJobs", maxJobs.lo, maxJobs.hi, 16));
    s->inputBuffer = in.Bytes("inputBuffer", input.lo, input.hi, 1024 * 1024);
    s->backPressure = in.Bool("backPressure", true);
    s->latency = in.Duration("latency", Time(0), MilliSeconds(1), std::string("250ns"));
    s->maxSlots = static_cast<uint32_t>(
        in.Uint("maxSlots", InputLimits::AGG_MAX_SLOTS.lo, InputLimits::AGG_MAX_SLOTS.hi, 512));
    return s;
}

ScenarioSectionRegistry::Registrar g_section("aggregation", &ParseSection);

/// Mode "ina" of data-parallel jobs: in-network aggregation over the "aggregation" section.
GradientAggregatorRegistry::Factory
ParseInaMode(ScenarioObject& in, const ScenarioConfig& cfg)
{
    std::shared_ptr<const AggregationSection> section;
    for (const auto& s : cfg.sections)
    {
        if (auto a = std::dynamic_pointer_cast<const AggregationSection>(s))
        {
            section = a;
        }
    }
    if (!section)
    {
        in.Fail("mode",
                "\"ina\" needs an \"aggregation\" section (where the aggregation points "
                "are)");
    }
    uint32_t trees = static_cast<uint32_t>(
        in.Uint("trees", InputLimits::AGG_TREES.lo, InputLimits::AGG_TREES.hi, 1));
    uint32_t slots = static_cast<uint32_t>(
        in.Uint("slots", InputLimits::AGG_SLOTS.lo, InputLimits::AGG_SLOTS.hi, 0));
    static const std::map<std::string, std::string> kCc = {{"dcqcn", "ns3::AggregationDcqcn"},
                                                           {"dctcp", "ns3::AggregationDctcp"},
                                                           {"none", "ns3::AggregationFixedWindow"}};
    std::string cc =
        kCc.at(in.Choice("aggregationCc", {"dcqcn", "dctcp", "none"}, std::string("dcqcn")));
    const UintLimit chunks =
        InputLimits::UintOfAttribute(AggregationWorker::GetTypeId(), "ChunkElements");
    uint32_t chunk = static_cast<uint32_t>(in.Uint("chunkElements", chunks.lo, chunks.hi, 256));
    AggElementType type =
        kTypes.at(in.Choice("elementType", {"fp32", "fp16", "int32"}, std::string("fp32")));
    int32_t scale = static_cast<int32_t>(in.Uint("scaleExponent",
                                                 InputLimits::AGG_SCALE_EXPONENT.lo,
                                                 InputLimits::AGG_SCALE_EXPONENT.hi,
                                                 20));
    uint32_t maxSlots = section->maxSlots;
    return [=](TrafficContext& ctx,
               const std::vector<uint32_t>& hosts,
               const std::string& job) -> Ptr<GradientAggregator> {
        AggregationHelper agg;
        agg.SetNodeNames(ctx.Topology().NodeNames());
        agg.SetMaxSlots(maxSlots);
        agg.SetCongestionControl(cc);
        agg.SetWorkerAttribute("ChunkElements", UintegerValue(chunk));
        agg.SetWorkerAttribute("ElementType", EnumValue(type));
        agg.SetWorkerAttribute("ScaleExponent", IntegerValue(scale));
        NodeContainer nodes;
        for (uint32_t h : hosts)
        {
            nodes.Add(ctx.Topology().hosts.Get(h));
        }
        uint16_t jobId = uint16_t(ctx.NewFlowId() & 0xffff);
        if (ctx.Config().backend == "flow")
        {
            // the same trees, as fluid flows (doc/flow-backend.rst)
            Ptr<FluidTransport> any = FlowBackendHelper::GetTransport(nodes.Get(0));
            return agg.InstallFluidJob(nodes, jobId, trees, any->GetFabric(), slots, job);
        }
        return agg.InstallJob(nodes, jobId, trees, slots, job);
    };
}

GradientAggregatorRegistry::Registrar g_ina("ina", &ParseInaMode);

} // namespace

} // namespace ns3
