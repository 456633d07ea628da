# SPDX-License-Identifier: GPL-2.0-only
# Flow-scheduling policies (model/scheduling/): pure objects, no simulator inside; and the
# piece that applies their decisions to RDMA queue pairs (model/rdma/rdma-flow-scheduler).
set(_dir ${MLNET_ROOT}/model/scheduling)
list(APPEND MLNET_SOURCES
  ${_dir}/flow-declaration.cc
  ${_dir}/flow-scheduling-state.cc
  ${_dir}/flow-scheduling-policy.cc
  ${_dir}/fair-sharing-flow-policy.cc
  ${_dir}/fifo-flow-policy.cc
  ${_dir}/madd-coflow-policy.cc
  ${_dir}/echelon-flow-policy.cc
  ${_dir}/cadent-flow-policy.cc
  ${_dir}/flow-policy-factory.cc
  ${_dir}/compute-dag.cc
  ${_dir}/fluid-flow-model.cc
  ${MLNET_ROOT}/model/rdma/rdma-flow-scheduler.cc
  ${MLNET_ROOT}/model/workload/iteration-dag.cc
  ${MLNET_ROOT}/model/stats/sample-summary.cc
  ${MLNET_ROOT}/model/rdma/scheduled-flow-stats.cc
  ${MLNET_ROOT}/helper/flow-scheduler-helper.cc
)
list(APPEND MLNET_HEADERS
  ${_dir}/flow-declaration.h
  ${_dir}/flow-scheduling-state.h
  ${_dir}/flow-scheduling-policy.h
  ${_dir}/fair-sharing-flow-policy.h
  ${_dir}/fifo-flow-policy.h
  ${_dir}/madd-coflow-policy.h
  ${_dir}/echelon-flow-policy.h
  ${_dir}/cadent-flow-policy.h
  ${_dir}/flow-policy-factory.h
  ${_dir}/compute-dag.h
  ${_dir}/fluid-flow-model.h
  ${MLNET_ROOT}/model/rdma/rdma-flow-scheduler.h
  ${MLNET_ROOT}/model/workload/iteration-dag.h
  ${MLNET_ROOT}/model/stats/sample-summary.h
  ${MLNET_ROOT}/model/rdma/scheduled-flow-stats.h
  ${MLNET_ROOT}/helper/flow-scheduler-helper.h
)
list(APPEND MLNET_TEST_SOURCES
  ${MLNET_ROOT}/test/scheduling/flow-policy-test.cc
  ${MLNET_ROOT}/test/scheduling/echelon-policy-test.cc
  ${MLNET_ROOT}/test/scheduling/echelon-staggered-test.cc
  ${MLNET_ROOT}/test/scheduling/compute-dag-test.cc
  ${MLNET_ROOT}/test/rdma/flow-scheduler-sim-test.cc
  ${MLNET_ROOT}/test/workload/scheduled-jobs-sim-test.cc
  ${MLNET_ROOT}/test/workload/slim-models-test.cc
  ${MLNET_ROOT}/test/helper/scenario-flow-scheduler-test.cc
)
list(APPEND MLNET_EXAMPLES cadentflow-ps)
list(APPEND MLNET_EXAMPLES echelon-pipeline)
