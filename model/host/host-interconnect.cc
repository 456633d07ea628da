/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "host-interconnect.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/fabric-net-device.h"
#include "ns3/flow-key.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/pfc-header.h"
#include "ns3/rdma-nic.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostInterconnect");
NS_OBJECT_ENSURE_REGISTERED(HostInterconnect);

namespace
{
/// Base of the I/O virtual addresses of the receive buffers (page-aligned for every size).
const uint64_t kIovaBase = uint64_t(1) << 32;
} // namespace

TypeId
HostInterconnect::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HostInterconnect")
            .SetParent<Object>()
            .SetGroupName("Mlnet")
            .AddConstructor<HostInterconnect>()
            .AddAttribute("Enabled",
                          "Put the host path between the NIC and memory (false: the NIC "
                          "behaves exactly as without a host model)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HostInterconnect::m_enabled),
                          MakeBooleanChecker())
            .AddAttribute("RxBufferBytes",
                          "NIC receive buffer in bytes (ConnectX-class NICs: about 1 MiB)",
                          UintegerValue(1 << 20),
                          MakeUintegerAccessor(&HostInterconnect::m_bufferBytes),
                          MakeUintegerChecker<uint64_t>(4096, uint64_t(1) << 32))
            .AddAttribute("PcieGeneration",
                          "PCIe generation, 1..6 (Gen3: 100G NICs)",
                          UintegerValue(3),
                          MakeUintegerAccessor(&HostInterconnect::m_pcieGen),
                          MakeUintegerChecker<uint32_t>(1, 6))
            .AddAttribute("PcieLanes",
                          "PCIe lanes: 1, 2, 4, 8, 16 or 32",
                          UintegerValue(16),
                          MakeUintegerAccessor(&HostInterconnect::m_pcieLanes),
                          MakeUintegerChecker<uint32_t>(1, 32))
            .AddAttribute("MaxPayloadSize",
                          "PCIe maximum payload size in bytes, a power of two in [128, 4096] "
                          "(256: the common server setting, Neugebauer et al. SIGCOMM 2018)",
                          UintegerValue(256),
                          MakeUintegerAccessor(&HostInterconnect::m_mps),
                          MakeUintegerChecker<uint32_t>(128, 4096))
            .AddAttribute("TlpOverhead",
                          "Bytes added per TLP: header, sequence, LCRC, framing (24 for a "
                          "64-bit-address write, Neugebauer et al. SIGCOMM 2018)",
                          UintegerValue(24),
                          MakeUintegerAccessor(&HostInterconnect::m_tlpOverhead),
                          MakeUintegerChecker<uint32_t>(0, 64))
            .AddAttribute("WriteCredits",
                          "DMA write requests (cache lines) in flight between the root "
                          "complex and memory (credit-based flow control, hostCC SIGCOMM 2023)",
                          UintegerValue(128),
                          MakeUintegerAccessor(&HostInterconnect::m_writeCredits),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("ReadRequests",
                          "DMA read requests in flight on the transmit path (PCIe tags)",
                          UintegerValue(64),
                          MakeUintegerAccessor(&HostInterconnect::m_readRequests),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("ReadRequestBytes",
                          "Bytes per DMA read request (maximum read request size)",
                          UintegerValue(512),
                          MakeUintegerAccessor(&HostInterconnect::m_readRequestBytes),
                          MakeUintegerChecker<uint32_t>(64, 4096))
            .AddAttribute("IoLatency",
                          "Fixed part of a DMA request's latency (root complex to memory "
                          "controller and back), besides the memory access itself",
                          TimeValue(NanoSeconds(250)),
                          MakeTimeAccessor(&HostInterconnect::m_ioLatency),
                          MakeTimeChecker(Time(0), MicroSeconds(100)))
            .AddAttribute("Iommu",
                          "Translate DMA addresses through the IOMMU (IOTLB)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HostInterconnect::m_iommu),
                          MakeBooleanChecker())
            .AddAttribute("IotlbEntries",
                          "Translations the IOTLB holds (LRU)",
                          UintegerValue(64),
                          MakeUintegerAccessor(&HostInterconnect::m_iotlbEntries),
                          MakeUintegerChecker<uint32_t>(1, 1u << 20))
            .AddAttribute("PageSize",
                          "IOMMU page size in bytes, a power of two >= 4096 (4 KiB; 2 MiB huge "
                          "pages)",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&HostInterconnect::m_pageBytes),
                          MakeUintegerChecker<uint64_t>(4096, uint64_t(1) << 30))
            .AddAttribute("RxBufferPerQp",
                          "Bytes of receive buffer per queue pair (written cyclically; the "
                          "IOTLB working set is active QPs x its pages)",
                          UintegerValue(64 * 1024),
                          MakeUintegerAccessor(&HostInterconnect::m_perQpBytes),
                          MakeUintegerChecker<uint64_t>(4096, uint64_t(1) << 32))
            .AddAttribute("PageWalkAccesses",
                          "Memory accesses per IOTLB miss at the loaded memory latency (1: "
                          "the leaf entry; the upper levels are in the page-walk caches)",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&HostInterconnect::m_walkAccesses),
                          MakeDoubleChecker<double>(0.0, 8.0))
            .AddAttribute("MemoryBandwidth",
                          "Sustainable memory bandwidth in bit/s (600e9: about 80% of four "
                          "DDR4-2933 channels, 4 x 23.5 GB/s)",
                          DoubleValue(600e9),
                          MakeDoubleAccessor(&HostInterconnect::m_memBandwidth),
                          MakeDoubleChecker<double>(1e9, 1e14))
            .AddAttribute("MemoryIdleLatency",
                          "Unloaded memory access latency",
                          TimeValue(NanoSeconds(80)),
                          MakeTimeAccessor(&HostInterconnect::m_memIdle),
                          MakeTimeChecker(NanoSeconds(1), MicroSeconds(100)))
            .AddAttribute("MemoryQueueingScale",
                          "Service time of the M/D/1 loaded-latency term (latency at 90% load "
                          "= idle + 4.5 x this)",
                          TimeValue(NanoSeconds(50)),
                          MakeTimeAccessor(&HostInterconnect::m_memScale),
                          MakeTimeChecker(Time(0), MicroSeconds(100)))
            .AddAttribute("MemoryMaxUtilization",
                          "Utilisation at which the loaded-latency curve is capped, (0, 1)",
                          DoubleValue(0.98),
                          MakeDoubleAccessor(&HostInterconnect::m_memMaxUtil),
                          MakeDoubleChecker<double>(0.01, 0.999))
            .AddAttribute("MemoryAppDemand",
                          "Memory bandwidth the co-located application asks for, fraction of "
                          "MemoryBandwidth in [0, 1] (can change during the run)",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&HostInterconnect::SetMemoryAppDemand,
                                             &HostInterconnect::GetMemoryAppDemand),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("Pfc",
                          "Full NIC buffer: pause the upstream link (true) or drop (false)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&HostInterconnect::m_pfc),
                          MakeBooleanChecker())
            .AddAttribute("PfcHeadroom",
                          "Bytes kept free above the pause threshold (0: 2 x link BDP + 2 "
                          "frames, as the switch)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&HostInterconnect::m_pfcHeadroom),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("PfcResumeOffset",
                          "Resume when the occupancy is this many bytes below the pause "
                          "threshold (0: two maximum frames)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&HostInterconnect::m_pfcResumeOffset),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("PfcPauseQuanta",
                          "Pause time of PAUSE frames, 512-bit quanta",
                          UintegerValue(65535),
                          MakeUintegerAccessor(&HostInterconnect::m_pauseQuanta),
                          MakeUintegerChecker<uint16_t>(1, 65535))
            .AddAttribute("TransmitPath",
                          "Gate the NIC's sending on the DMA read rate of the host path",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HostInterconnect::m_txPath),
                          MakeBooleanChecker())
            .AddAttribute("HostCcMarking",
                          "hostCC response: CE-mark arriving ECN-capable packets while the "
                          "host congestion signal is above the threshold",
                          BooleanValue(false),
                          MakeBooleanAccessor(&HostInterconnect::m_ccMarking),
                          MakeBooleanChecker())
            .AddAttribute("HostCcThrottling",
                          "hostCC response: throttle the memory application in levels while "
                          "the signal is above the threshold",
                          BooleanValue(false),
                          MakeBooleanAccessor(&HostInterconnect::m_ccThrottling),
                          MakeBooleanChecker())
            .AddAttribute("HostCcThreshold",
                          "Host congestion when the EWMA of the write-credit occupancy (the "
                          "IIO occupancy hostCC reads: requests in flight / WriteCredits, "
                          "about 0.5 at 100 Gb/s without contention) exceeds this fraction",
                          DoubleValue(0.7),
                          MakeDoubleAccessor(&HostInterconnect::m_ccThreshold),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("HostCcMarkBytes",
                          "hostCC marking also needs this many bytes in the NIC buffer (a "
                          "backlog, not only a busy path)",
                          UintegerValue(64 * 1024),
                          MakeUintegerAccessor(&HostInterconnect::m_ccMarkBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("HostCcTarget",
                          "Network bandwidth target of the throttle, fraction of the NIC's "
                          "line rate: throttle more while host-congested and below it, less "
                          "when it is met or no traffic arrives",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&HostInterconnect::m_ccTarget),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("HostCcGain",
                          "EWMA gain of the host congestion signal, (0, 1]",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&HostInterconnect::m_ccGain),
                          MakeDoubleChecker<double>(1e-6, 1.0))
            .AddAttribute("HostCcInterval",
                          "Control interval of the throttle (hostCC reacts at sub-RTT "
                          "granularity, about 10 us)",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&HostInterconnect::m_ccInterval),
                          MakeTimeChecker(NanoSeconds(100), Seconds(1)))
            .AddAttribute("HostCcLevels",
                          "Throttle levels: level k lets the application use 1 - k/L of its "
                          "demand (at most L-1)",
                          UintegerValue(10),
                          MakeUintegerAccessor(&HostInterconnect::m_ccLevels),
                          MakeUintegerChecker<uint32_t>(2, 1000))
            .AddTraceSource("BufferOccupancy",
                            "Bytes in the NIC receive buffer",
                            MakeTraceSourceAccessor(&HostInterconnect::m_occupancy),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("IotlbHitRate",
                            "IOTLB hits / lookups so far, after each lookup",
                            MakeTraceSourceAccessor(&HostInterconnect::m_hitRate),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("ThrottleLevel",
                            "Memory-application throttle level (hostCC)",
                            MakeTraceSourceAccessor(&HostInterconnect::m_levelTrace),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Utilization",
                            "At each DMA write: (PCIe utilisation, memory-bus utilisation)",
                            MakeTraceSourceAccessor(&HostInterconnect::m_utilTrace),
                            "ns3::HostInterconnect::UtilizationTracedCallback")
            .AddTraceSource("DmaWrite",
                            "A packet is in memory: (payload bytes, arrival-to-memory time, "
                            "the host queueing delay)",
                            MakeTraceSourceAccessor(&HostInterconnect::m_dmaTrace),
                            "ns3::HostInterconnect::DmaTracedCallback")
            .AddTraceSource("OperatingPoint",
                            "The operating point was solved again (Configure, Attach, a new "
                            "memory demand or throttle level): (DMA write rate, DMA read rate), "
                            "bit/s of payload",
                            MakeTraceSourceAccessor(&HostInterconnect::m_opTrace),
                            "ns3::HostInterconnect::OperatingTracedCallback")
            .AddTraceSource("HostDrop",
                            "A packet was dropped: the NIC buffer was full",
                            MakeTraceSourceAccessor(&HostInterconnect::m_dropTrace),
                            "ns3::HostInterconnect::DropTracedCallback");
    return tid;
}

HostInterconnect::HostInterconnect() = default;

HostInterconnect::~HostInterconnect() = default;

void
HostInterconnect::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_dma.Cancel();
    m_refresh.Cancel();
    m_ctrl.Cancel();
    m_queue.clear();
    if (m_nic)
    {
        m_nic->SetHostPath(RdmaNic::HostReceiveHook(), RdmaNic::HostTransmitHook());
    }
    m_nic = nullptr;
    m_dev = nullptr;
    Object::DoDispose();
}

void
HostInterconnect::Configure()
{
    NS_LOG_FUNCTION(this);
    HostPathTiming::Config cfg;
    cfg.writeCredits = m_writeCredits;
    cfg.ioLatency = m_ioLatency.GetSeconds();
    cfg.walkAccesses = m_walkAccesses;
    cfg.readRequests = m_readRequests;
    cfg.readRequestBytes = m_readRequestBytes;
    m_timing = std::make_unique<HostPathTiming>(
        PcieLinkModel(m_pcieGen, m_pcieLanes, m_mps, m_tlpOverhead),
        MemoryBusModel(m_memBandwidth,
                       m_memIdle.GetSeconds(),
                       m_memScale.GetSeconds(),
                       m_memMaxUtil),
        cfg);
    m_iotlb = std::make_unique<Iotlb>(m_iotlbEntries, m_pageBytes);
    m_qpSpan = (m_perQpBytes + m_pageBytes - 1) / m_pageBytes * m_pageBytes;
    m_missCache.clear();
    Recompute();
}

void
HostInterconnect::Attach(Ptr<RdmaNic> nic)
{
    NS_LOG_FUNCTION(this << nic);
    if (!m_enabled)
    {
        return;
    }
    if (!nic || !nic->GetDevice())
    {
        throw std::invalid_argument("HostInterconnect::Attach: the RDMA NIC must be bound to a "
                                    "device");
    }
    Configure();
    m_nic = nic;
    m_dev = nic->GetDevice();
    // PFC thresholds, as the switch MMU sizes its headroom: 2 x BDP + 2 maximum frames.
    const uint64_t maxFrame = m_dev->GetMtu() + 38;
    uint64_t headroom = m_pfcHeadroom;
    if (headroom == 0)
    {
        double bdp = m_dev->GetDataRate().GetBitRate() * m_dev->GetDelay().GetSeconds() / 8.0;
        headroom = uint64_t(2 * bdp) + 2 * maxFrame + 84;
    }
    uint64_t resumeOffset = m_pfcResumeOffset == 0 ? 2 * maxFrame : m_pfcResumeOffset;
    if (m_pfc && headroom + resumeOffset >= m_bufferBytes)
    {
        throw std::invalid_argument(
            "HostInterconnect: RxBufferBytes " + std::to_string(m_bufferBytes) +
            " must exceed the PFC headroom plus resume offset (" +
            std::to_string(headroom + resumeOffset) + " bytes) when Pfc is on");
    }
    m_pauseAt = m_bufferBytes - headroom;
    m_resumeAt = m_pauseAt - resumeOffset;
    m_pauseDuration = m_dev->GetDataRate().CalculateBytesTxTime(uint64_t(m_pauseQuanta) *
                                                                PfcHeader::kBitsPerQuantum / 8);
    nic->SetHostPath(MakeCallback(&HostInterconnect::Receive, this),
                     m_txPath ? MakeCallback(&HostInterconnect::TransmitReady, this)
                              : RdmaNic::HostTransmitHook());
}

bool
HostInterconnect::IsActive() const
{
    return bool(m_nic);
}

void
HostInterconnect::SetMemoryAppDemand(double fraction)
{
    NS_LOG_FUNCTION(this << fraction);
    if (!(fraction >= 0.0 && fraction <= 1.0))
    {
        throw std::invalid_argument("HostInterconnect: MemoryAppDemand " +
                                    std::to_string(fraction) + " out of range [0, 1]");
    }
    m_demand = fraction;
    if (m_timing)
    {
        Recompute();
    }
}

double
HostInterconnect::GetMemoryAppDemand() const
{
    return m_demand;
}

const HostPathStats&
HostInterconnect::GetStats() const
{
    return m_stats;
}

uint64_t
HostInterconnect::GetBufferBytes() const
{
    return m_occupancy;
}

double
HostInterconnect::GetIotlbHitRate() const
{
    return m_iotlb ? m_iotlb->GetHitRate() : 0.0;
}

HostPathTiming::Operating
HostInterconnect::GetOperatingPoint() const
{
    return m_op;
}

const HostPathTiming&
HostInterconnect::GetTiming() const
{
    if (!m_timing)
    {
        throw std::invalid_argument("HostInterconnect::GetTiming: not configured (call Attach or "
                                    "Configure first)");
    }
    return *m_timing;
}

double
HostInterconnect::GetAppLoad() const
{
    return m_demand * (1.0 - double(m_level) / m_ccLevels) * m_memBandwidth;
}

double
HostInterconnect::GetStreamWriteRate(uint32_t flows, uint32_t writeBytes) const
{
    if (!m_timing)
    {
        throw std::invalid_argument("HostInterconnect::GetStreamWriteRate: not configured "
                                    "(Attach or Configure first)");
    }
    if (flows < 1)
    {
        throw std::invalid_argument(
            "HostInterconnect::GetStreamWriteRate: flows 0 out of range (>= 1)");
    }
    if (!m_iommu)
    {
        return m_op.writeRate;
    }
    if (2 * uint64_t(flows) <= m_iotlbEntries)
    {
        return m_timing->MissLimitedRate(
            Iotlb::CyclicMissesPerByte(m_iotlbEntries, m_pageBytes, flows, m_perQpBytes),
            m_op);
    }
    if (writeBytes < 1 || writeBytes > m_perQpBytes)
    {
        throw std::invalid_argument("HostInterconnect::GetStreamWriteRate: writeBytes " +
                                    std::to_string(writeBytes) + " out of range [1, " +
                                    std::to_string(m_perQpBytes) + "] (RxBufferPerQp)");
    }
    auto [it, fresh] = m_missCache.emplace(std::make_pair(flows, writeBytes), 0.0);
    if (fresh)
    {
        it->second = Iotlb::InterleavedMissesPerByte(m_iotlbEntries,
                                                     m_pageBytes,
                                                     flows,
                                                     m_perQpBytes,
                                                     writeBytes);
    }
    return m_timing->MissLimitedRate(it->second, m_op);
}

double
HostInterconnect::CreditOccupancy(double rate) const
{
    return std::min(1.0, rate / m_op.creditRate);
}

uint32_t
HostInterconnect::NextThrottleLevel(uint32_t level,
                                    double occupancy,
                                    double rateEwma,
                                    double rate,
                                    double lineRate) const
{
    // hostCC's host-local response: more throttling while host-congested and the network
    // traffic is below its target; less once the host is not congested and the target is met
    // (or no traffic arrives); otherwise hold.
    const double target = m_ccTarget * lineRate;
    const bool congested = occupancy > m_ccThreshold;
    if (congested && rateEwma < target)
    {
        return std::min(level + 1, m_ccLevels - 1);
    }
    if (level > 0 && !congested && (rateEwma >= target || rate == 0))
    {
        return level - 1;
    }
    return level;
}

void
HostInterconnect::SetThrottleLevel(uint32_t level)
{
    if (level >= m_ccLevels)
    {
        throw std::invalid_argument("HostInterconnect: throttle level " + std::to_string(level) +
                                    " out of range [0, " + std::to_string(m_ccLevels - 1) +
                                    "] (HostCcLevels - 1)");
    }
    if (level == m_level)
    {
        return;
    }
    m_level = level;
    m_levelTrace = level;
    m_stats.throttleLevel = level;
    m_stats.maxThrottleLevel = std::max(m_stats.maxThrottleLevel, level);
    if (m_timing)
    {
        Recompute();
    }
}

uint32_t
HostInterconnect::GetThrottleLevel() const
{
    return m_level;
}

void
HostInterconnect::Recompute()
{
    m_op = m_timing->Solve(GetAppLoad());
    m_opTrace(m_op.writeRate, m_op.readRate);
}

void
HostInterconnect::Receive(FabricFrame f, uint32_t qp, uint32_t payload)
{
    const uint32_t size = f.GetSize();
    m_stats.rxPackets++;
    m_stats.rxBytes += size;
    FlowKey key;
    key.Parse(f);
    if (m_occupancy + size > m_bufferBytes)
    {
        m_stats.dropPackets++;
        m_stats.dropBytes += size;
        if (!m_dropTrace.IsEmpty())
        {
            m_dropTrace(f.GetPacket());
        }
        NS_LOG_DEBUG("host drop, buffer " << m_occupancy << " bytes");
        return;
    }
    const bool respond = m_ccMarking || m_ccThrottling;
    if (respond)
    {
        if (m_ccMarking && m_ewma > m_ccThreshold && m_occupancy >= m_ccMarkBytes &&
            (key.ecn == 1 || key.ecn == 2))
        {
            f.SetEcnCe();
            m_stats.ceMarked++;
        }
        if (m_ctrl.IsExpired())
        {
            m_ctrl = Simulator::Schedule(m_ccInterval, &HostInterconnect::Control, this);
        }
    }
    m_classes |= uint8_t(1u << (key.dscp & 7));
    m_queue.push_back(Entry{std::move(f), qp, payload, Simulator::Now()});
    m_occupancy = m_occupancy + size;
    m_stats.maxBufferBytes = std::max<uint64_t>(m_stats.maxBufferBytes, m_occupancy);
    if (m_pfc && !m_pausing && m_occupancy > m_pauseAt)
    {
        SendPause();
    }
    if (m_dma.IsExpired())
    {
        StartDma();
    }
}

void
HostInterconnect::StartDma()
{
    const Entry& e = m_queue.front();
    uint32_t misses = 0;
    if (m_iommu)
    {
        if (e.qp >= m_qpOffset.size())
        {
            m_qpOffset.resize(e.qp + 1, 0);
        }
        misses += m_iotlb->AccessCyclic(kIovaBase + uint64_t(e.qp) * m_qpSpan,
                                        m_perQpBytes,
                                        m_qpOffset[e.qp],
                                        e.payload);
        m_stats.iotlbHits = m_iotlb->GetHits();
        m_stats.iotlbMisses = m_iotlb->GetMisses();
        m_hitRate = m_iotlb->GetHitRate();
    }
    double t = m_timing->PacketTime(e.payload, misses, m_op) + m_carry;
    Time d = Seconds(t);
    m_carry = t - d.GetSeconds();
    m_dmaStart = Simulator::Now();
    if (!m_utilTrace.IsEmpty())
    {
        double pcie = t > 0 ? m_timing->GetPcie().TransferTime(e.payload) / t : 0.0;
        m_utilTrace(std::min(1.0, pcie), m_op.memUtil);
    }
    m_dma = Simulator::Schedule(d, &HostInterconnect::CompleteDma, this);
}

void
HostInterconnect::CompleteDma()
{
    Entry e = std::move(m_queue.front());
    m_queue.pop_front();
    const uint32_t size = e.frame.GetSize();
    Time now = Simulator::Now();
    m_occupancy = m_occupancy - size;
    m_stats.deliveredPackets++;
    m_stats.deliveredBytes += size;
    m_stats.dmaPayloadBytes += e.payload;
    m_stats.busyTime += now - m_dmaStart;
    Time delay = now - e.arrival;
    m_stats.queueDelaySumNs += double(delay.GetNanoSeconds());
    m_stats.maxQueueDelay = std::max(m_stats.maxQueueDelay, delay);
    m_dmaTrace(e.payload, delay);
    if (m_pausing)
    {
        MaybeResume();
    }
    if (!m_queue.empty())
    {
        StartDma();
    }
    m_nic->DeliverData(e.frame);
}

Time
HostInterconnect::TransmitReady(uint32_t payload)
{
    Time now = Simulator::Now();
    m_stats.txPayloadBytes += payload;
    m_txReady = std::max(now, m_txReady) + Seconds(double(payload) * 8.0 / m_op.readRate);
    return m_txReady;
}

void
HostInterconnect::Control()
{
    // Write credits in use over the last interval (Little's law: requests in flight = DMA rate
    // x request latency; the credit rate is all credits over that latency), as a fraction.
    double rate = (m_stats.dmaPayloadBytes - m_ccLastBytes) * 8.0 / m_ccInterval.GetSeconds();
    m_ccLastBytes = m_stats.dmaPayloadBytes;
    m_ewma = (1.0 - m_ccGain) * m_ewma + m_ccGain * CreditOccupancy(rate);
    m_rateEwma = (1.0 - m_ccGain) * m_rateEwma + m_ccGain * rate;
    if (m_ccThrottling)
    {
        SetThrottleLevel(NextThrottleLevel(m_level,
                                           m_ewma,
                                           m_rateEwma,
                                           rate,
                                           double(m_dev->GetDataRate().GetBitRate())));
    }
    if (!m_queue.empty() || m_level > 0 || m_ewma > 1e-3)
    {
        m_ctrl = Simulator::Schedule(m_ccInterval, &HostInterconnect::Control, this);
    }
}

void
HostInterconnect::SendPause()
{
    m_pausing = true;
    for (uint8_t c = 0; c < 8; ++c)
    {
        if ((m_classes >> c) & 1u)
        {
            m_dev->SendPfc(c, m_pauseQuanta);
            m_stats.pausesSent++;
        }
    }
    m_refresh.Cancel();
    m_refresh = Simulator::Schedule(m_pauseDuration / 2, &HostInterconnect::RefreshPause, this);
}

void
HostInterconnect::RefreshPause()
{
    if (!m_pausing)
    {
        return;
    }
    if (m_occupancy <= m_resumeAt)
    {
        MaybeResume();
        return;
    }
    SendPause();
}

void
HostInterconnect::MaybeResume()
{
    if (m_occupancy > m_resumeAt)
    {
        return;
    }
    m_pausing = false;
    m_refresh.Cancel();
    for (uint8_t c = 0; c < 8; ++c)
    {
        if ((m_classes >> c) & 1u)
        {
            m_dev->SendPfc(c, 0);
            m_stats.resumesSent++;
        }
    }
}

} // namespace ns3
