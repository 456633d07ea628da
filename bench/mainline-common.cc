/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mainline-common.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

namespace ns3
{
namespace bench
{

namespace
{
/// Builds links: one /30 subnet per link, RED with ECN on both ends.
class LinkBuilder
{
  public:
    explicit LinkBuilder(const MainlineLinkParams& lp)
    {
        m_p2p.SetDeviceAttribute("DataRate", DataRateValue(lp.rate));
        m_p2p.SetChannelAttribute("Delay", TimeValue(lp.delay));
        m_tc.SetRootQueueDisc("ns3::RedQueueDisc",
                              "MaxSize",
                              QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, lp.redLimit)),
                              "MinTh",
                              DoubleValue(lp.redMinTh),
                              "MaxTh",
                              DoubleValue(lp.redMaxTh),
                              "LInterm",
                              DoubleValue(1.0 / lp.redMaxP),
                              "QW",
                              DoubleValue(1.0),
                              "UseEcn",
                              BooleanValue(true),
                              "LinkBandwidth",
                              DataRateValue(lp.rate),
                              "LinkDelay",
                              TimeValue(lp.delay));
        m_addr.SetBase("10.0.0.0", "255.255.255.252");
    }

    /// Connect a and b; \return the interfaces (a's, then b's)
    Ipv4InterfaceContainer Connect(Ptr<Node> a, Ptr<Node> b)
    {
        NetDeviceContainer d = m_p2p.Install(a, b);
        m_tc.Install(d);
        Ipv4InterfaceContainer ifs = m_addr.Assign(d);
        m_addr.NewNetwork();
        return ifs;
    }

  private:
    PointToPointHelper m_p2p;
    TrafficControlHelper m_tc;
    Ipv4AddressHelper m_addr;
};
} // namespace

void
MainlineDefaults()
{
    Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(true));
}

MainlineTopology
BuildMainlineDumbbell(uint32_t nLeft, uint32_t nRight, const MainlineLinkParams& lp)
{
    MainlineTopology t;
    t.switches.Create(2);
    t.hosts.Create(nLeft + nRight);
    InternetStackHelper stack;
    stack.Install(t.switches);
    stack.Install(t.hosts);
    LinkBuilder lb(lp);
    for (uint32_t i = 0; i < nLeft + nRight; ++i)
    {
        Ipv4InterfaceContainer ifs = lb.Connect(t.hosts.Get(i), t.switches.Get(i < nLeft ? 0 : 1));
        t.hostAddr.push_back(ifs.GetAddress(0));
        t.links++;
    }
    lb.Connect(t.switches.Get(0), t.switches.Get(1));
    t.links++;
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    return t;
}

MainlineTopology
BuildMainlineFatTree(uint32_t k, const MainlineLinkParams& lp)
{
    const uint32_t half = k / 2;
    MainlineTopology t;
    NodeContainer edge;
    NodeContainer agg;
    NodeContainer core;
    edge.Create(k * half);
    agg.Create(k * half);
    core.Create(half * half);
    t.switches.Add(edge);
    t.switches.Add(agg);
    t.switches.Add(core);
    t.hosts.Create(k * half * half);
    InternetStackHelper stack;
    stack.Install(t.switches);
    stack.Install(t.hosts);
    t.hostAddr.resize(t.hosts.GetN());
    LinkBuilder lb(lp);
    for (uint32_t pod = 0; pod < k; ++pod)
    {
        for (uint32_t e = 0; e < half; ++e)
        {
            Ptr<Node> sw = edge.Get(pod * half + e);
            for (uint32_t h = 0; h < half; ++h)
            {
                uint32_t host = (pod * half + e) * half + h;
                t.hostAddr[host] = lb.Connect(t.hosts.Get(host), sw).GetAddress(0);
                t.links++;
            }
            for (uint32_t a = 0; a < half; ++a)
            {
                lb.Connect(sw, agg.Get(pod * half + a));
                t.links++;
            }
        }
        for (uint32_t a = 0; a < half; ++a)
        {
            for (uint32_t c = 0; c < half; ++c)
            {
                lb.Connect(agg.Get(pod * half + a), core.Get(a * half + c));
                t.links++;
            }
        }
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    return t;
}

TypeId
EcnUdpSender::GetTypeId()
{
    static TypeId tid = TypeId("ns3::bench::EcnUdpSender")
                            .SetParent<Application>()
                            .SetGroupName("MlnetBench")
                            .AddConstructor<EcnUdpSender>();
    return tid;
}

void
EcnUdpSender::Setup(Ipv4Address dst,
                    uint16_t dport,
                    uint16_t sport,
                    DataRate rate,
                    uint32_t payload)
{
    m_dst = dst;
    m_dport = dport;
    m_sport = sport;
    m_rate = rate;
    m_payload = payload;
}

uint64_t
EcnUdpSender::GetPacketsSent() const
{
    return m_sent;
}

void
EcnUdpSender::StartApplication()
{
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_sport));
    m_socket->Connect(InetSocketAddress(m_dst, m_dport));
    m_socket->SetIpTos(0x02); // ECT(0); after Connect, which overwrites it
    SendNext();
}

void
EcnUdpSender::StopApplication()
{
    m_event.Cancel();
    if (m_socket)
    {
        m_socket->Close();
    }
}

void
EcnUdpSender::SendNext()
{
    m_socket->Send(Create<Packet>(m_payload));
    m_sent++;
    m_event = Simulator::Schedule(m_rate.CalculateBytesTxTime(m_payload + 28),
                                  &EcnUdpSender::SendNext,
                                  this);
}

Ptr<Application>
InstallMainlineSource(Ptr<Node> src,
                      Ipv4Address dst,
                      uint16_t sport,
                      DataRate rate,
                      uint32_t payload)
{
    Ptr<EcnUdpSender> app = CreateObject<EcnUdpSender>();
    app->Setup(dst, 9, sport, rate, payload);
    src->AddApplication(app);
    app->SetStartTime(Seconds(0));
    return app;
}

Ptr<Application>
InstallMainlineSink(Ptr<Node> host)
{
    PacketSinkHelper h("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9));
    return h.Install(host).Get(0);
}

uint64_t
MainlineSinkBytes(Ptr<Application> sink)
{
    return DynamicCast<PacketSink>(sink)->GetTotalRx();
}

MainlineQueueTotals
SumQueueDiscStats()
{
    MainlineQueueTotals s;
    for (auto it = NodeList::Begin(); it != NodeList::End(); ++it)
    {
        Ptr<TrafficControlLayer> tc = (*it)->GetObject<TrafficControlLayer>();
        if (!tc)
        {
            continue;
        }
        for (uint32_t i = 0; i < (*it)->GetNDevices(); ++i)
        {
            Ptr<QueueDisc> qd = tc->GetRootQueueDiscOnDevice((*it)->GetDevice(i));
            if (qd)
            {
                const QueueDisc::Stats& st = qd->GetStats();
                s.drops += st.nTotalDroppedPackets;
                s.ecnMarks += st.nTotalMarkedPackets;
            }
        }
    }
    return s;
}

} // namespace bench
} // namespace ns3
