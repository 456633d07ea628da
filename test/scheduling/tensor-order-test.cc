/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/boolean.h"
#include "ns3/bytescheduler-tensor-order.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fifo-tensor-order.h"
#include "ns3/object-factory.h"
#include "ns3/p3-tensor-order.h"
#include "ns3/string.h"
#include "ns3/tensor-order-factory.h"
#include "ns3/tictac-tensor-order.h"
#include "ns3/uinteger.h"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <tuple>

using namespace ns3;

namespace
{

/// (tensor id, offset, size, priority) of a plan, for exact comparisons.
using Entry = std::tuple<uint32_t, uint64_t, uint64_t, uint32_t>;

std::vector<Entry>
Entries(const std::vector<TransferSlice>& plan)
{
    std::vector<Entry> e;
    for (const auto& s : plan)
    {
        e.emplace_back(s.tensorId, s.offset, s.size, s.priority);
    }
    return e;
}

/// The hand-made model: 4 layers of 120k, 30k, 2.5M and 60k parameters; forward 1, 2, 3, 4 ms;
/// backward 2, 4, 6, 8 ms. Gradients are produced at 20, 18, 14, 8 ms and consumed at 0, 1, 3,
/// 6 ms.
std::vector<GradientTensor>
FourLayers()
{
    return TensorOrderPolicy::MakeTensors({120000, 30000, 2500000, 60000},
                                          {1e-3, 2e-3, 3e-3, 4e-3},
                                          {2e-3, 4e-3, 6e-3, 8e-3});
}

} // namespace

TEST_CASE("scheduling: tensors are built from per-layer times", "[scheduling]")
{
    const auto t = TensorOrderPolicy::MakeTensors({10, 0, 30}, {1, 2, 3}, {4, 5, 6});
    REQUIRE(t.size() == 2);
    CHECK(t[0].id == 0);
    CHECK(t[0].layerIndex == 0);
    CHECK(t[0].producedAt == Approx(15));
    CHECK(t[0].consumedAt == Approx(0));
    CHECK(t[1].id == 1);
    CHECK(t[1].layerIndex == 2);
    CHECK(t[1].producedAt == Approx(6));
    CHECK(t[1].consumedAt == Approx(3));
    CHECK(t[1].consumerComputeTime == Approx(3));
    CHECK_THROWS_AS(TensorOrderPolicy::MakeTensors({1, 2}, {1}, {1, 1}), std::invalid_argument);
}

TEST_CASE("scheduling: fifo sends whole tensors in backward production order", "[scheduling]")
{
    auto fifo = CreateObject<FifoTensorOrder>();
    const auto plan = fifo->Plan(FourLayers());
    const std::vector<Entry> expected = {{3, 0, 60000, 0},
                                         {2, 0, 2500000, 0},
                                         {1, 0, 30000, 0},
                                         {0, 0, 120000, 0}};
    CHECK(Entries(plan) == expected);
    CHECK(plan[0].readyTime == Approx(8e-3));
    CHECK(plan[3].readyTime == Approx(20e-3));
    CHECK(fifo->GetCreditBytes() == 0);
    CHECK(fifo->GetName() == "FIFO");
}

TEST_CASE("scheduling: tictac TIC orders whole tensors by DAG consumption order", "[scheduling]")
{
    auto tic = CreateObject<TicTacTensorOrder>();
    const auto plan = tic->Plan(FourLayers());
    const std::vector<Entry> expected = {{0, 0, 120000, 0},
                                         {1, 0, 30000, 1},
                                         {2, 0, 2500000, 2},
                                         {3, 0, 60000, 3}};
    CHECK(Entries(plan) == expected);
    // 4 priority values onto 8 classes: class = value x 8 / 4
    CHECK(plan[0].priorityClass == 0);
    CHECK(plan[1].priorityClass == 2);
    CHECK(plan[3].priorityClass == 6);
    tic->SetPriorityClasses(2);
    const auto two = tic->Plan(FourLayers());
    CHECK(two[1].priorityClass == 0);
    CHECK(two[2].priorityClass == 1);
}

