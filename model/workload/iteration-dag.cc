/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "iteration-dag.h"

#include <stdexcept>

namespace ns3
{

ComputeDag
IterationDag::Build(const DnnModel& model,
                    const std::vector<LayerTiming>& timing,
                    uint32_t bytesPerParameter)
{
    const std::size_t n = model.GetNLayers();
    if (n == 0)
    {
        throw std::invalid_argument("IterationDag: model '" + model.GetName() + "' has no layers");
    }
    if (timing.size() != n)
    {
        throw std::invalid_argument("IterationDag: " + std::to_string(timing.size()) +
                                    " layer timings for " + std::to_string(n) +
                                    " layers (must be one per layer)");
    }
    if (bytesPerParameter == 0)
    {
        throw std::invalid_argument("IterationDag: bytesPerParameter = 0 is out of range (must "
                                    "be >= 1)");
    }
    ComputeDag g;
    std::vector<int64_t> tensor(n, -1);
    for (std::size_t i = 0; i < n; ++i)
    {
        const LayerSpec& l = model.GetLayer(i);
        if (l.parameters > 0)
        {
            tensor[i] = g.AddTensor(l.name, l.parameters * bytesPerParameter);
        }
    }
    auto reads = [&tensor](std::size_t i) {
        return tensor[i] < 0 ? std::vector<uint32_t>{}
                             : std::vector<uint32_t>{static_cast<uint32_t>(tensor[i])};
    };
    int64_t prev = -1;
    for (std::size_t i = 0; i < n; ++i)
    {
        std::vector<uint32_t> deps;
        if (prev >= 0)
        {
            deps.push_back(static_cast<uint32_t>(prev));
        }
        prev = g.AddOp("fwd." + model.GetLayer(i).name, timing[i].forwardSeconds, deps, reads(i));
    }
    for (std::size_t i = n; i-- > 0;)
    {
        prev = g.AddOp("bwd." + model.GetLayer(i).name,
                       timing[i].backwardSeconds,
                       {static_cast<uint32_t>(prev)},
                       reads(i));
    }
    return g;
}

ComputeDag
IterationDag::Build(const DnnModel& model,
                    const GpuProfile& gpu,
                    uint32_t batch,
                    uint32_t bytesPerParameter)
{
    return Build(model, gpu.GetLayerTimings(model, batch), bytesPerParameter);
}

} // namespace ns3
