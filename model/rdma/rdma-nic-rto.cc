/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// RdmaNic's retransmission timer, one lazy ReusableTimer per queue pair (split from
// rdma-nic.cc): ArmRto sets a deadline RetransmitTimeout ahead and keeps a pending expiry that
// fires no later; an expiry that comes early moves itself to the deadline (OnRtoTimer), one
// that comes at it goes back to the oldest unacknowledged packet (OnRto). When an ACK leaves
// nothing outstanding the timer is disarmed and its pending expiry marked idle
// (ReusableTimer::SetIdle, in ReceiveAck): it would do nothing, and mlnet's engine ends a
// Run() that has nothing else left at the last packet instead of waiting up to 67.1 ms for it.
// Arming again makes it live (SetIdle(false)), so re-arming per ACK costs no event.

#include "rdma-nic.h"

#include "ns3/fast-events.h"

namespace ns3
{

void
RdmaNic::ArmRto(RdmaQueuePair& qp)
{
    if (qp.m_rtoArmed)
    {
        return;
    }
    qp.m_rtoArmed = true;
    qp.m_rtoDeadline = FastEvents::Now() + m_rto;
    // A pending event of an earlier arming fires no later than the new deadline (unless the
    // timeout was shortened since): it moves itself there (OnRtoTimer), no second event, and
    // is live again. Otherwise a new event (replacing a later one).
    if (!qp.m_rto.IsPending() || qp.m_rto.GetTsStep() > qp.m_rtoDeadline.GetTimeStep())
    {
        qp.m_rto.Schedule(m_rto);
    }
    else
    {
        qp.m_rto.SetIdle(false);
    }
}

void
RdmaNic::OnRtoTimer(RdmaQueuePair& qp)
{
    if (!qp.m_rtoArmed)
    {
        return; // disarmed since (progress acknowledged everything)
    }
    Time now = FastEvents::Now();
    if (qp.m_rtoDeadline > now)
    {
        qp.m_rto.Schedule(qp.m_rtoDeadline - now);
        return;
    }
    qp.m_rtoArmed = false;
    OnRto(qp);
}

} // namespace ns3
