# SPDX-License-Identifier: GPL-2.0-only
# Host interconnect (model/host/): NIC receive buffer, PCIe, IOMMU/IOTLB and memory-bus
# contention between an RDMA NIC and memory, hostCC-style response; helper and scenario section.
set(_dir ${MLNET_ROOT}/model/host)
list(APPEND MLNET_SOURCES
  ${_dir}/iotlb.cc
  ${_dir}/pcie-link-model.cc
  ${_dir}/memory-bus-model.cc
  ${_dir}/host-path-timing.cc
  ${_dir}/host-interconnect.cc
  ${MLNET_ROOT}/helper/host-interconnect-helper.cc
)
list(APPEND MLNET_HEADERS
  ${_dir}/iotlb.h
  ${_dir}/pcie-link-model.h
  ${_dir}/memory-bus-model.h
  ${_dir}/host-path-timing.h
  ${_dir}/host-interconnect.h
  ${MLNET_ROOT}/helper/host-interconnect-helper.h
)
list(APPEND MLNET_TEST_SOURCES
  ${MLNET_ROOT}/test/host/host-model-test.cc
  ${MLNET_ROOT}/test/host/host-interconnect-test.cc
  ${MLNET_ROOT}/test/host/host-scenario-test.cc
  ${MLNET_ROOT}/test/host/host-records-test.cc
)
list(APPEND MLNET_EXAMPLES host-congestion)
