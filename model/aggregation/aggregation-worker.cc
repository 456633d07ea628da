/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-worker.h"

#include "aggregation-values.h"

#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/mlnet-enum-accessor.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AggregationWorker");
NS_OBJECT_ENSURE_REGISTERED(AggregationWorker);

/**
 * A host port without RDMA NIC tells the aggregation workers on it when one of their frames
 * leaves its queue (its dequeue callback, which nothing else on a host port uses): the worker
 * whose tag (the frame's meta, its index here + 1) the frame carries. Aggregated to the port,
 * so it lives as long as the port; it holds no reference to the workers (each removes itself
 * when disposed), the port's callback none to it.
 */
class AggregationWorker::HostPort : public Object
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::AggregationWorkerHostPort").SetParent<Object>().SetGroupName("Mlnet");
        return tid;
    }

    /// The port's HostPort, made and connected on first use. \param dev the host port
    static HostPort* Of(const Ptr<FabricNetDevice>& dev)
    {
        Ptr<HostPort> hp = dev->GetObject<HostPort>();
        if (!hp)
        {
            hp = CreateObject<HostPort>();
            dev->AggregateObject(hp);
            dev->SetDequeueCallback(MakeCallback(&HostPort::Dequeued, PeekPointer(hp)));
        }
        return PeekPointer(hp);
    }

    /// \return the tag of the worker's frames \param w the worker
    uint32_t Add(AggregationWorker* w)
    {
        m_workers.push_back(w);
        return uint32_t(m_workers.size());
    }

    /// The worker of this tag is gone. \param tag its tag
    void Remove(uint32_t tag)
    {
        if (tag >= 1 && tag <= m_workers.size())
        {
            m_workers[tag - 1] = nullptr;
        }
    }

  protected:
    void DoDispose() override
    {
        m_workers.clear();
        Object::DoDispose();
    }

  private:
    void Dequeued(Ptr<const Packet> /* p */, uint8_t cls, uint32_t tag)
    {
        if (tag >= 1 && tag <= m_workers.size() && m_workers[tag - 1])
        {
            m_workers[tag - 1]->PortDequeued(cls);
        }
    }

    std::vector<AggregationWorker*> m_workers; //!< by tag - 1 (null: removed)
};

TypeId
AggregationWorker::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AggregationWorker")
            .SetParent<Object>()
            .SetGroupName("Mlnet")
            .AddConstructor<AggregationWorker>()
            .AddAttribute("ChunkElements",
                          "Elements per aggregation packet (chunk), in [1, 4096]",
                          UintegerValue(256),
                          MakeUintegerAccessor(&AggregationWorker::m_chunkElements),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("ElementType",
                          "Element type on the wire",
                          EnumValue(AggElementType::FP32),
                          MakeEnumMemberAccessor(&AggregationWorker::m_type),
                          MakeEnumChecker(AggElementType::FP32,
                                          "FP32",
                                          AggElementType::FP16,
                                          "FP16",
                                          AggElementType::INT32,
                                          "INT32"))
            .AddAttribute("ScaleExponent",
                          "INT32 elements: values are sent as round(x * 2^e) (SwitchML's "
                          "fixed-point conversion), e in [-64, 64]",
                          IntegerValue(20),
                          MakeIntegerAccessor(&AggregationWorker::m_scaleExponent),
                          MakeIntegerChecker<int32_t>(-64, 64))
            .AddAttribute("RetransmitTimeout",
                          "Send every chunk of a tree still without result again when the tree "
                          "got no new result for this long",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&AggregationWorker::m_rtoTime),
                          MakeTimeChecker(NanoSeconds(100)))
            .AddAttribute("TxRingFrames",
                          "On a host without RDMA NIC: the most frames of the worker that wait "
                          "in the port's queue per priority class (a NIC's transmit ring); the "
                          "next frame is made, paced and counted by the congestion control "
                          "when one leaves the queue, so a rate cut applies from the next frame "
                          "made. 0: no limit (every chunk the window and pacing allow is queued "
                          "at once). In [0, 65536]",
                          UintegerValue(1),
                          MakeUintegerAccessor(&AggregationWorker::m_txRing),
                          MakeUintegerChecker<uint32_t>(0, 65536))
            .AddTraceSource("CongestionWindow",
                            "Window or rate of a tree changed: (tree, window in chunks, bit/s)",
                            MakeTraceSourceAccessor(&AggregationWorker::m_ccTrace),
                            "ns3::AggregationWorker::CcTracedCallback")
            .AddTraceSource("PostDone",
                            "A post completed: (id, elements, time posted, time done)",
                            MakeTraceSourceAccessor(&AggregationWorker::m_postTrace),
                            "ns3::AggregationWorker::PostTracedCallback");
    return tid;
}

