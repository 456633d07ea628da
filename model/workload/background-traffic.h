/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MLNET_BACKGROUND_TRAFFIC_H
#define MLNET_BACKGROUND_TRAFFIC_H

#include "ns3/data-class.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/job-records.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-nic.h"
#include "ns3/traced-callback.h"

#include <istream>
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
 */
class BackgroundTraffic : public Object
{
  public:
    /// How the flows cross a flow-level (fluid) network (Fluid attribute).
    enum Fluid
    {
        PER_FLOW, //!< one fluid flow of the network per flow
        AGGREGATE //!< the aggregate background model (FluidConnection::Aggregate)
    };

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
    /// \return flow records (FCT)
    const std::vector<MessageRecord>& GetFlowRecords() const;

  protected:
    void DoDispose() override;

  private:
    void Arrival(uint32_t src);

    std::vector<Ptr<MessageTransport>> m_src;
    std::vector<Ptr<MessageTransport>> m_dst;
    FlowSizeCdf m_cdf{FlowSizeCdf::WebSearch()};
    double m_load{0.3};
    DataRate m_rate{"100Gbps"};
    uint8_t m_class{DataClass::DEFAULT};
    Fluid m_fluid{PER_FLOW};
    Time m_stop;
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
    TracedCallback<const MessageRecord&> m_flowTrace;
};

} // namespace ns3

#endif /* MLNET_BACKGROUND_TRAFFIC_H */
