/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// TrainingJob::MinIterationPeriod, the iteration-rate cap of every training job: with a period
// P above the natural iteration time T, iterations start exactly P apart and keep their busy
// time T; with P below T nothing changes (identical records); the gradient bytes per second are
// the bytes of one iteration / P. Also the JSON key and its error.

#include "common/rdma-scenario.h"
#include "common/test-utilities.h"

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <catch2/catch.hpp>
#include <functional>

using namespace ns3;

namespace
{

const uint32_t kIterations = 5;

/// Builds a job on 4 hosts (a 2 x 2 dumbbell with DCQCN), not yet started.
using JobMaker = std::function<Ptr<TrainingJob>(const std::vector<Ptr<RdmaNic>>&)>;

/// A 2-layer data-parallel model: 1.5 MB of FP32 gradients, 360 us of compute.
Ptr<TrainingJob>
MakeRingJob(const std::vector<Ptr<RdmaNic>>& nics)
{
    std::istringstream csv("name,parameters,forward_us,backward_us\n"
                           "conv,250000,40,80\n"
                           "fc,125000,80,160\n");
    Ptr<DataParallelJob> job = CreateObject<DataParallelJob>();
    job->SetModel(DnnModel::FromCsv(csv, "small"), GpuProfile::V100());
    job->SetWorkers(nics);
    return job;
}

Ptr<TrainingJob>
MakePipelineJob(const std::vector<Ptr<RdmaNic>>& nics)
{
    Ptr<PipelineParallelJob> job = CreateObject<PipelineParallelJob>();
    job->SetAttribute("Schedule", StringValue("1F1B"));
    job->SetAttribute("MicroBatches", UintegerValue(4));
    job->SetAttribute("ForwardTime", TimeValue(MicroSeconds(20)));
    job->SetAttribute("BackwardTime", TimeValue(MicroSeconds(40)));
    job->SetAttribute("ActivationBytes", UintegerValue(200000));
    job->SetStages(nics);
    return job;
}

Ptr<TrainingJob>
MakeTensorJob(const std::vector<Ptr<RdmaNic>>& nics)
{
    Ptr<TensorParallelJob> job = CreateObject<TensorParallelJob>();
    job->SetAttribute("Layers", UintegerValue(2));
    job->SetAttribute("ForwardTime", TimeValue(MicroSeconds(20)));
    job->SetAttribute("BackwardTime", TimeValue(MicroSeconds(40)));
    job->SetAttribute("AllReduceBytes", UintegerValue(300000));
    job->SetGroup(nics);
    return job;
}

/// The records of one run of `make` with the given period (kIterations iterations).
struct Run
{
    std::vector<IterationRecord> iterations;
    std::vector<MessageRecord> messages;
    std::vector<std::pair<Time, uint64_t>> rx; //!< every message received by a NIC: time, bytes
};

void
OnRx(std::vector<std::pair<Time, uint64_t>>* rx, Ipv4Address, uint32_t, uint64_t bytes)
{
    rx->emplace_back(Simulator::Now(), bytes);
}

Run
RunJob(const JobMaker& make, Time period)
{
    mlnettest::RdmaDumbbell d(2, 2);
    Ptr<TrainingJob> job = make(d.nics);
    job->SetAttribute("Iterations", UintegerValue(kIterations));
    job->SetAttribute("MinIterationPeriod", TimeValue(period));
    Run r;
    for (const auto& nic : d.nics)
    {
        nic->TraceConnectWithoutContext("MessageRx", MakeBoundCallback(&OnRx, &r.rx));
    }
    job->Start();
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    REQUIRE(job->IsFinished());
    r.iterations = job->GetIterationRecords();
    r.messages = job->GetMessageRecords();
    Simulator::Destroy();
    return r;
}

/// Every field of two iteration records.
bool
Same(const IterationRecord& a, const IterationRecord& b)
{
    return a.job == b.job && a.jobId == b.jobId && a.iteration == b.iteration &&
           a.start == b.start && a.end == b.end && a.compute == b.compute &&
           a.exposedComm == b.exposedComm && a.gpuIdle == b.gpuIdle && a.periodWait == b.periodWait;
}

struct Maker
{
    std::string name;
    JobMaker make;
    /// an iteration's communication ends within it (false: data-parallel, whose all-reduce
    /// overlaps the next forward pass, layer by layer)
    bool selfContained;
};

const std::vector<Maker>&
Makers()
{
    static const std::vector<Maker> m = {{"data-parallel ring", &MakeRingJob, false},
                                         {"pipeline 1F1B", &MakePipelineJob, true},
                                         {"tensor-parallel", &MakeTensorJob, true}};
    return m;
}

/// The longest iteration of an uncapped run.
Time
Longest(const Run& r)
{
    Time t(0);
    for (const auto& it : r.iterations)
    {
        t = Max(t, it.Duration());
    }
    return t;
}

} // namespace

