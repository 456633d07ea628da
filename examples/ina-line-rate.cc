/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Does PANAMA's aggregation datapath keep line rate? For each port rate, adder lanes and clock:
//  - the table of the adder tree's input throughput (lanes x clock x element size) against the
//    element rate a port delivers (a 1024-byte FP32 chunk in a 1110-byte frame), and
//  - a simulation: 4 workers on a leaf-spine (2 leaves, 2 spines, 2 trees), devices on every
//    leaf uplink and spine port, so that every device takes exactly one port's worth of
//    contributions; the measured per-worker aggregation goodput is compared with
//    min(port payload rate, adder throughput).
// Writes CSV (--csv); contrib-scripts/plot-aggregation.py line-rate draws the figure.
//
//   ./ina-line-rate --rates=100,200,400 --lanes=4,8,16,32,64 --clock=300 --duration=1ms

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{
std::vector<double>
ParseList(const std::string& s, const std::string& name)
{
    std::vector<double> v;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        try
        {
            size_t used = 0;
            double x = std::stod(item, &used);
            if (used != item.size() || !(x > 0))
            {
                throw std::invalid_argument("");
            }
            v.push_back(x);
        }
        catch (const std::exception&)
        {
            throw std::invalid_argument("--" + name + " = \"" + s +
                                        "\": must be a comma-separated list of numbers > 0");
        }
    }
    if (v.empty())
    {
        throw std::invalid_argument("--" + name + " must not be empty");
    }
    return v;
}

/// One simulation: per-worker aggregation goodput (bit/s of gradient) and device counters.
struct SimResult
{
    double goodput{0};
    uint64_t pauses{0};
    uint64_t maxInput{0};
    uint64_t drops{0};
};

