/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_AGGREGATION_CONGESTION_OPS_H
#define MLNET_AGGREGATION_CONGESTION_OPS_H

#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/rdma-congestion-ops.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Congestion-control state of one aggregation tree at one worker, owned by the worker
 * (like TcpSocketState): a window of chunks in flight and a pacing rate.
 */
struct AggregationCcState
{
    double cwnd{1};         //!< window (chunks in flight; fractional, at least 1 is used)
    uint32_t maxWindow{1};  //!< the slot pool of the tree: the window never exceeds it
    double rate{100e9};     //!< pacing rate (bit/s); line rate for window algorithms
    double lineRate{100e9}; //!< port rate (bit/s)
    uint64_t results{0};    //!< results received (implicit acknowledgements)
    uint64_t marked{0};     //!< of which carried a congestion mark (ECN-OR or CE)

    /// \return the usable window in chunks: floor(cwnd) clamped to [1, maxWindow]
    uint32_t Window() const
    {
        double w = cwnd < 1.0 ? 1.0 : cwnd;
        return w >= double(maxWindow) ? maxWindow : uint32_t(w);
    }
};

/**
 * \ingroup mlnet
 * \brief Interface of the congestion control of aggregation traffic, one instance per tree and
 * worker. Results are the acknowledgements (PANAMA's implicit acknowledgements): each result
 * tells whether any packet summed into it, or the result itself, was CE-marked (the ECN-OR).
 *
 * A pure state machine like RdmaCongestionOps: no simulator events; timers are applied lazily
 * in Advance().
 */
class AggregationCongestionOps : public Object
{
  public:
    static TypeId GetTypeId();
    ~AggregationCongestionOps() override;

    /// \return the algorithm name
    virtual std::string GetName() const = 0;
    /// Initialise (state.maxWindow and state.lineRate are set).
    virtual void Init(AggregationCcState& state, Time now) = 0;
    /// Apply timer expiries up to now (before any other call).
    virtual void Advance(AggregationCcState& state, Time now);
    /// A contribution of `bytes` payload bytes was sent.
    virtual void OnSent(AggregationCcState& state, uint32_t bytes, Time now);
    /// A result arrived; marked: its ECN-OR flag or CE mark was set.
    virtual void OnResult(AggregationCcState& state, bool marked, Time now) = 0;
    /// The retransmission timer fired (a loss).
    virtual void OnTimeout(AggregationCcState& state, Time now);
};

/**
 * \ingroup mlnet
 * \brief DCTCP-style window control (Alizadeh et al., SIGCOMM 2010) on results: once per
 * window of results, alpha <- (1 - g) alpha + g F with F the fraction of marked results, and
 * if any was marked cwnd <- cwnd (1 - alpha / 2); every unmarked result adds 1 / cwnd (one
 * chunk per round trip). Starts at InitialWindow (0: the slot pool, i.e. line rate like RDMA);
 * a timeout halves the window.
 */
class AggregationDctcp : public AggregationCongestionOps
{
  public:
    static TypeId GetTypeId();
    AggregationDctcp();
    std::string GetName() const override;
    void Init(AggregationCcState& state, Time now) override;
    void OnResult(AggregationCcState& state, bool marked, Time now) override;
    void OnTimeout(AggregationCcState& state, Time now) override;
    double GetAlpha() const; //!< \return alpha

  private:
    double m_g{1.0 / 16};
    double m_alpha{1.0};
    double m_initialAlpha{1.0};
    uint32_t m_initialWindow{0};
    double m_minWindow{1.0};
    uint64_t m_windowAcked{0};
    uint64_t m_windowMarked{0};
    double m_windowSize{1};
};

/**
 * \ingroup mlnet
 * \brief DCQCN-style rate control: a marked result acts as a CNP (at most one per CnpInterval,
 * the notification point's rule), driving an RDMA reaction point (ns3::Dcqcn by default, with
 * all its attributes); packets are paced at its rate, and the window stays at the slot pool.
 * Aggregation traffic then reacts exactly like the RDMA flows it shares links with.
 */
class AggregationDcqcn : public AggregationCongestionOps
{
  public:
    static TypeId GetTypeId();
    AggregationDcqcn();
    ~AggregationDcqcn() override;
    std::string GetName() const override;
    /// \param f factory of the reaction point (a RdmaCongestionOps, e.g. ns3::Dcqcn)
    void SetReactionPoint(const ObjectFactory& f);
    Ptr<RdmaCongestionOps> GetReactionPoint() const; //!< \return the reaction point
    /// \return the reaction point's factory (SetReactionPoint's, or ns3::Dcqcn): the flow
    /// backend's trees run the same algorithm (FluidAggregator::SetCongestionControl)
    ObjectFactory GetReactionPointFactory() const;
    void Init(AggregationCcState& state, Time now) override;
    void Advance(AggregationCcState& state, Time now) override;
    void OnSent(AggregationCcState& state, uint32_t bytes, Time now) override;
    void OnResult(AggregationCcState& state, bool marked, Time now) override;

  protected:
    void DoDispose() override;

  private:
    ObjectFactory m_factory;
    Ptr<RdmaCongestionOps> m_rp;
    RdmaCcState m_rpState;
    Time m_cnpInterval;
    Time m_lastCnp;
    bool m_cnpSeen{false};
};

/**
 * \ingroup mlnet
 * \brief No congestion control: a fixed window (the slot pool, or Window if smaller) at line
 * rate, self-clocked by the results (SwitchML).
 */
class AggregationFixedWindow : public AggregationCongestionOps
{
  public:
    static TypeId GetTypeId();
    AggregationFixedWindow();
    std::string GetName() const override;
    void Init(AggregationCcState& state, Time now) override;
    void OnResult(AggregationCcState& state, bool marked, Time now) override;

  private:
    uint32_t m_window{0};
};

} // namespace ns3

#endif /* MLNET_AGGREGATION_CONGESTION_OPS_H */
