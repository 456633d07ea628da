/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-congestion-ops.h"

#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AggregationCongestionOps);
NS_OBJECT_ENSURE_REGISTERED(AggregationDctcp);
NS_OBJECT_ENSURE_REGISTERED(AggregationDcqcn);
NS_OBJECT_ENSURE_REGISTERED(AggregationFixedWindow);

TypeId
AggregationCongestionOps::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AggregationCongestionOps").SetParent<Object>().SetGroupName("Mlnet");
    return tid;
}

AggregationCongestionOps::~AggregationCongestionOps() = default;

void
AggregationCongestionOps::Advance(AggregationCcState& state, Time now)
{
}

void
AggregationCongestionOps::OnSent(AggregationCcState& state, uint32_t bytes, Time now)
{
}

void
AggregationCongestionOps::OnTimeout(AggregationCcState& state, Time now)
{
}

// ---------------------------------------------------------------------------------------------

TypeId
AggregationDctcp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AggregationDctcp")
            .SetParent<AggregationCongestionOps>()
            .SetGroupName("Mlnet")
            .AddConstructor<AggregationDctcp>()
            .AddAttribute("G",
                          "EWMA gain g of alpha (dimensionless), in (0, 1]",
                          DoubleValue(1.0 / 16),
                          MakeDoubleAccessor(&AggregationDctcp::m_g),
                          MakeDoubleChecker<double>(1e-6, 1.0))
            .AddAttribute("InitialAlpha",
                          "Initial alpha, in [0, 1]",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&AggregationDctcp::m_initialAlpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("InitialWindow",
                          "Initial window (chunks); 0 = the tree's slot pool (start at line rate)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&AggregationDctcp::m_initialWindow),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MinWindow",
                          "Smallest window (chunks), >= 1",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&AggregationDctcp::m_minWindow),
                          MakeDoubleChecker<double>(1.0));
    return tid;
}

AggregationDctcp::AggregationDctcp() = default;

std::string
AggregationDctcp::GetName() const
{
    return "AggregationDctcp";
}

double
AggregationDctcp::GetAlpha() const
{
    return m_alpha;
}

void
AggregationDctcp::Init(AggregationCcState& s, Time now)
{
    m_alpha = m_initialAlpha;
    s.cwnd =
        m_initialWindow == 0 ? double(s.maxWindow) : std::min<double>(m_initialWindow, s.maxWindow);
    s.cwnd = std::max(s.cwnd, m_minWindow);
    s.rate = s.lineRate;
    m_windowAcked = 0;
    m_windowMarked = 0;
    m_windowSize = s.cwnd;
}

void
AggregationDctcp::OnResult(AggregationCcState& s, bool marked, Time now)
{
    s.results++;
    m_windowAcked++;
    if (marked)
    {
        s.marked++;
        m_windowMarked++;
    }
    else
    {
        s.cwnd = std::min<double>(s.cwnd + 1.0 / s.cwnd, s.maxWindow);
    }
    if (double(m_windowAcked) >= m_windowSize)
    {
        // One window of results (about one round trip) observed.
        double f = double(m_windowMarked) / double(m_windowAcked);
        m_alpha = (1.0 - m_g) * m_alpha + m_g * f;
        if (m_windowMarked > 0)
        {
            s.cwnd = std::max(m_minWindow, s.cwnd * (1.0 - m_alpha / 2.0));
        }
        m_windowAcked = 0;
        m_windowMarked = 0;
        m_windowSize = std::max(1.0, s.cwnd);
    }
}

void
AggregationDctcp::OnTimeout(AggregationCcState& s, Time now)
{
    s.cwnd = std::max(m_minWindow, s.cwnd / 2.0);
    m_windowAcked = 0;
    m_windowMarked = 0;
    m_windowSize = std::max(1.0, s.cwnd);
}

// ---------------------------------------------------------------------------------------------

TypeId
AggregationDcqcn::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AggregationDcqcn")
            .SetParent<AggregationCongestionOps>()
            .SetGroupName("Mlnet")
            .AddConstructor<AggregationDcqcn>()
            .AddAttribute("CnpInterval",
                          "At most one congestion event (CNP) per interval from marked results",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&AggregationDcqcn::m_cnpInterval),
                          MakeTimeChecker(Time(0)));
    return tid;
}

AggregationDcqcn::AggregationDcqcn()
{
    m_factory.SetTypeId("ns3::Dcqcn");
}

AggregationDcqcn::~AggregationDcqcn() = default;

void
AggregationDcqcn::DoDispose()
{
    m_rp = nullptr;
    AggregationCongestionOps::DoDispose();
}

std::string
AggregationDcqcn::GetName() const
{
    return "AggregationDcqcn";
}

void
AggregationDcqcn::SetReactionPoint(const ObjectFactory& f)
{
    m_factory = f;
}

Ptr<RdmaCongestionOps>
AggregationDcqcn::GetReactionPoint() const
{
    return m_rp;
}

ObjectFactory
AggregationDcqcn::GetReactionPointFactory() const
{
    return m_factory;
}

void
AggregationDcqcn::Init(AggregationCcState& s, Time now)
{
    m_rp = m_factory.Create<RdmaCongestionOps>();
    m_rpState = RdmaCcState();
    m_rpState.lineRate = s.lineRate;
    m_rpState.rate = s.lineRate;
    m_rpState.targetRate = s.lineRate;
    m_rp->Init(m_rpState, now);
    s.cwnd = s.maxWindow;
    s.rate = m_rpState.rate;
    m_cnpSeen = false;
}

void
AggregationDcqcn::Advance(AggregationCcState& s, Time now)
{
    m_rp->Advance(m_rpState, now);
    s.rate = m_rpState.rate;
}

void
AggregationDcqcn::OnSent(AggregationCcState& s, uint32_t bytes, Time now)
{
    m_rpState.bytesSent += bytes;
    m_rp->OnSent(m_rpState, bytes, now);
    s.rate = m_rpState.rate;
}

void
AggregationDcqcn::OnResult(AggregationCcState& s, bool marked, Time now)
{
    s.results++;
    if (marked)
    {
        s.marked++;
        if (!m_cnpSeen || now - m_lastCnp >= m_cnpInterval)
        {
            m_cnpSeen = true;
            m_lastCnp = now;
            m_rp->OnCnp(m_rpState, now);
        }
    }
    s.rate = m_rpState.rate;
}

// ---------------------------------------------------------------------------------------------

TypeId
AggregationFixedWindow::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AggregationFixedWindow")
                            .SetParent<AggregationCongestionOps>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<AggregationFixedWindow>()
                            .AddAttribute("Window",
                                          "Window (chunks); 0 = the tree's slot pool",
                                          UintegerValue(0),
                                          MakeUintegerAccessor(&AggregationFixedWindow::m_window),
                                          MakeUintegerChecker<uint32_t>());
    return tid;
}

AggregationFixedWindow::AggregationFixedWindow() = default;

std::string
AggregationFixedWindow::GetName() const
{
    return "AggregationFixedWindow";
}

void
AggregationFixedWindow::Init(AggregationCcState& s, Time now)
{
    s.cwnd = m_window == 0 ? s.maxWindow : std::min(m_window, s.maxWindow);
    s.rate = s.lineRate;
}

void
AggregationFixedWindow::OnResult(AggregationCcState& s, bool marked, Time now)
{
    s.results++;
    if (marked)
    {
        s.marked++;
    }
}

} // namespace ns3
