# SPDX-License-Identifier: GPL-2.0-only
# RDMA NIC transport (model/rdma/) and its helper.
set(_dir ${MLNET_ROOT}/model/rdma)
list(APPEND MLNET_SOURCES
  ${_dir}/roce-header.cc
  ${_dir}/roce-v2-header.cc
  ${_dir}/rdma-queue-pair.cc
  ${_dir}/rdma-nic.cc
  ${MLNET_ROOT}/helper/rdma-helper.cc
)
list(APPEND MLNET_HEADERS
  ${_dir}/roce-header.h
  ${_dir}/roce-v2-header.h
  ${_dir}/rdma-queue-pair.h
  ${_dir}/rdma-nic.h
  ${_dir}/rdma-nic-source.h
  ${_dir}/rdma-receive-stats.h
  ${MLNET_ROOT}/helper/rdma-helper.h
)
list(APPEND MLNET_TEST_SOURCES
  ${MLNET_ROOT}/test/rdma/rdma-transport-test.cc
  ${MLNET_ROOT}/test/rdma/queue-pair-control-test.cc
  ${MLNET_ROOT}/test/rdma/roce-header-test.cc
  ${MLNET_ROOT}/test/fabric/pcap-test.cc
  ${MLNET_ROOT}/test/common/rdma-scenario.cc
)
list(APPEND MLNET_EXAMPLES dcqcn-convergence)
list(APPEND MLNET_EXAMPLES dcqcn-unfairness)
