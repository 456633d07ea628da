/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_LAYER_SPEC_H
#define MLNET_LAYER_SPEC_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief What kind of operation a layer is (used for reporting and for GPU timing only).
 */
enum class LayerKind : uint8_t
{
    Conv,       //!< 2-D convolution
    Linear,     //!< fully connected / matrix multiply
    BatchNorm,  //!< 2-D batch normalisation (affine)
    LayerNorm,  //!< layer normalisation (affine)
    Embedding,  //!< embedding lookup table
    Attention,  //!< attention core softmax(QK^T)V (the projections are Linear layers)
    Pool,       //!< max / average pooling
    Activation, //!< element-wise activation
    Custom,     //!< user-described layer (e.g. from a per-layer CSV table)
};

/// \return the lower-case name of a layer kind ("conv", "fc", ...)
std::string LayerKindName(LayerKind kind);

/**
 * \ingroup mlnet
 * \brief One layer of a DNN: its parameter count, forward cost per sample and output size.
 *
 * Cost convention: a multiply-accumulate (MAC) counts as 2 FLOPs. `forwardMacs` holds the MACs
 * of the matrix-multiply part only (convolutions, linear layers, attention products), which is
 * the number usually quoted as "FLOPs" for CNNs (e.g. 15.5 G for VGG-16 at 224x224);
 * `forwardFlops` is the full count: 2 x MACs plus bias additions, normalisation and pooling
 * element operations. Both are per sample (one image, or one sequence for transformers).
 *
 * The builders compute parameters and costs exactly from the layer's shape and validate their
 * arguments (std::invalid_argument naming the parameter and the accepted range).
 */
struct LayerSpec
{
    std::string name;                     //!< layer name (unique within a model by convention)
    LayerKind kind{LayerKind::Custom};    //!< kind of operation
    uint64_t parameters{0};               //!< trainable parameters (weights + biases)
    double forwardMacs{0};                //!< multiply-accumulates per sample (matmul part)
    double forwardFlops{0};               //!< total forward FLOPs per sample
    uint64_t outputElements{0};           //!< output activation elements per sample
    uint32_t outChannels{0};              //!< output channels (conv/pool/bn; 0 if n/a)
    uint32_t outHeight{0};                //!< output height (conv/pool/bn; 0 if n/a)
    uint32_t outWidth{0};                 //!< output width (conv/pool/bn; 0 if n/a)
    double measuredForwardSeconds{-1.0};  //!< measured forward time (s), < 0 if not measured
    double measuredBackwardSeconds{-1.0}; //!< measured backward time (s), < 0 if not measured

    /// \return true if both measured times are set (e.g. from a per-layer CSV table)
    bool HasMeasuredTimes() const;

    /**
     * \brief Square 2-D convolution (groups = 1, dilation = 1).
     * \param name layer name
     * \param in input channels (>= 1)
     * \param out output channels (>= 1)
     * \param k kernel size (>= 1)
     * \param stride stride (>= 1)
     * \param pad zero padding on each side
     * \param bias whether the layer has a bias vector
     * \param inH input height (>= 1)
     * \param inW input width (>= 1)
     * \return the layer; params = out x in x k x k (+ out)
     */
    static LayerSpec Conv2d(const std::string& name,
                            uint32_t in,
                            uint32_t out,
                            uint32_t k,
                            uint32_t stride,
                            uint32_t pad,
                            bool bias,
                            uint32_t inH,
                            uint32_t inW);

    /**
     * \brief Rectangular 2-D convolution (e.g. Inception's 1x7 / 7x1 factorised kernels).
     * \param name layer name
     * \param in input channels
     * \param out output channels
     * \param kH kernel height
     * \param kW kernel width
     * \param strideH vertical stride
     * \param strideW horizontal stride
     * \param padH vertical padding
     * \param padW horizontal padding
     * \param bias whether the layer has a bias vector
     * \param inH input height
     * \param inW input width
     * \return the layer
     */
    static LayerSpec Conv2dRect(const std::string& name,
                                uint32_t in,
                                uint32_t out,
                                uint32_t kH,
                                uint32_t kW,
                                uint32_t strideH,
                                uint32_t strideW,
                                uint32_t padH,
                                uint32_t padW,
                                bool bias,
                                uint32_t inH,
                                uint32_t inW);

