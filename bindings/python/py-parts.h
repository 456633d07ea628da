/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_PY_PARTS_H
#define MLNET_PY_PARTS_H

// Each part of mlnet that has Python functions of its own registers them from its own file
// (bindings/python/py-<part>.cc) through one function declared here and called from
// PYBIND11_MODULE in mlnet-python.cc.

#include <pybind11/pybind11.h>
#include <string>
#include <vector>

namespace ns3
{
class SimulationSession;
struct IterationRecord;
} // namespace ns3

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

/// Simulation.host(), aggregation(), scheduler(), traffic() and iteration_records(): the
/// scenario format's sections and traffic entries in a session (py-session-sections.cc).
void RegisterSessionSections(pybind11::module_& m);

/// \param simulation a mlnet.Simulation \return its session, open and idle (py-simulation.cc)
ns3::SimulationSession& SessionOf(pybind11::handle simulation);

/// \param simulation a mlnet.Simulation \return its session, open or closed (py-simulation.cc)
const ns3::SimulationSession& RecordsOf(pybind11::handle simulation);

/// \param message a scenario message ("scenario: host.pcieLanes = 3: ...") \return it with
/// the keys in Python's words ("host.pcie_lanes = 3: ..."; py-session-sections.cc)
std::string InPythonWords(const std::string& message);

/// \param records iteration records \return one dict per record (py-session-sections.cc)
pybind11::list IterationList(const std::vector<ns3::IterationRecord>& records);

/// Close the live Simulation unless a run is in progress (interpreter exit; py-simulation.cc).
void CloseLiveSimulation();

} // namespace mlnetpy

#endif /* MLNET_PY_PARTS_H */
