/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_DNN_MODEL_H
#define MLNET_DNN_MODEL_H

#include "layer-spec.h"

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief A DNN as an ordered list of layers, from the input side (index 0) to the output side.
 *
 * Layers are listed in forward execution order; parallel branches (Inception blocks, ResNet
 * shortcuts) are listed one after the other. The backward pass visits them in reverse order, so
 * the gradient of layer i is produced after those of layers > i: this is what makes the order of
 * gradient transfers matter. Every total is computed from the layers, never stored.
 */
class DnnModel
{
  public:
    /// \param name model name (e.g. "vgg16")
    explicit DnnModel(std::string name = "");

    /// \return the model name
    const std::string& GetName() const;
    /// \param name the new model name
    void SetName(const std::string& name);

    /// \brief Append a layer at the output side. \param layer the layer
    void AddLayer(const LayerSpec& layer);
    /// \return all layers, input side first
    const std::vector<LayerSpec>& GetLayers() const;
    /// \return the number of layers
    std::size_t GetNLayers() const;
    /// \param i layer index (< GetNLayers(), else std::out_of_range) \return the layer
    const LayerSpec& GetLayer(std::size_t i) const;

    /// \return the total number of trainable parameters
    uint64_t GetParameterCount() const;
    /// \param bytesPerParameter bytes per parameter (4 for fp32 gradients) \return gradient bytes
    uint64_t GetParameterBytes(uint32_t bytesPerParameter = 4) const;
    /// \return forward FLOPs per sample (a MAC counts as 2 FLOPs; see LayerSpec)
    double GetForwardFlops() const;
    /// \return forward multiply-accumulates per sample (matmul part, the usual "CNN FLOPs")
    double GetForwardMacs() const;
    /// \return output activation elements per sample, summed over layers
    uint64_t GetActivationElements() const;
    /// \return indices of the layers that have parameters (the gradient tensors), input first
    std::vector<std::size_t> GetParameterizedLayers() const;
    /// \return true if every layer carries measured forward and backward times
    bool HasMeasuredTimes() const;

    /**
     * \brief Build a model from a user's per-layer table.
     *
     * CSV with 4 columns: `name, parameters, forward_us, backward_us` (times in microseconds,
     * as measured for the batch the user trains with; they are used as-is, not scaled). An
     * optional header line whose first cell is `name` is skipped, as are blank lines and lines
     * starting with `#`. Cells are trimmed; CRLF line ends are accepted.
     *
     * \param in the stream to read (model code never opens files)
     * \param name the model name
     * \return the model
     * \throws std::invalid_argument naming the line number and the column on bad input
     */
    static DnnModel FromCsv(std::istream& in, const std::string& name = "csv");

  private:
    std::string m_name;              //!< model name
    std::vector<LayerSpec> m_layers; //!< layers, input side first
};

} // namespace ns3

#endif
