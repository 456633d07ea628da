# SPDX-License-Identifier: GPL-2.0-only
# The lossless datacenter fabric (model/fabric/): port device, wire and egress scheduler,
# switch, shared-buffer MMU, PFC, ECN, ECMP, the compact frame.
# Paths relative to MLNET_ROOT; tests and examples need every part (CMakeLists.txt).
set(_dir ${MLNET_ROOT}/model/fabric)
list(APPEND MLNET_SOURCES
  ${_dir}/fabric-channel.cc
  ${_dir}/fabric-egress-scheduler.cc
  ${_dir}/fabric-frame.cc
  ${_dir}/fabric-net-device.cc
  ${_dir}/fabric-net-device-ns3.cc
  ${_dir}/fabric-wire.cc
  ${_dir}/fabric-switch.cc
  ${_dir}/fabric-links.cc
  ${_dir}/flow-key.cc
  ${_dir}/flowlet-table.cc
  ${_dir}/pfc-header.cc
  ${_dir}/shared-buffer-mmu.cc
  ${_dir}/tx-time-accumulator.cc
  ${_dir}/wire-arena.cc
)
list(APPEND MLNET_HEADERS
  ${_dir}/data-class.h
  ${_dir}/fabric-channel.h
  ${_dir}/fabric-egress-scheduler.h
  ${_dir}/fabric-frame.h
  ${_dir}/fabric-net-device.h
  ${_dir}/fabric-wire.h
  ${_dir}/fabric-switch.h
  ${_dir}/fabric-links.h
  ${_dir}/flow-key.h
  ${_dir}/flowlet-table.h
  ${_dir}/pfc-header.h
  ${_dir}/shared-buffer-mmu.h
  ${_dir}/tx-time-accumulator.h
  ${_dir}/wire-arena.h
)
list(APPEND MLNET_TEST_SOURCES
  ${MLNET_ROOT}/test/fabric/ecmp-test.cc
  ${MLNET_ROOT}/test/fabric/flowlet-test.cc
  ${MLNET_ROOT}/test/fabric/ecn-marking-test.cc
  ${MLNET_ROOT}/test/fabric/fat-tree-test.cc
  ${MLNET_ROOT}/test/fabric/line-rate-test.cc
  ${MLNET_ROOT}/test/fabric/internet-interop-test.cc
  ${MLNET_ROOT}/test/fabric/mmu-test.cc
  ${MLNET_ROOT}/test/fabric/pfc-incast-test.cc
  ${MLNET_ROOT}/test/fabric/carried-flow-key-test.cc
  ${MLNET_ROOT}/test/fabric/fabric-frame-test.cc
  ${MLNET_ROOT}/test/fabric/ring-queue-test.cc
  ${MLNET_ROOT}/test/fabric/wire-arena-test.cc
  ${MLNET_ROOT}/test/fabric/channel-wire-test.cc
  ${MLNET_ROOT}/test/fabric/input-port-share-test.cc
)
