/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gpu-profile.h"

#include "model-zoo.h"

#include "ns3/log.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GpuProfile");

namespace
{

void
RequirePositive(double v, const std::string& param)
{
    if (!(v > 0.0) || !std::isfinite(v))
    {
        throw std::invalid_argument("GpuProfile " + param + " = " + std::to_string(v) +
                                    " is out of range (must be > 0)");
    }
}

} // namespace

GpuProfile::GpuProfile(std::string name,
                       double peakFlops,
                       double efficiency,
                       double memoryBandwidth,
                       uint32_t bytesPerElement,
                       double backwardFactor)
    : m_name(std::move(name)),
      m_peakFlops(peakFlops),
      m_efficiency(efficiency),
      m_memoryBandwidth(memoryBandwidth),
      m_bytesPerElement(bytesPerElement),
      m_backwardFactor(backwardFactor)
{
    NS_LOG_FUNCTION(this << name << peakFlops << efficiency << memoryBandwidth << bytesPerElement
                         << backwardFactor);
    RequirePositive(peakFlops, "peakFlops");
    RequirePositive(memoryBandwidth, "memoryBandwidth");
    SetEfficiency(efficiency);
    SetBackwardFactor(backwardFactor);
    if (bytesPerElement == 0)
    {
        throw std::invalid_argument(
            "GpuProfile bytesPerElement = 0 is out of range (must be >= 1)");
    }
}

GpuProfile
GpuProfile::V100()
{
    NS_LOG_FUNCTION_NOARGS();
    return GpuProfile("V100", 125e12, 0.4, 900e9);
}

GpuProfile
GpuProfile::A100()
{
    NS_LOG_FUNCTION_NOARGS();
    return GpuProfile("A100", 312e12, 0.4, 2039e9);
}

GpuProfile
GpuProfile::H100()
{
    NS_LOG_FUNCTION_NOARGS();
    return GpuProfile("H100", 989e12, 0.4, 3350e9);
}

namespace
{

const char* const kNvidiaRn50Source =
    "NVIDIA DeepLearningExamples, PyTorch/Classification/ConvNets/resnet50v1.5/README.md, "
    "Training performance (pytorch-21.03 NGC container, 1 GPU)";

/// One calibrated profile: raw hardware and the published measurement it reproduces.
struct CalibratedEntry
{
    const char* name;
    const char* hardware;
    double peakFlops;
    double memoryBandwidth;
    uint32_t bytesPerElement;
    uint32_t batch;
    double imagesPerSecond;
};

const CalibratedEntry kCalibrated[] = {
    // V100 SXM2 16 GB (DGX-1): 125 TFLOP/s tensor cores, 15.7 TFLOP/s FP32, 900 GB/s
    {"v100-amp", "V100 mixed precision", 125e12, 900e9, 2, 256, 1200.0},
    {"v100-fp32", "V100 FP32", 15.7e12, 900e9, 4, 112, 367.0},
    // A100 SXM4 80 GB (DGX A100): 312 TFLOP/s FP16 / 156 TFLOP/s TF32 tensor cores, 2,039 GB/s
    {"a100-amp", "A100 mixed precision", 312e12, 2039e9, 2, 256, 2470.0},
    {"a100-tf32", "A100 TF32", 156e12, 2039e9, 4, 256, 938.0},
};

std::string
Lower(std::string n)
{
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
    return n;
}

} // namespace

double
GpuProfile::Calibration::StepSeconds() const
{
    NS_LOG_FUNCTION(this);
    return samplesPerSecond > 0 ? batchSize / samplesPerSecond : 0.0;
}

std::vector<std::string>
GpuProfile::Names()
{
    NS_LOG_FUNCTION_NOARGS();
    std::vector<std::string> names{"V100", "A100", "H100"};
    for (const auto& e : kCalibrated)
    {
        names.emplace_back(e.name);
    }
    return names;
}

GpuProfile
GpuProfile::GetCalibrated(const std::string& name)
{
    const std::string n = Lower(name);
    for (const auto& e : kCalibrated)
    {
        if (n == e.name)
        {
            GpuProfile g(e.name, e.peakFlops, 0.4, e.memoryBandwidth, e.bytesPerElement);
            g.Calibrate(ModelZoo::ResNet50(),
                        e.batch,
                        e.batch / e.imagesPerSecond,
                        std::string(kNvidiaRn50Source) + ", " + e.hardware + ", batch " +
                            std::to_string(e.batch) + ": " +
                            std::to_string(static_cast<int>(e.imagesPerSecond)) + " images/s");
            g.m_calibration.samplesPerSecond = e.imagesPerSecond;
            return g;
        }
    }
    throw std::invalid_argument("calibrated GPU profile name '" + name +
                                "' is unknown (accepted: v100-amp, v100-fp32, a100-amp, "
                                "a100-tf32)");
}

const GpuProfile::Calibration&
GpuProfile::GetCalibration() const
{
    return m_calibration;
}

