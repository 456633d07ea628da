# SPDX-License-Identifier: GPL-2.0-only
# Helpers (helper/): topology builders and the event-engine, unit and input-limit helpers that
# the models' own helpers and the front ends share. The front end is the part scenario.
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
