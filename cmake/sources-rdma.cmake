# SPDX-License-Identifier: GPL-2.0-only
# The RDMA NIC transport (model/rdma/): NIC, queue pairs, RoCEv2 headers, DCQCN and the other
# congestion controls, the message-transport interface, and the flow scheduler that applies a
# scheduling policy to queue pairs.
# Paths relative to MLNET_ROOT; tests and examples need every part (CMakeLists.txt).
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
  ${_dir}/roce-header.cc
  ${_dir}/roce-v2-header.cc
  ${_dir}/rdma-queue-pair.cc
  ${_dir}/rdma-nic.cc
  ${_dir}/rdma-nic-rto.cc
  ${_dir}/rdma-flow-scheduler.cc
  ${_dir}/scheduled-flow-stats.cc
  ${_dir}/rdma-timeout-report.cc
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
  ${_dir}/roce-header.h
  ${_dir}/roce-v2-header.h
  ${_dir}/roce-frame-note.h
  ${_dir}/rdma-queue-pair.h
  ${_dir}/rdma-nic.h
  ${_dir}/rdma-nic-source.h
  ${_dir}/rdma-receive-stats.h
  ${_dir}/rdma-flow-scheduler.h
  ${_dir}/scheduled-flow-stats.h
  ${_dir}/rdma-timeout-report.h
)
list(APPEND MLNET_TEST_SOURCES
  ${MLNET_ROOT}/test/rdma/dcqcn-test.cc
  ${MLNET_ROOT}/test/rdma/rdma-retransmit-timer-test.cc
  ${MLNET_ROOT}/test/rdma/rdma-transport-test.cc
  ${MLNET_ROOT}/test/rdma/queue-pair-control-test.cc
  ${MLNET_ROOT}/test/rdma/roce-header-test.cc
  ${MLNET_ROOT}/test/fabric/pcap-test.cc
  ${MLNET_ROOT}/test/common/rdma-scenario.cc
)
list(APPEND MLNET_EXAMPLES dcqcn-convergence)
list(APPEND MLNET_EXAMPLES dcqcn-unfairness)
