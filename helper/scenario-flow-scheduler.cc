/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Scenario section of the flow schedulers (doc/scheduling.rst, "Usage"):
//
//  "scheduler": {"policy": "fair" | "fifo" | "madd" | "echelon" | "cadentflow-priority" |
//                          "cadentflow-deadline",
//                "mode": "centralised" | "decentralised", "controlDelay": "10us",
//                "hosts": [0, 1, ...] (default: every host), "topClass": 6,
//                "priorityLevels": 7, "correctEstimates": true, "capTolerance": 0}
//
// The data-parallel (parameter-server mode) and pipeline jobs on those hosts then post their
// messages through the scheduler, declaring them.

#include "flow-backend-helper.h"
#include "flow-scheduler-helper.h"
#include "rdma-helper.h"
#include "scenario-extension.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/flow-policy-factory.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <nlohmann/json.hpp>
#include <set>

namespace ns3
{

namespace
{

/// The "scheduler" section: one RdmaFlowScheduler on the NICs of the given hosts.
class SchedulerSection : public TrafficSpec
{
  public:
    std::string policy;
    bool centralised{true};
    Time controlDelay;
    std::vector<uint32_t> hosts;
    uint32_t topClass{6};
    uint32_t levels{7};
    bool correct{true};
    double capTolerance{0};

    void Install(TrafficContext& ctx) const override
    {
        FlowSchedulerHelper fs;
        fs.SetPolicy(policy);
        fs.SetPolicyAttribute("PriorityLevels", UintegerValue(levels));
        if (policy == "echelon")
        {
            fs.SetPolicyAttribute("CorrectEstimates", BooleanValue(correct));
        }
        fs.SetSchedulerAttribute("Mode",
                                 StringValue(centralised ? "Centralised" : "Decentralised"));
        fs.SetSchedulerAttribute("ControlDelay", TimeValue(controlDelay));
        fs.SetSchedulerAttribute("TopClass", UintegerValue(topClass));
        fs.SetSchedulerAttribute("CapTolerance", DoubleValue(capTolerance));
        if (ctx.Config().backend == "flow")
        {
            // levels and caps become the fluid flows' classes and rate caps
            fs.Install(FlowBackendHelper::Transports(ctx.Topology(), hosts));
        }
        else
        {
            NodeContainer nodes;
            for (uint32_t h : hosts)
            {
                nodes.Add(ctx.Topology().hosts.Get(h));
            }
            RdmaHelper rdma; // the jobs reuse these NICs and set their own congestion control
            fs.Install(rdma.Install(nodes));
        }
        // the scheduler moves its messages to classes topClass - level: a split on purpose
        ctx.AddTrafficClass({"scheduler", "scheduler", topClass, true, levels > 1});
    }

    /// A scheduler that no job posts through changes nothing: refuse it.
    void CheckTraffic(const ScenarioConfig& cfg) const override
    {
        const std::set<uint32_t> mine(hosts.begin(), hosts.end());
        bool anyJob = false;
        for (const auto& entry : cfg.traffic)
        {
            for (uint32_t h : entry->ScheduledHosts())
            {
                anyJob = true;
                if (mine.count(h))
                {
                    return;
                }
            }
        }
        const std::string jobs = "a data-parallel-job with \"mode\": \"ps\" or a pipeline-job";
        if (!anyJob)
        {
            throw std::invalid_argument("scenario: scheduler: no traffic entry posts through a "
                                        "scheduler (only " +
                                        jobs + " does)");
        }
        ScenarioObject::Fail(path,
                             hostsJson,
                             "must include a host of " + jobs +
                                 " (no job posts through the scheduler on these hosts)");
    }

    std::string path;         //!< "scheduler.hosts", for messages
    nlohmann::json hostsJson; //!< the hosts as given, for messages
};

std::shared_ptr<const TrafficSpec>
ParseSection(ScenarioObject& in, const ScenarioConfig& cfg)
{
    auto s = std::make_shared<SchedulerSection>();
    s->policy = in.Choice("policy", FlowSchedulingPolicyNames(), std::nullopt);
    s->centralised =
        in.Choice("mode", {"centralised", "decentralised"}, std::string("centralised")) ==
        "centralised";
    if (!s->centralised && !CreateFlowSchedulingPolicy(s->policy)->SupportsDecentralised())
    {
        in.Fail("mode",
                "policy \"" + s->policy +
                    "\" needs the centralised mode (it decides from the global view "
                    "of every group)");
    }
    s->controlDelay = in.Duration("controlDelay", Time(0), Seconds(1), std::string("0us"));
    const uint32_t n = cfg.topology.NumHosts();
    const nlohmann::json& hosts = in.Array("hosts");
    std::set<uint32_t> seen;
    for (const auto& v : hosts)
    {
        if (!v.is_number_unsigned() || v.get<uint64_t>() >= n ||
            !seen.insert(v.get<uint32_t>()).second)
        {
            ScenarioObject::Fail(in.PathOf("hosts"),
                                 v,
                                 "must be an array of distinct host indices in [0, " +
                                     std::to_string(n - 1) + "]");
        }
        s->hosts.push_back(v.get<uint32_t>());
    }
    s->path = in.PathOf("hosts");
    s->hostsJson = hosts;
    if (in.Has("hosts") && s->hosts.empty())
    {
        in.Fail("hosts",
                "must list at least one host index in [0, " + std::to_string(n - 1) +
                    "] (absent: every host)");
    }
    if (s->hosts.empty())
    {
        for (uint32_t h = 0; h < n; ++h)
        {
            s->hosts.push_back(h);
        }
    }
    // Class 7 carries ACKs and CNPs (doc/scheduling.rst): the scheduler's classes end below it.
    const std::string topClass = "must be an integer in [0, 6] (class 7 carries ACKs and CNPs)";
    const nlohmann::json& top = in.Raw("topClass");
    if (top.is_number_unsigned() && top.get<uint64_t>() > 6)
    {
        in.Fail("topClass", topClass);
    }
    s->topClass = static_cast<uint32_t>(in.Uint("topClass", 0, 6, 6));
    s->levels = static_cast<uint32_t>(in.Uint("priorityLevels", 1, 8, 7));
    if (s->levels > s->topClass + 1)
    {
        in.Fail("priorityLevels",
                "must be <= topClass + 1 = " + std::to_string(s->topClass + 1) +
                    " (level l uses class topClass - l)");
    }
    s->correct = in.Bool("correctEstimates", true);
    // RdmaFlowScheduler::CapTolerance (opt-in approximation, 0 = exact; its checker's range)
    s->capTolerance = in.Double("capTolerance", 0, 0.1, 0.0);
    return s;
}

ScenarioSectionRegistry::Registrar g_section("scheduler", &ParseSection);

} // namespace

} // namespace ns3
