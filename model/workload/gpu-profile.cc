/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gpu-profile.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

namespace ns3
{

namespace
{

void
RequirePositive(double v, const std::string& param)
{
    if (!(v > 0.0) || !std::isfinite(v))
    {
        throw std::invalid_argument("GpuProfile " + param + " = " + std::to_string(v)
                                    + " is out of range (must be > 0)");
    }
}

} // namespace

GpuProfile::GpuProfile(std::string name, double peakFlops, double efficiency,
                       double memoryBandwidth, uint32_t bytesPerElement, double backwardFactor)
    : m_name(std::move(name))
    , m_peakFlops(peakFlops)
    , m_efficiency(efficiency)
    , m_memoryBandwidth(memoryBandwidth)
    , m_bytesPerElement(bytesPerElement)
    , m_backwardFactor(backwardFactor)
{
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
    return GpuProfile("V100", 125e12, 0.4, 900e9);
}

GpuProfile
GpuProfile::A100()
{
    return GpuProfile("A100", 312e12, 0.4, 2039e9);
}

GpuProfile
GpuProfile::H100()
{
    return GpuProfile("H100", 989e12, 0.4, 3350e9);
}

GpuProfile
GpuProfile::Get(const std::string& name)
{
    std::string n = name;
    std::transform(n.begin(), n.end(), n.begin(),
                   [](unsigned char c)
                   {
                       return std::toupper(c);
                   });
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
    throw std::invalid_argument("GPU profile name '" + name
                                + "' is unknown (accepted: V100, A100, H100)");
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
    if (!(e > 0.0 && e <= 1.0))
    {
        throw std::invalid_argument("GpuProfile efficiency = " + std::to_string(e)
                                    + " is out of range (must be in (0, 1])");
    }
    m_efficiency = e;
}

void
GpuProfile::SetBackwardFactor(double f)
{
    RequirePositive(f, "backwardFactor");
    m_backwardFactor = f;
}

void
GpuProfile::SetKernelOverhead(double seconds)
{
    if (!(seconds >= 0.0) || !std::isfinite(seconds))
    {
        throw std::invalid_argument("GpuProfile kernelOverhead = " + std::to_string(seconds)
                                    + " is out of range (must be >= 0 seconds)");
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
    const double bytes = (static_cast<double>(layer.parameters)
                          + static_cast<double>(layer.outputElements) * batchSize)
                         * m_bytesPerElement;
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
