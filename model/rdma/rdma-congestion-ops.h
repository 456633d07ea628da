/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_RDMA_CONGESTION_OPS_H
#define MLNET_RDMA_CONGESTION_OPS_H

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Congestion-control state of one queue pair, shared between the queue pair (which owns it)
 * and its congestion-control algorithm (which updates it), like ns-3's TcpSocketState.
 *
 * Rates are in bit/s. Algorithm-specific state (DCQCN's alpha, stage counters, ...) lives in the
 * RdmaCongestionOps instance, which is per queue pair.
 */
struct RdmaCcState
{
    double lineRate{100e9};     //!< NIC line rate (bit/s)
    double rate{100e9};         //!< current sending rate Rc (bit/s): the pacer uses it
    double targetRate{100e9};   //!< target rate Rt (bit/s), for algorithms that have one
    uint64_t bytesSent{0};      //!< payload bytes handed to the wire so far
    uint64_t iterationBytes{0}; //!< bytes of the current training iteration (0: not declared)
    uint64_t iterationSent{0};  //!< bytes of the current training iteration already sent

    /// Fraction r in [0,1] of the current iteration's bytes already sent (0 if not declared).
    double IterationFraction() const
    {
        if (iterationBytes == 0)
        {
            return 0.0;
        }
        double r = static_cast<double>(iterationSent) / static_cast<double>(iterationBytes);
        return r > 1.0 ? 1.0 : r;
    }
};

/**
 * \ingroup mlnet
 * \brief Information carried by an acknowledgement, for ACK-clocked algorithms.
 */
struct RdmaAckInfo
{
    uint64_t ackedBytes{0}; //!< newly acknowledged payload bytes
    Time rtt;               //!< RTT sample (zero if none)
    bool ecnEcho{false};    //!< the acknowledged data was ECN-marked
};

/**
 * \ingroup mlnet
 * \brief Interface of an RDMA (rate-based) congestion-control algorithm, one instance per queue
 * pair.
 *
 * Modelled on ns-3's TcpCongestionOps: the algorithm holds no transport plumbing and no simulator
 * events. Time-driven parts (DCQCN's alpha and rate-increase timers) are evaluated lazily: the
 * queue pair calls Advance(now) before every other call, and the algorithm applies every timer
 * expiry that happened up to now, in order. This makes every algorithm a pure state machine
 * testable without a simulator, and saves one simulator event per timer tick per queue pair.
 */
class RdmaCongestionOps : public Object
{
  public:
    static TypeId GetTypeId();
    ~RdmaCongestionOps() override;

    /// \return the algorithm name, for logs and stats
    virtual std::string GetName() const = 0;

    /**
     * A copy of this instance, its attributes and its state, for another queue pair (as ns-3's
     * TcpCongestionOps::Fork). A NIC creates one instance from its factory, never uses it, and
     * forks it for every queue pair it connects: ns-3's attribute construction costs about
     * 100,000 instructions per object, a copy a few hundred (doc/performance.rst, step 45).
     * \return the copy, or nullptr if the class cannot copy itself (the default): the NIC then
     *         creates every queue pair's instance with its factory, as it does when the copy
     *         is not of this instance's class (a subclass that inherited its parent's Fork)
     */
    virtual Ptr<RdmaCongestionOps> Fork() const;

    /**
     * Initialise the state when the queue pair starts (normally rate = target = line rate).
     * \param state the queue pair's state
     * \param now current simulated time
     */
    virtual void Init(RdmaCcState& state, Time now) = 0;

    /**
     * Apply every timer expiry in (last call, now]. Called by the queue pair before any other
     * event and before it reads state.rate.
     * \param state the queue pair's state
     * \param now current simulated time
     */
    virtual void Advance(RdmaCcState& state, Time now);

    /**
     * A congestion notification packet (CNP) arrived for this queue pair.
     * \param state the queue pair's state
     * \param now current simulated time
     */
    virtual void OnCnp(RdmaCcState& state, Time now) = 0;

    /**
     * Bytes were put on the wire (drives byte counters).
     * \param state the queue pair's state
     * \param bytes payload bytes just sent
     * \param now current simulated time
     */
    virtual void OnSent(RdmaCcState& state, uint32_t bytes, Time now);

    /**
     * An acknowledgement arrived.
     * \param state the queue pair's state
     * \param ack what the acknowledgement carried
     * \param now current simulated time
     */
    virtual void OnAck(RdmaCcState& state, const RdmaAckInfo& ack, Time now);

    /**
     * Set an attribute of this algorithm, throwing instead of aborting on a bad value.
     *
     * ObjectBase::SetAttribute aborts the process (NS_FATAL_ERROR) when a checker rejects a value;
     * this is the path for callers that must recover, e.g. the Python bindings, where the
     * exception becomes a ValueError. The value may also be a StringValue ("40Mb/s", "55us").
     * \param name the attribute name, e.g. "RateAI"
     * \param value the new value
     * \throws std::invalid_argument if the attribute does not exist or rejects the value; the
     *         message names the attribute and repeats its help string, which states the range
     */
    void SetAttributeChecked(const std::string& name, const AttributeValue& value);
};

} // namespace ns3

#endif /* MLNET_RDMA_CONGESTION_OPS_H */
