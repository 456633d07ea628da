/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FABRIC_FRAME_H
#define MLNET_FABRIC_FRAME_H

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <algorithm>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief A packet on its way through the fabric: either an ns3::Packet, or a compact
 * descriptor that stands for one and becomes one only when something asks for it.
 *
 * A compact frame keeps the bytes of its headers (at most kMaxHeaderBytes) in a small block
 * taken from a free list; the rest of its size is virtual zero bytes, as in an ns3::Packet
 * created with a size. An RDMA NIC builds one per packet, ports queue it and the channel
 * carries it (a frame is 24 bytes, moved without reference counting), a switch reads its
 * headers and marks ECN in them, and the receiving NIC reads them: no ns3::Packet, no header
 * objects, no heap allocation once the free list holds as many blocks as packets in flight.
 * GetPacket() materialises the ns3::Packet it stands for, byte for byte (built by its
 * producer's own header class, so that packet metadata and Print() are those of the
 * producer's packet), the first time a trace source with sinks, pcap, a callback or an ns-3
 * protocol handler needs one; from then on the frame is that packet, and every later hop sees
 * and changes the same object, as if it had been a packet from the start.
 *
 * A compact frame is an IPv4 datagram whose IPv4 header has no options and a zero checksum
 * (ns-3's default, checksums not computed). The one difference from carrying a packet: the
 * packet's uid (Packet::GetUid()) is taken when it is materialised, not when the frame is
 * built. The free list is a process-wide one without locks, as ns-3's own packet-buffer free
 * list (one simulation per process, as ns-3's Simulator).
 */
class FabricFrame
{
  public:
    /// Bytes of headers a compact frame keeps (IPv4 + UDP + the largest RoCE header).
    static constexpr uint32_t kMaxHeaderBytes = 56;
    /**
     * Builds the packet a compact frame stands for.
     * \param headers its header bytes \param headerBytes how many \param size its whole size
     * \return the packet
     */
    typedef Ptr<Packet> (*Materialiser)(const uint8_t* headers,
                                        uint32_t headerBytes,
                                        uint32_t size);

    /// An empty frame (no packet).
    FabricFrame() = default;

    /// A frame carrying a packet. \param p the packet
    explicit FabricFrame(const Ptr<Packet>& p)
        : m_ptr(reinterpret_cast<uintptr_t>(PeekPointer(p))),
          m_size(p ? p->GetSize() : 0)
    {
        if (p)
        {
            p->Ref();
        }
    }

    ~FabricFrame()
    {
        Release();
    }

    /// Copy: shares a packet, copies a compact frame's headers. \param o the source
    FabricFrame(const FabricFrame& o)
    {
        CopyFrom(o);
    }

    /// Copy: shares a packet, copies a compact frame's headers. \param o the source
    /// \return this
    FabricFrame& operator=(const FabricFrame& o)
    {
        if (this != &o)
        {
            Release();
            CopyFrom(o);
        }
        return *this;
    }

    /// Move: the source is left empty (no reference counting, no copy). \param o the source
    FabricFrame(FabricFrame&& o) noexcept
        : m_ptr(o.m_ptr),
          m_note(o.m_note),
          m_size(o.m_size)
    {
        o.m_ptr = 0;
        o.m_note = 0;
        o.m_size = 0;
    }

    /// Move: the source is left empty (no reference counting, no copy). \param o the source
    /// \return this
    FabricFrame& operator=(FabricFrame&& o) noexcept
    {
        if (this != &o)
        {
            Release();
            m_ptr = o.m_ptr;
            m_note = o.m_note;
            m_size = o.m_size;
            o.m_ptr = 0;
            o.m_note = 0;
            o.m_size = 0;
        }
        return *this;
    }

    /**
     * Start a compact frame: the frame drops what it held and returns where its producer
     * writes the header bytes, then calls SetCompact().
     * \return at least kMaxHeaderBytes bytes
     */
    uint8_t* Headers();

    /**
     * Make this a compact frame, after its producer wrote its header bytes to Headers().
     * \param headerBytes bytes written (at most kMaxHeaderBytes)
     * \param size the whole size of the packet it stands for (at least headerBytes)
     * \param build what materialises it
     */
    void SetCompact(uint32_t headerBytes, uint32_t size, Materialiser build);

    /// \return true if the frame is a compact descriptor (no packet materialised)
    bool IsCompact() const
    {
        return (m_ptr & kCompactBit) != 0;
    }

    /// \return true if the frame holds nothing
    bool IsEmpty() const
    {
        return m_ptr == 0;
    }

    /**
     * The size of the packet, kept in the frame: ports and switches do not touch the packet
     * object (a cache miss per dequeue in deep queues). A packet must not change its size
     * while a frame carries it (the port's queue accounting already assumes so).
     * \return the size of the packet, in bytes
     */
    uint32_t GetSize() const
    {
        return m_size;
    }

    /**
     * Copy the first bytes of the packet (as Packet::CopyData).
     * \param buffer the destination \param n at most this many
     * \return bytes copied
     */
    uint32_t CopyData(uint8_t* buffer, uint32_t n) const;

    /**
     * The first bytes of the packet, at least n of them, without a copy when the frame keeps
     * them (a compact frame whose header bytes cover n); otherwise copied into buffer, as
     * CopyData (zeros past the end of the packet).
     * \param buffer n bytes for the copy \param n bytes wanted
     * \return the bytes (in the frame or in buffer; valid while the frame is unchanged)
     */
    const uint8_t* PeekData(uint8_t* buffer, uint32_t n) const
    {
        const Compact* c = GetCompact();
        if (c && c->headerBytes >= n)
        {
            return c->headers;
        }
        const uint32_t got = CopyData(buffer, n);
        std::fill(buffer + got, buffer + n, uint8_t(0));
        return buffer;
    }

    /**
     * The packet, materialised on the first call (the frame then holds it). The frame's note
     * is dropped (the packet is from then on what describes the frame, and whoever got it may
     * change its bytes).
     * \return the packet (null for an empty frame)
     */
    Ptr<Packet> GetPacket();

    /**
     * Attach a note: a word of the frame's producer for the frame's consumer, that travels with
     * the frame (moved and copied with it) through ports, channels and switches, none of which
     * reads it. A consumer that reads a few header fields at every frame reads them from the
     * note instead of from the header block, which was written hops earlier and is no longer in
     * the cache by then (a miss per frame; doc/performance.rst, step 28). The note must
     * describe only header fields that nothing on the way changes (a switch changes the ECN
     * bits, carried in the FlowKey), and the consumer must read the same fields from the bytes
     * when there is no note: GetPacket() drops it, so a frame that was materialised, perhaps
     * changed by a trace sink, is read from its bytes.
     * \param note the note (not 0, which means none)
     */
    void SetNote(uint64_t note)
    {
        m_note = note;
    }

    /// \return the producer's note, or 0 if there is none
    uint64_t GetNote() const
    {
        return m_note;
    }

    /// Set the ECN codepoint of the IPv4 header to CE (11), as a switch's marking does.
    void SetEcnCe();

    /**
     * Set the ECN codepoint of an IPv4 packet's header to CE (the packet starts with it).
     * \param p the packet
     */
    static void SetEcnCe(Packet& p);

    /// Drop the packet or descriptor (the frame becomes empty).
    void Clear()
    {
        Release();
        m_ptr = 0;
        m_note = 0;
        m_size = 0;
    }

  private:
    /// A compact frame's headers (from the free list).
    struct Compact
    {
        Materialiser build;               //!< builds the packet
        uint32_t headerBytes;             //!< valid bytes in headers
        uint8_t headers[kMaxHeaderBytes]; //!< the first bytes of the packet
    };

    /// m_ptr's low bit: the pointer is a Compact (otherwise a Packet, or null).
    static constexpr uintptr_t kCompactBit = 1;

    static Compact* AllocCompact();      //!< \return a block from the free list
    static void FreeCompact(Compact* c); //!< \param c a block back to the free list
    void CopyFrom(const FabricFrame& o); //!< copy o into this (empty) frame \param o source

    /// \return the packet, or null (a compact or empty frame)
    Packet* GetPacketPointer() const
    {
        return IsCompact() ? nullptr : reinterpret_cast<Packet*>(m_ptr);
    }

    /// \return the compact block, or null (a packet or empty frame)
    Compact* GetCompact() const
    {
        return IsCompact() ? reinterpret_cast<Compact*>(m_ptr & ~kCompactBit) : nullptr;
    }

    /// \param c the block this frame now holds (it held nothing)
    void SetCompactPointer(Compact* c)
    {
        m_ptr = reinterpret_cast<uintptr_t>(c) | kCompactBit;
    }

    /// Let go of the packet's reference or of the compact block (fields left dangling).
    void Release()
    {
        if (m_ptr)
        {
            ReleaseHeld(); // an empty frame (a move's target, a moved-from frame) costs no call
        }
    }

    void ReleaseHeld(); //!< Release() of a frame that holds a packet or a block

    /// The packet (a reference held; moved between frames without reference counting, which
    /// ns-3's Ptr cannot do before ns-3.38) or, marked by the low bit, a compact frame's header
    /// block (a frame holds one or the other): one word, so that a frame with its note is 24
    /// bytes.
    uintptr_t m_ptr{0};
    uint64_t m_note{0}; //!< the producer's note (SetNote()), 0 for none
    uint32_t m_size{0}; //!< the packet's size
};

} // namespace ns3

#endif /* MLNET_FABRIC_FRAME_H */
