/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_DCQCN_VENDOR_H
#define MLNET_DCQCN_VENDOR_H

#include "dcqcn-base.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief DCQCN as implemented in Mellanox/NVIDIA NICs, in the form most published ns-3 DCQCN
 * results use: the "mlx" model of the HPCC ns-3 simulator (Li et al., SIGCOMM 2019,
 * rdma-hw.cc). Select it instead of ns3::Dcqcn by TypeId.
 *
 * It shares the attribute names of ns3::Dcqcn where the meaning is the same (so one set of
 * attribute values, e.g. from DcqcnProfile, configures either), with these defaults changed:
 * ByteCounter = 0 (no byte counter) and ClampTargetRate = false. Names in the HPCC simulator:
 * G = EwmaGain, AlphaTimer = AlphaResumInterval, RateIncreaseTimer = RPTimer,
 * FastRecoveryStages = FastRecoveryTimes, RateAI, RateHAI, MinRate, ClampTargetRate,
 * RateDecreaseInterval, RateOnFirstCnp.
 *
 * Differences from the paper (ns3::Dcqcn):
 *  - Nothing runs before the first CNP. The first CNP sets alpha = InitialAlpha and
 *    Rt = Rc = RateOnFirstCnp * Rc, and starts two free-running periodic checks: the alpha
 *    update every AlphaTimer, and the rate-decrease check every RateDecreaseInterval (offset by
 *    1 ns so that an alpha update at the same instant goes first).
 *  - A CNP only sets two flags. The alpha update applies alpha = (1-g) alpha + g if a CNP
 *    arrived since the previous update, alpha = (1-g) alpha otherwise; it is not restarted by CNPs.
 *  - The rate is cut at the next rate-decrease check after a CNP, so at most once per
 *    RateDecreaseInterval however many CNPs arrived: Rc = max(MinRate, Rc (1 - alpha/2)), with
 *    alpha as of that check. Rt = Rc first if ClampTargetRate, or if at least one increase
 *    event happened since the previous cut (timer stage != 0, as the HPCC code). The cut resets
 *    the stages and restarts the rate-increase timer.
 *  - Rate increase is timer-only (RateIncreaseTimer), decided on the stage count s *before* the
 *    event increments it: s < F fast recovery (Rc = (Rt + Rc)/2), s == F one additive increase
 *    (Rt += R_AI), s > F hyper increase with a constant step (Rt += R_HAI), each followed by
 *    Rc = (Rt + Rc)/2. So after a cut: F fast-recovery events, one additive, then hyper.
 *  - ByteCounter > 0 adds a byte counter (an mlnet extension): every ByteCounter bytes is an
 *    increase event too, decided on max(timer stage, byte stage) with the same rule.
 *
 * Ties between periodic events at the same instant are applied in the order alpha update,
 * rate increase, rate decrease (the order ns-3 runs them in the HPCC model when the increase
 * timer is longer than the decrease interval). Rates are clamped to [MinRate, line rate]. The
 * iteration-aware gain F(r) = max(0, S r + I) scales R_AI and R_HAI as in ns3::Dcqcn.
 *
 * The shared parameters, attributes, trace sources ("Rate", "TargetRate", "Alpha", "Cnp") and
 * helpers are in DcqcnBase; this class adds "ByteCounter" (default 0), "ClampTargetRate"
 * (default false), "RateDecreaseInterval" and "RateOnFirstCnp".
 */
class DcqcnVendor : public DcqcnBase
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    DcqcnVendor();
    ~DcqcnVendor() override;

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() const override;
    void Init(RdmaCcState& state, Time now) override;
    void Advance(RdmaCcState& state, Time now) override;
    void OnCnp(RdmaCcState& state, Time now) override;
    void OnSent(RdmaCcState& state, uint32_t bytes, Time now) override;

    // Checked setters: each throws std::invalid_argument for a value outside its range.
    void SetRateDecreaseInterval(Time t);    //!< \param t rate-decrease check period, > 0
    void SetByteCounter(uint64_t bytes);     //!< \param bytes byte counter (0: none)
    void SetRateOnFirstCnp(double fraction); //!< \param fraction in (0, 1]
    void SetClampTargetRate(bool clamp);     //!< \param clamp see the class description

    Time GetRateDecreaseInterval() const; //!< \return rate-decrease check period
    uint64_t GetByteCounter() const;      //!< \return byte counter (bytes, 0: none)
    double GetRateOnFirstCnp() const;     //!< \return the first-CNP rate fraction
    bool GetClampTargetRate() const;      //!< \return the ClampTargetRate flag

    uint64_t GetTimerStage() const; //!< \return rate-increase timer events since the last cut

  protected:
    void DoValidate() const override;

  private:
    /// One rate-increase event decided on stage s (count before the event).
    void IncreaseEvent(RdmaCcState& state, uint64_t s);
    /// The rate-decrease check at time t found a CNP: cut.
    void Decrease(RdmaCcState& state, Time t);

    // Parameters
    Time m_rateDecreaseInterval; //!< rate-decrease check period
    uint64_t m_byteCounter;      //!< byte counter (0: none)
    double m_rateOnFirstCnp;     //!< Rc fraction kept at the first CNP
    bool m_clampTargetRate;      //!< ClampTargetRate flag

    // State
    bool m_started{false};            //!< the first CNP arrived (periodic checks running)
    bool m_alphaCnpArrived{false};    //!< CNP since the last alpha update
    bool m_decreaseCnpArrived{false}; //!< CNP since the last rate-decrease check
    Time m_nextAlpha;                 //!< next alpha update
    Time m_nextDecrease;              //!< next rate-decrease check
    bool m_increaseActive{false};     //!< rate-increase timer running (after the first cut)
    Time m_nextIncrease;              //!< next rate-increase timer expiry
    uint64_t m_timerStage{0};         //!< timer stage since the last cut
    uint64_t m_byteStage{0};          //!< byte stage since the last cut
    uint64_t m_bytesCounted{0};       //!< bytes since the last byte-counter expiry
};

} // namespace ns3

#endif /* MLNET_DCQCN_VENDOR_H */
