/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// One priority class for all data traffic (DataClass): a scenario mixing a ring all-reduce job,
// an in-network-aggregation job, a parameter-server job, an RDMA flow and a constant-rate flow
// sends everything in one class unless it asks otherwise; port-classes records show it.
// (Listed with the aggregation tests: the "ina" mode needs that part.)

#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"
#include "ns3/port-classes.h"

#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

/**
 * The mixed scenario: hosts 0-3 on leaf0, 4-7 on leaf1, 8-11 on leaf2, 12-15 on leaf3; every
 * job and flow crosses the spines.
 * \param top extra top-level keys ("" or "\"dataClass\": 5, ")
 * \param cls per-entry "class" keys, in the order ring, ina, ps, rdma, constant ("" = none)
 */
std::string
Mixed(const std::string& top, const std::vector<std::string>& cls = {"", "", "", "", ""})
{
    return R"({"topology": {"type": "leaf-spine", "leaves": 4, "spines": 2, "hostsPerLeaf": 4,
                            "hostLinkRate": "10Gbps", "fabricLinkRate": "10Gbps"},
               )" +
           top + R"("aggregation": {"placement": "devices"},
               "traffic": [
        {"type": "data-parallel-job", "hosts": [0, 4], "mode": "ring", "model": "cifarnet",
         "iterations": 1)" +
           cls[0] + R"(},
        {"type": "data-parallel-job", "hosts": [1, 5], "mode": "ina", "model": "cifarnet",
         "iterations": 1)" +
           cls[1] + R"(},
        {"type": "data-parallel-job", "hosts": [2, 6], "mode": "ps", "servers": [10],
         "model": "cifarnet", "iterations": 1)" +
           cls[2] + R"(},
        {"type": "rdma", "src": 3, "dst": 7, "bytes": "200KB")" +
           cls[3] + R"(},
        {"type": "constant", "src": 8, "dst": 12, "rate": "2Gbps", "bytes": "100KB")" +
           cls[4] + R"(}],
               "duration": "1ms", "drain": "200ms"})";
}

/// \return data bytes per class (0..6) over every switch port
std::map<uint32_t, uint64_t>
DataBytesByClass(const ScenarioResult& r)
{
    std::map<uint32_t, uint64_t> bytes;
    for (const PortClassRecord& c : r.portClasses)
    {
        if (c.cls != DataClass::CONTROL)
        {
            bytes[c.cls] += c.txBytes;
        }
    }
    return bytes;
}

/// Every traffic entry moved its data: three jobs finished their iteration, both flows done.
void
RequireAllRan(const ScenarioResult& r)
{
    REQUIRE(r.summary.drained);
    REQUIRE(r.iterations.size() == 3);
    REQUIRE(r.flows.size() == 2);
    for (const FlowStatsRecord& f : r.flows)
    {
        REQUIRE(f.Completed());
    }
}

/// The per-class counters add up to the port totals of ports.csv (txPackets, txBytes, pauses).
void
RequireClassesAddUp(const ScenarioResult& r)
{
    std::map<std::pair<std::string, uint32_t>, PortClassRecord> sum;
    for (const PortClassRecord& c : r.portClasses)
    {
        PortClassRecord& s = sum[{c.node, c.port}];
        s.txPackets += c.txPackets;
        s.txBytes += c.txBytes;
        s.pfcPauses += c.pfcPauses;
        // a class's largest queue is at most the port's largest queue (all classes)
        for (const PortStatsRecord& p : r.ports)
        {
            if (p.node == c.node && p.port == c.port)
            {
                REQUIRE(c.maxQueueBytes <= p.maxQueueBytes);
            }
        }
    }
    for (const PortStatsRecord& p : r.ports)
    {
        const PortClassRecord& s = sum[{p.node, p.port}];
        REQUIRE(s.txPackets == p.txPackets);
        REQUIRE(s.txBytes == p.txBytes);
        REQUIRE(s.pfcPauses == p.pfcPauses);
    }
}

/// \return the port-classes record of the switch port facing a host in a class (zeros if none)
PortClassRecord
TowardsHost(const ScenarioResult& r, uint32_t host, uint32_t cls)
{
    for (const PortStatsRecord& p : r.ports)
    {
        if (p.peer == "host" + std::to_string(host))
        {
            for (const PortClassRecord& c : r.portClasses)
            {
                if (c.node == p.node && c.port == p.port && c.cls == cls)
                {
                    return c;
                }
            }
        }
    }
    return PortClassRecord();
}

} // namespace

