/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_COMPUTE_DAG_H
#define MLNET_COMPUTE_DAG_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief One compute op of an iteration's DAG: its time, the ops it waits for and the
 * parameter tensors it reads (which must have arrived over the network).
 */
struct DagOp
{
    std::string name;            //!< op name
    double seconds{0};           //!< compute time (s, >= 0)
    std::vector<uint32_t> deps;  //!< ops that must finish first
    std::vector<uint32_t> reads; //!< tensors it reads
};

/**
 * \ingroup mlnet
 * \brief A parameter tensor of the DAG (what the network delivers).
 */
struct DagTensor
{
    std::string name;  //!< tensor name
    uint64_t bytes{0}; //!< size (bytes)
};

/**
 * \ingroup mlnet
 * \brief The ideal execution of a ComputeDag (see ComputeDag::IdealSchedule). Times in seconds
 * from the start of the transfers.
 */
struct DagSchedule
{
    std::vector<uint32_t> order;  //!< ops in execution order
    std::vector<double> opStart;  //!< per op: start in the ideal schedule
    std::vector<double> opEnd;    //!< per op: end in the ideal schedule
    std::vector<double> arrival;  //!< per tensor: arrival in the ideal transfer order
    std::vector<double> deadline; //!< per tensor: latest arrival that keeps the makespan
                                  //!< (infinity for tensors no op reads)
    double makespan{0};           //!< iteration time with the ideal transfers
    double minCct{0};             //!< all read tensors at full rate: total bytes / rate
    double maxTolerableCct{0};    //!< latest completion of the transfers keeping the makespan

    /// \return CadentFlow's CCT flexibility ratio maxTolerableCct / minCct (>= 1)
    double FlexibilityRatio() const;
};

/**
 * \ingroup mlnet
 * \brief The per-iteration DAG of a training job as the schedulers see it: ops with compute
 * times and dependencies, and the parameter tensors each op reads.
 *
 * Execution model (one accelerator): ops run one at a time in ExecutionOrder() (a topological
 * order, smallest op index first among the ready ones), each as soon as the previous op ended,
 * its dependencies ended and the tensors it reads arrived. Pure data; Validate() rejects
 * unknown ids, negative times and cycles with std::invalid_argument.
 */
class ComputeDag
{
  public:
    /**
     * \param name tensor name \param bytes size (>= 1)
     * \return the tensor id (0, 1, ...)
     */
    uint32_t AddTensor(const std::string& name, uint64_t bytes);
    /**
     * \param name op name \param seconds compute time (>= 0)
     * \param deps ops it waits for (any op ids; checked by Validate())
     * \param reads tensors it reads
     * \return the op id (0, 1, ...)
     */
    uint32_t AddOp(const std::string& name,
                   double seconds,
                   std::vector<uint32_t> deps = {},
                   std::vector<uint32_t> reads = {});
    /// \return the ops
    const std::vector<DagOp>& GetOps() const;
    /// \return the tensors
    const std::vector<DagTensor>& GetTensors() const;

    /// Check ids, times and acyclicity; throws std::invalid_argument naming the problem.
    void Validate() const;
    /// \return the ops in execution order (validates)
    std::vector<uint32_t> ExecutionOrder() const;
    /**
     * \return per tensor, its rank in the order of first use by the execution order (0 = read
     * first); tensors no op reads come after, by id
     */
    std::vector<uint32_t> ConsumptionOrder() const;
    /**
     * \brief The ideal iteration: tensors arrive one after the other in consumption order over
     * one link of the given rate (optimal for one bottleneck), ops run as in the execution
     * model. Deadlines are as-late-as-possible: tensor t's deadline is the latest start of its
     * first reader that keeps the makespan (makespan minus the compute of that op and every op
     * after it). maxTolerableCct is the largest deadline.
     * \param bytesPerSecond link rate (> 0)
     * \return the schedule
     */
    DagSchedule IdealSchedule(double bytesPerSecond) const;

    /// A tensor's use of one link: (link id, bytes on the link per byte of the tensor).
    typedef std::pair<uint32_t, double> LinkUse;
    /**
     * \brief The ideal iteration when the tensors cross several links: each link carries its
     * tensors in consumption order at full rate, and a tensor arrives when the last of its links
     * has carried it (e.g. a parameter-server pull: the server's uplink carries each of its
     * tensors once per worker, multiplier W, and the worker's downlink every tensor once).
     * minCct is the busiest link's total time; deadlines as in IdealSchedule(double).
     * \param links per tensor, the links it crosses (tensors no op reads may have none)
     * \param linkBytesPerSecond rate of each link (> 0)
     * \return the schedule
     */
    DagSchedule IdealSchedule(const std::vector<std::vector<LinkUse>>& links,
                              const std::vector<double>& linkBytesPerSecond) const;

  private:
    std::vector<DagOp> m_ops;
    std::vector<DagTensor> m_tensors;
};

} // namespace ns3

#endif /* MLNET_COMPUTE_DAG_H */
