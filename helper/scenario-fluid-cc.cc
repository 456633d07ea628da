/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The top-level "fluidCc" section: congestion control at flow level (doc/flow-backend.rst,
// *DCQCN at flow level*). At packet level it does nothing, so one file runs at both
// fidelities.
//
//   "fluidCc": "dcqcn"                      the default (Scenario::Parse reads a flow-level
//                                           scenario without the key so): the scenario's "cc"
//                                           (variant and parameters) as a fluid DCQCN model
//                                           (FluidDcqcn) where it is a DCQCN variant
//   "fluidCc": {"model": "dcqcn", "step": "10us", "cnpInterval": "50us", "otherLoad": false}
//   "fluidCc": "none"                       max-min rates only (faster: no 10 us steps)
//
// The top-level "fluidSharing" section: how the fluid network shares a link among the flows it
// bottlenecks (FluidNetwork::Sharing; doc/flow-backend.rst, *Sharing by input port at flow
// level*). Ignored at packet level.
//
//   "fluidSharing": "input-port"            per input port, recursively upstream (a packet
//                                           switch without congestion control)
//   "fluidSharing": {"mode": "input-port", "maxRounds": 16}
//   "fluidSharing": "flow"                  max-min by flow
// Without the key: "input-port" if the scenario's "cc" is "fixed" (ScenarioRunner::BuildFluid),
// else "flow"; a default the user set (--ns3::FluidNetwork::Sharing=...) holds over both.

#include "flow-backend-helper.h"
#include "scenario-congestion-control.h"
#include "scenario-extension.h"

#include "ns3/boolean.h"
#include "ns3/fluid-network.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <optional>

namespace ns3
{

namespace
{

/// The "fluidCc" section.
class FluidCcSpec : public TrafficSpec
{
  public:
    std::string model{"none"};
    Time step;
    std::optional<Time> cnpInterval;
    bool otherLoad{false};

    void Install(TrafficContext& ctx) const override
    {
        if (model == "none" || ctx.Config().backend != "flow" || ctx.Topology().hosts.GetN() == 0)
        {
            return;
        }
        // The reaction point is the scenario's "cc" (a variant without a DCQCN state machine,
        // "fixed", has no rate to model: nothing is installed).
        ObjectFactory dcqcn("ns3::FluidDcqcn");
        dcqcn.Set("Step", TimeValue(step));
        dcqcn.Set("OtherLoad", BooleanValue(otherLoad));
        if (cnpInterval)
        {
            dcqcn.Set("CnpInterval", TimeValue(*cnpInterval));
        }
        FlowBackendHelper::InstallDcqcn(
            FlowBackendHelper::GetTransport(ctx.Topology().hosts.Get(0))->GetFabric(),
            CongestionControlConfig::ScenarioDefault(ctx.Config()).Factory(),
            dcqcn);
    }
};

ScenarioSectionRegistry::Registrar g_fluidCc(
    "fluidCc",
    [](ScenarioObject& section, const ScenarioConfig&) {
        auto spec = std::make_shared<FluidCcSpec>();
        spec->model = section.Choice("model", {"none", "dcqcn"}, std::string("dcqcn"));
        spec->step =
            section.Duration("step", NanoSeconds(100), MilliSeconds(1), std::string("10us"));
        if (!section.Raw("cnpInterval").is_null())
        {
            spec->cnpInterval =
                section.Duration("cnpInterval", Time(0), MilliSeconds(100), std::nullopt);
        }
        spec->otherLoad = section.Bool("otherLoad", false);
        return spec;
    },
    "model");

/// The "fluidSharing" section.
class FluidSharingSpec : public TrafficSpec
{
  public:
    std::string mode{"flow"};
    uint32_t maxRounds{16};

    void Install(TrafficContext& ctx) const override
    {
        if (ctx.Config().backend != "flow" || ctx.Topology().hosts.GetN() == 0)
        {
            return;
        }
        Ptr<FluidNetwork> net =
            FlowBackendHelper::GetTransport(ctx.Topology().hosts.Get(0))->GetFabric()->GetNetwork();
        net->SetAttribute("MaxSharingRounds", UintegerValue(maxRounds));
        net->SetSharing(mode);
    }
};

ScenarioSectionRegistry::Registrar g_fluidSharing(
    "fluidSharing",
    [](ScenarioObject& section, const ScenarioConfig&) {
        auto spec = std::make_shared<FluidSharingSpec>();
        spec->mode = section.Choice("mode", FluidNetwork::SharingModes(), std::string("flow"));
        spec->maxRounds = uint32_t(section.Uint("maxRounds", 1, 1000, 16));
        return spec;
    },
    "mode");

} // namespace

} // namespace ns3