TEST_CASE("helper: by default all data of a mixed scenario leaves the ports in one class",
          "[helper][classes]")
{
    const ScenarioResult r = mlnettest::RunScenarioText(Mixed(""));
    RequireAllRan(r);
    RequireClassesAddUp(r);
    // ring, aggregation, parameter server, RDMA and constant-rate data: all in class 3
    const std::map<uint32_t, uint64_t> bytes = DataBytesByClass(r);
    REQUIRE(bytes.size() == 1);
    REQUIRE(bytes.begin()->first == DataClass::DEFAULT);
    REQUIRE(r.summary.dataClasses == std::vector<uint32_t>{DataClass::DEFAULT});
    for (const std::string& w : r.summary.warnings)
    {
        REQUIRE(w.find("priority classes") == std::string::npos);
    }
    // The constant-rate flow is the only data towards host 12: the last hop carried exactly
    // the packets the flow's sink received, in class 3.
    const FlowStatsRecord& constant = r.flows.at(1);
    REQUIRE(constant.type == "constant");
    REQUIRE(TowardsHost(r, 12, DataClass::DEFAULT).txPackets == constant.rxPackets);
    // every entry reported the default class, none chose it
    REQUIRE(r.summary.trafficClasses.size() == 5);
    for (const TrafficClassRecord& e : r.summary.trafficClasses)
    {
        REQUIRE(e.cls == DataClass::DEFAULT);
        REQUIRE_FALSE(e.chosen);
        REQUIRE_FALSE(e.split);
    }
}

TEST_CASE("helper: dataClass and per-entry classes are honoured", "[helper][classes]")
{
    // one default for everything
    const ScenarioResult five = mlnettest::RunScenarioText(Mixed(R"("dataClass": 5, )"));
    RequireAllRan(five);
    REQUIRE(five.summary.dataClasses == std::vector<uint32_t>{5});
    REQUIRE(TowardsHost(five, 12, 5).txPackets == five.flows.at(1).rxPackets);

    // a split on purpose: each entry in its own class ("priority", the older name, for the
    // constant flow)
    const ScenarioResult split = mlnettest::RunScenarioText(Mixed("",
                                                                  {R"(, "class": 1)",
                                                                   R"(, "class": 2)",
                                                                   R"(, "class": 4)",
                                                                   R"(, "class": 5)",
                                                                   R"(, "priority": 0)"}));
    RequireAllRan(split);
    RequireClassesAddUp(split);
    REQUIRE(split.summary.dataClasses == std::vector<uint32_t>{0, 1, 2, 4, 5});
    for (uint32_t c : {0u, 1u, 2u, 4u, 5u})
    {
        REQUIRE(DataBytesByClass(split).at(c) > 0);
    }
    // each job's data where its class says: the PS server (host 10) receives pushes in class 4
    // only, the RDMA destination (host 7) class 5, the constant flow's sink (host 12) class 0
    REQUIRE(TowardsHost(split, 10, 4).txBytes > 0);
    REQUIRE(TowardsHost(split, 10, DataClass::DEFAULT).txBytes == 0);
    REQUIRE(TowardsHost(split, 7, 5).txBytes > 0);
    REQUIRE(TowardsHost(split, 12, 0).txPackets == split.flows.at(1).rxPackets);
    // the ring job's hosts (0 and 4) receive ring data in class 1, the ina job's (1 and 5)
    // aggregation results in class 2
    REQUIRE(TowardsHost(split, 4, 1).txBytes > 0);
    REQUIRE(TowardsHost(split, 5, 2).txBytes > 0);
    REQUIRE(TowardsHost(split, 5, 1).txBytes == 0);
    // chosen on purpose: no warning
    for (const std::string& w : split.summary.warnings)
    {
        REQUIRE(w.find("priority classes") == std::string::npos);
    }
    REQUIRE(split.summary.trafficClasses.at(0).chosen);
    REQUIRE(split.summary.trafficClasses.at(4).cls == 0);
}