void
GpuProfile::Calibrate(const DnnModel& model,
                      uint32_t batchSize,
                      double stepSeconds,
                      const std::string& source)
{
    NS_LOG_FUNCTION(this << batchSize << stepSeconds << source);
    RequirePositive(stepSeconds, "stepSeconds");
    if (batchSize == 0)
    {
        throw std::invalid_argument("GpuProfile::Calibrate batchSize = 0 is out of range (must "
                                    "be >= 1)");
    }
    const double saved = m_efficiency;
    auto step = [&](double e) {
        m_efficiency = e;
        return GetForwardTime(model, batchSize) + GetBackwardTime(model, batchSize);
    };
    // The step time falls monotonically as the efficiency rises.
    if (step(1.0) > stepSeconds * (1 + 1e-9))
    {
        const double floor = step(1.0);
        m_efficiency = saved;
        throw std::invalid_argument(
            "GpuProfile::Calibrate stepSeconds = " + std::to_string(stepSeconds) +
            " is out of range (must be >= " + std::to_string(floor) + " s, the step of " +
            model.GetName() + " at efficiency 1 on " + m_name + ")");
    }
    double lo = 1e-6;
    double hi = 1.0;
    if (step(lo) < stepSeconds)
    {
        m_efficiency = saved;
        throw std::invalid_argument(
            "GpuProfile::Calibrate stepSeconds = " + std::to_string(stepSeconds) +
            " is out of range (longer than the step at efficiency "
            "1e-6)");
    }
    for (int i = 0; i < 100 && hi - lo > 1e-12; ++i)
    {
        const double mid = 0.5 * (lo + hi);
        (step(mid) > stepSeconds ? lo : hi) = mid;
    }
    m_efficiency = hi;
    m_calibration.model = model.GetName();
    m_calibration.batchSize = batchSize;
    m_calibration.samplesPerSecond = batchSize / stepSeconds;
    m_calibration.source = source;
}

GpuProfile
GpuProfile::Get(const std::string& name)
{
    if (Lower(name).find('-') != std::string::npos)
    {
        try
        {
            return GetCalibrated(name);
        }
        catch (const std::invalid_argument&)
        {
            // fall through to the full list of names below
        }
    }
    std::string n = name;
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::toupper(c); });
    if (n == "V100")
    {
        return V100();
    }
    if (n == "A100")
    {
        return A100();
    }
    if (n == "H100")
    {
        return H100();
    }
    throw std::invalid_argument("GPU profile name '" + name +
                                "' is unknown (accepted: V100, A100, H100 (raw roofline, "
                                "efficiency 0.4), v100-amp, v100-fp32, a100-amp, a100-tf32 "
                                "(calibrated to published throughput))");
}

const std::string&
GpuProfile::GetName() const
{
    return m_name;
}

double
GpuProfile::GetPeakFlops() const
{
    return m_peakFlops;
}

double
GpuProfile::GetEfficiency() const
{
    return m_efficiency;
}

double
GpuProfile::GetMemoryBandwidth() const
{
    return m_memoryBandwidth;
}

double
GpuProfile::GetBackwardFactor() const
{
    return m_backwardFactor;
}

double
GpuProfile::GetKernelOverhead() const
{
    return m_kernelOverhead;
}

void
GpuProfile::SetEfficiency(double e)
{
    NS_LOG_FUNCTION(this << e);
    if (!(e > 0.0 && e <= 1.0))
    {
        throw std::invalid_argument("GpuProfile efficiency = " + std::to_string(e) +
                                    " is out of range (must be in (0, 1])");
    }
    m_efficiency = e;
}

void
GpuProfile::SetBackwardFactor(double f)
{
    NS_LOG_FUNCTION(this << f);
    RequirePositive(f, "backwardFactor");
    m_backwardFactor = f;
}

void
GpuProfile::SetKernelOverhead(double seconds)
{
    NS_LOG_FUNCTION(this << seconds);
    if (!(seconds >= 0.0) || !std::isfinite(seconds))
    {
        throw std::invalid_argument("GpuProfile kernelOverhead = " + std::to_string(seconds) +
                                    " is out of range (must be >= 0 seconds)");
    }
    m_kernelOverhead = seconds;
}

LayerTiming
GpuProfile::GetLayerTiming(const LayerSpec& layer, uint32_t batchSize) const
{
    if (batchSize == 0)
    {
        throw std::invalid_argument("batchSize = 0 is out of range (must be >= 1)");
    }
    LayerTiming t;
    if (layer.HasMeasuredTimes())
    {
        t.forwardSeconds = layer.measuredForwardSeconds;
        t.backwardSeconds = layer.measuredBackwardSeconds;
        return t;
    }
    const double compute = layer.forwardFlops * batchSize / (m_peakFlops * m_efficiency);
    const double bytes = (static_cast<double>(layer.parameters) +
                          static_cast<double>(layer.outputElements) * batchSize) *
                         m_bytesPerElement;
    const double memory = bytes / m_memoryBandwidth;
    const double fwd = std::max(compute, memory);
    t.forwardSeconds = fwd + m_kernelOverhead;
    t.backwardSeconds = m_backwardFactor * fwd + m_kernelOverhead;
    return t;
}

std::vector<LayerTiming>
GpuProfile::GetLayerTimings(const DnnModel& model, uint32_t batchSize) const
{
    std::vector<LayerTiming> times;
    times.reserve(model.GetNLayers());
    for (const auto& l : model.GetLayers())
    {
        times.push_back(GetLayerTiming(l, batchSize));
    }
    return times;
}

double
GpuProfile::GetForwardTime(const DnnModel& model, uint32_t batchSize) const
{
    double s = 0;
    for (const auto& t : GetLayerTimings(model, batchSize))
    {
        s += t.forwardSeconds;
    }
    return s;
}

double
GpuProfile::GetBackwardTime(const DnnModel& model, uint32_t batchSize) const
{
    double s = 0;
    for (const auto& t : GetLayerTimings(model, batchSize))
    {
        s += t.backwardSeconds;
    }
    return s;
}

} // namespace ns3
