# SPDX-License-Identifier: GPL-2.0-only
# Training jobs, collectives and background traffic (model/workload/), their helper, examples.
set(_dir ${MLNET_ROOT}/model/workload)
list(APPEND MLNET_SOURCES
  ${_dir}/rdma-message-dispatcher.cc
  ${_dir}/collective.cc
  ${_dir}/training-job.cc
  ${_dir}/periodic-job.cc
  ${_dir}/phase-interleaving.cc
  ${_dir}/data-parallel-job.cc
  ${_dir}/pipeline-parallel-job.cc
  ${_dir}/tensor-parallel-job.cc
  ${_dir}/background-traffic.cc
)
list(APPEND MLNET_HEADERS
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
)
list(APPEND MLNET_EXAMPLES network-bottleneck-whatif)
list(APPEND MLNET_EXAMPLES tensor-priority)