TEST_CASE("scheduling: tictac TAC uses timing where TIC uses layer numbering", "[scheduling]")
{
    // layer 0 has a weight (1000 params) and a bias (10 params); layers 1 and 2 are parallel
    // branches and the timing says layer 2 runs first (consumedAt 0.5 s before 1.0 s).
    std::vector<GradientTensor> t(4);
    t[0] = {0, 0, 1000, 3.0, 0.0, 1.0};
    t[1] = {1, 0, 10, 3.0, 0.0, 1.0};
    t[2] = {2, 1, 100, 2.0, 1.0, 0.5};
    t[3] = {3, 2, 100, 1.0, 0.5, 0.5};

    auto tic = CreateObject<TicTacTensorOrder>();
    CHECK(Entries(tic->Plan(t)) ==
          std::vector<Entry>{{0, 0, 1000, 0}, {1, 0, 10, 0}, {2, 0, 100, 1}, {3, 0, 100, 2}});

    // 4 bytes/param at 4000 B/s: M = 1 s, 0.01 s, 0.1 s, 0.1 s. Layer 0's transfers tie on
    // M+ = 1.01 s; Johnson's rule sends the short one first (min(0.01, 1) < min(1, 1)); then
    // layer 2 (M+ = 0.1) before layer 1 (M+ = 0.2).
    auto tac = CreateObject<TicTacTensorOrder>();
    tac->SetAttribute("Mode", EnumValue(TicTacTensorOrder::TAC));
    tac->SetAttribute("Bandwidth", DoubleValue(4000.0));
    CHECK(tac->GetName() == "TicTac-TAC");
    CHECK(Entries(tac->Plan(t)) ==
          std::vector<Entry>{{1, 0, 10, 0}, {0, 0, 1000, 1}, {3, 0, 100, 2}, {2, 0, 100, 3}});

    // on a chain with one tensor per layer, TAC degenerates to consumption order
    tac->SetBandwidth(1e9);
    CHECK(Entries(tac->Plan(FourLayers())) == std::vector<Entry>{{0, 0, 120000, 0},
                                                                 {1, 0, 30000, 1},
                                                                 {2, 0, 2500000, 2},
                                                                 {3, 0, 60000, 3}});
    CHECK_THROWS_WITH(tac->SetBandwidth(0), Catch::Contains("Bandwidth"));
}

TEST_CASE("scheduling: p3 slices tensors and prioritises layers near the input", "[scheduling]")
{
    auto p3 = CreateObject<P3TensorOrder>();
    CHECK(p3->GetSliceSize() == 50000);
    const auto plan = p3->Plan(FourLayers());
    // 120k -> 3 slices, 30k -> 1, 2.5M -> 50, 60k -> 2
    REQUIRE(plan.size() == 56);
    const std::vector<Entry> head = {{0, 0, 50000, 0},
                                     {0, 50000, 50000, 0},
                                     {0, 100000, 20000, 0},
                                     {1, 0, 30000, 1},
                                     {2, 0, 50000, 2}};
    const auto all = Entries(plan);
    CHECK(std::vector<Entry>(all.begin(), all.begin() + 5) == head);
    CHECK(all[53] == Entry{2, 2450000, 50000, 2});
    CHECK(all[54] == Entry{3, 0, 50000, 3});
    CHECK(all[55] == Entry{3, 50000, 10000, 3});

    p3->SetAttribute("SliceSize", UintegerValue(1000000));
    CHECK(Entries(p3->Plan(FourLayers())) == std::vector<Entry>{{0, 0, 120000, 0},
                                                                {1, 0, 30000, 1},
                                                                {2, 0, 1000000, 2},
                                                                {2, 1000000, 1000000, 2},
                                                                {2, 2000000, 500000, 2},
                                                                {3, 0, 60000, 3}});
    CHECK(p3->GetName() == "P3");
}

