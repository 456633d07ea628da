/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_DCQCN_BASE_H
#define MLNET_DCQCN_BASE_H

#include "rdma-congestion-ops.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Abstract base of the DCQCN reaction points (ns3::Dcqcn, the paper's, and
 * ns3::DcqcnVendor, the NIC vendor's): the parameters, attributes, trace sources and helpers
 * both share. The state machines (Init, Advance, OnCnp, OnSent) are in the subclasses.
 *
 * Attributes (same names, defaults and ranges in both variants): "G", "InitialAlpha",
 * "AlphaTimer", "RateIncreaseTimer", "FastRecoveryStages", "RateAI", "RateHAI", "MinRate",
 * "IterGainSlope", "IterGainIntercept". The subclasses register the attributes whose defaults
 * differ ("ByteCounter", "ClampTargetRate") and their own.
 *
 * Every checked setter throws std::invalid_argument("<owner>::<name> must be <range>, got
 * <value>"), where owner is the subclass TypeId name given to the constructor.
 *
 * Iteration-aware gain (MLTCP, Rajasekaran et al.): increase steps are multiplied by
 * \f$F(r) = \max(0, S r + I)\f$, r = RdmaCcState::IterationFraction(), S = "IterGainSlope",
 * I = "IterGainIntercept"; the defaults (S = 0, I = 1) give plain DCQCN.
 *
 * Trace sources: "Rate" and "TargetRate" (old, new bit/s, fired on change), "Alpha" (old, new),
 * "Cnp" (time of each CNP).
 */
class DcqcnBase : public RdmaCongestionOps
{
  public:
    /// Default EWMA gain g (1/256)
    static constexpr double DEFAULT_G = 1.0 / 256.0;
    /// Default alpha timer, rate-increase timer T (us)
    static constexpr int64_t DEFAULT_TIMER_US = 55;
    /// Default number of fast-recovery stages F
    static constexpr uint32_t DEFAULT_F = 5;
    /// Default additive-increase step R_AI (bit/s)
    static constexpr uint64_t DEFAULT_RATE_AI = 40000000;
    /// Default hyper-increase step R_HAI (bit/s)
    static constexpr uint64_t DEFAULT_RATE_HAI = 200000000;
    /// Default minimum rate (bit/s)
    static constexpr uint64_t DEFAULT_MIN_RATE = 100000000;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    ~DcqcnBase() override;

    /**
     * Check every parameter (the setters already do; this is for callers that want one check).
     * \throws std::invalid_argument naming the first bad parameter and its accepted range
     */
    void Validate() const;

    // Checked setters: each throws std::invalid_argument for a value outside its range.
    void SetG(double g);                    //!< \param g EWMA gain, in (0, 1]
    void SetInitialAlpha(double alpha);     //!< \param alpha initial alpha, in [0, 1]
    void SetAlphaTimer(Time period);        //!< \param period alpha timer, > 0
    void SetRateIncreaseTimer(Time t);      //!< \param t rate-increase timer T, > 0
    void SetFastRecoveryStages(uint32_t f); //!< \param f fast-recovery stages F, >= 1
    void SetRateAi(DataRate rate);          //!< \param rate additive step R_AI, > 0
    void SetRateHai(DataRate rate);         //!< \param rate hyper step R_HAI, > 0
    void SetMinRate(DataRate rate);         //!< \param rate minimum rate, > 0
    void SetIterGainSlope(double s);        //!< \param s slope S of F(r), finite
    void SetIterGainIntercept(double i);    //!< \param i intercept I of F(r), finite, >= 0

    double GetG() const;                    //!< \return g
    double GetInitialAlpha() const;         //!< \return initial alpha
    Time GetAlphaTimer() const;             //!< \return alpha timer period
    Time GetRateIncreaseTimer() const;      //!< \return rate-increase timer T
    uint32_t GetFastRecoveryStages() const; //!< \return F
    DataRate GetRateAi() const;             //!< \return R_AI
    DataRate GetRateHai() const;            //!< \return R_HAI
    DataRate GetMinRate() const;            //!< \return minimum rate
    double GetIterGainSlope() const;        //!< \return S
    double GetIterGainIntercept() const;    //!< \return I

    double GetAlpha() const; //!< \return current alpha

    /**
     * \param state the queue pair's state
     * \return the iteration-aware gain F(r) = max(0, S r + I) applied to increase steps
     */
    double GetIterationGain(const RdmaCcState& state) const;

    /**
     * Throw std::invalid_argument("<owner>::<name> must be <range>, got <value>") unless ok.
     * Shared by the DCQCN variants and DcqcnProfile.
     * \param ok whether the value is acceptable
     * \param owner class name, e.g. "ns3::Dcqcn"
     * \param name parameter name
     * \param range accepted range, in words
     * \param value the rejected value, for the message
     */
    static void CheckParameter(bool ok,
                               const std::string& owner,
                               const std::string& name,
                               const std::string& range,
                               double value);

  protected:
    /**
     * \param owner TypeId name of the subclass, used in error messages (e.g. "ns3::Dcqcn")
     */
    explicit DcqcnBase(const std::string& owner);

    /**
     * Check the subclass's own parameters; called by Validate() after the shared ones.
     * \throws std::invalid_argument naming the first bad parameter and its accepted range
     */
    virtual void DoValidate() const;

    /**
     * Check the line rate and MinRate against it, at Init().
     * \param state the queue pair's state
     * \throws std::invalid_argument if the line rate is not > 0 or MinRate exceeds it
     */
    void CheckLineRate(const RdmaCcState& state) const;

    /**
     * \param ok whether the value is acceptable
     * \param name parameter name
     * \param range accepted range, in words
     * \param value the rejected value, for the message
     */
    void Check(bool ok, const std::string& name, const std::string& range, double value) const;

    /// \return true if both rates sit at line rate (increase events then change nothing)
    bool AtLineRate(const RdmaCcState& state) const;
    void SetRate(RdmaCcState& state, double rate);             //!< clamp, store, trace
    void SetTarget(RdmaCcState& state, double rate);           //!< clamp, store, trace
    void SetAlpha(double alpha);                               //!< store, trace
    double Clamp(const RdmaCcState& state, double rate) const; //!< to [MinRate, line rate]
    void TraceCnp(Time now);                                   //!< fire "Cnp"

    // Parameters
    double m_g;                 //!< EWMA gain g
    double m_initialAlpha;      //!< initial alpha
    Time m_alphaTimer;          //!< alpha timer period
    Time m_rateIncreaseTimer;   //!< rate-increase timer T
    uint32_t m_fastRecovery;    //!< F
    double m_rateAi;            //!< R_AI (bit/s)
    double m_rateHai;           //!< R_HAI (bit/s)
    double m_minRate;           //!< minimum rate (bit/s)
    double m_iterGainSlope;     //!< S
    double m_iterGainIntercept; //!< I

    // State
    double m_alpha{1.0}; //!< alpha

  private:
    std::string m_owner; //!< subclass TypeId name, for error messages

    TracedCallback<double, double> m_rateTrace;   //!< "Rate"
    TracedCallback<double, double> m_targetTrace; //!< "TargetRate"
    TracedCallback<double, double> m_alphaTrace;  //!< "Alpha"
    TracedCallback<Time> m_cnpTrace;              //!< "Cnp"
};

} // namespace ns3

#endif /* MLNET_DCQCN_BASE_H */
