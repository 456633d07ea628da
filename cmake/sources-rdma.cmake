# SPDX-License-Identifier: GPL-2.0-only
# Files of the rdma part (model/rdma/). Paths are relative to MLNET_ROOT.
set(_dir ${MLNET_ROOT}/model/rdma)
list(APPEND MLNET_SOURCES
  ${_dir}/message-transport.cc
  ${_dir}/rdma-congestion-ops.cc
  ${_dir}/dcqcn-base.cc
  ${_dir}/dcqcn.cc
  ${_dir}/dcqcn-vendor.cc
  ${_dir}/rdma-fixed-rate.cc
  ${_dir}/dcqcn-profile.cc
  ${_dir}/rdma-cc-catalog.cc
)
list(APPEND MLNET_HEADERS
  ${_dir}/message-transport.h
  ${_dir}/roce-byte-order.h
  ${_dir}/rdma-congestion-ops.h
  ${_dir}/dcqcn-base.h
  ${_dir}/dcqcn.h
  ${_dir}/dcqcn-vendor.h
  ${_dir}/rdma-fixed-rate.h
  ${_dir}/dcqcn-profile.h
  ${_dir}/rdma-cc-catalog.h
)
list(APPEND MLNET_TEST_SOURCES
  ${MLNET_ROOT}/test/rdma/dcqcn-test.cc
  ${MLNET_ROOT}/test/rdma/rdma-retransmit-timer-test.cc
)