AggregationWorker::AggregationWorker()
{
    m_wake.Bind<AggregationWorker, &AggregationWorker::Wake>(this);
}

AggregationWorker::~AggregationWorker() = default;

void
AggregationWorker::DoDispose()
{
    m_wake.Cancel();
    if (m_hostPort)
    {
        m_hostPort->Remove(m_portMeta);
        m_hostPort = nullptr;
    }
    if (m_nic)
    {
        m_nic->RemoveSource(this);
        m_nic = nullptr;
    }
    for (Tree& t : m_trees)
    {
        t.rto->timer.Cancel();
        t.ops = nullptr;
    }
    m_trees.clear();
    m_posts.clear();
    m_dev = nullptr;
    Object::DoDispose();
}

void
AggregationWorker::Setup(Ptr<FabricNetDevice> dev,
                         uint16_t jobId,
                         const std::vector<AggWorkerTree>& trees,
                         const ObjectFactory& cc,
                         const ObjectFactory* rp)
{
    if (m_nic)
    {
        m_nic->RemoveSource(this);
        m_nic = nullptr;
    }
    if (m_hostPort)
    {
        m_hostPort->Remove(m_portMeta);
        m_hostPort = nullptr;
        m_portMeta = 0;
    }
    // Served by the host's RDMA NIC when it has one (fair with its queue pairs), else queued
    // on the port directly.
    if (Ptr<RdmaNic> nic = dev->GetNode()->GetObject<RdmaNic>())
    {
        if (nic->GetDevice() == dev)
        {
            m_nic = nic;
            m_nic->AddSource(this);
        }
    }
    if (trees.empty())
    {
        throw std::invalid_argument("AggregationWorker: a job needs at least one tree");
    }
    if (!m_nic)
    {
        // Without NIC the worker is its own transmit ring: told when its frames leave.
        m_hostPort = HostPort::Of(dev);
        m_portMeta = m_hostPort->Add(this);
        m_onPort.fill(0);
    }
    m_dev = dev;
    m_jobId = jobId;
    m_trees.clear();
    m_treeIndex.clear();
    for (const AggWorkerTree& c : trees)
    {
        if (c.slots == 0)
        {
            throw std::invalid_argument("AggregationWorker: tree " + std::to_string(c.treeId) +
                                        " has no slot");
        }
        Tree t;
        t.cfg = c;
        t.cc.maxWindow = c.slots;
        t.cc.lineRate = double(dev->GetDataRate().GetBitRate());
        t.cc.rate = t.cc.lineRate;
        t.ops = cc.Create<AggregationCongestionOps>();
        if (Ptr<AggregationDcqcn> d = DynamicCast<AggregationDcqcn>(t.ops); d && rp)
        {
            d->SetReactionPoint(*rp);
        }
        t.ops->Init(t.cc, Simulator::Now());
        t.rto = std::make_unique<RtoTimer>();
        t.rto->worker = this;
        t.rto->tree = uint32_t(m_trees.size());
        t.rto->timer.Bind<RtoTimer, &RtoTimer::Fire>(t.rto.get());
        t.sport =
            AggregationStackHeader::SourcePort(dev->GetIpv4AddressValue(), jobId, c.treeId, 0);
        m_treeIndex[c.treeId] = m_trees.size();
        m_trees.push_back(std::move(t));
    }
}

