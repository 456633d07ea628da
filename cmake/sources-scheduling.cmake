# SPDX-License-Identifier: GPL-2.0-only
# Files of the scheduling part (model/scheduling/). Paths are relative to MLNET_ROOT.
set(_dir ${MLNET_ROOT}/model/scheduling)
list(APPEND MLNET_SOURCES
  ${_dir}/tensor-order-policy.cc
  ${_dir}/fifo-tensor-order.cc
  ${_dir}/tictac-tensor-order.cc
  ${_dir}/p3-tensor-order.cc
  ${_dir}/bytescheduler-tensor-order.cc
  ${_dir}/tensor-order-factory.cc
)
list(APPEND MLNET_HEADERS
  ${_dir}/tensor-order-policy.h
  ${_dir}/fifo-tensor-order.h
  ${_dir}/tictac-tensor-order.h
  ${_dir}/p3-tensor-order.h
  ${_dir}/bytescheduler-tensor-order.h
  ${_dir}/tensor-order-factory.h
)
list(APPEND MLNET_TEST_SOURCES
  ${MLNET_ROOT}/test/scheduling/tensor-order-test.cc
)
