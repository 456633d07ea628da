/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_ITERATION_DAG_H
#define MLNET_ITERATION_DAG_H

#include "dnn-model.h"
#include "gpu-profile.h"

#include "ns3/compute-dag.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The per-iteration DAG of a model on one accelerator, as the flow schedulers see it.
 *
 * One forward op per layer, in model order, each waiting for the previous one and reading its
 * layer's parameter tensor (layers with parameters only); then one backward op per layer in
 * reverse order, each reading the same tensor again. Tensor t is the t-th layer with parameters
 * from the input side (the numbering DataParallelJob and TensorOrderPolicy use), its size
 * parameters x bytes per parameter. Models list parallel branches (Inception, ResNet shortcuts)
 * one after the other, which is the order one accelerator runs them in.
 */
class IterationDag
{
  public:
    /**
     * \param model the model (>= 1 layer)
     * \param timing per-layer forward and backward times (one per layer)
     * \param bytesPerParameter bytes per parameter (>= 1)
     * \return the DAG
     * \throws std::invalid_argument on mismatched sizes
     */
    static ComputeDag Build(const DnnModel& model,
                            const std::vector<LayerTiming>& timing,
                            uint32_t bytesPerParameter = 4);
    /**
     * \param model the model \param gpu its compute model \param batch batch size (>= 1)
     * \param bytesPerParameter bytes per parameter
     * \return the DAG with the GPU's layer times
     */
    static ComputeDag Build(const DnnModel& model,
                            const GpuProfile& gpu,
                            uint32_t batch,
                            uint32_t bytesPerParameter = 4);
};

} // namespace ns3

#endif /* MLNET_ITERATION_DAG_H */