uint16_t
AggregationWorker::GetJobId() const
{
    return m_jobId;
}

Ptr<FabricNetDevice>
AggregationWorker::GetDevice() const
{
    return m_dev;
}

const AggregationWorkerStats&
AggregationWorker::GetStats() const
{
    return m_stats;
}

uint32_t
AggregationWorker::GetChunkElements() const
{
    return m_chunkElements;
}

AggElementType
AggregationWorker::GetElementType() const
{
    return m_type;
}

uint32_t
AggregationWorker::GetNTrees() const
{
    return m_trees.size();
}

const AggregationCcState&
AggregationWorker::GetCcState(uint32_t i) const
{
    return m_trees.at(i).cc;
}

Ptr<AggregationCongestionOps>
AggregationWorker::GetCongestionOps(uint32_t i) const
{
    return m_trees.at(i).ops;
}

bool
AggregationWorker::IsBusy() const
{
    return !m_posts.empty();
}

std::vector<uint64_t>
AggregationWorker::GetBytesPerTree() const
{
    std::vector<uint64_t> b;
    for (const Tree& t : m_trees)
    {
        b.push_back(t.bytes);
    }
    return b;
}

uint64_t
AggregationWorker::Post(uint64_t elements, uint8_t cls, DoneCallback cb)
{
    return DoPost(elements, cls, cb, nullptr);
}

uint64_t
AggregationWorker::PostValues(const std::vector<float>& values, uint8_t cls, DoneCallback cb)
{
    return DoPost(values.size(), cls, cb, &values);
}

uint64_t
AggregationWorker::DoPost(uint64_t elements,
                          uint8_t cls,
                          DoneCallback cb,
                          const std::vector<float>* v)
{
    if (elements == 0)
    {
        throw std::invalid_argument("AggregationWorker::Post: elements must be >= 1");
    }
    if (cls > 7)
    {
        throw std::invalid_argument("AggregationWorker::Post: priority class " +
                                    std::to_string(cls) + " out of range [0, 7]");
    }
    if (!m_dev)
    {
        throw std::invalid_argument("AggregationWorker::Post: worker not set up");
    }
    uint64_t id = m_nextPost++;
    PostRec& rec = m_posts[id];
    rec.elements = elements;
    rec.posted = Simulator::Now();
    rec.cb = cb;
    if (v)
    {
        rec.hasValues = true;
        rec.values = AggregationValues::FromFloats(*v, m_type, m_scaleExponent);
        rec.result.assign(elements, 0);
    }
    // Chunks are made when sent (a post may be gigabytes): chunk g of the worker's global
    // sequence goes on tree g mod T as that tree's chunk g div T.
    const uint64_t n = (elements + m_chunkElements - 1) / m_chunkElements;
    rec.remaining = n;
    rec.firstChunk = m_chunkCounter;
    rec.cls = cls;
    m_postAt[m_chunkCounter] = id;
    const uint64_t T = m_trees.size();
    for (uint64_t t = 0; t < T; ++t)
    {
        m_trees[t].nextSeq += uint32_t(ChunksOnTree(m_chunkCounter, n, T, t));
    }
    m_chunkCounter += n;
    TrySend();
    return id;
}

uint64_t
AggregationWorker::ChunksOnTree(uint64_t first, uint64_t chunks, uint64_t trees, uint64_t tree)
{
    // chunks g in [first, first + chunks) with g mod trees == tree
    const uint64_t before = (first + trees - 1 - tree) / trees;
    const uint64_t after = (first + chunks + trees - 1 - tree) / trees;
    return after - before;
}

void
AggregationWorker::TraceCc(Tree& t)
{
    if (t.cc.cwnd != t.lastCwnd || t.cc.rate != t.lastRate)
    {
        t.lastCwnd = t.cc.cwnd;
        t.lastRate = t.cc.rate;
        m_ccTrace(t.cfg.treeId, t.cc.cwnd, t.cc.rate);
    }
}

