/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-channel.h"

#include "fabric-net-device.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricChannel");
NS_OBJECT_ENSURE_REGISTERED(FabricChannel);

TypeId
FabricChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricChannel")
            .SetParent<Channel>()
            .SetGroupName("Mlnet")
            .AddConstructor<FabricChannel>()
            .AddAttribute("Delay",
                          "Propagation delay of the link",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&FabricChannel::SetDelay, &FabricChannel::GetDelay),
                          MakeTimeChecker(Time(0)));
    return tid;
}

FabricChannel::FabricChannel() = default;

void
FabricChannel::Attach(Ptr<FabricNetDevice> dev)
{
    if (m_nDevices >= 2)
    {
        throw std::invalid_argument("FabricChannel: a link connects exactly two devices");
    }
    m_dev[m_nDevices++] = dev;
    Wire();
}

void
FabricChannel::SetDelay(Time delay)
{
    m_delay = delay;
    Wire();
}

void
FabricChannel::Wire()
{
    for (uint32_t i = 0; i < m_nDevices; ++i)
    {
        m_dev[i]->SetWire(m_nDevices == 2 ? PeekPointer(m_dev[1 - i]) : nullptr, m_delay);
    }
}

void
FabricChannel::Detach(Ptr<FabricNetDevice> dev)
{
    for (uint32_t i = 0; i < m_nDevices; ++i)
    {
        if (m_dev[i] == dev)
        {
            m_dev[i] = m_dev[m_nDevices - 1];
            m_dev[--m_nDevices] = nullptr;
            dev->SetWire(nullptr, m_delay);
            Wire();
            return;
        }
    }
    throw std::invalid_argument("FabricChannel::Detach: device not attached to this link");
}

Time
FabricChannel::GetDelay() const
{
    return m_delay;
}

Ptr<FabricNetDevice>
FabricChannel::GetPeer(Ptr<const FabricNetDevice> dev) const
{
    if (m_nDevices < 2)
    {
        return nullptr;
    }
    return PeekPointer(m_dev[0]) == PeekPointer(dev) ? m_dev[1] : m_dev[0];
}

std::size_t
FabricChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
FabricChannel::GetDevice(std::size_t i) const
{
    return i < m_nDevices ? m_dev[i] : nullptr;
}

void
FabricChannel::DoDispose()
{
    for (uint32_t i = 0; i < m_nDevices; ++i)
    {
        m_dev[i]->SetWire(nullptr, m_delay);
    }
    m_dev[0] = nullptr;
    m_dev[1] = nullptr;
    Channel::DoDispose();
}

} // namespace ns3