TEST_CASE("workload: MinIterationPeriod above the iteration time starts iterations exactly one "
          "period apart with the natural busy time",
          "[workload]")
{
    for (const Maker& m : Makers())
    {
        INFO(m.name);
        const Run free = RunJob(m.make, Time(0));
        const Time longest = Longest(free);
        const Time period = longest * 2 + MicroSeconds(37); // P > T for every iteration
        const Run capped = RunJob(m.make, period);
        INFO("natural iteration up to " << longest.GetMicroSeconds() << " us, period "
                                        << period.GetMicroSeconds() << " us");
        REQUIRE(capped.iterations.size() == kIterations);
        for (std::size_t i = 0; i < kIterations; ++i)
        {
            const IterationRecord& c = capped.iterations[i];
            const IterationRecord& f = free.iterations[i];
            INFO("iteration " << i << ": busy " << c.BusyTime().GetNanoSeconds() << " ns, free "
                              << f.Duration().GetNanoSeconds() << " ns");
            REQUIRE(c.compute == f.compute);
            REQUIRE(c.Duration() == c.periodWait + c.compute + c.exposedComm);
            REQUIRE(c.gpuIdle == c.periodWait + c.exposedComm);
            if (m.selfContained || i == 0)
            {
                // the same work from the actual start: the idle network is the same network
                REQUIRE(c.BusyTime() == f.Duration());
                REQUIRE(c.exposedComm == f.exposedComm);
            }
            else if (i + 1 < kIterations)
            {
                // the previous all-reduce finished during the wait: no forward pass waits for
                // a parameter, the iteration is pure compute (free-running it waited)
                REQUIRE(c.BusyTime() == c.compute);
                REQUIRE(f.Duration() > c.compute);
            }
            else
            {
                // the last iteration waits for its own all-reduce, on an idle network
                REQUIRE(c.BusyTime() > c.compute);
                REQUIRE(c.BusyTime() < f.Duration());
            }
            if (i == 0)
            {
                REQUIRE(c.periodWait == Time(0));
                REQUIRE(c.start == f.start);
                continue;
            }
            // records stay back to back; work starts exactly P after the previous start
            REQUIRE(c.start == capped.iterations[i - 1].end);
            REQUIRE(c.BusyStart() - capped.iterations[i - 1].BusyStart() == period);
            REQUIRE(c.periodWait == period - capped.iterations[i - 1].BusyTime());
        }
        // the period-inclusive time of iterations 1..n-1 telescopes to (n-1) P + T_last - T_0
        const Time span = capped.iterations.back().end - capped.iterations.front().end;
        REQUIRE(span == period * int64_t(kIterations - 1) + capped.iterations.back().BusyTime() -
                            capped.iterations.front().BusyTime());
    }
}

TEST_CASE("workload: MinIterationPeriod below the iteration time changes nothing", "[workload]")
{
    for (const Maker& m : Makers())
    {
        INFO(m.name);
        const Run free = RunJob(m.make, Time(0));
        Time shortest = free.iterations.front().Duration();
        for (const auto& it : free.iterations)
        {
            shortest = Min(shortest, it.Duration());
        }
        for (Time period : {shortest / 2, shortest})
        {
            INFO("period " << period.GetNanoSeconds() << " ns");
            const Run capped = RunJob(m.make, period);
            REQUIRE(capped.iterations.size() == free.iterations.size());
            for (std::size_t i = 0; i < free.iterations.size(); ++i)
            {
                REQUIRE(Same(capped.iterations[i], free.iterations[i]));
                REQUIRE(capped.iterations[i].periodWait == Time(0));
            }
            REQUIRE(capped.messages.size() == free.messages.size());
            for (std::size_t m = 0; m < free.messages.size(); ++m)
            {
                REQUIRE(capped.messages[m].posted == free.messages[m].posted);
                REQUIRE(capped.messages[m].completed == free.messages[m].completed);
                REQUIRE(capped.messages[m].bytes == free.messages[m].bytes);
            }
        }
    }
}

