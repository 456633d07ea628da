/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-timeout-report.h"

#include "rdma-nic.h"
#include "rdma-queue-pair.h"

#include "ns3/fabric-switch.h"
#include "ns3/node.h"

#include <sstream>

namespace ns3
{

RdmaTimeoutReport
RdmaTimeoutReport::Count(const NodeContainer& nodes)
{
    RdmaTimeoutReport r;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        if (Ptr<FabricSwitch> sw = (*it)->GetObject<FabricSwitch>())
        {
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                r.droppedBytes += sw->GetPortStats(p).dropBytes;
            }
        }
        Ptr<RdmaNic> nic = (*it)->GetObject<RdmaNic>();
        if (!nic)
        {
            continue;
        }
        for (uint32_t i = 0; i < nic->GetNQueuePairs(); ++i)
        {
            const uint64_t n = nic->GetQueuePair(i)->GetTimeouts();
            if (n > 0)
            {
                r.timeouts += n;
                ++r.queuePairs;
                TimeValue v;
                nic->GetAttribute("RetransmitTimeout", v);
                r.timeout = v.Get();
            }
        }
    }
    return r;
}

std::string
RdmaTimeoutReport::Warning() const
{
    if (timeouts == 0)
    {
        return "";
    }
    std::ostringstream w;
    w << timeouts << " RDMA retransmission timeouts on " << queuePairs
      << " queue pairs (RdmaNic::RetransmitTimeout = " << timeout.As(Time::MS)
      << "): each sent its unacknowledged packets again (go-back-N), bytes that load the "
         "fabric and lengthen flows and iterations; ";
    if (droppedBytes == 0)
    {
        w << "no packet was dropped, so they are spurious: the timeout is below the queueing "
             "delay (raise --ns3::RdmaNic::RetransmitTimeout)";
    }
    else
    {
        w << "the fabric dropped " << droppedBytes << " bytes, which they recover";
    }
    return w.str();
}

} // namespace ns3