int
AggregationWorker::PickTree(Time now, Time& earliest, uint8_t blocked)
{
    const uint32_t n = m_trees.size();
    for (uint32_t k = 0; k < n; ++k)
    {
        uint32_t idx = (m_rr + k) % n;
        Tree& t = m_trees[idx];
        while (!t.retx.empty() &&
               (t.retx.front() < t.una || t.chunks[t.retx.front() - t.una].received))
        {
            if (t.retx.front() >= t.una)
            {
                t.chunks[t.retx.front() - t.una].queuedRetx = false;
            }
            t.retx.pop_front();
        }
        bool fresh = t.nxt < t.nextSeq && t.nxt - t.una < t.cc.Window();
        if (t.retx.empty() && !fresh)
        {
            continue;
        }
        if (blocked && ((blocked >> NextClass(idx)) & 1u))
        {
            continue; // its class's ring is full: a dequeue of that class wakes the worker
        }
        t.ops->Advance(t.cc, now);
        if (t.nextAvail > now)
        {
            earliest = std::min(earliest, t.nextAvail);
            continue;
        }
        return int(idx);
    }
    return -1;
}

uint8_t
AggregationWorker::NextClass(uint32_t idx) const
{
    const Tree& t = m_trees[idx];
    if (!t.retx.empty())
    {
        return t.chunks[t.retx.front() - t.una].cls;
    }
    uint64_t g = uint64_t(t.nxt) * m_trees.size() + idx;
    auto pit = std::prev(m_postAt.upper_bound(g));
    return m_posts.at(pit->second).cls;
}

Ptr<Packet>
AggregationWorker::MakeNext(uint32_t idx)
{
    Tree& t = m_trees[idx];
    m_rr = (idx + 1) % m_trees.size();
    if (!t.retx.empty())
    {
        uint32_t seq = t.retx.front();
        t.retx.pop_front();
        t.chunks[seq - t.una].queuedRetx = false;
        return BuildChunk(t, seq, true);
    }
    // Materialise the tree's next chunk from its post.
    uint64_t g = uint64_t(t.nxt) * m_trees.size() + idx;
    auto pit = std::prev(m_postAt.upper_bound(g));
    const PostRec& rec = m_posts.at(pit->second);
    Chunk c;
    c.post = pit->second;
    c.offset = (g - rec.firstChunk) * m_chunkElements;
    c.elements = uint16_t(std::min<uint64_t>(m_chunkElements, rec.elements - c.offset));
    c.cls = rec.cls;
    t.chunks.push_back(c);
    return BuildChunk(t, t.nxt++, false);
}

Time
AggregationWorker::GetNextSendTime(uint8_t& cls)
{
    Time now = Simulator::Now();
    Time earliest = Time::Max();
    int idx = PickTree(now, earliest);
    if (idx >= 0)
    {
        cls = NextClass(uint32_t(idx));
        return now;
    }
    for (uint32_t i = 0; i < m_trees.size(); ++i)
    {
        if (m_trees[i].nextAvail == earliest)
        {
            cls = NextClass(i);
        }
    }
    return earliest;
}

Ptr<Packet>
AggregationWorker::Dequeue()
{
    Time earliest = Time::Max();
    int idx = PickTree(Simulator::Now(), earliest);
    return idx < 0 ? nullptr : MakeNext(uint32_t(idx));
}

