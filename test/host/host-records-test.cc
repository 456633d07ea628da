/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The host records of a scenario run (ScenarioResult::hosts, hosts.csv).

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"
#include "ns3/node-list.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
/// Two senders to one receiver (host 2) over RDMA; `host` is the "host" section (or empty).
ScenarioConfig
Incast(const std::string& host)
{
    std::string text =
        R"({"name": "host-records", "topology": {"type": "dumbbell", "left": 2, "right": 1},
            "duration": "1ms", "drain": "20ms",
            "traffic": [{"type": "rdma", "src": 0, "dst": 2, "bytes": "600KB"},
                        {"type": "rdma", "src": 1, "dst": 2, "bytes": "600KB"}])";
    if (!host.empty())
    {
        text += R"(, "host": )" + host;
    }
    return Scenario::ParseString(text + "}");
}

/// The lines of a file.
std::vector<std::string>
Lines(const std::string& path)
{
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);)
    {
        lines.push_back(l);
    }
    return lines;
}
} // namespace

TEST_CASE("host: hosts.csv rows conserve bytes under memory contention", "[host]")
{
    // The receiver's memory application takes 90% of the bus with 4 KiB pages and PFC off:
    // the NIC buffer overflows, so some bytes are dropped by the host.
    ScenarioConfig cfg = Incast(R"({"hosts": [2], "memoryAppDemand": 0.9, "rxBuffer": "64KiB"})");
    ScenarioRunner runner(cfg);
    ScenarioResult r = runner.Run();
    REQUIRE(r.hosts.size() == 1);
    const HostStatsRecord& h = r.hosts.front();
    REQUIRE(h.host == 2);
    REQUIRE(h.name == "host2");
    const HostPathStats& s = h.stats;
    REQUIRE(s.rxBytes > 1200000);
    REQUIRE(s.dropBytes > 0);
    REQUIRE(s.rxBytes == s.deliveredBytes + s.dropBytes + h.bufferedBytes);
    REQUIRE(h.IotlbHitRate() > 0.0);
    REQUIRE(h.IotlbHitRate() < 1.0);
    REQUIRE(h.MeanQueueDelayNs() > 0.0);
    REQUIRE(h.MeanQueueDelayNs() <= double(s.maxQueueDelay.GetNanoSeconds()));
    REQUIRE(h.DmaBusyFraction() > 0.0);
    REQUIRE(h.DmaBusyFraction() <= 1.0);
    REQUIRE(h.memoryAppDemand == Approx(0.9));
    REQUIRE(h.writeRateBps > 0.0);

    // The CSV row carries the same counters.
    const std::string dir =
        (std::filesystem::temp_directory_path() / "mlnet-host-records-test").string();
    std::filesystem::remove_all(dir);
    ScenarioRunner::WriteResults(r, cfg, dir);
    std::vector<std::string> lines = Lines(dir + "/hosts.csv");
    REQUIRE(lines.size() == 2);
    REQUIRE(lines[0].rfind("host,name,rxPackets,rxBytes,deliveredPackets,deliveredBytes,", 0) == 0);
    std::ostringstream expect;
    expect << "2,host2," << s.rxPackets << ',' << s.rxBytes << ',' << s.deliveredPackets << ','
           << s.deliveredBytes << ',' << s.dropPackets << ',' << s.dropBytes << ','
           << h.bufferedBytes << ',';
    REQUIRE(lines[1].rfind(expect.str(), 0) == 0);
    std::filesystem::remove_all(dir);
}

TEST_CASE("host: host records match GetStats and no hosts.csv without the section", "[host]")
{
    // Every host gets a path; the records are GetStats() of each at the end of the run. The
    // paths are picked up at time 0 (after the runner installed them) and read after the run.
    ScenarioConfig cfg = Incast(R"({"memoryAppDemand": 0.5})");
    std::vector<Ptr<HostInterconnect>> paths;
    Simulator::Schedule(Seconds(0), [&paths]() {
        for (auto it = NodeList::Begin(); it != NodeList::End(); ++it)
        {
            if (Ptr<HostInterconnect> hi = HostInterconnectHelper::Get(*it))
            {
                paths.push_back(hi);
            }
        }
    });
    ScenarioRunner runner(cfg);
    ScenarioResult r = runner.Run();
    REQUIRE(paths.size() == 3);
    REQUIRE(r.hosts.size() == 3);
    uint64_t delivered = 0;
    for (uint32_t i = 0; i < 3; ++i)
    {
        REQUIRE(r.hosts[i].host == i);
        const HostPathStats& s = r.hosts[i].stats;
        REQUIRE(s.rxBytes == s.deliveredBytes + s.dropBytes + r.hosts[i].bufferedBytes);
        delivered += s.deliveredBytes;
        uint32_t same = 0;
        for (const Ptr<HostInterconnect>& hi : paths)
        {
            const HostPathStats& g = hi->GetStats();
            same += g.rxBytes == s.rxBytes && g.deliveredBytes == s.deliveredBytes &&
                    g.dropBytes == s.dropBytes && g.iotlbHits == s.iotlbHits &&
                    g.iotlbMisses == s.iotlbMisses && g.txPayloadBytes == s.txPayloadBytes &&
                    g.busyTime == s.busyTime && g.queueDelaySumNs == s.queueDelaySumNs;
        }
        REQUIRE(same >= 1);
    }
    // The receiver's path delivered the data; the senders' paths read it for sending.
    REQUIRE(r.hosts[2].stats.deliveredBytes > 1200000);
    REQUIRE(r.hosts[0].stats.txPayloadBytes >= 600000);
    REQUIRE(delivered == r.hosts[2].stats.deliveredBytes);

    // Without the section: no records, no hosts.csv.
    ScenarioConfig none = Incast("");
    ScenarioResult plain = ScenarioRunner(none).Run();
    REQUIRE(plain.hosts.empty());
    const std::string dir =
        (std::filesystem::temp_directory_path() / "mlnet-host-records-none").string();
    std::filesystem::remove_all(dir);
    std::vector<std::string> written = ScenarioRunner::WriteResults(plain, none, dir);
    for (const std::string& w : written)
    {
        REQUIRE(w.find("hosts.csv") == std::string::npos);
    }
    REQUIRE_FALSE(std::filesystem::exists(dir + "/hosts.csv"));
    std::filesystem::remove_all(dir);
}
