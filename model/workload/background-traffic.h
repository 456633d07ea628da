/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MLNET_BACKGROUND_TRAFFIC_H
#define MLNET_BACKGROUND_TRAFFIC_H

#include "ns3/data-class.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/fct-summary.h"
#include "ns3/job-records.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-nic.h"
#include "ns3/traced-callback.h"

#include <istream>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief A flow-size distribution as a piecewise-linear CDF: points (size in bytes,
 * cumulative probability), sizes non-decreasing, probabilities non-decreasing from 0 to 1.
 */
class FlowSizeCdf
{
  public:
    FlowSizeCdf() = default;
    /**
     * \param points (bytes, cumulative probability) pairs
     * \throws std::invalid_argument naming the offending point
     */
    explicit FlowSizeCdf(std::vector<std::pair<double, double>> points);
    /**
     * Parse "size_bytes cumulative_probability" lines ('#' comments and blank lines skipped).
     * \param in the stream \return the CDF \throws std::invalid_argument naming the line
     */
    static FlowSizeCdf FromStream(std::istream& in);
    /// \return the web-search CDF (DCTCP), same as data/websearch.cdf
    static FlowSizeCdf WebSearch();
    /// \return the data-mining CDF (VL2), same as data/datamining.cdf
    static FlowSizeCdf DataMining();
    /// \param name "websearch" or "datamining" \return the CDF
    static FlowSizeCdf Get(const std::string& name);
    /// \param u uniform in [0, 1] \return the size (>= 1 byte) at quantile u (interpolated)
    uint64_t Sample(double u) const;
    /// \return the mean flow size of the piecewise-linear distribution (bytes)
    double GetMean() const;
    /// \return the points
    const std::vector<std::pair<double, double>>& GetPoints() const;

  private:
    std::vector<std::pair<double, double>> m_points;
};

/**
 * \ingroup mlnet
 * \brief Background traffic: on each chosen host, flows arrive as a Poisson process whose rate
 * makes the offered payload load Load x LinkRate; each flow goes to a uniformly random other
 * host as one RDMA message (one queue pair per host pair, created on first use).
 *
 * At flow level (FluidTransports), Fluid "analytic" draws the arrivals of each
 * FluidAggregate::Interval at its start, host by host, and completes them without a connection,
 * an event or a fluid flow each (FluidAggregate::CompleteAnalytic: processor sharing on their
 * paths; their bytes load the network per link and interval as the aggregate model's do). A
 * flow's record and FlowDone trace are made at its completion time, as in the other modes
 * (one event per completion instant of a batch). GetFctSummary() summarizes the FCTs in every
 * mode; KeepRecords false keeps no per-flow record (a run of millions of flows).
 */
class BackgroundTraffic : public Object
{
  public:
    /// How the flows cross a flow-level (fluid) network (Fluid attribute).
    enum Fluid
    {
        PER_FLOW,  //!< one fluid flow of the network per flow
        AGGREGATE, //!< the aggregate background model (FluidConnection::Aggregate)
        ANALYTIC   //!< completed analytically per interval (FluidAggregate::CompleteAnalytic)
    };

    /**
     * The one check of a Fluid mode given as text (command-line options, examples).
     * \param value "per-flow", "aggregate" or "analytic" \return the mode
     * \throws std::invalid_argument naming the value and the accepted ones
     */
    static Fluid ParseFluid(const std::string& value);

    /// \return the TypeId
    static TypeId GetTypeId();
    BackgroundTraffic();
    ~BackgroundTraffic() override;

    /**
     * \param sources transports that generate flows (>= 1): RDMA NICs, or FluidTransports at
     *        flow level
     * \param destinations transports flows may go to (>= 1; a flow never goes to its source)
     */
    void SetHosts(const std::vector<Ptr<MessageTransport>>& sources,
                  const std::vector<Ptr<MessageTransport>>& destinations);

    /// As SetHosts() above, for RDMA NICs (or any transports). \param sources the sources
    /// \param destinations the destinations
    template <class T>
    void SetHosts(const std::vector<Ptr<T>>& sources, const std::vector<Ptr<T>>& destinations)
    {
        SetHosts(std::vector<Ptr<MessageTransport>>(sources.begin(), sources.end()),
                 std::vector<Ptr<MessageTransport>>(destinations.begin(), destinations.end()));
    }

    /// \param cdf the flow-size distribution (default web search)
    void SetFlowSizeCdf(const FlowSizeCdf& cdf);
    /// Start generating now until StopTime (0 = forever).
    void Start();
    /// Stop generating (flows in flight finish).
    void Stop();
    /**
     * \param stream first stream index \return number of streams used (3)
     */
    int64_t AssignStreams(int64_t stream);

    /// \return per-host flow arrival rate (flows/s)
    double GetArrivalRate() const;
    /// \return bytes offered (posted) so far
    uint64_t GetOfferedBytes() const;
    /// \return bytes of completed flows
    uint64_t GetCompletedBytes() const;
    /// \return flows started
    uint64_t GetFlowsStarted() const;
    /// \return flow records (FCT; none with KeepRecords false)
    const std::vector<MessageRecord>& GetFlowRecords() const;
    /// \return the FCTs of the flows completed (analytic: drawn) so far, per size bucket
    const FctSummary& GetFctSummary() const;

  protected:
    void DoDispose() override;

  private:
    struct Analytic; // the analytic mode's state (background-traffic.cc)

    void Arrival(uint32_t src);
    /// \param src a source index \return a destination index other than the source's
    ///         (uniform), or -1 if it has none
    int64_t PickDestination(uint32_t src);
    /// A flow is done: count it, summarize it and (KeepRecords) record it.
    void Done(uint32_t src, uint32_t dst, uint64_t bytes, Time posted, Time completed);
    /// \return true if the analytic mode applies (Fluid analytic, every host a FluidTransport)
    bool SetUpAnalytic();
    /// The analytic mode: draw and complete the arrivals of the next interval.
    void Batch();

    std::vector<Ptr<MessageTransport>> m_src;
    std::vector<Ptr<MessageTransport>> m_dst;
    FlowSizeCdf m_cdf{FlowSizeCdf::WebSearch()};
    double m_load{0.3};
    DataRate m_rate{"100Gbps"};
    uint8_t m_class{DataClass::DEFAULT};
    Fluid m_fluid{PER_FLOW};
    bool m_keepRecords{true};
    Time m_stop;
    Time m_stopAt; //!< absolute end of generation (Start() + StopTime; 0: none)
    bool m_running{false};
    Ptr<ExponentialRandomVariable> m_gap;
    Ptr<UniformRandomVariable> m_size;
    Ptr<UniformRandomVariable> m_pick;
    std::vector<EventId> m_events;
    /// per source: the destination indices that are the source itself, ascending (skipped by
    /// the uniform destination draw)
    std::vector<std::vector<uint32_t>> m_self;
    /// (source << 32 | destination) -> its queue pair
    std::unordered_map<uint64_t, Ptr<MessageConnection>> m_qps;
    uint64_t m_offered{0};
    uint64_t m_completed{0};
    uint64_t m_flows{0};
    std::vector<MessageRecord> m_records;
    FctSummary m_summary;
    std::unique_ptr<Analytic> m_analytic;
    TracedCallback<const MessageRecord&> m_flowTrace;
};

} // namespace ns3

#endif /* MLNET_BACKGROUND_TRAFFIC_H */
