/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fluid-host.h"

#include "fluid-transport.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluidHost");
NS_OBJECT_ENSURE_REGISTERED(FluidHost);

TypeId
FluidHost::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FluidHost")
            .SetParent<Object>()
            .SetGroupName("Mlnet")
            .AddConstructor<FluidHost>()
            .AddTraceSource("ReceiveRate",
                            "The receive link's rate (NIC -> memory), bit/s of payload",
                            MakeTraceSourceAccessor(&FluidHost::m_rxRate),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("TransmitRate",
                            "The transmit link's rate (memory -> NIC), bit/s of payload",
                            MakeTraceSourceAccessor(&FluidHost::m_txRate),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

FluidHost::FluidHost() = default;
FluidHost::~FluidHost() = default;

void
FluidHost::DoDispose()
{
    if (m_host)
    {
        m_host->TraceDisconnectWithoutContext("OperatingPoint",
                                              MakeCallback(&FluidHost::OperatingChanged, this));
    }
    m_host = nullptr;
    m_net = nullptr;
    Object::DoDispose();
}

void
FluidHost::Install(Ptr<HostInterconnect> host, Ptr<FluidTransport> transport)
{
    NS_LOG_FUNCTION(this << host << transport);
    if (m_host)
    {
        throw std::invalid_argument("FluidHost::Install: already installed");
    }
    if (!host || !transport || !transport->GetFabric())
    {
        throw std::invalid_argument("FluidHost::Install: needs a HostInterconnect and a "
                                    "FluidTransport bound to a fluid fabric");
    }
    if (transport->GetHost())
    {
        throw std::invalid_argument("FluidHost::Install: the transport already has a host path");
    }
    if (transport->GetNConnections() > 0)
    {
        throw std::invalid_argument("FluidHost::Install: the transport has opened connections "
                                    "already (install the host path first: a connection is "
                                    "routed when it is opened)");
    }
    BooleanValue enabled;
    host->GetAttribute("Enabled", enabled);
    if (!enabled.Get())
    {
        throw std::invalid_argument("FluidHost::Install: the HostInterconnect is disabled "
                                    "(Enabled false): install no host path instead");
    }
    host->Configure();
    m_host = host;
    m_net = transport->GetFabric()->GetNetwork();
    UintegerValue mtu;
    transport->GetAttribute("Mtu", mtu);
    m_writeBytes = uint32_t(mtu.Get());
    UintegerValue perQp;
    host->GetAttribute("RxBufferPerQp", perQp);
    if (m_writeBytes > perQp.Get())
    {
        throw std::invalid_argument(
            "FluidHost::Install: the transport's Mtu " + std::to_string(m_writeBytes) +
            " bytes exceeds the host's RxBufferPerQp " + std::to_string(perQp.Get()) + " bytes");
    }
    m_wirePerPayload = transport->GetWirePerPayload();
    m_lineRate = double(transport->GetLineRate().GetBitRate());
    BooleanValue throttling;
    host->GetAttribute("HostCcThrottling", throttling);
    m_throttling = throttling.Get();
    const HostPathTiming::Operating op = host->GetOperatingPoint();
    m_rxRate = host->GetStreamWriteRate(1, m_writeBytes);
    m_rx = m_net->AddLink(Capacity(m_rxRate), Time(0));
    BooleanValue tx;
    host->GetAttribute("TransmitPath", tx);
    if (tx.Get())
    {
        m_txRate = op.readRate;
        m_tx = m_net->AddLink(Capacity(m_txRate), Time(0));
    }
    host->TraceConnectWithoutContext("OperatingPoint",
                                     MakeCallback(&FluidHost::OperatingChanged, this));
    transport->SetHost(this);
    NS_LOG_INFO("host " << transport->GetAddress() << ": receive link " << m_rx << " at "
                        << m_rxRate / 1e9 << " Gb/s, transmit link " << m_tx << " at "
                        << m_txRate / 1e9 << " Gb/s");
}

Ptr<HostInterconnect>
FluidHost::GetHostInterconnect() const
{
    return m_host;
}

int64_t
FluidHost::GetReceiveLink() const
{
    return m_rx;
}

int64_t
FluidHost::GetTransmitLink() const
{
    return m_tx;
}

uint32_t
FluidHost::GetActiveConnections() const
{
    return m_active;
}

double
FluidHost::GetReceiveRate() const
{
    return m_rxRate;
}

double
FluidHost::GetTransmitRate() const
{
    return m_txRate;
}

double
FluidHost::GetReceivedPayloadBytes() const
{
    return m_rx < 0 ? 0.0 : m_net->GetLinkBytes(uint32_t(m_rx)) / m_wirePerPayload;
}

double
FluidHost::GetTransmittedPayloadBytes() const
{
    return m_tx < 0 ? 0.0 : m_net->GetLinkBytes(uint32_t(m_tx)) / m_wirePerPayload;
}

double
FluidHost::Capacity(double rate) const
{
    return rate / 8.0 * m_wirePerPayload;
}

void
FluidHost::ConnectionStarted()
{
    ++m_active;
    Update();
}

void
FluidHost::ConnectionStopped()
{
    if (m_active == 0)
    {
        throw std::logic_error("FluidHost::ConnectionStopped: no connection is transmitting");
    }
    --m_active;
    Update();
}

void
FluidHost::OperatingChanged(double, double)
{
    if (!m_updating)
    {
        Update();
    }
}

void
FluidHost::Update()
{
    if (!m_host)
    {
        return;
    }
    m_updating = true;
    const uint32_t flows = std::max<uint32_t>(m_active, 1);
    if (m_throttling)
    {
        // hostCC's steady state: the lowest level at which its rule stops raising the level,
        // the DMA rate being the host path's (the bottleneck); level 0 without traffic.
        uint32_t level = 0;
        if (m_active > 0)
        {
            for (;;)
            {
                m_host->SetThrottleLevel(level);
                const double rate = m_host->GetStreamWriteRate(flows, m_writeBytes);
                const uint32_t next = m_host->NextThrottleLevel(level,
                                                                m_host->CreditOccupancy(rate),
                                                                rate,
                                                                rate,
                                                                m_lineRate);
                if (next <= level)
                {
                    break;
                }
                level = next;
            }
        }
        m_host->SetThrottleLevel(level);
    }
    m_updating = false;
    const double rx = m_host->GetStreamWriteRate(flows, m_writeBytes);
    if (rx != m_rxRate)
    {
        m_rxRate = rx;
        m_net->SetLinkCapacity(uint32_t(m_rx), Capacity(rx));
    }
    if (m_tx >= 0)
    {
        const double tx = m_host->GetOperatingPoint().readRate;
        if (tx != m_txRate)
        {
            m_txRate = tx;
            m_net->SetLinkCapacity(uint32_t(m_tx), Capacity(tx));
        }
    }
}

} // namespace ns3