void
AggregationWorker::TrySend()
{
    if (m_trees.empty())
    {
        return;
    }
    if (m_nic)
    {
        m_nic->NotifySource(); // the NIC pulls our packets in its rotation
        return;
    }
    // No RDMA NIC on the host: queue on the port directly, at most m_txRing frames per class
    // (the port's dequeue notifications, PortDequeued, make room).
    Time now = Simulator::Now();
    Time earliest = Time::Max();
    m_sending = true;
    for (int idx = PickTree(now, earliest, FullClasses()); idx >= 0;
         idx = PickTree(now, earliest, FullClasses()))
    {
        Ptr<Packet> p = MakeNext(uint32_t(idx));
        uint8_t b[2];
        p->CopyData(b, 2);
        const uint8_t cls = uint8_t((b[1] >> 2) & 0x7);
        ++m_onPort[cls]; // before Enqueue: an idle port dequeues the frame inside the call
        m_dev->Enqueue(p, cls, m_portMeta);
    }
    m_sending = false;
    if (earliest != Time::Max())
    {
        if (!m_wake.IsPending() || m_wake.GetTsStep() > earliest.GetTimeStep())
        {
            m_wake.Schedule(earliest - now);
        }
    }
}

uint8_t
AggregationWorker::FullClasses() const
{
    if (m_txRing == 0)
    {
        return 0;
    }
    uint8_t full = 0;
    for (uint8_t c = 0; c < m_onPort.size(); ++c)
    {
        if (m_onPort[c] >= m_txRing)
        {
            full |= uint8_t(1u << c);
        }
    }
    return full;
}

void
AggregationWorker::PortDequeued(uint8_t cls)
{
    if (m_onPort[cls] == 0)
    {
        return; // queued before a Setup() on another port
    }
    const bool wasFull = m_txRing != 0 && m_onPort[cls] >= m_txRing;
    --m_onPort[cls];
    NS_LOG_LOGIC("job " << m_jobId << " class " << unsigned(cls) << " frame dequeued, "
                        << m_onPort[cls] << " on the port");
    if (wasFull && !m_sending)
    {
        // Not from inside the port's dequeue (it starts that frame after this call): the
        // next frame is made now, in an event of its own, and queued behind it.
        if (!m_wake.IsPending() || m_wake.GetTsStep() > Simulator::Now().GetTimeStep())
        {
            m_wake.Schedule(Time(0));
        }
    }
}

void
AggregationWorker::Wake()
{
    TrySend();
}

Ptr<Packet>
AggregationWorker::BuildChunk(Tree& t, uint32_t seq, bool retransmit)
{
    Time now = Simulator::Now();
    const Chunk& c = t.chunks[seq - t.una];
    AggregationStackHeader h;
    h.src = m_dev->GetIpv4Address();
    h.dst = t.cfg.parent;
    h.dscp = c.cls;
    h.ecn = 2; // ECT(0)
    h.sport = t.sport;
    h.agg.type = AggregationHeader::CONTRIBUTION;
    h.agg.elementType = uint8_t(m_type);
    h.agg.scaleExponent = int8_t(m_type == AggElementType::INT32 ? m_scaleExponent : 0);
    h.agg.jobId = m_jobId;
    h.agg.treeId = t.cfg.treeId;
    h.agg.seq = seq;
    h.agg.sender = t.cfg.indexAtParent;
    h.agg.fanIn = 1;
    h.agg.elements = c.elements;
    if (retransmit)
    {
        h.agg.flags |= AggregationHeader::RETRANSMIT;
    }
    Ptr<Packet> p;
    const PostRec& rec = m_posts.at(c.post);
    if (rec.hasValues)
    {
        std::vector<uint32_t> w(rec.values.begin() + c.offset,
                                rec.values.begin() + c.offset + c.elements);
        p = AggregationStackHeader::Build(h, &w);
    }
    else
    {
        p = AggregationStackHeader::Build(h, nullptr);
    }
    uint32_t payload = h.agg.PayloadBytes();
    if (retransmit)
    {
        m_stats.retransmitted++;
    }
    else
    {
        m_stats.chunksSent++;
        t.bytes += payload;
    }
    m_stats.bytesSent += p->GetSize();
    t.ops->OnSent(t.cc, payload, now);
    TraceCc(t);
    if (t.cc.rate < t.cc.lineRate)
    {
        // Exact pacing, as a queue pair's: the interval WireBits / rate on the time grid, the
        // sub-step remainder carried from frame to frame (the wire time floored to the grid
        // times line / rate, before, ran 0.9 % fast for a full chunk at 100 Gb/s).
        t.nextAvail = now + t.pace.Next(m_dev->WireBits(p->GetSize()),
                                        uint64_t(std::llround(std::max(t.cc.rate, 1e3))));
    }
    else
    {
        t.nextAvail = now;
    }
    ArmRto(t);
    return p;
}

