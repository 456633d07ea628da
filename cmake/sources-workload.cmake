# SPDX-License-Identifier: GPL-2.0-only
# Files of the workload part (model/workload/). Paths are relative to MLNET_ROOT.
set(_dir ${MLNET_ROOT}/model/workload)
list(APPEND MLNET_SOURCES
  ${_dir}/layer-spec.cc
  ${_dir}/dnn-model.cc
  ${_dir}/model-zoo.cc
  ${_dir}/gpu-profile.cc
  ${_dir}/pipeline-schedule.cc
)
list(APPEND MLNET_HEADERS
  ${_dir}/layer-spec.h
  ${_dir}/dnn-model.h
  ${_dir}/model-zoo.h
  ${_dir}/gpu-profile.h
  ${_dir}/pipeline-schedule.h
)
list(APPEND MLNET_TEST_SOURCES
  ${MLNET_ROOT}/test/workload/model-zoo-test.cc
  ${MLNET_ROOT}/test/workload/pipeline-schedule-test.cc
)
