# SPDX-License-Identifier: GPL-2.0-only
# Helpers (helper/): topology builders, one helper per part, the scenario runner.
set(_dir ${MLNET_ROOT}/helper)
list(APPEND MLNET_SOURCES
  ${_dir}/fabric-helper.cc
  ${_dir}/fabric-topology-helper.cc
  ${_dir}/unit-parser.cc
  ${_dir}/input-limits.cc
  ${_dir}/event-scheduler-helper.cc
)
list(APPEND MLNET_HEADERS
  ${_dir}/fabric-helper.h
  ${_dir}/fabric-topology-helper.h
  ${_dir}/unit-parser.h
  ${_dir}/input-limits.h
  ${_dir}/event-scheduler-helper.h
)
list(APPEND MLNET_TEST_SOURCES
  ${MLNET_ROOT}/test/helper/unit-parser-test.cc
  ${MLNET_ROOT}/test/helper/scenario-robust-test.cc
  ${MLNET_ROOT}/test/helper/event-scheduler-helper-test.cc
)

# Scenario runner (JSON scenario -> run -> records) and the mlnet-run program.
list(APPEND MLNET_SOURCES
  ${MLNET_ROOT}/helper/scenario.cc
  ${MLNET_ROOT}/helper/scenario-traffic.cc
  ${MLNET_ROOT}/helper/scenario-runner.cc
  ${MLNET_ROOT}/helper/scenario-rdma.cc
  ${MLNET_ROOT}/helper/scenario-congestion-control.cc
  ${MLNET_ROOT}/helper/scenario-jobs.cc
  ${MLNET_ROOT}/helper/scenario-extension.cc
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
