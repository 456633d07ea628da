/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: the aggregation header alone, and the whole aggregation packet as a device
// reads it (AggregationStackHeader::Peek, Deserialize, then the element values it announces).

#include "fuzz-header.h"

#include "ns3/aggregation-header.h"
#include "ns3/aggregation-stack-header.h"

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    ns3::AggregationHeader agg;
    ns3::fuzz::CheckHeader(data, size, agg);

    ns3::AggregationStackHeader stack;
    ns3::fuzz::CheckHeader(data, size, stack);
    ns3::Ptr<ns3::Packet> p = ns3::Create<ns3::Packet>(data, uint32_t(size));
    ns3::AggregationStackHeader peeked;
    if (ns3::AggregationStackHeader::Peek(*p, peeked))
    {
        std::vector<uint32_t> values = ns3::AggregationStackHeader::ReadValues(*p, peeked);
        if (!values.empty() && values.size() != peeked.agg.elements)
        {
            ns3::fuzz::Fail("ReadValues returned other than the announced element count");
        }
    }
    return 0;
}
