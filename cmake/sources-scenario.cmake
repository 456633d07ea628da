# SPDX-License-Identifier: GPL-2.0-only
# The front end, on top of every other part (helper/scenario*.cc, helper/simulation-session.cc):
# the JSON scenario parser and runner with every section's parser, SimulationSession (what
# Python binds) and the mlnet-run program.
# Keep these files in this order: their sections and traffic types register themselves at load
# time, and the registration order is the order of error messages' lists.
# Paths relative to MLNET_ROOT; tests and examples need every part (CMakeLists.txt).
set(_dir ${MLNET_ROOT}/helper)
list(APPEND MLNET_SOURCES
  ${_dir}/scenario-flow-scheduler.cc
  ${_dir}/scenario.cc
  ${_dir}/scenario-object.cc
  ${_dir}/scenario-traffic.cc
  ${_dir}/scenario-runner.cc
  ${_dir}/scenario-rdma.cc
  ${_dir}/scenario-congestion-control.cc
  ${_dir}/scenario-fluid-cc.cc
  ${_dir}/scenario-jobs.cc
  ${_dir}/scenario-extension.cc
  ${_dir}/scenario-aggregation.cc
  ${_dir}/scenario-host.cc
  ${_dir}/simulation-session.cc
  ${_dir}/simulation-session-sections.cc
)
list(APPEND MLNET_HEADERS
  ${_dir}/scenario.h
  ${_dir}/scenario-traffic.h
  ${_dir}/scenario-runner.h
  ${_dir}/scenario-congestion-control.h
  ${_dir}/scenario-extension.h
  ${_dir}/simulation-session.h
)
list(APPEND MLNET_TEST_SOURCES
  ${MLNET_ROOT}/test/helper/scenario-test.cc
  ${MLNET_ROOT}/test/helper/scenario-rdma-test.cc
  ${MLNET_ROOT}/test/helper/scenario-cc-test.cc
  ${MLNET_ROOT}/test/helper/scenario-jobs-test.cc
  ${MLNET_ROOT}/test/helper/scenario-outputs-test.cc
  ${MLNET_ROOT}/test/helper/simulation-session-test.cc
  ${MLNET_ROOT}/test/helper/scenario-naming-test.cc
)
list(APPEND MLNET_EXAMPLES mlnet-run)
