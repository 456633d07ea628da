/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLUID_AGGREGATE_H
#define MLNET_FLUID_AGGREGATE_H

#include "fluid-network.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The aggregate fluid model of background traffic ("fluid": "aggregate"): many short
 * flows beside a few long ones, without a recomputation of the long ones per short flow.
 *
 * The background flows drain in a network of their own (GetNetwork(): the same links, the same
 * progressive filling), so each still has its start, its max-min rate among the background
 * flows, its drain, delivery and completion. The two networks are coupled per link and class,
 * not per flow:
 *  - the main network sees the background as one *load* per link and class, a reserve of the
 *    link (FluidNetwork::SetLinkReserve: a flow of weight 1 in the class, capped, without a
 *    flow): the bytes the background carried on the link in one Interval are carried by the
 *    load in the next one (a rate of backlog / Interval, the backlog being the bytes handed
 *    over and not carried yet), so the other flows of the link see the background's load with
 *    a lag of one Interval, and no change within one. With LoadTolerance > 0 a load whose
 *    rate would move by at most that share of the link's capacity keeps its rate (the
 *    difference stays in the backlog: its rate is within 2 x LoadTolerance x capacity of the
 *    exact one, its bytes within LoadTolerance x capacity x Interval);
 *  - the background network's link capacity is what the main network leaves the background
 *    there (FluidNetwork::GetLinkShare, which does not count the loads: the capacity less
 *    the classes above, and a max-min share with the main flows of its class bottlenecked at
 *    the link, the k background flows of the link counting as k flows of weight 1), refreshed
 *    when a background flow starts or drains on the link and at every Interval.
 * A change of the background thus recomputes the main network at most once per Interval, for
 * the links whose background load changed. What it approximates, and the measured error
 * against one fluid flow per background flow and against the packet backend, are in
 * doc/flow-backend.rst ("Background traffic in aggregate").
 *
 * The analytic inner model (CompleteAnalytic(), BackgroundTraffic's Fluid "analytic") has no
 * fluid flow per background flow: a batch of flows (one interval's arrivals) is completed by
 * processor sharing on each link of its path, and its bytes are handed to the main network as
 * the background network's are (AddLoad()). See doc/flow-backend.rst ("Analytic background").
 */
class FluidAggregate : public Object
{
  public:
    static TypeId GetTypeId();
    FluidAggregate();
    ~FluidAggregate() override;

    /**
     * Serve background flows beside a network (its links are copied, now and when new ones
     * appear).
     * \param main the main network \throws std::logic_error if called twice
     */
    void Attach(Ptr<FluidNetwork> main);
    /// \return the background flows' own network (null before Attach)
    Ptr<FluidNetwork> GetNetwork() const;
    /**
     * Start a background flow now (in GetNetwork(); its links must be the main network's).
     * \param spec the flow \return its id in GetNetwork()
     * \throws std::invalid_argument as FluidNetwork::StartFlow, or before Attach
     */
    uint64_t StartFlow(FluidNetwork::FlowSpec spec);

    /// An analytic background flow (CompleteAnalytic()).
    struct AnalyticFlow
    {
        uint32_t first{0};      //!< its links start here in the links vector: path, then reverse
        uint32_t nPath{0};      //!< links of its path (>= 1)
        uint32_t nReverse{0};   //!< links of its acknowledgements' way back
        double wire{0};         //!< bytes on the wire (> 0)
        double reverseShare{0}; //!< acknowledgement bytes per wire byte on the way back
        uint8_t cls{0};         //!< traffic class (0..7)
        Time latency;           //!< from the drain to the completion (path and acknowledgement)
        Time fct;               //!< set by CompleteAnalytic(): its completion time
    };

    /**
     * Complete a batch of background flows analytically (the analytic inner model): the flows
     * that arrive during one Interval, drawn together at its start. Per link l of a flow's path,
     * A_l is the capacity the main network leaves the flow's class there (as the background
     * network's capacity: the classes above taken out, one max-min step against the main flows
     * of its class bottlenecked at l), and rho_l the load of the batch's other flows of that
     * class on l: their bytes / (A_l x Interval), at most MaxUtilisation. Processor sharing per
     * link, the links' delays added (M/G/1-PS's mean sojourn, x / (A (1 - rho)), on one link):
     *   drain = wire / min_l A_l + sum_l wire x rho_l / (A_l (1 - rho_l)),
     *   fct = drain (rounded up to the ns) + latency.
     * A flow alone on its links thus completes as one fluid flow would. Every flow's bytes (its
     * wire bytes on its path, wire x reverseShare on its way back, in class 7) are handed to the
     * main network as the background network's are (AddLoad()); the class-7 load of a link at
     * most at reverseShare x its capacity (acknowledgements come with their data, which crosses
     * the reverse link at most at its capacity; handed at once, a flow's acknowledgements would
     * take the whole link ahead of every class). \param flows the batch (fct is set)
     * \param links the links the flows index \throws std::invalid_argument before Attach, or for a
     * link, class or size out of range
     */
    void CompleteAnalytic(std::vector<AnalyticFlow>& flows, const std::vector<uint32_t>& links);
    /**
     * Background bytes carried outside the background network (the analytic model's): handed to
     * the main network's load flow of the link and class at the end of this interval, with the
     * background network's bytes.
     * \param link a link \param cls its class (0..7) \param bytes the bytes (>= 0)
     * \throws std::invalid_argument before Attach, or for a link or class out of range
     */
    void AddLoad(uint32_t link, uint8_t cls, double bytes);
    /// \return the coupling interval
    Time GetInterval() const;

    /// \return coupling intervals run so far
    uint64_t GetIntervals() const;
    /// \return loads started in the main network so far (a link's load of a class from none)
    uint64_t GetLoadFlows() const;
    /// \return load changes passed to the main network so far (a rate set, started or ended)
    uint64_t GetLoadUpdates() const;
    /// \return load changes kept back so far (within LoadTolerance of the rate applied)
    uint64_t GetLoadSkips() const;
    /// \return background flows started so far
    uint64_t GetFlows() const;
    /// \return flows completed analytically so far (CompleteAnalytic())
    uint64_t GetAnalyticFlows() const;
    /// \return bytes given by AddLoad() and CompleteAnalytic() so far (summed over links)
    double GetAddedBytes() const;
    /// \return bytes handed to the main network's load flows so far (summed over links)
    double GetHandedBytes() const;

  protected:
    void DoDispose() override;

  private:
    /// Copy the main network's links that the background network does not have yet.
    void CopyLinks();
    /// Set the background capacity of a link from the main network's state now.
    void UpdateCapacity(uint32_t link);
    /// A background flow has drained. \param links its links \param cls its class
    void Leave(const std::vector<uint32_t>& links, uint8_t cls);
    /// The end of an interval: load flows and capacities.
    void Interval();
    /// Mark a link as carrying background (Interval() visits it).
    void Heat(uint32_t link);
    /// Start the interval timer if it is not running.
    void Arm();
    /// The main network's share terms of a link for a background class (cached per version).
    struct ShareTerms;
    const ShareTerms& Terms(uint32_t link, int cls);
    /// \param link a link \param cls a class \return the capacity the main network leaves
    ///         the class's background on the link as one flow (AnalyticFlow's A_l)
    double Available(uint32_t link, uint8_t cls);

    Ptr<FluidNetwork> m_main;
    Ptr<FluidNetwork> m_bg;
    Time m_interval;
    EventId m_timer;
    /// per link and class: background flows transmitting on it
    std::vector<std::array<uint32_t, 8>> m_count;
    /// per link and class: background bytes already handed to the main network
    std::vector<std::array<double, 8>> m_seen;
    /// per link and class: bytes handed to its load in the main network and not carried yet
    /// (negative: carried ahead, LoadTolerance)
    std::vector<std::array<double, 8>> m_backlog;
    /// per link and class: the load's carried bytes already counted (FluidNetwork's
    /// GetLinkReserveBytes)
    std::vector<std::array<double, 8>> m_carried;

    /// per link: the main network's terms of the last capacity refresh (the share of k
    /// background flows is free x k / (k + sharing)), valid while the link's version and the
    /// top background class are the same (FluidNetwork::GetLinkVersion)
    struct ShareTerms
    {
        uint64_t version{~uint64_t(0)}; //!< the main link's version they were read at
        int top{-1};                    //!< the class they are for
        double free{0};
        double sharing{0};
    };

    std::vector<ShareTerms> m_terms; //!< per link
    std::vector<uint32_t> m_hot;     //!< links with background flows or load to hand over
    std::vector<char> m_isHot;       //!< per link: in m_hot
    uint64_t m_intervals{0};
    uint64_t m_loadFlows{0};
    uint64_t m_loadUpdates{0};
    uint64_t m_loadSkips{0};
    double m_tolerance{0}; //!< LoadTolerance
    uint64_t m_flows{0};
    double m_maxUtilisation{0.95};
    /// per link and class: bytes given by AddLoad(), not carried in the background network
    std::vector<std::array<double, 8>> m_extra;
    std::vector<std::array<double, 8>> m_batch; //!< CompleteAnalytic(): a batch's bytes
    std::vector<uint32_t> m_batchLinks;         //!< CompleteAnalytic(): links in m_batch
    uint64_t m_analyticFlows{0};
    /// CompleteAnalytic(): the largest reverseShare of its flows so far (infinite once one's data
    /// is in class 7): Interval() hands a link's class-7 load at most this share of the link's
    /// capacity, the acknowledgements of data at line rate (0: no analytic flow, no limit)
    double m_ackShare{0};
    double m_added{0};
    double m_handed{0};
};

} // namespace ns3

#endif /* MLNET_FLUID_AGGREGATE_H */
