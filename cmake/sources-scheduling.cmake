# SPDX-License-Identifier: GPL-2.0-only
# Scheduling policies (model/scheduling/): tensor orders (FIFO, TicTac, P3, ByteScheduler) and
# flow-scheduling policies (fair, FIFO, MADD, Echelon, CadentFlow), pure objects with no
# simulator and no network.
# Paths relative to MLNET_ROOT; tests and examples need every part (CMakeLists.txt).
set(_dir ${MLNET_ROOT}/model/scheduling)
list(APPEND MLNET_SOURCES
  ${_dir}/tensor-order-policy.cc
  ${_dir}/fifo-tensor-order.cc
  ${_dir}/tictac-tensor-order.cc
  ${_dir}/p3-tensor-order.cc
  ${_dir}/bytescheduler-tensor-order.cc
  ${_dir}/tensor-order-factory.cc
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
)
list(APPEND MLNET_HEADERS
  ${_dir}/tensor-order-policy.h
  ${_dir}/fifo-tensor-order.h
  ${_dir}/tictac-tensor-order.h
  ${_dir}/p3-tensor-order.h
  ${_dir}/bytescheduler-tensor-order.h
  ${_dir}/tensor-order-factory.h
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
)
list(APPEND MLNET_TEST_SOURCES
  ${MLNET_ROOT}/test/scheduling/tensor-order-test.cc
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
