# SPDX-License-Identifier: GPL-2.0-only
# The flow-level (fluid) backend (model/flow/): fluid network (progressive filling), the fabric's
# routes as fluid links, the message transport over it.
# Paths relative to MLNET_ROOT; tests and examples need every part (CMakeLists.txt).
set(_dir ${MLNET_ROOT}/model/flow)
list(APPEND MLNET_SOURCES
  ${_dir}/fluid-network.cc
  ${_dir}/fluid-network-solver.cc
  ${_dir}/fluid-network-filling.cc
  ${_dir}/fluid-network-scratch.h # private to the two solver files: not a public header
  ${_dir}/fluid-network-reserves.cc
  ${_dir}/fluid-input-port-share.cc
  ${_dir}/fluid-aggregate.cc
  ${_dir}/fluid-fabric.cc
  ${_dir}/fluid-connection.cc
  ${_dir}/fluid-transport.cc
  ${_dir}/fluid-host.cc
  ${_dir}/fluid-dcqcn.cc
  ${_dir}/fluid-dcqcn-impl.h # private to fluid-dcqcn.cc: not a public header
)
list(APPEND MLNET_HEADERS
  ${_dir}/fluid-network.h
  ${_dir}/fluid-aggregate.h
  ${_dir}/fluid-fabric.h
  ${_dir}/fluid-connection.h
  ${_dir}/fluid-transport.h
  ${_dir}/fluid-host.h
  ${_dir}/fluid-dcqcn.h
)
list(APPEND MLNET_TEST_SOURCES
  ${MLNET_ROOT}/test/flow/fluid-network-test.cc
  ${MLNET_ROOT}/test/flow/flow-ack-class-test.cc
  ${MLNET_ROOT}/test/flow/fluid-ack-unconverged-test.cc
  ${MLNET_ROOT}/test/flow/fluid-analytic-ack-test.cc
  ${MLNET_ROOT}/test/flow/fluid-fabric-test.cc
  ${MLNET_ROOT}/test/flow/fluid-transport-test.cc
  ${MLNET_ROOT}/test/flow/flow-backend-scenario-test.cc
  ${MLNET_ROOT}/test/flow/flow-scheduler-fluid-test.cc
  ${MLNET_ROOT}/test/flow/fluid-ring-group-test.cc
  ${MLNET_ROOT}/test/flow/fluid-aggregate-test.cc
  ${MLNET_ROOT}/test/flow/fluid-analytic-test.cc
  ${MLNET_ROOT}/test/flow/fluid-share-test.cc
  ${MLNET_ROOT}/test/flow/fluid-input-port-share-test.cc
  ${MLNET_ROOT}/test/flow/fluid-reserve-test.cc
  ${MLNET_ROOT}/test/flow/fluid-speed-test.cc
  ${MLNET_ROOT}/test/flow/flow-udp-periodic-test.cc
  ${MLNET_ROOT}/test/flow/flow-host-test.cc
  ${MLNET_ROOT}/test/flow/flow-dcqcn-test.cc
  ${MLNET_ROOT}/test/flow/flow-dcqcn-owner-test.cc
  ${MLNET_ROOT}/test/flow/flow-backend-dcqcn-test.cc
)
