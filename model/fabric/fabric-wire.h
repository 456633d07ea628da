/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FABRIC_WIRE_H
#define MLNET_FABRIC_WIRE_H

#include "fabric-frame.h"
#include "fabric-net-device.h"
#include "flow-key.h"
#include "wire-arena.h"

#include "ns3/fast-events.h"
#include "ns3/mlnet-event.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The frames on the wire towards a FabricNetDevice, and the event that delivers them:
 * one object, which the far end's transmission touches alone (the records, the delay, the
 * context, the event's reference count on one line) and the arrival reads before the device.
 * Each device owns the wire towards it; FabricChannel tells the far end about it
 * (FabricNetDevice::SetWire). Reference-counted like any event, so it outlives its device while
 * arrivals are pending (they then deliver nothing).
 */
class alignas(64) FabricWire : public MlnetEvent
{
  public:
    /// \param dev the receiving device
    explicit FabricWire(FabricNetDevice* dev)
        : MlnetEvent(&Deliver),
          m_dev(dev)
    {
    }

    /**
     * Put a frame on the wire: it arrives after delay.
     * \param f the frame, moved \param etherType its EtherType \param key its key, or null
     * \param delay the time until its last bit arrives
     */
    void Push(FabricFrame& f, uint16_t etherType, const FlowKey* key, const Time& delay)
    {
        // Records in the order transmissions start (see WireArena), chained per wire.
        WireRecord* r = WireArena::Get().Allocate();
        r->frame = std::move(f);
        r->etherType = etherType;
        r->hasKey = key != nullptr;
        if (key)
        {
            r->key = *key;
        }
        if (m_tail)
        {
            m_tail->next = r;
        }
        else
        {
            m_head = r;
        }
        m_tail = r;
        Ref(); // the scheduler releases one reference after the event ran
        FabricNetDevice::ScheduleEvent(FastEvents::Running(), m_context, delay, this);
    }

    /// Drop the frames on the wire (the device is disposed).
    void Clear();

    /// The device is going away.
    void Detach()
    {
        m_dev = nullptr;
    }

    Time m_delay;          //!< propagation delay of the link (SetWire)
    uint32_t m_context{0}; //!< the receiving node's id (the arrivals' context)

  private:
    /// \param self the wire: deliver its oldest frame
    static void Deliver(MlnetEvent* self);

    FabricNetDevice* m_dev;      //!< the receiving device (null once it is destroyed)
    WireRecord* m_head{nullptr}; //!< the oldest frame on the wire
    WireRecord* m_tail{nullptr}; //!< the newest (its next is null)
};

} // namespace ns3

#endif /* MLNET_FABRIC_WIRE_H */