TEST_CASE("helper: class 7 is refused for data with a message naming the key and range",
          "[helper][classes]")
{
    const std::string range = ": must be an integer in [0, 6] (class 7 is reserved for ACK/CNP)";
    CHECK(mlnettest::ScenarioParseError(Mixed(R"("dataClass": 7, )")) ==
          "scenario: dataClass = 7" + range);
    CHECK(mlnettest::ScenarioParseError(Mixed("", {R"(, "class": 7)", "", "", "", ""})) ==
          "scenario: traffic[0].class = 7" + range);
    CHECK(mlnettest::ScenarioParseError(Mixed("", {"", "", "", R"(, "class": 7)", ""})) ==
          "scenario: traffic[3].class = 7" + range);
    CHECK(mlnettest::ScenarioParseError(Mixed("", {"", "", "", "", R"(, "priority": 7)"})) ==
          "scenario: traffic[4].priority = 7" + range);
    CHECK(mlnettest::ScenarioParseError(
              Mixed("", {"", "", "", "", R"(, "class": 1, "priority": 1)"})) ==
          "scenario: traffic[4].priority = 1: is another name for \"class\": give one of "
          "them, not both");
    CHECK(mlnettest::ScenarioParseError(Mixed(R"("dataClass": "3", )")) ==
          "scenario: dataClass = \"3\"" + range);
    // the C++ attributes: every data source's PriorityClass takes 0..6 only
    for (Ptr<Object> o : std::vector<Ptr<Object>>{CreateObject<DataParallelJob>(),
                                                  CreateObject<PipelineParallelJob>(),
                                                  CreateObject<TensorParallelJob>(),
                                                  CreateObject<PeriodicJob>(),
                                                  CreateObject<RingAllReduce>(),
                                                  CreateObject<BackgroundTraffic>(),
                                                  CreateObject<ConstantRateFlow>()})
    {
        UintegerValue v;
        o->GetAttribute("PriorityClass", v);
        CHECK(v.Get() == DataClass::DEFAULT);
        CHECK(o->SetAttributeFailSafe("PriorityClass", UintegerValue(6)));
        CHECK_FALSE(o->SetAttributeFailSafe("PriorityClass", UintegerValue(7)));
    }
    CHECK_THROWS_WITH(DataClass::Check(7, "priority"),
                      "priority = 7 is out of range [0, 6] (class 7 is reserved for ACK/CNP)");
}

TEST_CASE("helper: port-classes.csv and the warning on a split nobody asked for",
          "[helper][classes]")
{
    std::vector<PortClassRecord> records(3);
    records[0] = {"leaf0", 4, 3, 10, 10000, 0, 2048};
    records[1] = {"leaf0", 4, 7, 5, 320, 0, 0};
    records[2] = {"spine1", 0, 6, 2, 2000, 1, 1000};
    std::ostringstream os;
    PortClasses::WriteCsv(os, records);
    CHECK(os.str() == "node,port,class,txPackets,txBytes,pfcPauses,maxQueueBytes\n"
                      "leaf0,4,3,10,10000,0,2048\n"
                      "leaf0,4,7,5,320,0,0\n"
                      "spine1,0,6,2,2000,1,1000\n");
    // class 7 (ACK/CNP) is not data
    const std::vector<uint32_t> inUse = PortClasses::DataClassesInUse(records);
    CHECK(inUse == std::vector<uint32_t>{3, 6});
    const std::vector<TrafficClassRecord> unchosen{{"traffic[0]", "rdma", 3, false, false}};
    const std::string w = PortClasses::SplitWarning(inUse, unchosen);
    CHECK(w.rfind("data traffic left the switches in 2 priority classes (3, 6)", 0) == 0);
    // chosen, or split on purpose (a priority policy, a flow scheduler): no warning
    CHECK(PortClasses::SplitWarning(inUse, {{"traffic[0]", "rdma", 6, true, false}}).empty());
    CHECK(PortClasses::SplitWarning(inUse, {{"scheduler", "scheduler", 6, true, true}}).empty());
    // one class: nothing to warn about
    CHECK(PortClasses::SplitWarning({3}, unchosen).empty());
    // the summary shows it
    RunSummary s;
    s.dataClasses = inUse;
    s.trafficClasses = unchosen;
    std::ostringstream json;
    StatsWriter::WriteSummaryJson(json, s);
    CHECK(json.str().find("\"inUse\": [\n      3,\n      6\n    ]") != std::string::npos);
}
