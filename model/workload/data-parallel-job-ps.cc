/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// DataParallelJob in parameter-server mode: each host's framework thread (a queue of push, pull
// and update tasks, one at a time, with its CPU cost), the channels between workers and servers
// and the push and pull messages, posted directly or through the sending NIC's flow scheduler.
#include "data-parallel-job.h"

#include "ns3/log.h"
#include "ns3/rdma-flow-scheduler.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DataParallelJobPs");

uint32_t
DataParallelJob::ChannelDepth() const
{
    NS_LOG_FUNCTION(this);
    return m_channelDepth > 0 ? m_channelDepth : m_policy->GetOutstandingPerChannel();
}

bool
DataParallelJob::IsLocal(uint32_t w, uint32_t s) const
{
    return m_workers[w] == m_servers[s];
}

void
DataParallelJob::Enqueue(uint32_t host, TaskKind kind, uint32_t k, uint32_t w, uint32_t s)
{
    NS_LOG_FUNCTION(this << host << k << w << s);
    HostTask t;
    t.seq = m_taskSeq++;
    // workers work in plan order; servers in plan order with ServerPriority, else by arrival
    const bool byPlan = host < m_workers.size() || m_serverPriority;
    t.key = byPlan ? k : t.seq;
    t.kind = kind;
    t.k = k;
    t.w = w;
    t.s = s;
    m_threads[host].queue.insert(t);
    Kick(host);
}

bool
DataParallelJob::ChannelFree(const HostTask& t) const
{
    NS_LOG_FUNCTION(this);
    if ((t.kind != SEND_PUSH && t.kind != SEND_PULL) || IsLocal(t.w, t.s))
    {
        return true;
    }
    const uint32_t depth = ChannelDepth();
    if (depth == 0)
    {
        return true;
    }
    const std::size_t hosts = m_threads.size();
    const std::size_t server = m_workers.size() + t.s;
    const std::size_t ch = t.kind == SEND_PUSH ? t.w * hosts + server : server * hosts + t.w;
    return m_channelOut[ch] < depth;
}

Time
DataParallelJob::TaskCost(const HostTask& t) const
{
    NS_LOG_FUNCTION(this);
    const uint64_t bytes = m_plan[t.k].size * m_bytesPerParam;
    switch (t.kind)
    {
    case RECV_PUSH:
        return m_msgOverhead +
               (m_sumRate.GetBitRate() > 0 ? m_sumRate.CalculateBytesTxTime(bytes) : Time(0));
    case UPDATE:
        return m_updateRate.GetBitRate() > 0 ? m_updateRate.CalculateBytesTxTime(bytes) : Time(0);
    default:
        return m_msgOverhead;
    }
}

void
DataParallelJob::Kick(uint32_t host)
{
    NS_LOG_FUNCTION(this << host);
    HostThread& th = m_threads[host];
    while (!th.busy)
    {
        auto it = th.queue.begin();
        while (it != th.queue.end() && !ChannelFree(*it))
        {
            ++it;
        }
        if (it == th.queue.end())
        {
            return;
        }
        const HostTask t = *it;
        th.queue.erase(it);
        if ((t.kind == SEND_PUSH || t.kind == SEND_PULL) && !IsLocal(t.w, t.s))
        {
            const std::size_t hosts = m_threads.size();
            const std::size_t server = m_workers.size() + t.s;
            ++m_channelOut[t.kind == SEND_PUSH ? t.w * hosts + server : server * hosts + t.w];
        }
        th.busy = true;
        const Time cost = TaskCost(t);
        if (!cost.IsZero())
        {
            Simulator::Schedule(cost, &DataParallelJob::TaskDone, this, host, t);
            return;
        }
        Finish(t); // zero cost: at once, in queue order (as the ideal host of earlier versions)
        th.busy = false;
    }
}

void
DataParallelJob::TaskDone(uint32_t host, HostTask t)
{
    NS_LOG_FUNCTION(this << host);
    Finish(t);
    m_threads[host].busy = false;
    Kick(host);
}