SimResult
Simulate(double rateGbps, uint32_t lanes, double clockHz, bool lineRate, Time duration)
{
    std::ostringstream r;
    r << rateGbps << "Gbps";
    FabricTopologyHelper th;
    th.SetHostLinkRate(DataRate(r.str()));
    th.SetFabricLinkRate(DataRate(r.str()));
    FabricTopology t = th.BuildLeafSpine(2, 2, 2);
    AggregationHelper agg;
    if (lineRate)
    {
        agg.SetTimingModel("ns3::LineRateTimingModel");
    }
    else
    {
        agg.SetTimingAttribute("Lanes", UintegerValue(lanes));
        agg.SetTimingAttribute("ClockFrequency", DoubleValue(clockHz));
    }
    agg.InstallDevices(t.edge, "up");
    agg.InstallDevices(t.core, "all");
    Ptr<InNetworkAggregator> job = agg.InstallJob(t.hosts, 1, 2);
    job->Aggregate(0, uint64_t(1) << 40, 3, Callback<void>());
    Ptr<AggregationWorker> w0 = job->GetWorkers()[0];
    const Time warm = duration / 4;
    uint64_t at = 0;
    Simulator::Schedule(warm, [&at, w0]() { at = w0->GetStats().results; });
    Simulator::Stop(duration);
    Simulator::Run();
    SimResult res;
    res.goodput =
        double(w0->GetStats().results - at) * 256 * 4 * 8 / (duration - warm).GetSeconds();
    NetDeviceContainer ports = AggregationHelper::GetDevices();
    for (auto it = ports.Begin(); it != ports.End(); ++it)
    {
        Ptr<AggregationDevice> d = AggregationHelper::Get(*it);
        res.pauses += d->GetStats().pauses;
        res.maxInput = std::max(res.maxInput, d->GetStats().maxInputBytes);
        res.drops += d->GetStats().drops;
    }
    Simulator::Destroy();
    return res;
}
} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    std::string rates = "100,200,400";
    std::string lanes = "4,8,16,32,64";
    std::string clocks = "100,150,200,250,300,350,400,450,500";
    double simClock = 300;
    Time duration = MilliSeconds(2);
    bool simulate = true;
    std::string csv;
    CommandLine cmd(__FILE__);
    EventSchedulerHelper::UseDefault(cmd); // mlnet's event scheduler; --scheduler=...
    EventSchedulerHelper::UseHugePages();  // a program owns its process: huge-page heap
    cmd.AddValue("rates", "Port rates (Gb/s), comma-separated", rates);
    cmd.AddValue("lanes", "Adder lanes, comma-separated", lanes);
    cmd.AddValue("clocks", "Clocks of the table (MHz), comma-separated", clocks);
    cmd.AddValue("clock", "Clock of the simulations (MHz)", simClock);
    cmd.AddValue("duration", "Simulated time per run (the first quarter is warm-up)", duration);
    cmd.AddValue("simulate", "Run the simulations (else the table only)", simulate);
    cmd.AddValue("csv", "Write the simulation results to this CSV file", csv);
    cmd.Parse(argc, argv);
    try
    {
        std::vector<double> rateList = ParseList(rates, "rates");
        std::vector<double> laneList = ParseList(lanes, "lanes");
        std::vector<double> clockList = ParseList(clocks, "clocks");
        AdderTreeTimingModel::Validate(simClock * 1e6, 1, 0);
        for (double l : laneList)
        {
            AdderTreeTimingModel::Validate(simClock * 1e6, uint32_t(l), 0);
        }
        if (duration <= Time(0))
        {
            throw std::invalid_argument("--duration must be > 0");
        }
        // A chunk: 256 FP32 elements = 1024 B payload + 48 B headers + 38 B Ethernet framing.
        const uint32_t elements = 256;
        const uint32_t wire = 1024 + AggregationStackHeader::kSize + 38;
        std::cout << "Adder lanes needed to keep line rate (256 x fp32 per " << wire
                  << "-byte frame)\n";
        std::cout << std::setw(10) << "port Gb/s";
        for (double c : clockList)
        {
            std::cout << std::setw(8) << c << "MHz";
        }
        std::cout << "\n";
        for (double g : rateList)
        {
            std::cout << std::setw(10) << g;
            for (double c : clockList)
            {
                uint32_t need = 0;
                for (uint32_t l = 1; l <= 65536; l *= 2)
                {
                    Ptr<AdderTreeTimingModel> m = CreateObject<AdderTreeTimingModel>();
                    m->SetAttribute("Lanes", UintegerValue(l));
                    m->SetAttribute("ClockFrequency", DoubleValue(c * 1e6));
                    if (m->KeepsLineRate(g * 1e9, elements, wire))
                    {
                        need = l;
                        break;
                    }
                }
                std::cout << std::setw(11) << need;
            }
            std::cout << "\n";
        }
        if (!simulate)
        {
            return 0;
        }
        std::ofstream out;
        if (!csv.empty())
        {
            out.open(csv);
            if (!out)
            {
                throw std::invalid_argument("--csv: cannot write " + csv);
            }
            out << "rate_gbps,lanes,clock_mhz,adder_gbps,predicted_gbps,measured_gbps,"
                   "line_rate_gbps,pauses,max_input_bytes,drops\n";
        }
        std::cout << "\nSimulated per-worker aggregation goodput at " << simClock << " MHz\n"
                  << std::setw(10) << "port Gb/s" << std::setw(7) << "lanes" << std::setw(12)
                  << "adder Gb/s" << std::setw(12) << "predicted" << std::setw(12) << "measured"
                  << std::setw(10) << "pauses" << std::setw(13) << "max input B\n";
        for (double g : rateList)
        {
            SimResult full = Simulate(g, 0, 0, true, duration);
            std::cout << std::fixed << std::setprecision(0) << std::setw(10) << g << std::setw(7)
                      << "inf" << std::setw(12) << "inf" << std::setprecision(2) << std::setw(12)
                      << g * 1024 / wire << std::setw(12) << full.goodput / 1e9 << std::setw(10)
                      << full.pauses << std::setw(12) << full.maxInput << "\n";
            for (double l : laneList)
            {
                double adder = l * simClock * 1e6 * 4 * 8;
                double predicted = std::min(adder, full.goodput);
                SimResult s = Simulate(g, uint32_t(l), simClock * 1e6, false, duration);
                std::cout << std::setprecision(0) << std::setw(10) << g << std::setw(7) << l
                          << std::setprecision(2) << std::setw(12) << adder / 1e9 << std::setw(12)
                          << predicted / 1e9 << std::setw(12) << s.goodput / 1e9 << std::setw(10)
                          << s.pauses << std::setw(12) << s.maxInput << "\n";
                if (out)
                {
                    out << g << "," << l << "," << simClock << "," << adder / 1e9 << ","
                        << predicted / 1e9 << "," << s.goodput / 1e9 << "," << full.goodput / 1e9
                        << "," << s.pauses << "," << s.maxInput << "," << s.drops << "\n";
                }
            }
        }
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "ina-line-rate: error: " << e.what() << std::endl;
        return 2;
    }
    return 0;
}
