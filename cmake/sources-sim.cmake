# SPDX-License-Identifier: GPL-2.0-only
# The event engine (model/sim/): mlnet's event schedulers and simulator implementation, and
# FastEvents, the models' one door to it.
# Paths relative to MLNET_ROOT; tests and examples need every part (CMakeLists.txt).
set(_dir ${MLNET_ROOT}/model/sim)
list(APPEND MLNET_SOURCES
  ${_dir}/quad-heap-scheduler.cc
  ${_dir}/timing-wheel-scheduler.cc
  ${_dir}/mlnet-simulator-impl.cc
  ${_dir}/reusable-timer.cc
  ${_dir}/huge-page-heap.cc
)
list(APPEND MLNET_HEADERS
  ${_dir}/quad-heap-scheduler.h
  ${_dir}/timing-wheel-scheduler.h
  ${_dir}/mlnet-simulator-impl.h
  ${_dir}/mlnet-event.h
  ${_dir}/fast-events.h
  ${_dir}/reusable-timer.h
  ${_dir}/huge-page-heap.h
)
list(APPEND MLNET_TEST_SOURCES
  ${MLNET_ROOT}/test/helper/mlnet-schedulers-test.cc
  ${MLNET_ROOT}/test/helper/mlnet-simulator-impl-test.cc
  ${MLNET_ROOT}/test/helper/reusable-timer-test.cc
  ${MLNET_ROOT}/test/helper/huge-page-heap-test.cc
)
