# SPDX-License-Identifier: GPL-2.0-only
# Host interconnect (model/host/): NIC receive buffer, PCIe, IOMMU/IOTLB and memory-bus
# contention behind the NIC, hostCC-style response.
# Paths relative to MLNET_ROOT; tests and examples need every part (CMakeLists.txt).
set(_dir ${MLNET_ROOT}/model/host)
list(APPEND MLNET_SOURCES
  ${_dir}/iotlb.cc
  ${_dir}/pcie-link-model.cc
  ${_dir}/memory-bus-model.cc
  ${_dir}/host-path-timing.cc
  ${_dir}/host-interconnect.cc
)
list(APPEND MLNET_HEADERS
  ${_dir}/iotlb.h
  ${_dir}/pcie-link-model.h
  ${_dir}/memory-bus-model.h
  ${_dir}/host-path-timing.h
  ${_dir}/host-interconnect.h
)
list(APPEND MLNET_TEST_SOURCES
  ${MLNET_ROOT}/test/host/host-model-test.cc
  ${MLNET_ROOT}/test/host/host-interconnect-test.cc
  ${MLNET_ROOT}/test/host/host-scenario-test.cc
  ${MLNET_ROOT}/test/host/host-records-test.cc
)
list(APPEND MLNET_EXAMPLES host-congestion)
