/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_GPU_PROFILE_H
#define MLNET_GPU_PROFILE_H

#include "dnn-model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Forward and backward compute time of one layer for one (micro-)batch, in seconds.
 */
struct LayerTiming
{
    double forwardSeconds{0};  //!< forward pass time (s)
    double backwardSeconds{0}; //!< backward pass time (s), gradient w.r.t. inputs and weights
};

/**
 * \ingroup mlnet
 * \brief Compute-time model of one accelerator: a roofline per layer.
 *
 * forward(layer, B) = max(FLOPs(layer) x B / (peak x efficiency),
 *                         bytes moved / memory bandwidth) + kernel overhead,
 * where bytes moved = (parameters + B x output elements) x bytes per element.
 * backward = backwardFactor x forward (default 2: gradients w.r.t. inputs and w.r.t. weights each
 * cost about one forward). Layers with measured times (e.g. from a per-layer CSV) use those
 * as-is, whatever the batch size.
 *
 * Presets (dense FP16/BF16 tensor-core peaks, SXM parts, from NVIDIA's datasheets):
 *  - V100 SXM2: 125 TFLOP/s, 900 GB/s HBM2 (NVIDIA Tesla V100 datasheet);
 *  - A100 SXM4 80 GB: 312 TFLOP/s, 2,039 GB/s HBM2e (NVIDIA A100 datasheet; 1,555 GB/s for 40 GB);
 *  - H100 SXM5: 989 TFLOP/s (1,979 with sparsity), 3,350 GB/s HBM3 (NVIDIA H100 datasheet).
 * The default efficiency 0.4 (achieved / peak) is an assumption in the range of model-FLOPs
 * utilisation reported for large-scale training; calibrate it for your workload.
 */
class GpuProfile
{
  public:
    /**
     * \param name profile name
     * \param peakFlops peak FLOP/s (> 0)
     * \param efficiency achieved fraction of peak, in (0, 1]
     * \param memoryBandwidth memory bandwidth in bytes/s (> 0)
     * \param bytesPerElement bytes per activation / parameter element (>= 1; 2 for FP16)
     * \param backwardFactor backward time / forward time (> 0)
     * \throws std::invalid_argument naming the parameter and its accepted range
     */
    GpuProfile(std::string name, double peakFlops, double efficiency = 0.4,
               double memoryBandwidth = 900e9, uint32_t bytesPerElement = 2,
               double backwardFactor = 2.0);

    /// \return NVIDIA V100 SXM2 preset
    static GpuProfile V100();
    /// \return NVIDIA A100 SXM4 80 GB preset
    static GpuProfile A100();
    /// \return NVIDIA H100 SXM5 preset
    static GpuProfile H100();
    /// \param name "V100", "A100" or "H100" (case-insensitive) \return the preset
    static GpuProfile Get(const std::string& name);

    /// \return the profile name
    const std::string& GetName() const;
    /// \return peak FLOP/s
    double GetPeakFlops() const;
    /// \return achieved fraction of peak
    double GetEfficiency() const;
    /// \return memory bandwidth (bytes/s)
    double GetMemoryBandwidth() const;
    /// \return backward / forward time ratio
    double GetBackwardFactor() const;
    /// \return fixed per-layer overhead (s) added to each pass
    double GetKernelOverhead() const;

    /// \param e achieved fraction of peak, in (0, 1]
    void SetEfficiency(double e);
    /// \param f backward / forward ratio (> 0)
    void SetBackwardFactor(double f);
    /// \param seconds fixed overhead per layer and pass (>= 0), e.g. kernel launches
    void SetKernelOverhead(double seconds);

    /// \param layer the layer \param batchSize samples per (micro-)batch (>= 1) \return its times
    LayerTiming GetLayerTiming(const LayerSpec& layer, uint32_t batchSize) const;
    /// \param model the model \param batchSize samples per (micro-)batch \return per-layer times
    std::vector<LayerTiming> GetLayerTimings(const DnnModel& model, uint32_t batchSize) const;
    /// \param model the model \param batchSize samples \return total forward time (s)
    double GetForwardTime(const DnnModel& model, uint32_t batchSize) const;
    /// \param model the model \param batchSize samples \return total backward time (s)
    double GetBackwardTime(const DnnModel& model, uint32_t batchSize) const;

  private:
    std::string m_name;         //!< profile name
    double m_peakFlops;         //!< FLOP/s
    double m_efficiency;        //!< achieved / peak
    double m_memoryBandwidth;   //!< bytes/s
    uint32_t m_bytesPerElement; //!< bytes per element
    double m_backwardFactor;    //!< backward / forward
    double m_kernelOverhead{0}; //!< seconds per layer and pass
};

} // namespace ns3

#endif
