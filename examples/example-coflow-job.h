/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The coflow job of the echelon-pipeline example (one translation unit includes it: the TypeId
// is registered by the example program).
#ifndef MLNET_EXAMPLE_COFLOW_JOB_H
#define MLNET_EXAMPLE_COFLOW_JOB_H

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <stdexcept>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief A coflow job for the echelon-pipeline example: each iteration computes for Gap, then
 * every sender sends FlowBytes to every receiver through the flow scheduler as one coflow
 * (Echelon arrangement A = 0: all flows are needed together); the iteration ends when the
 * last flow has arrived. Its iteration time minus Gap is the coflow completion time.
 */
class ExampleCoflowJob : public TrainingJob
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::ExampleCoflowJob")
                                .SetParent<TrainingJob>()
                                .SetGroupName("Mlnet")
                                .AddConstructor<ExampleCoflowJob>()
                                .AddAttribute("FlowBytes",
                                              "Bytes of each flow of the coflow (>= 1)",
                                              UintegerValue(4000000),
                                              MakeUintegerAccessor(&ExampleCoflowJob::m_bytes),
                                              MakeUintegerChecker<uint64_t>(1))
                                .AddAttribute("Gap",
                                              "Compute time before each iteration's coflow (>= 0)",
                                              TimeValue(MilliSeconds(2)),
                                              MakeTimeAccessor(&ExampleCoflowJob::m_gap),
                                              MakeTimeChecker(Time(0)));
        return tid;
    }

    /// \param senders sending NICs \param receivers receiving NICs (each with a flow scheduler)
    void SetHosts(const std::vector<Ptr<MessageTransport>>& senders,
                  const std::vector<Ptr<MessageTransport>>& receivers)
    {
        m_senders = senders;
        m_receivers = receivers;
    }

  protected:
    void DoDispose() override
    {
        m_senders.clear();
        m_receivers.clear();
        TrainingJob::DoDispose();
    }

    void DoCheckConfiguration() const override
    {
        if (m_senders.empty() || m_receivers.empty())
        {
            throw std::invalid_argument("ExampleCoflowJob: senders and receivers must be set");
        }
    }

    void DoStartIteration() override
    {
        Simulator::Schedule(m_gap, &ExampleCoflowJob::PostCoflow, this);
    }

  private:
    void PostCoflow()
    {
        Ptr<RdmaFlowScheduler> fs = RdmaFlowScheduler::Find(m_senders.front());
        NS_ABORT_MSG_IF(!fs, "ExampleCoflowJob: the senders have no flow scheduler");
        FlowGroupSpec g;
        g.id = RdmaFlowScheduler::MakeGroupId(m_jobId, GetIterationsDone(), 0);
        g.job = m_jobId;
        g.arrangement = FlowArrangement::Coflow;
        g.expectedFlows = m_senders.size() * m_receivers.size();
        fs->DeclareGroup(g);
        m_left = g.expectedFlows;
        uint32_t index = 0;
        for (const auto& s : m_senders)
        {
            for (const auto& r : m_receivers)
            {
                FlowDeclaration d;
                d.job = m_jobId;
                d.group = g.id;
                d.index = index++;
                d.bytes = m_bytes;
                fs->Post(s,
                         r,
                         d,
                         RdmaFlowScheduler::MessageCallback([this]() {
                             if (--m_left == 0)
                             {
                                 EndIteration(m_gap);
                             }
                         }),
                         RdmaFlowScheduler::MessageCallback());
            }
        }
    }

    std::vector<Ptr<MessageTransport>> m_senders;
    std::vector<Ptr<MessageTransport>> m_receivers;
    uint64_t m_bytes{4000000};
    Time m_gap{MilliSeconds(2)};
    uint32_t m_left{0};
};

NS_OBJECT_ENSURE_REGISTERED(ExampleCoflowJob);

} // namespace ns3

#endif // MLNET_EXAMPLE_COFLOW_JOB_H
