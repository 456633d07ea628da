/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FUZZ_HEADER_H
#define MLNET_FUZZ_HEADER_H

// Shared check of the header fuzz targets: a header read from any byte string must stay inside
// the bytes, and what it read must survive a round trip (serialise, read again, same bytes).

#include "ns3/header.h"
#include "ns3/packet.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace ns3
{
namespace fuzz
{

/// Stop the run with a message (libFuzzer records the input as a crash).
[[noreturn]] inline void
Fail(const char* what)
{
    std::fprintf(stderr, "mlnet fuzz: %s\n", what);
    std::abort();
}

/// \return the bytes a header serialises to
inline std::vector<uint8_t>
Bytes(const Header& h)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

/**
 * Read a header of type H from data and check it.
 * \param data bytes \param size byte count \param h the header read (if the return is not 0)
 * \return the bytes the header consumed (0: too short, nothing read)
 */
template <typename H>
uint32_t
CheckHeader(const uint8_t* data, size_t size, H& h)
{
    Ptr<Packet> p = Create<Packet>(data, uint32_t(size));
    uint32_t n = p->PeekHeader(h);
    if (n == 0)
    {
        return 0;
    }
    if (n > size)
    {
        Fail("Deserialize consumed more bytes than there were");
    }
    if (n != h.GetSerializedSize())
    {
        Fail("Deserialize consumed other than GetSerializedSize() bytes");
    }
    std::ostringstream os;
    h.Print(os);
    std::vector<uint8_t> once = Bytes(h);
    H again;
    Ptr<Packet> q = Create<Packet>(once.data(), uint32_t(once.size()));
    if (q->PeekHeader(again) != once.size() || Bytes(again) != once)
    {
        Fail("serialise -> deserialise -> serialise changed the bytes");
    }
    return n;
}

} // namespace fuzz
} // namespace ns3

#endif /* MLNET_FUZZ_HEADER_H */
