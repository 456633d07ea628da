/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// FlowBackendHelper::InstallDcqcn: the one set-up of DCQCN at flow level, shared by the
// scenario's "fluidCc" section and the C++ examples' --fluid-cc (doc/flow-backend.rst, *DCQCN
// at flow level*): the packet level's congestion control as reaction point, nothing for a cc
// without DCQCN, the model's attributes from a factory, and a fixed random stream, so a run
// does not depend on what the process ran before.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <stdexcept>
#include <vector>

using namespace ns3;

namespace
{

/// What a 2-to-1 incast of 4 MB per sender over a dumbbell gives under InstallDcqcn.
struct IncastResult
{
    uint64_t cnps{0};
    std::vector<int64_t> doneNs;
};

/// \param stream InstallDcqcn's stream \return the incast's CNPs and completion times
IncastResult
RunIncast(int64_t stream)
{
    FabricTopology t = FabricTopologyHelper().BuildDumbbell(2, 1);
    FlowBackendHelper flow;
    Ptr<FluidFabric> fabric = flow.Install(t);
    Ptr<FluidDcqcn> cc = FlowBackendHelper::InstallDcqcn(fabric,
                                                         ObjectFactory("ns3::Dcqcn"),
                                                         ObjectFactory("ns3::FluidDcqcn"),
                                                         stream);
    REQUIRE(cc);
    std::vector<Ptr<MessageTransport>> tr = FlowBackendHelper::Transports(t, {0, 1, 2});
    IncastResult r;
    r.doneNs.assign(2, -1);
    for (uint32_t s = 0; s < 2; ++s)
    {
        Ptr<MessageConnection> c = tr[s]->Open(tr[2], 3);
        int64_t* done = &r.doneNs[s];
        c->PostSend(4000000, MessageConnection::CompletionCallback([done](uint64_t, uint64_t) {
                        *done = Simulator::Now().GetNanoSeconds();
                    }));
    }
    Simulator::Run();
    r.cnps = cc->GetCnps();
    Simulator::Destroy();
    return r;
}

} // namespace

TEST_CASE("flow: FlowBackendHelper::InstallDcqcn attaches the packet level's DCQCN, nothing "
          "for a fixed rate",
          "[flow]")
{
    FabricTopology t = FabricTopologyHelper().BuildDumbbell(2, 1);
    FlowBackendHelper flow;
    Ptr<FluidFabric> fabric = flow.Install(t);
    Ptr<FluidNetwork> net = fabric->GetNetwork();
    CHECK_FALSE(FlowBackendHelper::IsDcqcn(ObjectFactory("ns3::RdmaFixedRate")));
    CHECK(FlowBackendHelper::IsDcqcn(ObjectFactory("ns3::Dcqcn")));
    CHECK(FlowBackendHelper::IsDcqcn(ObjectFactory("ns3::DcqcnVendor")));
    // line rate under PFC has no rate to model: nothing is attached
    CHECK(FlowBackendHelper::InstallDcqcn(fabric, ObjectFactory("ns3::RdmaFixedRate")) == nullptr);
    CHECK(FluidDcqcn::Of(net) == nullptr);
    CHECK_THROWS_AS(FlowBackendHelper::InstallDcqcn(fabric,
                                                    ObjectFactory("ns3::Dcqcn"),
                                                    ObjectFactory("ns3::FluidNetwork")),
                    std::invalid_argument);
    CHECK_THROWS_AS(FlowBackendHelper::InstallDcqcn(nullptr, ObjectFactory("ns3::Dcqcn")),
                    std::invalid_argument);
    CHECK(FluidDcqcn::Of(net) == nullptr);

    ObjectFactory model("ns3::FluidDcqcn");
    model.Set("Step", TimeValue(MicroSeconds(20)));
    Ptr<FluidDcqcn> cc =
        FlowBackendHelper::InstallDcqcn(fabric, ObjectFactory("ns3::DcqcnVendor"), model);
    REQUIRE(cc);
    CHECK(FluidDcqcn::Of(net) == cc);
    TimeValue step;
    cc->GetAttribute("Step", step);
    CHECK(step.Get() == MicroSeconds(20));
    // the dumbbell's switch ports mark (2 + 1 host ports, the bottleneck both ways); no host's
    CHECK(cc->GetNMarkingLinks() == 5);
    CHECK_THROWS_AS(FlowBackendHelper::InstallDcqcn(fabric, ObjectFactory("ns3::Dcqcn")),
                    std::logic_error);
    // the reaction point of a connection's flow is the packet level's algorithm
    std::vector<Ptr<MessageTransport>> tr = FlowBackendHelper::Transports(t, {0, 2});
    Ptr<MessageConnection> c = tr[0]->Open(tr[1], 3);
    c->PostSend(100000);
    Ptr<RdmaCongestionOps> ops = cc->GetOps(PeekPointer(c));
    REQUIRE(ops);
    CHECK(ops->GetInstanceTypeId().GetName() == "ns3::DcqcnVendor");
    Simulator::Run();
    CHECK(c->GetBytesAcked() == 100000);
    Simulator::Destroy();
}

TEST_CASE("flow: InstallDcqcn's fixed stream repeats a run in one process", "[flow]")
{
    // Two senders into one 100 Gb/s link: DCQCN cuts them at random (the CNP draws). The
    // second run of the same process, after a random variable took the next automatic stream,
    // draws the same.
    const IncastResult a = RunIncast(FlowBackendHelper::FLUID_DCQCN_STREAM);
    Ptr<UniformRandomVariable> other = CreateObject<UniformRandomVariable>();
    other->GetValue();
    const IncastResult b = RunIncast(FlowBackendHelper::FLUID_DCQCN_STREAM);
    CHECK(a.cnps > 0);
    CHECK(a.cnps == b.cnps);
    CHECK(a.doneNs == b.doneNs);
    // both finish; 8 MB through 100 Gb/s at 1000/1082 goodput take at least 692 us
    CHECK(std::min(a.doneNs[0], a.doneNs[1]) > 0);
    CHECK(std::max(a.doneNs[0], a.doneNs[1]) >= 692000);
}
