# SPDX-License-Identifier: GPL-2.0-only
# In-network aggregation (model/aggregation/): PANAMA's bump-in-the-wire device, in-switch
# aggregation (SwitchML, ideal), the workers' transport and congestion control.
# Paths relative to MLNET_ROOT; tests and examples need every part (CMakeLists.txt).
set(_dir ${MLNET_ROOT}/model/aggregation)
list(APPEND MLNET_SOURCES
  ${_dir}/aggregation-header.cc
  ${_dir}/aggregation-stack-header.cc
  ${_dir}/aggregation-values.cc
  ${_dir}/aggregation-timing-model.cc
  ${_dir}/aggregation-context.cc
  ${_dir}/aggregation-engine.cc
  ${_dir}/aggregation-device.cc
  ${_dir}/switch-aggregator.cc
  ${_dir}/aggregation-fabric-graph.cc
  ${_dir}/aggregation-tree-planner.cc
  ${_dir}/aggregation-congestion-ops.cc
  ${_dir}/aggregation-worker.cc
  ${_dir}/aggregation-endpoint.cc
  ${_dir}/in-network-aggregator.cc
  ${_dir}/fluid-aggregator.cc
  ${_dir}/sync-bound.cc
)
list(APPEND MLNET_HEADERS
  ${_dir}/aggregation-header.h
  ${_dir}/aggregation-stack-header.h
  ${_dir}/aggregation-values.h
  ${_dir}/aggregation-timing-model.h
  ${_dir}/aggregation-context.h
  ${_dir}/aggregation-engine.h
  ${_dir}/aggregation-device.h
  ${_dir}/switch-aggregator.h
  ${_dir}/aggregation-fabric-graph.h
  ${_dir}/aggregation-tree-planner.h
  ${_dir}/aggregation-congestion-ops.h
  ${_dir}/aggregation-worker.h
  ${_dir}/aggregation-endpoint.h
  ${_dir}/in-network-aggregator.h
  ${_dir}/fluid-aggregator.h
  ${_dir}/sync-bound.h
)
list(APPEND MLNET_TEST_SOURCES
  ${MLNET_ROOT}/test/aggregation/aggregation-unit-test.cc
  ${MLNET_ROOT}/test/aggregation/aggregation-sim-test.cc
  ${MLNET_ROOT}/test/aggregation/aggregation-scenario-test.cc
  ${MLNET_ROOT}/test/aggregation/aggregation-bypass-test.cc
  ${MLNET_ROOT}/test/aggregation/ring-placement-test.cc
  ${MLNET_ROOT}/test/aggregation/aggregation-worker-ring-test.cc
  # in-network aggregation at flow level (needs the flow part too)
  ${MLNET_ROOT}/test/flow/fluid-aggregation-test.cc
  ${MLNET_ROOT}/test/flow/fluid-aggregation-window-test.cc
  ${MLNET_ROOT}/test/flow/fluid-aggregation-dcqcn-test.cc
  ${MLNET_ROOT}/test/helper/data-class-test.cc
  ${MLNET_ROOT}/test/common/aggregation-scenario.cc
  ${MLNET_ROOT}/test/helper/scenario-inputs-test.cc
)
list(APPEND MLNET_EXAMPLES ina-line-rate)
list(APPEND MLNET_EXAMPLES ina-cc-trace)
list(APPEND MLNET_EXAMPLES panama-shared-cluster)
# an example's files besides examples/<name>.cc (in examples/)
set(MLNET_EXAMPLE_SOURCES_panama-shared-cluster
    panama-shared-cluster-plan.cc panama-shared-cluster-run.cc panama-shared-cluster-output.cc)