    /**
     * \brief Depthwise 2-D convolution (groups = channels, one k x k filter per channel), as in
     * MobileNet's separable convolutions.
     * \param name layer name
     * \param channels input = output channels (>= 1)
     * \param k kernel size (>= 1)
     * \param stride stride (>= 1)
     * \param pad zero padding on each side
     * \param bias whether the layer has a bias vector
     * \param inH input height (>= 1)
     * \param inW input width (>= 1)
     * \return the layer; params = channels x k x k (+ channels)
     */
    static LayerSpec DepthwiseConv2d(const std::string& name,
                                     uint32_t channels,
                                     uint32_t k,
                                     uint32_t stride,
                                     uint32_t pad,
                                     bool bias,
                                     uint32_t inH,
                                     uint32_t inW);

    /**
     * \brief Fully connected layer applied to `tokens` vectors per sample.
     * \param name layer name
     * \param in input features (>= 1)
     * \param out output features (>= 1)
     * \param bias whether the layer has a bias vector
     * \param tokens vectors per sample (1 for CNN classifiers, sequence length for transformers)
     * \return the layer; params = in x out (+ out)
     */
    static LayerSpec Linear(const std::string& name,
                            uint32_t in,
                            uint32_t out,
                            bool bias = true,
                            uint32_t tokens = 1);

    /**
     * \brief Affine 2-D batch normalisation: 2 x channels parameters (the running mean and
     * variance are buffers, not parameters). 2 FLOPs per element (scale and shift).
     */
    static LayerSpec BatchNorm2d(const std::string& name,
                                 uint32_t channels,
                                 uint32_t h,
                                 uint32_t w);

    /// \brief Affine layer normalisation over `hidden` features, for `tokens` vectors per sample
    /// (2 x hidden parameters; counted as 5 FLOPs per element: mean, variance, normalise, affine).
    static LayerSpec LayerNorm(const std::string& name, uint32_t hidden, uint32_t tokens = 1);

    /// \brief Embedding table of `rows` x `dim` parameters, looked up `tokens` times per sample.
    static LayerSpec Embedding(const std::string& name,
                               uint32_t rows,
                               uint32_t dim,
                               uint32_t tokens = 1);

    /**
     * \brief Max or average pooling (no parameters); one FLOP per window element and output.
     * \param name layer name
     * \param channels channels
     * \param k window size
     * \param stride stride
     * \param pad padding
     * \param inH input height
     * \param inW input width
     * \param ceilMode PyTorch ceil_mode (round the output size up)
     * \return the layer
     */
    static LayerSpec Pool2d(const std::string& name,
                            uint32_t channels,
                            uint32_t k,
                            uint32_t stride,
                            uint32_t pad,
                            uint32_t inH,
                            uint32_t inW,
                            bool ceilMode = false);

    /// \brief Adaptive average pooling from inH x inW to outH x outW (no parameters).
    static LayerSpec AdaptiveAvgPool2d(const std::string& name,
                                       uint32_t channels,
                                       uint32_t inH,
                                       uint32_t inW,
                                       uint32_t outH,
                                       uint32_t outW);

    /**
     * \brief Multi-head attention core: scores QK^T, softmax, and the weighted sum with V
     * (the QKV and output projections are separate Linear layers). No parameters;
     * MACs = 2 x seqLen^2 x hidden; softmax counted as 5 FLOPs per score.
     * \param name layer name
     * \param seqLen sequence length (>= 1)
     * \param hidden model width (>= 1, divisible by heads)
     * \param heads attention heads (>= 1)
     * \return the layer
     */
    static LayerSpec Attention(const std::string& name,
                               uint32_t seqLen,
                               uint32_t hidden,
                               uint32_t heads);

    /// \brief A user-described layer with the given totals.
    static LayerSpec Custom(const std::string& name,
                            uint64_t parameters,
                            double forwardFlops = 0,
                            uint64_t outputElements = 0);
};

/**
 * \ingroup mlnet
 * \brief Output size of a convolution or pooling window along one dimension, PyTorch rules.
 * \param in input size
 * \param k window size
 * \param stride stride
 * \param pad padding on each side
 * \param ceilMode round up (pooling's ceil_mode); the last window must start inside the input
 * \return output size; throws std::invalid_argument if the window does not fit
 */
uint32_t ConvOutputSize(uint32_t in,
                        uint32_t k,
                        uint32_t stride,
                        uint32_t pad,
                        bool ceilMode = false);

} // namespace ns3

#endif
