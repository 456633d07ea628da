# SPDX-License-Identifier: GPL-2.0-only
# Workloads (model/workload/): DNN models and the model zoo, GPU profiles, training jobs (data,
# pipeline, tensor parallel, periodic), collectives, background traffic, constant-rate sources
# and sinks.
# Paths relative to MLNET_ROOT; tests and examples need every part (CMakeLists.txt).
set(_dir ${MLNET_ROOT}/model/workload)
list(APPEND MLNET_SOURCES
  ${_dir}/constant-rate-flow.cc
  ${_dir}/flow-sink.cc
  ${_dir}/rdma-message-dispatcher.cc
  ${_dir}/collective.cc
  ${_dir}/training-job.cc
  ${_dir}/periodic-job.cc
  ${_dir}/phase-interleaving.cc
  ${_dir}/data-parallel-job.cc
  ${_dir}/data-parallel-job-ps.cc
  ${_dir}/pipeline-parallel-job.cc
  ${_dir}/tensor-parallel-job.cc
  ${_dir}/background-traffic.cc
  ${_dir}/iteration-dag.cc
  ${_dir}/layer-spec.cc
  ${_dir}/dnn-model.cc
  ${_dir}/model-zoo.cc
  ${_dir}/gpu-profile.cc
  ${_dir}/pipeline-schedule.cc
)
list(APPEND MLNET_HEADERS
  ${_dir}/constant-rate-flow.h
  ${_dir}/flow-sink.h
  ${_dir}/rdma-message-dispatcher.h
  ${_dir}/collective.h
  ${_dir}/training-job.h
  ${_dir}/periodic-job.h
  ${_dir}/phase-interleaving.h
  ${_dir}/gradient-aggregator.h
  ${_dir}/data-parallel-job.h
  ${_dir}/pipeline-parallel-job.h
  ${_dir}/tensor-parallel-job.h
  ${_dir}/background-traffic.h
  ${_dir}/iteration-dag.h
  ${_dir}/layer-spec.h
  ${_dir}/dnn-model.h
  ${_dir}/model-zoo.h
  ${_dir}/gpu-profile.h
  ${_dir}/pipeline-schedule.h
)
list(APPEND MLNET_TEST_SOURCES
  ${MLNET_ROOT}/test/workload/collective-sim-test.cc
  ${MLNET_ROOT}/test/workload/data-parallel-sim-test.cc
  ${MLNET_ROOT}/test/workload/tensor-priority-sim-test.cc
  ${MLNET_ROOT}/test/workload/parallel-jobs-sim-test.cc
  ${MLNET_ROOT}/test/workload/background-traffic-sim-test.cc
  ${MLNET_ROOT}/test/workload/periodic-job-test.cc
  ${MLNET_ROOT}/test/workload/min-iteration-period-sim-test.cc
  ${MLNET_ROOT}/test/workload/periodic-interleaving-sim-test.cc
  ${MLNET_ROOT}/test/workload/model-zoo-test.cc
  ${MLNET_ROOT}/test/workload/pipeline-schedule-test.cc
)
list(APPEND MLNET_EXAMPLES network-bottleneck-whatif)
list(APPEND MLNET_EXAMPLES tensor-priority)
