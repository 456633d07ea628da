/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-device.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/pfc-header.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AggregationDevice");
NS_OBJECT_ENSURE_REGISTERED(AggregationDevice);

namespace
{
const uint32_t kFrameOverhead = 38;
const uint32_t kPauseFrameBytes = 84;
} // namespace

TypeId
AggregationDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AggregationDevice")
            .SetParent<Object>()
            .SetGroupName("Mlnet")
            .AddConstructor<AggregationDevice>()
            .AddAttribute("InputBufferBytes",
                          "Input buffer per side for contributions waiting for the adder "
                          "datapath (bytes); the device pauses the sender when the waiting "
                          "bytes pass this minus the PFC headroom of the side",
                          UintegerValue(1024 * 1024),
                          MakeUintegerAccessor(&AggregationDevice::m_inputBuffer),
                          MakeUintegerChecker<uint64_t>(1, uint64_t(1) << 32))
            .AddAttribute("BackPressure",
                          "Pause the sender with PFC when the input buffer fills (else drop)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&AggregationDevice::m_backPressure),
                          MakeBooleanChecker())
            .AddAttribute("PassThroughPauseBytes",
                          "Pause the sending side in a class when this many bytes of "
                          "pass-through traffic wait in that class (the far end paused the "
                          "device); resume at half of it",
                          UintegerValue(256 * 1024),
                          MakeUintegerAccessor(&AggregationDevice::m_passPause),
                          MakeUintegerChecker<uint64_t>(1, uint64_t(1) << 32))
            .AddAttribute("PauseQuanta",
                          "Pause time of the device's PAUSE frames (quanta of 512 bit times); "
                          "refreshed at half of it while needed",
                          UintegerValue(0xffff),
                          MakeUintegerAccessor(&AggregationDevice::m_pauseQuanta),
                          MakeUintegerChecker<uint16_t>(1, 0xffff))
            .AddAttribute("PassThroughPath",
                          "How pass-through frames and the engine's results share a port: "
                          "Bypass (PANAMA's datapath: the port's mux takes pass-through frames "
                          "and results in turn, frame by frame, so neither waits behind a "
                          "backlog of the other) or SharedFifo (one FIFO per class for both)",
                          EnumValue(AggregationDevice::BYPASS),
                          MakeEnumAccessor(&AggregationDevice::m_path),
                          MakeEnumChecker(AggregationDevice::BYPASS,
                                          "Bypass",
                                          AggregationDevice::SHARED_FIFO,
                                          "SharedFifo"))
            .AddAttribute(
                "Engine",
                "The aggregation engine (null: a new ns3::AggregationEngine)",
                PointerValue(),
                MakePointerAccessor(&AggregationDevice::SetEngine, &AggregationDevice::GetEngine),
                MakePointerChecker<AggregationEngine>())
            .AddTraceSource("InputBytes",
                            "Bytes waiting for the datapath changed: (side 0 switch / 1 link, "
                            "bytes)",
                            MakeTraceSourceAccessor(&AggregationDevice::m_inputTrace),
                            "ns3::AggregationDevice::InputTracedCallback")
            .AddTraceSource("Drop",
                            "An aggregation packet was dropped (input buffer full)",
                            MakeTraceSourceAccessor(&AggregationDevice::m_dropTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

AggregationDevice::AggregationDevice()
{
    m_engine = CreateObject<AggregationEngine>();
    for (uint8_t side = 0; side < 2; ++side)
    {
        Side& s = m_sides[side];
        for (uint8_t c = 0; c < 8; ++c)
        {
            SideTimer& t = s.refresh[c];
            t.device = this;
            t.side = side;
            t.cls = c;
            t.timer.Bind<SideTimer, &SideTimer::Refresh>(&t);
        }
        s.drain.device = this;
        s.drain.side = side;
        s.drain.timer.Bind<SideTimer, &SideTimer::Drain>(&s.drain);
    }
}

void
AggregationDevice::SetEngine(Ptr<AggregationEngine> engine)
{
    m_engine = engine ? engine : CreateObject<AggregationEngine>();
    if (m_sides[0].dev)
    {
        m_engine->SetEmitCallback(MakeCallback(&AggregationDevice::Emit, this));
    }
}

AggregationDevice::~AggregationDevice() = default;

void
AggregationDevice::DoDispose()
{
    for (Side& s : m_sides)
    {
        for (SideTimer& t : s.refresh)
        {
            t.timer.Cancel();
        }
        s.drain.timer.Cancel();
        if (s.dev)
        {
            s.dev->SetPortHandler(nullptr, 0);
        }
        if (s.dev)
        {
            s.dev->SetPullSource(nullptr);
        }
        s.dev = nullptr;
        s.waiting.clear();
        s.results.queue.clear();
        s.results.bytes = 0;
    }
    if (m_engine)
    {
        m_engine->Dispose();
    }
    m_engine = nullptr;
    Object::DoDispose();
}

void
AggregationDevice::SetPorts(Ptr<FabricNetDevice> switchSide, Ptr<FabricNetDevice> linkSide)
{
    m_sides[0].dev = switchSide;
    m_sides[1].dev = linkSide;
    for (uint8_t i = 0; i < 2; ++i)
    {
        m_sides[i].dev->SetPortHandler(this, i); // one virtual call per frame, no callbacks
        // BYPASS: the port takes results only when its class queues are empty (the pull
        // source is asked after them); an empty result queue costs the port nothing
        m_sides[i].dev->SetPullSource(&m_sides[i].results);
    }
    m_engine->SetEmitCallback(MakeCallback(&AggregationDevice::Emit, this));
}

Ptr<FabricNetDevice>
AggregationDevice::GetSwitchPort() const
{
    return m_sides[0].dev;
}

Ptr<FabricNetDevice>
AggregationDevice::GetLinkPort() const
{
    return m_sides[1].dev;
}

Ptr<AggregationEngine>
AggregationDevice::GetEngine() const
{
    return m_engine;
}

const AggregationDeviceStats&
AggregationDevice::GetStats() const
{
    return m_stats;
}

uint64_t
AggregationDevice::GetResultBytes(uint8_t side) const
{
    return m_sides.at(side).results.bytes;
}

uint64_t
AggregationDevice::Headroom(const Side& s) const
{
    // What arrives after a pause is sent: the round trip of the link plus a frame each way.
    double bdp = s.dev->GetDataRate().GetBitRate() * s.dev->GetDelay().GetSeconds() / 8.0;
    return uint64_t(2 * bdp) + 2 * (s.dev->GetMtu() + kFrameOverhead) + kPauseFrameBytes;
}

void
AggregationDevice::Validate() const
{
    for (const Side& s : m_sides)
    {
        if (!s.dev)
        {
            throw std::invalid_argument(m_engine->GetName() + ": ports not set");
        }
        uint64_t frame = s.dev->GetMtu() + kFrameOverhead;
        uint64_t room = m_backPressure ? Headroom(s) : 0;
        if (m_inputBuffer < room + frame)
        {
            throw std::invalid_argument(
                m_engine->GetName() + ": InputBufferBytes = " + std::to_string(m_inputBuffer) +
                " B is smaller than one packet (" + std::to_string(frame) +
                " B) plus the PFC headroom of the link (" + std::to_string(room) + " B)");
        }
    }
}

uint64_t
AggregationDevice::GetInputBytes(uint8_t side)
{
    Expire(m_sides[side]);
    return m_sides[side].bytes;
}

void
AggregationDevice::Expire(Side& s)
{
    Time now = Simulator::Now();
    uint64_t before = s.bytes;
    while (!s.waiting.empty() && s.waiting.front().first <= now)
    {
        s.bytes -= s.waiting.front().second;
        s.waiting.pop_front();
    }
    if (s.bytes != before && !m_inputTrace.IsEmpty())
    {
        m_inputTrace(uint8_t(&s - &m_sides[0]), s.bytes);
    }
}

bool
AggregationDevice::PortReceive(uint32_t port,
                               FabricNetDevice* /* dev */,
                               FabricFrame& f,
                               const FlowKey* key)
{
    const uint8_t side = uint8_t(port);
    uint8_t b[24];
    uint32_t n = f.CopyData(b, sizeof(b));
    uint32_t dst =
        n >= 20 ? (uint32_t(b[16]) << 24) | (uint32_t(b[17]) << 16) | (uint32_t(b[18]) << 8) | b[19]
                : 0;
    uint8_t cls = n >= 2 ? uint8_t((b[1] >> 2) & 0x7) : 0;
    AggregationStackHeader h;
    if (dst != m_engine->GetAddress().Get() || !AggregationStackHeader::Peek(*f.GetPacket(), h))
    {
        // Pass through, unchanged, in the same class, with the parsed headers it came with.
        m_stats.passThrough[side]++;
        Side& out = m_sides[1 - side];
        out.dev->Enqueue(f, cls, cls, key);
        if (out.dev->GetQueueBytes(cls) > m_passPause && !m_sides[side].passPaused[cls])
        {
            m_sides[side].passPaused[cls] = true;
            Pause(side, cls);
        }
        return true;
    }
    m_stats.aggregationRx++;
    Ptr<Packet> p = f.GetPacket();
    Side& s = m_sides[side];
    Expire(s);
    uint32_t size = p->GetSize();
    if (s.bytes + size > m_inputBuffer)
    {
        m_stats.drops++;
        m_dropTrace(p);
        NS_LOG_DEBUG(m_engine->GetName() << ": input buffer full, drop");
        return true;
    }
    Time now = Simulator::Now();
    Time leave = m_engine->Receive(p, h, side == 1);
    if (leave > now)
    {
        m_stats.waited++;
        s.waiting.emplace_back(leave, size);
        s.bytes += size;
        m_stats.maxInputBytes = std::max(m_stats.maxInputBytes, s.bytes);
        if (!m_inputTrace.IsEmpty())
        {
            m_inputTrace(side, s.bytes);
        }
        if (m_backPressure && !s.inputPaused[cls] && s.bytes + Headroom(s) > m_inputBuffer)
        {
            s.inputPaused[cls] = true;
            Pause(side, cls);
            CheckDrain(side);
        }
    }
    return true;
}

void
AggregationDevice::CheckDrain(uint8_t side)
{
    Side& s = m_sides[side];
    Expire(s);
    uint64_t frame = s.dev->GetMtu() + kFrameOverhead;
    uint64_t xoff = m_inputBuffer - std::min(m_inputBuffer, Headroom(s));
    uint64_t xon = xoff > 2 * frame ? xoff - 2 * frame : 0;
    bool any = false;
    for (bool p : s.inputPaused)
    {
        any = any || p;
    }
    if (!any)
    {
        return;
    }
    if (s.bytes <= xon)
    {
        for (uint8_t c = 0; c < 8; ++c)
        {
            if (s.inputPaused[c])
            {
                s.inputPaused[c] = false;
                if (!s.passPaused[c])
                {
                    Resume(side, c);
                }
            }
        }
        return;
    }
    // Wake up when enough has left the buffer (the queue is served in order).
    uint64_t remaining = s.bytes;
    Time at = Simulator::Now();
    for (const auto& w : s.waiting)
    {
        remaining -= w.second;
        at = w.first;
        if (remaining <= xon)
        {
            break;
        }
    }
    s.drain.timer.Schedule(at - Simulator::Now()); // replaces a pending check
}

void
AggregationDevice::PortDequeue(uint32_t port,
                               FabricFrame& /* f */,
                               uint8_t cls,
                               uint32_t /* meta */,
                               FlowKey* /* key */)
{
    const uint8_t side = uint8_t(port);
    // A pass-through frame leaves side `side`: the mux's next turn is a waiting result's.
    m_sides[side].results.turn = true;
    // A packet left side `side`: traffic into it comes from the other side.
    Side& from = m_sides[1 - side];
    if (from.passPaused[cls] && m_sides[side].dev->GetQueueBytes(cls) <= m_passPause / 2)
    {
        from.passPaused[cls] = false;
        if (!from.inputPaused[cls])
        {
            Resume(uint8_t(1 - side), cls);
        }
    }
}

void
AggregationDevice::Pause(uint8_t side, uint8_t cls)
{
    Side& s = m_sides[side];
    m_stats.pauses++;
    s.dev->SendPfc(cls, m_pauseQuanta);
    Time d = s.dev->GetDataRate().CalculateBytesTxTime(uint64_t(m_pauseQuanta) *
                                                       PfcHeader::kBitsPerQuantum / 8);
    s.refresh[cls].timer.Schedule(d / 2); // replaces a pending refresh
}

void
AggregationDevice::Refresh(uint8_t side, uint8_t cls)
{
    Side& s = m_sides[side];
    if (s.inputPaused[cls] || s.passPaused[cls])
    {
        Pause(side, cls);
    }
}

void
AggregationDevice::Resume(uint8_t side, uint8_t cls)
{
    Side& s = m_sides[side];
    s.refresh[cls].timer.Cancel();
    m_stats.resumes++;
    s.dev->SendPfc(cls, 0);
}

void
AggregationDevice::Emit(Ptr<Packet> p, bool linkSide)
{
    uint8_t b[2];
    p->CopyData(b, 2);
    uint8_t cls = uint8_t((b[1] >> 2) & 0x7);
    Side& s = m_sides[linkSide ? 1 : 0];
    m_stats.results++;
    if (m_path == SHARED_FIFO)
    {
        s.dev->Enqueue(p, cls, cls);
        return;
    }
    s.results.bytes += p->GetSize();
    s.results.queue.emplace_back(p, cls);
    m_stats.maxResultBytes = std::max(m_stats.maxResultBytes, s.results.bytes);
    s.dev->TriggerTransmit();
}

bool
AggregationDevice::ResultSource::PortPull(uint8_t pausedMask, FabricFrame& f, const FlowKey*& key)
{
    // The oldest result of a class the far end does not pause (results of one class leave in
    // order; a paused class does not block the others, as the port's class queues do not).
    for (auto it = queue.begin(); it != queue.end(); ++it)
    {
        if (!((pausedMask >> it->second) & 1u))
        {
            bytes -= it->first->GetSize();
            turn = false; // the next turn is the class queues'
            f = FabricFrame(it->first);
            key = nullptr; // the next switch parses it, as before
            queue.erase(it);
            return true;
        }
    }
    return false;
}

bool
AggregationDevice::ResultSource::MayPull() const
{
    return !queue.empty();
}

bool
AggregationDevice::ResultSource::PullFirst() const
{
    return turn && !queue.empty();
}

} // namespace ns3