TEST_CASE("scheduling: p3 slicing and priority are separate switches", "[scheduling]")
{
    auto p3 = CreateObject<P3TensorOrder>();
    // priority alone: whole tensors in layer order
    p3->SetSliceSize(0);
    CHECK(p3->GetName() == "P3-priority");
    CHECK(Entries(p3->Plan(FourLayers())) == std::vector<Entry>{{0, 0, 120000, 0},
                                                                {1, 0, 30000, 1},
                                                                {2, 0, 2500000, 2},
                                                                {3, 0, 60000, 3}});
    // slicing alone: the framework's (backward) order, one priority value, 1M slices
    p3->SetAttribute("SliceSize", UintegerValue(1000000));
    p3->SetAttribute("Priority", BooleanValue(false));
    CHECK(p3->GetName() == "P3-slicing");
    CHECK(Entries(p3->Plan(FourLayers())) == std::vector<Entry>{{3, 0, 60000, 0},
                                                                {2, 0, 1000000, 0},
                                                                {2, 1000000, 1000000, 0},
                                                                {2, 2000000, 500000, 0},
                                                                {1, 0, 30000, 0},
                                                                {0, 0, 120000, 0}});
    // both off is FIFO exactly
    p3->SetSliceSize(0);
    CHECK(p3->GetName() == "P3-off");
    CHECK(Entries(p3->Plan(FourLayers())) ==
          Entries(CreateObject<FifoTensorOrder>()->Plan(FourLayers())));
    // the factory names of the switches
    CHECK(CreateTensorOrderPolicy("p3-slicing")->GetName() == "P3-slicing");
    CHECK(CreateTensorOrderPolicy("p3-priority")->GetName() == "P3-priority");
    CHECK_THROWS_WITH(CreateTensorOrderPolicy("p3-x"), Catch::Contains("p3-slicing"));
}

TEST_CASE("scheduling: tictac's send order equals the DAG's consumption order, one transfer per "
          "channel",
          "[scheduling]")
{
    // a chain of 6 layers: consumption order is the layer order, production the reverse
    const auto tensors = TensorOrderPolicy::MakeTensors({10, 20, 0, 40, 50, 60},
                                                        {1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3},
                                                        {2e-3, 2e-3, 2e-3, 2e-3, 2e-3, 2e-3});
    for (const char* mode : {"TIC", "TAC"})
    {
        auto tt = CreateObject<TicTacTensorOrder>();
        tt->SetAttribute("Mode", StringValue(mode));
        const auto plan = tt->Plan(tensors);
        REQUIRE(plan.size() == tensors.size());
        for (std::size_t i = 1; i < plan.size(); ++i)
        {
            INFO(mode << " position " << i);
            CHECK(tensors[plan[i - 1].tensorId].consumedAt < tensors[plan[i].tensorId].consumedAt);
        }
        CHECK(tt->GetCreditBytes() == 0);           // no byte window
        CHECK(tt->GetOutstandingPerChannel() == 1); // one transfer at a time per channel
    }
    auto tt = CreateObject<TicTacTensorOrder>();
    tt->SetAttribute("OutstandingTransfers", UintegerValue(3));
    CHECK(tt->GetOutstandingPerChannel() == 3);
    CHECK(CreateObject<P3TensorOrder>()->GetOutstandingPerChannel() == 0);
}

