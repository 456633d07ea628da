# SPDX-License-Identifier: GPL-2.0-only
# Helpers (helper/, except the front end): one per model (Install() and attributes, ns-3
# style), the topology builders, and the event-engine, unit and input-limit helpers they share.
# Paths relative to MLNET_ROOT; tests and examples need every part (CMakeLists.txt).
set(_dir ${MLNET_ROOT}/helper)
list(APPEND MLNET_SOURCES
  ${_dir}/rdma-helper.cc
  ${_dir}/flow-scheduler-helper.cc
  ${_dir}/fabric-helper.cc
  ${_dir}/fabric-topology-helper.cc
  ${_dir}/unit-parser.cc
  ${_dir}/input-limits.cc
  ${_dir}/event-scheduler-helper.cc
  ${_dir}/aggregation-helper.cc
  ${_dir}/host-interconnect-helper.cc
  ${_dir}/flow-backend-helper.cc
)
list(APPEND MLNET_HEADERS
  ${_dir}/rdma-helper.h
  ${_dir}/flow-scheduler-helper.h
  ${_dir}/fabric-helper.h
  ${_dir}/fabric-topology-helper.h
  ${_dir}/unit-parser.h
  ${_dir}/input-limits.h
  ${_dir}/event-scheduler-helper.h
  ${_dir}/aggregation-helper.h
  ${_dir}/host-interconnect-helper.h
  ${_dir}/flow-backend-helper.h
)
list(APPEND MLNET_TEST_SOURCES
  ${MLNET_ROOT}/test/helper/unit-parser-test.cc
  ${MLNET_ROOT}/test/helper/scenario-robust-test.cc
  ${MLNET_ROOT}/test/helper/event-scheduler-helper-test.cc
)
