/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_DCQCN_H
#define MLNET_DCQCN_H

#include "dcqcn-base.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief DCQCN reaction point as published: Zhu et al., "Congestion Control for Large-Scale RDMA
 * Deployments", SIGCOMM 2015 (Section 3.1, Figure 8).
 *
 * One instance per queue pair; a pure state machine (no simulator events: timers are evaluated
 * lazily in Advance(), see RdmaCongestionOps).
 *
 * On a CNP at time t (rates in bit/s, alpha dimensionless):
 * \f[ R_T \leftarrow R_C;\quad R_C \leftarrow R_C (1 - \alpha/2);\quad
 *     \alpha \leftarrow (1-g)\alpha + g \f]
 * (the cut uses alpha from before the update), then the timer stage, byte stage and byte counter
 * are reset, and the alpha timer and the rate-increase timer restart at t.
 *
 * Alpha timer (period "AlphaTimer"): each expiry with no CNP since the previous expiry (or since
 * the CNP that restarted it) applies \f$\alpha \leftarrow (1-g)\alpha\f$. It runs from Init().
 *
 * Rate increase: the timer (period "RateIncreaseTimer", T) and the byte counter ("ByteCounter",
 * B bytes sent) each count expiries since the last cut, in the timer stage \f$S_T\f$ and the byte
 * stage \f$S_B\f$. Every expiry is one increase event, decided on the counts *including* that
 * expiry (so the first event after a cut sees a count of 1):
 *  - fast recovery if \f$\max(S_T, S_B) \le F\f$: \f$R_C \leftarrow (R_T + R_C)/2\f$;
 *    so exactly F fast-recovery events follow a cut when only one counter advances;
 *  - hyper increase if \f$\min(S_T, S_B) > F\f$: \f$R_T \leftarrow R_T + i\,R_{HAI}\f$ with
 *    \f$i = \min(S_T, S_B) - F\f$ (QCN's definition: i counts the hyper-increase rounds, 1, 2,
 *    ...), then \f$R_C \leftarrow (R_T + R_C)/2\f$;
 *  - additive increase otherwise (one counter past F): \f$R_T \leftarrow R_T + R_{AI}\f$, then
 *    \f$R_C \leftarrow (R_T + R_C)/2\f$.
 *
 * The timer and byte counter start at the first cut: before it the queue pair sends at line
 * rate and every increase would be a no-op. R_T and R_C are clamped to [MinRate, line rate].
 *
 * ClampTargetRate (default true, the paper): on every CNP R_T = R_C. When false (the behaviour
 * of the Mellanox NIC parameter clamp_tgt_rate = 0, as modelled by the HPCC ns-3 simulator),
 * R_T = R_C only if at least one increase event (timer or byte counter) happened since the
 * previous cut; back-to-back CNPs with no recovery in between keep the older, higher R_T.
 *
 * Iteration-aware gain (MLTCP, Rajasekaran et al.): every R_AI and R_HAI increment is
 * multiplied by \f$F(r) = \max(0, S r + I)\f$, r = RdmaCcState::IterationFraction(), S =
 * "IterGainSlope", I = "IterGainIntercept". The defaults (S = 0, I = 1) give plain DCQCN.
 *
 * The parameters, attributes, trace sources and helpers shared with ns3::DcqcnVendor are in
 * DcqcnBase; this class adds "ByteCounter" (default 10 MB) and "ClampTargetRate" (default true).
 *
 * Every parameter is an Attribute. Its checker rejects bad values (which makes
 * ObjectBase::SetAttribute abort, as everywhere in ns-3); the typed setters (SetG(), ...) and
 * RdmaCongestionOps::SetAttributeChecked() throw std::invalid_argument naming the parameter and
 * its range instead, which is the path for the Python bindings.
 *
 * Trace sources: "Rate" and "TargetRate" (old, new bit/s, fired on change), "Alpha" (old, new),
 * "Cnp" (time of each CNP).
 */
class Dcqcn : public DcqcnBase
{
  public:
    /// Default byte counter B (bytes; 10 MB)
    static constexpr uint64_t DEFAULT_BYTE_COUNTER = 10000000;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    Dcqcn();
    ~Dcqcn() override;

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() const override;
    void Init(RdmaCcState& state, Time now) override;
    void Advance(RdmaCcState& state, Time now) override;
    void OnCnp(RdmaCcState& state, Time now) override;
    void OnSent(RdmaCcState& state, uint32_t bytes, Time now) override;

    // Checked setters: each throws std::invalid_argument for a value outside its range.
    void SetByteCounter(uint64_t bytes); //!< \param bytes byte counter B, >= 1 byte
    void SetClampTargetRate(bool clamp); //!< \param clamp see the class description

    uint64_t GetByteCounter() const; //!< \return byte counter B (bytes)
    bool GetClampTargetRate() const; //!< \return the ClampTargetRate flag

    uint64_t GetTimerStage() const; //!< \return timer expiries since the last cut
    uint64_t GetByteStage() const;  //!< \return byte-counter expiries since the last cut

  protected:
    void DoValidate() const override;

  private:
    /// One rate-increase event (timer or byte counter), decided on the current stages.
    void IncreaseEvent(RdmaCcState& state);

    // Parameters
    uint64_t m_byteCounter; //!< byte counter B (bytes)
    bool m_clampTargetRate; //!< ClampTargetRate flag

    // State
    Time m_nextAlpha;               //!< next alpha-timer expiry
    Time m_nextIncrease;            //!< next rate-increase-timer expiry
    bool m_increaseActive{false};   //!< timer and byte counter running (after the first cut)
    bool m_increasedSinceCut{true}; //!< an increase event happened since the last cut
    uint64_t m_timerStage{0};       //!< S_T
    uint64_t m_byteStage{0};        //!< S_B
    uint64_t m_bytesCounted{0};     //!< bytes sent since the last byte-counter expiry
};

} // namespace ns3

#endif /* MLNET_DCQCN_H */