TEST_CASE("scheduling: bytescheduler partitions above 1M params with a 4M credit", "[scheduling]")
{
    auto bs = CreateObject<ByteSchedulerTensorOrder>();
    CHECK(bs->GetPartitionSize() == 1000000);
    CHECK(bs->GetCredit() == 4000000);
    CHECK(bs->GetCreditBytes() == 16000000); // 4 bytes per fp32 gradient element
    CHECK(Entries(bs->Plan(FourLayers())) == std::vector<Entry>{{0, 0, 120000, 0},
                                                                {1, 0, 30000, 1},
                                                                {2, 0, 1000000, 2},
                                                                {2, 1000000, 1000000, 2},
                                                                {2, 2000000, 500000, 2},
                                                                {3, 0, 60000, 3}});
    bs->SetAttribute("Credit", UintegerValue(100));
    bs->SetAttribute("BytesPerParameter", UintegerValue(2));
    CHECK(bs->GetCreditBytes() == 200);
    CHECK_THROWS_WITH(bs->SetCredit(0), Catch::Contains("Credit"));
    CHECK_THROWS_WITH(bs->SetPartitionSize(0), Catch::Contains("PartitionSize"));
}

TEST_CASE("scheduling: policies are created by TypeId name", "[scheduling]")
{
    for (const char* name : {"ns3::FifoTensorOrder",
                             "ns3::TicTacTensorOrder",
                             "ns3::P3TensorOrder",
                             "ns3::ByteSchedulerTensorOrder"})
    {
        ObjectFactory f(name);
        Ptr<TensorOrderPolicy> p = f.Create<TensorOrderPolicy>();
        REQUIRE(p);
        const auto plan = p->Plan(FourLayers());
        uint64_t total = 0;
        for (const auto& s : plan)
        {
            total += s.size;
        }
        CHECK(total == 120000 + 30000 + 2500000 + 60000);
    }
}

TEST_CASE("scheduling: bad tensors are rejected with the field name", "[scheduling]")
{
    auto fifo = CreateObject<FifoTensorOrder>();
    std::vector<GradientTensor> t = FourLayers();
    t[1].id = t[0].id;
    CHECK_THROWS_WITH(fifo->Plan(t), Catch::Contains("duplicated"));
    t = FourLayers();
    t[2].parameters = 0;
    CHECK_THROWS_WITH(fifo->Plan(t), Catch::Contains("parameters"));
    t = FourLayers();
    t[3].producedAt = -1;
    CHECK_THROWS_WITH(fifo->Plan(t), Catch::Contains("producedAt"));
    CHECK_THROWS_WITH(fifo->SetPriorityClasses(0), Catch::Contains("[1, 64]"));
    CHECK_THROWS_WITH(fifo->Serve(fifo->Plan(FourLayers()), 0), Catch::Contains("bytesPerSecond"));
}

TEST_CASE("scheduling: priority slicing lets the input layer overtake a large tensor",
          "[scheduling]")
{
    const double rate = 1e9; // bytes/s: the 2.5M-parameter tensor takes 10 ms
    auto finishOf = [&](Ptr<TensorOrderPolicy> p, uint32_t id) {
        const auto plan = p->Plan(FourLayers());
        double end = 0;
        for (const auto& s : p->Serve(plan, rate))
        {
            CHECK(s.start >= plan[s.planIndex].readyTime);
            if (plan[s.planIndex].tensorId == id)
            {
                end = std::max(end, s.end);
            }
        }
        return end;
    };
    // FIFO: layer 3 8.00-8.24 ms, layer 2 14-24 ms, layer 1 24-24.12 ms, layer 0 24.12-24.6 ms
    CHECK(finishOf(CreateObject<FifoTensorOrder>(), 0) == Approx(24.6e-3));
    // P3: the 50k slices of layer 2 (0.2 ms each) yield to layers 1 and 0 as soon as ready
    const double p3 = finishOf(CreateObject<P3TensorOrder>(), 0);
    CHECK(p3 < 21e-3);
    CHECK(p3 == Approx(20.6e-3));
    // without slicing (TIC) layer 0 waits behind the whole layer-2 tensor, then goes before
    // layer 1: 24-24.48 ms
    CHECK(finishOf(CreateObject<TicTacTensorOrder>(), 0) == Approx(24.48e-3));
}
