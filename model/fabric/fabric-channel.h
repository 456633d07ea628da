/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FABRIC_CHANNEL_H
#define MLNET_FABRIC_CHANNEL_H

#include "fabric-frame.h"
#include "flow-key.h"

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

namespace ns3
{

class FabricNetDevice;

/**
 * \ingroup mlnet
 * \brief Full-duplex point-to-point link between two FabricNetDevices with a propagation delay.
 *
 * One event per frame: the receiving device gets the frame when its last bit arrives
 * (transmission time + propagation delay), in the receiving node's context.
 */
class FabricChannel : public Channel
{
  public:
    static TypeId GetTypeId();
    FabricChannel();

    /**
     * Attach a device (at most two).
     * \param dev the device
     */
    void Attach(Ptr<FabricNetDevice> dev);

    /**
     * Detach a device (to splice an in-line device into the link before the simulation runs).
     * \param dev the device
     * \throws std::invalid_argument if dev is not attached
     */
    void Detach(Ptr<FabricNetDevice> dev);

    /// \return the propagation delay
    Time GetDelay() const;
    /// \param delay the propagation delay (the Delay attribute; the ends are told)
    void SetDelay(Time delay);
    /// \return the device at the other end from dev
    Ptr<FabricNetDevice> GetPeer(Ptr<const FabricNetDevice> dev) const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

  private:
    /// Tell each attached device its peer and the delay (FabricNetDevice::SetWire).
    void Wire();

    Time m_delay;
    Ptr<FabricNetDevice> m_dev[2];
    uint32_t m_nDevices{0};
};

} // namespace ns3

#endif /* MLNET_FABRIC_CHANNEL_H */
