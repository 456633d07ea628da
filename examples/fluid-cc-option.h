/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_FLUID_CC_OPTION_H
#define MLNET_FLUID_CC_OPTION_H

// --fluid-cc of the examples that build their fluid fabric themselves (cadentflow-ps,
// echelon-pipeline, panama-shared-cluster, tensor-priority, network-bottleneck-whatif): DCQCN
// at flow level as a scenario's "fluidCc" (doc/flow-backend.rst, *DCQCN at flow level*), set up
// by FlowBackendHelper::InstallDcqcn.

#include "ns3/core-module.h"
#include "ns3/mlnet-module.h"

#include <stdexcept>
#include <string>

namespace mlnetexamples
{

/// --fluid-cc's help text
inline const std::string kFluidCcHelp =
    "With --backend=flow: dcqcn (the default: the packet level's DCQCN variant, with its "
    "parameters, as a fluid DCQCN model, FluidDcqcn, as a flow-level scenario's \"fluidCc\"; "
    "none where the packet level runs no DCQCN) or none (max-min rates only, faster)";

/**
 * \param cc a congestion control TypeId name
 * \return its factory (RdmaHelper's: the packet NICs' reaction point)
 * \throws std::invalid_argument if it is not an RdmaCongestionOps
 */
inline ns3::ObjectFactory
CcFactory(const std::string& cc)
{
    ns3::RdmaHelper rdma;
    rdma.SetCongestionControl(cc);
    return rdma.GetCongestionControl();
}

/**
 * \param value --fluid-cc's value
 * \param cc the packet level's congestion control (TypeId name)
 * \return what the flow level models: "dcqcn" (value dcqcn and cc a DCQCN variant) or "none"
 * \throws std::invalid_argument for a value other than dcqcn or none, or a cc that is not an
 *         RdmaCongestionOps
 */
inline std::string
FluidCc(const std::string& value, const std::string& cc)
{
    if (value != "dcqcn" && value != "none")
    {
        throw std::invalid_argument("--fluid-cc = " + value + ": must be dcqcn or none");
    }
    return value == "dcqcn" && ns3::FlowBackendHelper::IsDcqcn(CcFactory(cc)) ? "dcqcn" : "none";
}

/**
 * DCQCN at flow level on a fabric if fluidCc (FluidCc()'s value) is dcqcn.
 * \param fabric the fluid fabric (FlowBackendHelper::Install's)
 * \param fluidCc "dcqcn" or "none"
 * \param cc the packet level's congestion control (TypeId name): the reaction point
 */
inline void
InstallFluidCc(ns3::Ptr<ns3::FluidFabric> fabric, const std::string& fluidCc, const std::string& cc)
{
    if (fluidCc == "dcqcn")
    {
        ns3::FlowBackendHelper::InstallDcqcn(fabric, CcFactory(cc));
    }
}

} // namespace mlnetexamples

#endif /* MLNET_FLUID_CC_OPTION_H */