TEST_CASE("workload: MinIterationPeriod sets the gradient rate to one iteration's bytes per "
          "period",
          "[workload]")
{
    const Run free = RunJob(&MakeRingJob, Time(0));
    uint64_t perIteration = 0; // all-reduce bytes received per iteration, over all NICs
    for (const auto& [t, bytes] : free.rx)
    {
        perIteration += bytes;
    }
    REQUIRE(perIteration % kIterations == 0);
    perIteration /= kIterations;
    // ring all-reduce: every rank receives 2 (n - 1) / n of the 1.5 MB gradient
    REQUIRE(perIteration == 4 * (2 * 3 * 1500000 / 4));
    for (double factor : {1.5, 3.0})
    {
        const Time period = Longest(free) * factor;
        const Run capped = RunJob(&MakeRingJob, period);
        // bytes received from the start of iteration 1 to the start of the last one
        const Time from = capped.iterations[1].BusyStart();
        const Time to = capped.iterations.back().BusyStart();
        uint64_t bytes = 0;
        for (const auto& [t, b] : capped.rx)
        {
            if (t >= from && t < to)
            {
                bytes += b;
            }
        }
        const double rate = bytes / (to - from).GetSeconds();
        const double expected = perIteration / period.GetSeconds();
        INFO("period " << period.GetMicroSeconds() << " us: " << rate * 8e-9 << " Gb/s of "
                       << perIteration << " B per iteration, expected " << expected * 8e-9);
        REQUIRE(rate == Approx(expected).epsilon(1e-9));
        // free-running, the same job moves more per second
        const Time freeSpan = free.iterations.back().BusyStart() - free.iterations[1].BusyStart();
        uint64_t freeBytes = 0;
        for (const auto& [t, b] : free.rx)
        {
            freeBytes +=
                (t >= free.iterations[1].BusyStart() && t < free.iterations.back().BusyStart()) ? b
                                                                                                : 0;
        }
        REQUIRE(expected < freeBytes / freeSpan.GetSeconds());
    }
}

TEST_CASE("workload: MinIterationPeriod rejects a negative period, in C++ and JSON", "[workload]")
{
    Ptr<PeriodicJob> job = CreateObject<PeriodicJob>();
    REQUIRE_FALSE(job->SetAttributeFailSafe("MinIterationPeriod", TimeValue(MicroSeconds(-1))));
    REQUIRE(job->SetAttributeFailSafe("MinIterationPeriod", TimeValue(MicroSeconds(5))));
    for (const char* type : {R"("type": "tensor-parallel-job", "hosts": [0, 1],
                                         "layers": 1, "forward": "1us", "backward": "1us",
                                         "allReduceBytes": 1000, "iterations": 1)",
                             R"("type": "periodic-job", "src": 0, "dst": 1,
                                         "compute": "1us", "bytes": 1000, "iterations": 1)"})
    {
        const std::string text = R"({"topology": {"type": "dumbbell", "left": 1, "right": 1},
                                     "duration": "1ms", "traffic": [{)" +
                                 std::string(type) + R"(, "minIterationPeriod": "-1us"}]})";
        REQUIRE_THROWS_WITH(Scenario::ParseString(text),
                            Catch::Contains("minIterationPeriod") && Catch::Contains("[0") &&
                                Catch::Contains("3600"));
    }
}

TEST_CASE("workload: minIterationPeriod from a scenario spaces a periodic job's iterations",
          "[workload]")
{
    ScenarioResult r = mlnettest::RunScenarioText(
        R"({"topology": {"type": "dumbbell", "left": 1, "right": 1}, "duration": "1ms",
            "drain": "1s",
            "traffic": [{"type": "periodic-job", "src": 0, "dst": 1, "compute": "10us",
                         "bytes": 10000, "iterations": 4, "minIterationPeriod": "100us"}]})");
    REQUIRE(r.iterations.size() == 4);
    for (std::size_t i = 1; i < r.iterations.size(); ++i)
    {
        REQUIRE(r.iterations[i].BusyStart() - r.iterations[i - 1].BusyStart() == MicroSeconds(100));
        REQUIRE(r.iterations[i].periodWait > Time(0));
        REQUIRE(r.iterations[i].BusyTime() < MicroSeconds(100));
    }
}