void
DataParallelJob::Finish(const HostTask& t)
{
    NS_LOG_FUNCTION(this);
    const uint32_t server = m_workers.size() + t.s;
    switch (t.kind)
    {
    case SEND_PUSH:
    case SEND_PULL: {
        const bool push = t.kind == SEND_PUSH;
        if (IsLocal(t.w, t.s))
        {
            Arrived(push, t.w, t.s, t.k); // the shard on the worker's own host
        }
        else
        {
            PostMessage(push, t.w, t.s, t.k);
        }
        break;
    }
    case RECV_PUSH:
        m_pushBytes += m_plan[t.k].size * m_bytesPerParam;
        if (--m_sliceWait[t.k] == 0)
        {
            Enqueue(server, UPDATE, t.k, 0, t.s);
        }
        break;
    case UPDATE:
        // every gradient is summed and applied: one pull response per worker
        m_sliceWait[t.k] = m_workers.size();
        for (uint32_t v = 0; v < m_workers.size(); ++v)
        {
            Enqueue(server, SEND_PULL, t.k, v, t.s);
        }
        break;
    case RECV_PULL:
        m_pullBytes += m_plan[t.k].size * m_bytesPerParam;
        if (--m_sliceWait[t.k] == 0)
        {
            SliceDone(t.k);
        }
        break;
    }
}

void
DataParallelJob::Arrived(bool push, uint32_t w, uint32_t s, uint32_t k)
{
    NS_LOG_FUNCTION(this << push << w << s << k);
    const uint32_t server = m_workers.size() + s;
    if (!IsLocal(w, s))
    {
        const std::size_t hosts = m_threads.size();
        --m_channelOut[push ? w * hosts + server : server * hosts + w];
        Kick(push ? w : server); // the sender may start its next message on this channel
    }
    Enqueue(push ? server : w, push ? RECV_PUSH : RECV_PULL, k, w, s);
}

void
DataParallelJob::PostMessage(bool push, uint32_t w, uint32_t s, uint32_t k)
{
    NS_LOG_FUNCTION(this << push << w << s << k);
    if (PostScheduled(k, push, w, s))
    {
        return;
    }
    const uint8_t cls = SliceClass(m_plan[k].priorityClass);
    const uint64_t bytes = m_plan[k].size * m_bytesPerParam;
    Ptr<MessageConnection> qp = push ? Qp(m_workers[w], m_servers[s], cls, true, w, s)
                                     : Qp(m_servers[s], m_workers[w], cls, false, w, s);
    m_qpFifo[PeekPointer(qp)].push_back(k);
    const Time posted = Simulator::Now();
    const uint32_t src = push ? w : m_workers.size() + s;
    const uint32_t dst = push ? m_workers.size() + s : w;
    qp->PostSend(
        bytes,
        MessageConnection::CompletionCallback([this, src, dst, cls, posted](uint64_t, uint64_t b) {
            RecordMessage(src, dst, b, cls, posted);
        }));
}

bool
DataParallelJob::PostScheduled(uint32_t k, bool push, uint32_t w, uint32_t s)
{
    NS_LOG_FUNCTION(this << k << push << w << s);
    // A flow scheduler applies its decisions to the connections (either backend).
    Ptr<MessageTransport> src = push ? m_workers[w] : m_servers[s];
    Ptr<MessageTransport> dst = push ? m_servers[s] : m_workers[w];
    Ptr<RdmaFlowScheduler> fs = src && dst ? RdmaFlowScheduler::Find(src) : nullptr;
    if (!fs)
    {
        return false;
    }
    const uint32_t t = m_plan[k].tensorId;
    FlowGroupSpec g;
    g.id = RdmaFlowScheduler::MakeGroupId(m_jobId, m_syncIteration, push ? 0 : 1);
    g.job = m_jobId;
    g.arrangement = FlowArrangement::Offsets; // A(k) = forward time before the consumer
    g.expectedFlows = m_plan.size() * m_workers.size();
    g.priorities = m_tensors.size();
    fs->DeclareGroup(g);
    FlowDeclaration d;
    d.job = m_jobId;
    d.group = g.id;
    d.index = t;
    d.bytes = m_plan[k].size * m_bytesPerParam;
    d.offset = m_tensors[t].consumedAt;
    d.deadline = m_nextForward.GetSeconds() + m_tensors[t].consumedAt;
    d.priority = t; // tensors are numbered in the order the forward pass consumes them
    const uint8_t cls = SliceClass(m_plan[k].priorityClass);
    const Time posted = Simulator::Now();
    const uint32_t srcRank = push ? w : m_workers.size() + s;
    const uint32_t dstRank = push ? m_workers.size() + s : w;
    const uint64_t bytes = d.bytes;
    fs->Post(
        src,
        dst,
        d,
        RdmaFlowScheduler::MessageCallback([this, push, w, s, k]() { Arrived(push, w, s, k); }),
        RdmaFlowScheduler::MessageCallback([this, srcRank, dstRank, bytes, cls, posted]() {
            RecordMessage(srcRank, dstRank, bytes, cls, posted);
        }));
    return true;
}

} // namespace ns3
