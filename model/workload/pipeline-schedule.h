/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_PIPELINE_SCHEDULE_H
#define MLNET_PIPELINE_SCHEDULE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief One operation of a pipeline stage: the forward or backward pass of one micro-batch.
 */
struct PipelineOp
{
    /// Pass direction
    enum Type : uint8_t
    {
        FORWARD,
        BACKWARD,
    };

    Type type{FORWARD};     //!< forward or backward
    uint32_t microBatch{0}; //!< micro-batch index in [0, M)

    /// \param mb micro-batch \return Forward(mb)
    static PipelineOp Forward(uint32_t mb);
    /// \param mb micro-batch \return Backward(mb)
    static PipelineOp Backward(uint32_t mb);
    /// \return "F3" / "B3"
    std::string ToString() const;
    /// \param o other \return true if equal
    bool operator==(const PipelineOp& o) const;
    /// \param o other \return true if different
    bool operator!=(const PipelineOp& o) const;
};

/**
 * \ingroup mlnet
 * \brief Start and end time of one op when a schedule is executed (see PipelineSchedule::Execute).
 */
struct PipelineOpTiming
{
    PipelineOp op;   //!< the op
    double start{0}; //!< start time (s)
    double end{0};   //!< end time (s)
};

/**
 * \ingroup mlnet
 * \brief Per-stage ordered op lists of a pipeline-parallel training iteration (S stages,
 * M micro-batches), as pure data: the training job replays them; no simulator involved.
 *
 * Dependencies (stage s in [0, S), stage 0 holds the input layers):
 *  - F(s, m) after F(s-1, m) (activations flow forward);
 *  - B(s, m) after B(s+1, m) (gradients flow backward) and after F(s, m) on the same stage.
 *
 * Generators:
 *  - GPipe (Huang et al., NeurIPS 2019): every stage runs F(0..M-1), then B(M-1..0) (backward in
 *    reverse micro-batch order, as in the paper's Figure 2c). Up to M micro-batches in flight.
 *  - 1F1B (PipeDream-Flush, Narayanan et al. 2021; Megatron-LM's non-interleaved schedule):
 *    stage s runs min(S-s-1, M) warm-up forwards, then alternates one forward and one backward,
 *    then drains the remaining backwards. At most S-s micro-batches are in flight on stage s.
 */
class PipelineSchedule
{
  public:
    /**
     * \brief Wrap explicit per-stage op lists (e.g. a hand-written schedule to check).
     * \param stageOps ops of each stage, in execution order
     * \param microBatches number of micro-batches M (>= 1)
     */
    PipelineSchedule(std::vector<std::vector<PipelineOp>> stageOps, uint32_t microBatches);

    /// \param stages S (>= 1) \param microBatches M (>= 1) \return the GPipe schedule
    static PipelineSchedule Gpipe(uint32_t stages, uint32_t microBatches);
    /// \param stages S (>= 1) \param microBatches M (>= 1) \return the 1F1B schedule
    static PipelineSchedule OneFOneB(uint32_t stages, uint32_t microBatches);

    /// \return the number of stages S
    uint32_t GetNStages() const;
    /// \return the number of micro-batches M
    uint32_t GetNMicroBatches() const;
    /// \param stage stage index (< S, else std::invalid_argument) \return its ordered ops
    const std::vector<PipelineOp>& GetOps(uint32_t stage) const;
    /// \return ops of every stage
    const std::vector<std::vector<PipelineOp>>& GetAllOps() const;

    /**
     * \param stage stage index
     * \return the maximum number of micro-batches whose forward has run on this stage but whose
     * backward has not (activations held in memory)
     */
    uint32_t GetMaxInFlight(uint32_t stage) const;

    /**
     * \brief Check the schedule: every stage holds exactly one F and one B per micro-batch,
     * B(s, m) comes after F(s, m) in the stage's list, and executing the lists in order with
     * the cross-stage dependencies cannot deadlock.
     * \return an empty string if valid, else a description of the first violation
     */
    std::string Check() const;

    /**
     * \brief Execute the schedule: each stage runs its ops in list order, each op as soon as its
     * stage is free and its dependencies have finished.
     * \param forwardTime time of one forward op (>= 0 s)
     * \param backwardTime time of one backward op (>= 0 s)
     * \param commTime delay between dependent ops on adjacent stages (>= 0 s)
     * \return per-stage op timings, in list order; std::invalid_argument if Check() fails
     */
    std::vector<std::vector<PipelineOpTiming>> Execute(double forwardTime,
                                                       double backwardTime,
                                                       double commTime = 0.0) const;

    /// \return makespan of Execute(forwardTime, backwardTime, commTime)
    double GetMakespan(double forwardTime, double backwardTime, double commTime = 0.0) const;

  private:
    std::vector<std::vector<PipelineOp>> m_ops; //!< per-stage op lists
    uint32_t m_microBatches;                    //!< M
};

} // namespace ns3

#endif
