/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_MODEL_ZOO_H
#define MLNET_MODEL_ZOO_H

#include "dnn-model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Shape of a GPT-style decoder-only transformer.
 *
 * Per block: LayerNorm (2h), QKV projection (h x 3h + 3h), attention core, output projection
 * (h x h + h), LayerNorm (2h), MLP up (h x 4h + 4h) and down (4h x h + h): 12h^2 + 13h
 * parameters. Plus token embedding (vocab x h), learned positions (seqLen x h), final LayerNorm
 * (2h); the LM head shares the token embedding unless tiedEmbedding is false. GPT-2 small
 * (12 layers, 768, 12 heads, vocab 50257, 1024 positions) has 124,439,808 parameters.
 */
struct TransformerConfig
{
    uint32_t layers{12};      //!< transformer blocks (>= 1)
    uint32_t hidden{768};     //!< model width h (>= 1, divisible by heads)
    uint32_t heads{12};       //!< attention heads (>= 1)
    uint32_t vocab{50257};    //!< vocabulary size (>= 1)
    uint32_t seqLen{1024};    //!< sequence length = learned positions (>= 1)
    uint32_t mlpRatio{4};     //!< MLP width / h (>= 1)
    bool tiedEmbedding{true}; //!< LM head shares the token embedding matrix
};

/**
 * \ingroup mlnet
 * \brief Standard models built layer by layer from their architecture, so that parameter counts
 * match the published totals exactly.
 *
 * CNNs follow torchvision's definitions (1000 classes, 224x224 input; 299x299 for Inception-v3),
 * counting trainable parameters only (BatchNorm running statistics are buffers):
 *  - vgg16 138,357,544; vgg19 143,667,240 (no BatchNorm);
 *  - alexnet 61,100,840 (torchvision's single-tower variant, 64-192-384-256-256 channels);
 *  - resnet50 25,557,032; resnet152 60,192,808 (v1.5: stride on the 3x3 conv);
 *  - inception_v3 23,834,568: torchvision `inception_v3(aux_logits=False)`; the published
 *    27,161,264 includes the auxiliary classifier (3,326,696 parameters) used only in training;
 *  - googlenet 6,624,904: torchvision `googlenet(aux_logits=False)` (its "5x5" branch uses 3x3
 *    kernels, kept for weight compatibility, and BatchNorm after every convolution);
 *  - gpt2 / gpt2-medium / gpt2-large / gpt2-xl: see TransformerConfig (124,439,808 /
 *    354,823,168 / 774,030,080 / 1,557,611,200).
 *
 * The TF-slim models of the CadentFlow / TicTac evaluations (tensorflow/models research/slim
 * nets, 1000 classes; CifarNet 10 classes, 32x32 input), trainable parameters as in the slim
 * model table:
 *  - cifarnet 1,756,426;
 *  - mobilenet_v2 3,504,872 (width 1.0; Keras/torchvision count the same, 3,538,984 with the
 *    BatchNorm moving statistics);
 *  - inception_v1 6,617,624: GoogLeNet with slim's BatchNorm without scale (beta only); slim's
 *    test counts 5,607,184 for the base up to Mixed_5c with the moving statistics;
 *  - resnet_v1_200 64,673,832 (bottleneck v1, blocks 3-24-36-3);
 *  - resnet_v2_101 44,577,896 and resnet_v2_152 60,236,904 (pre-activation: BatchNorm before
 *    each unit, biases on the shortcut projections and on each unit's last convolution; Keras'
 *    ResNet101V2 / ResNet152V2 count 44,675,560 / 60,380,648 with the moving statistics).
 */
class ModelZoo
{
  public:
    /// \return VGG-16
    static DnnModel Vgg16();
    /// \return VGG-19
    static DnnModel Vgg19();
    /// \return AlexNet (torchvision)
    static DnnModel AlexNet();
    /// \return ResNet-50
    static DnnModel ResNet50();
    /// \return ResNet-152
    static DnnModel ResNet152();
    /// \return Inception-v3 without auxiliary classifier
    static DnnModel InceptionV3();
    /// \return GoogLeNet without auxiliary classifiers
    static DnnModel GoogLeNet();
    /// \return CifarNet (TF-slim, 10 classes, 32x32 input)
    static DnnModel CifarNet();
    /// \return MobileNet-v2 (width 1.0)
    static DnnModel MobileNetV2();
    /// \return Inception-v1 as in TF-slim (GoogLeNet, BatchNorm without scale)
    static DnnModel InceptionV1();
    /// \return ResNet-v1-200
    static DnnModel ResNetV1_200();
    /// \return ResNet-v2-101 (pre-activation)
    static DnnModel ResNetV2_101();
    /// \return ResNet-v2-152 (pre-activation)
    static DnnModel ResNetV2_152();
    /// \param cfg the transformer shape (validated) \return a GPT-style transformer
    static DnnModel Transformer(const TransformerConfig& cfg);
    /// \return GPT-2 small
    static DnnModel Gpt2Small();
    /// \param layers blocks \param hidden width \param heads heads \param vocab vocabulary
    /// \param seqLen sequence length \return the number of parameters of that GPT shape
    static uint64_t TransformerParameterCount(uint32_t layers,
                                              uint32_t hidden,
                                              uint32_t heads,
                                              uint32_t vocab,
                                              uint32_t seqLen);
    /// \param name one of Names() \return the model; std::invalid_argument for unknown names
    static DnnModel Get(const std::string& name);
    /// \return the names accepted by Get()
    static std::vector<std::string> Names();
};

} // namespace ns3

#endif /* MLNET_MODEL_ZOO_H */
