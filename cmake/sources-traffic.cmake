# SPDX-License-Identifier: GPL-2.0-only
# Simple traffic sources and sinks for fabric experiments (model/workload/).
set(_dir ${MLNET_ROOT}/model/workload)
list(APPEND MLNET_SOURCES
  ${_dir}/constant-rate-flow.cc
  ${_dir}/flow-sink.cc
)
list(APPEND MLNET_HEADERS
  ${_dir}/constant-rate-flow.h
  ${_dir}/flow-sink.h
)