void
AggregationWorker::ArmRto(Tree& t)
{
    if (!t.rto->timer.IsPending() && t.una < t.nxt)
    {
        t.rto->timer.Schedule(m_rtoTime);
    }
}

void
AggregationWorker::OnRto(uint32_t i)
{
    Tree& t = m_trees[i];
    if (t.una >= t.nxt)
    {
        return;
    }
    m_stats.timeouts++;
    NS_LOG_DEBUG("job " << m_jobId << " tree " << t.cfg.treeId << " timeout at " << t.una);
    t.ops->Advance(t.cc, Simulator::Now());
    t.ops->OnTimeout(t.cc, Simulator::Now());
    TraceCc(t);
    for (uint32_t s = t.una; s < t.nxt; ++s)
    {
        Chunk& c = t.chunks[s - t.una];
        if (!c.received && !c.queuedRetx)
        {
            c.queuedRetx = true;
            t.retx.push_back(s);
        }
    }
    ArmRto(t);
    TrySend();
}

void
AggregationWorker::Receive(Ptr<const Packet> p, const AggregationStackHeader& h)
{
    auto it = m_treeIndex.find(h.agg.treeId);
    if (it == m_treeIndex.end())
    {
        return;
    }
    Tree& t = m_trees[it->second];
    uint32_t seq = h.agg.seq;
    if (seq < t.una || seq >= t.nxt || t.chunks[seq - t.una].received)
    {
        m_stats.duplicates++;
        return;
    }
    Time now = Simulator::Now();
    Chunk& c = t.chunks[seq - t.una];
    c.received = true;
    bool marked = h.ecn == 3 || h.agg.GetEcnOr();
    m_stats.results++;
    if (marked)
    {
        m_stats.markedResults++;
        NS_LOG_LOGIC("job " << m_jobId << " tree " << t.cfg.treeId << " marked result " << seq
                            << " ce " << (h.ecn == 3) << " ecn-or " << h.agg.GetEcnOr() << " rate "
                            << t.cc.rate);
    }
    t.ops->Advance(t.cc, now);
    t.ops->OnResult(t.cc, marked, now);
    TraceCc(t);
    auto pit = m_posts.find(c.post);
    if (pit != m_posts.end())
    {
        PostRec& rec = pit->second;
        if (rec.hasValues)
        {
            std::vector<uint32_t> w = AggregationStackHeader::ReadValues(*p, h);
            for (uint32_t k = 0; k < w.size() && k < c.elements; ++k)
            {
                rec.result[c.offset + k] = w[k];
            }
        }
        if (--rec.remaining == 0)
        {
            uint64_t id = pit->first;
            PostRec done = std::move(rec);
            m_posts.erase(pit);
            m_postAt.erase(done.firstChunk);
            std::vector<float> sum;
            if (done.hasValues)
            {
                sum = AggregationValues::ToFloats(done.result, m_type, m_scaleExponent);
            }
            m_postTrace(id, done.elements, done.posted, now);
            if (!done.cb.IsNull())
            {
                done.cb(id, sum);
            }
        }
    }
    bool progress = false;
    while (!t.chunks.empty() && t.chunks.front().received && t.una < t.nxt)
    {
        t.chunks.pop_front();
        t.una++;
        progress = true;
    }
    if (progress)
    {
        // Cancelled when every chunk has its result: the timer's queued expiry is then inert
        // (ReusableTimer), so a session ends at the last result, not a timeout later.
        t.rto->timer.Cancel();
        ArmRto(t);
    }
    TrySend();
}

} // namespace ns3
