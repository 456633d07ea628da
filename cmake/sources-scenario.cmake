# SPDX-License-Identifier: GPL-2.0-only
# The front end, on top of every other part: the JSON scenario parser and runner (helper/
# scenario*.cc, every section's parser included), SimulationSession (what Python binds) and the
# mlnet-run program.
# In the order these files had when they were built with the parts they parse (flow-scheduling,
# then helper, then aggregation and host): their sections and traffic types register
# themselves at load time, and the registration order is the order of error messages' lists.
list(APPEND MLNET_SOURCES
  ${MLNET_ROOT}/helper/scenario-flow-scheduler.cc
  ${MLNET_ROOT}/helper/scenario.cc
  ${MLNET_ROOT}/helper/scenario-traffic.cc
  ${MLNET_ROOT}/helper/scenario-runner.cc
  ${MLNET_ROOT}/helper/scenario-rdma.cc
  ${MLNET_ROOT}/helper/scenario-congestion-control.cc
  ${MLNET_ROOT}/helper/scenario-jobs.cc
  ${MLNET_ROOT}/helper/scenario-extension.cc
  ${MLNET_ROOT}/helper/scenario-aggregation.cc
  ${MLNET_ROOT}/helper/scenario-host.cc
  ${MLNET_ROOT}/helper/simulation-session.cc
)
list(APPEND MLNET_HEADERS
  ${MLNET_ROOT}/helper/scenario.h
  ${MLNET_ROOT}/helper/scenario-traffic.h
  ${MLNET_ROOT}/helper/scenario-runner.h
  ${MLNET_ROOT}/helper/scenario-congestion-control.h
  ${MLNET_ROOT}/helper/scenario-extension.h
  ${MLNET_ROOT}/helper/simulation-session.h
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
