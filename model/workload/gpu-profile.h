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
 * The default efficiency 0.4 (achieved / peak) of these raw presets is an assumption, not a
 * measurement: for ResNet-50 it gives steps shorter than published ones. Use a calibrated
 * profile (GetCalibrated, names such as "v100-amp") or Calibrate() for experiments.
 *
 * Calibrated profiles: the efficiency is solved (Calibrate) so that the roofline reproduces a
 * published single-GPU training throughput, named in GetCalibration().source:
 *  - "v100-amp":  V100 SXM2 16 GB, mixed precision (tensor cores, 125 TFLOP/s, 2-byte
 *                 activations), ResNet-50 v1.5, batch 256, 1,200 images/s;
 *  - "v100-fp32": V100 SXM2 16 GB, FP32 (CUDA cores, 15.7 TFLOP/s, 4-byte activations),
 *                 ResNet-50 v1.5, batch 112, 367 images/s;
 *  - "a100-amp":  A100 SXM4 80 GB, mixed precision (312 TFLOP/s), batch 256, 2,470 images/s;
 *  - "a100-tf32": A100 SXM4 80 GB, TF32 tensor cores (156 TFLOP/s, 4-byte activations),
 *                 batch 256, 938 images/s.
 * Source of all four: NVIDIA DeepLearningExamples, PyTorch ResNet50 v1.5 README, "Training
 * performance" tables (pytorch-21.03 NGC container, 1 GPU; batch sizes from its configs.yml).
 * Gradients stay FP32 under PyTorch AMP (FP32 master weights), so DataParallelJob's default
 * BytesPerParameter = 4 applies to both precisions.
 */
class GpuProfile
{
  public:
    /// A published single-GPU training throughput a profile is calibrated to.
    struct Calibration
    {
        std::string model;          //!< ModelZoo name ("resnet50")
        uint32_t batchSize{0};      //!< per-GPU batch of the measurement
        double samplesPerSecond{0}; //!< published throughput (images/s per GPU)
        std::string source;         //!< where the number is published
        /// \return the published step time batchSize / samplesPerSecond (s)
        double StepSeconds() const;
    };

    /**
     * \param name profile name
     * \param peakFlops peak FLOP/s (> 0)
     * \param efficiency achieved fraction of peak, in (0, 1]
     * \param memoryBandwidth memory bandwidth in bytes/s (> 0)
     * \param bytesPerElement bytes per activation / parameter element (>= 1; 2 for FP16)
     * \param backwardFactor backward time / forward time (> 0)
     * \throws std::invalid_argument naming the parameter and its accepted range
     */
    GpuProfile(std::string name,
               double peakFlops,
               double efficiency = 0.4,
               double memoryBandwidth = 900e9,
               uint32_t bytesPerElement = 2,
               double backwardFactor = 2.0);

    /// \return NVIDIA V100 SXM2 preset
    static GpuProfile V100();
    /// \return NVIDIA A100 SXM4 80 GB preset
    static GpuProfile A100();
    /// \return NVIDIA H100 SXM5 preset
    static GpuProfile H100();
    /**
     * \param name raw preset "V100", "A100", "H100" or calibrated profile "v100-amp",
     * "v100-fp32", "a100-amp", "a100-tf32" (case-insensitive) \return the profile
     * \throws std::invalid_argument listing the accepted names
     */
    static GpuProfile Get(const std::string& name);
    /**
     * \param name "v100-amp", "v100-fp32", "a100-amp" or "a100-tf32" (case-insensitive)
     * \return the profile with its efficiency calibrated to the published throughput it cites
     * \throws std::invalid_argument for other names
     */
    static GpuProfile GetCalibrated(const std::string& name);
    /// \return every name Get accepts
    static std::vector<std::string> Names();
    /// \return the published measurement this profile was calibrated to (empty model if none)
    const Calibration& GetCalibration() const;
    /**
     * Set the efficiency so that forward + backward of `model` at `batchSize` takes
     * `stepSeconds` (bisection on the efficiency; memory-bound layers do not depend on it).
     * \param model the model \param batchSize per-GPU batch (>= 1)
     * \param stepSeconds measured step time (> 0)
     * \param source where the measurement comes from (kept in GetCalibration())
     * \throws std::invalid_argument if no efficiency in (0, 1] reproduces the step
     */
    void Calibrate(const DnnModel& model,
                   uint32_t batchSize,
                   double stepSeconds,
                   const std::string& source = "");

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
    Calibration m_calibration;  //!< what the efficiency was calibrated to
};

} // namespace ns3

#endif
