/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_WATCHED_TRACED_CALLBACK_H
#define MLNET_WATCHED_TRACED_CALLBACK_H

#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * A TracedCallback that keeps one bit of its owner's mask equal to "has sinks", so that a
 * per-packet path tests one byte in its owner's hot state instead of one list per trace source
 * (each in a cache line of its own, on every hop). It is a TracedCallback in every other way:
 * MakeTraceSourceAccessor() instantiates on the member's type, so Config paths,
 * TraceConnect() and pcap helpers connect through the methods below.
 */
template <typename... Ts>
class WatchedTracedCallback : public TracedCallback<Ts...>
{
  public:
    /**
     * Bind the bit this trace source keeps (the owner's constructor calls it once).
     * \param mask the owner's mask \param bit the bit
     * \param copy a second mask kept the same (the owner reads it where the first is not at
     * hand), or null
     */
    void Watch(uint16_t* mask, uint16_t bit, uint16_t* copy = nullptr)
    {
        m_mask = mask;
        m_copy = copy;
        m_bit = bit;
        Update();
    }

    /// \copydoc TracedCallback::ConnectWithoutContext
    void ConnectWithoutContext(const CallbackBase& callback)
    {
        TracedCallback<Ts...>::ConnectWithoutContext(callback);
        Update();
    }

    /// \copydoc TracedCallback::Connect
    void Connect(const CallbackBase& callback, std::string path)
    {
        TracedCallback<Ts...>::Connect(callback, path);
        Update();
    }

    /// \copydoc TracedCallback::DisconnectWithoutContext
    void DisconnectWithoutContext(const CallbackBase& callback)
    {
        TracedCallback<Ts...>::DisconnectWithoutContext(callback);
        Update();
    }

    /// \copydoc TracedCallback::Disconnect
    void Disconnect(const CallbackBase& callback, std::string path)
    {
        TracedCallback<Ts...>::Disconnect(callback, path);
        Update();
    }

  private:
    /// Copy "has sinks" into the owner's bit.
    void Update()
    {
        if (m_mask)
        {
            *m_mask = this->IsEmpty() ? uint16_t(*m_mask & ~m_bit) : uint16_t(*m_mask | m_bit);
        }
        if (m_copy)
        {
            *m_copy = *m_mask;
        }
    }

    uint16_t* m_mask{nullptr}; //!< the owner's mask
    uint16_t* m_copy{nullptr}; //!< a copy of it, or null
    uint16_t m_bit{0};         //!< this source's bit in it
};

} // namespace ns3

#endif /* MLNET_WATCHED_TRACED_CALLBACK_H */
