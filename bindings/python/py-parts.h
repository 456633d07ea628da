/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_PY_PARTS_H
#define MLNET_PY_PARTS_H

// Each part of mlnet that has Python functions of its own registers them from its own file
// (bindings/python/py-<part>.cc) through one function declared here and called from
// PYBIND11_MODULE in mlnet-python.cc.

#include <pybind11/pybind11.h>

namespace mlnetpy
{

/// Flow schedulers: flow_policies, flow_decide, fluid_run, cct_flexibility.
void RegisterFlowScheduling(pybind11::module_& m);

/// In-network aggregation: AdderTree, aggregate() (py-aggregation.cc).
void RegisterAggregation(pybind11::module_& m);

/// Host interconnect: host_path() (py-host.cc).
void RegisterHost(pybind11::module_& m);

/// Simulation, Flow, Job, Topology: ns3::SimulationSession bound (py-simulation.cc).
void RegisterSimulation(pybind11::module_& m);

/// Close the live Simulation unless a run is in progress (interpreter exit; py-simulation.cc).
void CloseLiveSimulation();

} // namespace mlnetpy

#endif /* MLNET_PY_PARTS_H */
