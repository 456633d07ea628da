/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "tensor-order-factory.h"

#include "bytescheduler-tensor-order.h"
#include "fifo-tensor-order.h"
#include "p3-tensor-order.h"
#include "tictac-tensor-order.h"

#include <stdexcept>

namespace ns3
{

std::vector<std::string>
TensorOrderPolicyNames()
{
    return {"fifo", "tic", "tac", "p3", "p3-slicing", "p3-priority", "bytescheduler"};
}

Ptr<TensorOrderPolicy>
CreateTensorOrderPolicy(const std::string& name)
{
    if (name == "fifo")
    {
        return CreateObject<FifoTensorOrder>();
    }
    if (name == "tic" || name == "tac")
    {
        Ptr<TicTacTensorOrder> t = CreateObject<TicTacTensorOrder>();
        t->SetMode(name == "tic" ? TicTacTensorOrder::TIC : TicTacTensorOrder::TAC);
        return t;
    }
    if (name == "p3" || name == "p3-slicing" || name == "p3-priority")
    {
        // P3's two mechanisms as separate switches: slicing alone keeps the framework's
        // order; priority alone sends whole tensors
        Ptr<P3TensorOrder> p = CreateObject<P3TensorOrder>();
        p->SetPriority(name != "p3-slicing");
        if (name == "p3-priority")
        {
            p->SetSliceSize(0);
        }
        return p;
    }
    if (name == "bytescheduler")
    {
        return CreateObject<ByteSchedulerTensorOrder>();
    }
    throw std::invalid_argument(
        "tensor order policy '" + name +
        "': must be one of fifo, tic, tac, p3, p3-slicing, p3-priority, bytescheduler");
}

} // namespace ns3
