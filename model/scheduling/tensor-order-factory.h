/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_TENSOR_ORDER_FACTORY_H
#define MLNET_TENSOR_ORDER_FACTORY_H

#include "tensor-order-policy.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Create a tensor transfer-order policy from its short name, as scenario files, examples
 * and the Python module spell it: "fifo", "tic", "tac", "p3", "bytescheduler".
 * \param name the short name
 * \return a new policy with its default attributes (TicTac's mode set from the name)
 * \throws std::invalid_argument naming the accepted names
 */
Ptr<TensorOrderPolicy> CreateTensorOrderPolicy(const std::string& name);

/// \return the short names CreateTensorOrderPolicy accepts
std::vector<std::string> TensorOrderPolicyNames();

} // namespace ns3

#endif /* MLNET_TENSOR_ORDER_FACTORY_H */
