/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The ring scheme's diagnostic trace of the panama-shared-cluster example (--trace-ring; one
// translation unit, panama-shared-cluster-run.cc, includes it).
#ifndef MLNET_PANAMA_SHARED_CLUSTER_RING_TRACE_H
#define MLNET_PANAMA_SHARED_CLUSTER_RING_TRACE_H

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ns3
{
namespace panamacluster
{

/**
 * Diagnostic of the ring scheme (--trace-ring): every queue pair of the hosts is picked up
 * within 2 us of its creation (a scan of the NICs: the collective creates its queue pairs on
 * first use) and its DCQCN rate, target rate and completed messages are recorded. After the
 * run, the queue pairs that carried a message of a size no background flow has are the ring's.
 */
struct QpTracer
{
    struct Qp
    {
        uint32_t host{0};
        uint32_t peer{0};
        Ptr<RdmaQueuePair> qp;
        std::vector<std::array<double, 3>> rates; //!< time, rate, target (bit/s)
        std::vector<std::array<double, 3>> msgs;  //!< bytes, posted, done (s)
        double lastRate{0};
        double lastTarget{0};
    };

    std::vector<Ptr<RdmaNic>> nics;
    std::map<uint32_t, uint32_t> hostOf; //!< address -> host index
    std::vector<std::unique_ptr<Qp>> qps;
    std::vector<uint32_t> seen; //!< per NIC: queue pairs picked up

    static void OnRate(Qp* q, double rate)
    {
        q->lastRate = rate;
        q->rates.push_back({Simulator::Now().GetSeconds(), rate, q->lastTarget});
    }

    static void OnTarget(Qp* q, double target)
    {
        q->lastTarget = target;
        q->rates.push_back({Simulator::Now().GetSeconds(), q->lastRate, target});
    }

    static void OnMsg(Qp* q, uint64_t, uint64_t bytes, Time posted, Time done)
    {
        q->msgs.push_back({double(bytes), posted.GetSeconds(), done.GetSeconds()});
    }

    void Scan()
    {
        for (uint32_t h = 0; h < nics.size(); ++h)
        {
            for (; seen[h] < nics[h]->GetNQueuePairs(); ++seen[h])
            {
                auto q = std::make_unique<Qp>();
                q->host = h;
                q->qp = nics[h]->GetQueuePair(seen[h]);
                q->peer = hostOf[q->qp->GetPeer().Get()];
                q->lastRate = q->qp->GetCcState().rate;
                q->lastTarget = q->qp->GetCcState().targetRate;
                q->rates.push_back({Simulator::Now().GetSeconds(), q->lastRate, q->lastTarget});
                q->qp->TraceConnectWithoutContext("Rate", MakeBoundCallback(&OnRate, q.get()));
                q->qp->TraceConnectWithoutContext("TargetRate",
                                                  MakeBoundCallback(&OnTarget, q.get()));
                q->qp->TraceConnectWithoutContext("MessageComplete",
                                                  MakeBoundCallback(&OnMsg, q.get()));
                qps.push_back(std::move(q));
            }
        }
        Simulator::Schedule(MicroSeconds(2), &QpTracer::Scan, this);
    }

    void Start(const std::vector<Ptr<RdmaNic>>& n)
    {
        nics = n;
        seen.assign(n.size(), 0);
        for (uint32_t h = 0; h < n.size(); ++h)
        {
            hostOf[n[h]->GetDevice()->GetIpv4Address().Get()] = h;
        }
        Scan();
    }

    /// Appends the ring's queue pairs to DIR/ring-qps.csv, ring-rates.csv, ring-msgs.csv.
    void Write(const std::string& dir,
               const std::string& tag,
               const std::set<uint64_t>& bgSizes,
               double lineRate) const
    {
        std::filesystem::create_directories(dir);
        const bool fresh = !std::filesystem::exists(dir + "/ring-qps.csv");
        std::ofstream qf(dir + "/ring-qps.csv", std::ios::app);
        std::ofstream rf(dir + "/ring-rates.csv", std::ios::app);
        std::ofstream mf(dir + "/ring-msgs.csv", std::ios::app);
        if (fresh)
        {
            qf << "run,host,peer,qpn,cnps,tx_bytes,messages,busy_s,mean_rate_busy_bps,"
                  "time_below_half_busy_s,min_rate_bps,end_rate_bps,end_target_bps\n";
            rf << "run,host,peer,qpn,t_s,rate_bps,target_bps\n";
            mf << "run,host,peer,qpn,index,bytes,posted_s,done_s\n";
        }
        for (const auto& q : qps)
        {
            bool ring = !q->msgs.empty();
            for (const auto& m : q->msgs)
            {
                ring = ring && !bgSizes.count(uint64_t(m[0]));
            }
            if (!ring)
            {
                continue;
            }
            // the rate while the queue pair has a message outstanding (messages on one queue
            // pair complete in order; the collective posts one message per step)
            double busy = 0;
            double rateTime = 0;
            double below = 0;
            double minRate = lineRate;
            for (const auto& m : q->msgs)
            {
                busy += m[2] - m[1];
                double t = m[1];
                double rate = q->rates.front()[1];
                for (const auto& r : q->rates)
                {
                    if (r[0] <= m[1])
                    {
                        rate = r[1];
                        continue;
                    }
                    if (r[0] >= m[2])
                    {
                        break;
                    }
                    rateTime += rate * (r[0] - t);
                    below += rate < lineRate / 2 ? r[0] - t : 0;
                    minRate = std::min(minRate, rate);
                    t = r[0];
                    rate = r[1];
                }
                rateTime += rate * (m[2] - t);
                below += rate < lineRate / 2 ? m[2] - t : 0;
                minRate = std::min(minRate, rate);
            }
            qf << tag << "," << q->host << "," << q->peer << "," << q->qp->GetQpn() << ","
               << q->qp->GetCnpsReceived() << "," << q->qp->GetTxBytes() << "," << q->msgs.size()
               << "," << busy << "," << (busy > 0 ? rateTime / busy : 0) << "," << below << ","
               << minRate << "," << q->lastRate << "," << q->lastTarget << "\n";
            for (const auto& r : q->rates)
            {
                rf << tag << "," << q->host << "," << q->peer << "," << q->qp->GetQpn() << ","
                   << r[0] << "," << r[1] << "," << r[2] << "\n";
            }
            for (std::size_t i = 0; i < q->msgs.size(); ++i)
            {
                mf << tag << "," << q->host << "," << q->peer << "," << q->qp->GetQpn() << "," << i
                   << "," << q->msgs[i][0] << "," << q->msgs[i][1] << "," << q->msgs[i][2] << "\n";
            }
        }
    }
};

} // namespace panamacluster
} // namespace ns3

#endif // MLNET_PANAMA_SHARED_CLUSTER_RING_TRACE_H
