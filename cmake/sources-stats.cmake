# SPDX-License-Identifier: GPL-2.0-only
# Plain records and their writers (model/stats/): flows, ports, hosts, jobs, congestion
# control, the run summary, sample summaries (percentiles), CSV/JSON writers. A leaf: it includes
# no other part.
# Paths relative to MLNET_ROOT; tests and examples need every part (CMakeLists.txt).
set(_dir ${MLNET_ROOT}/model/stats)
list(APPEND MLNET_SOURCES
  ${_dir}/sample-summary.cc
  ${_dir}/fct-summary.cc
  ${_dir}/flow-stats-record.cc
  ${_dir}/run-summary.cc
  ${_dir}/stats-writer.cc
  ${_dir}/port-classes.cc
)
list(APPEND MLNET_HEADERS
  ${_dir}/sample-summary.h
  ${_dir}/fct-summary.h
  ${_dir}/flow-stats-record.h
  ${_dir}/job-records.h
  ${_dir}/host-path-stats.h
  ${_dir}/host-stats-record.h
  ${_dir}/congestion-control-record.h
  ${_dir}/port-stats-record.h
  ${_dir}/port-class-record.h
  ${_dir}/run-summary.h
  ${_dir}/csv-columns.h
  ${_dir}/stats-writer.h
  ${_dir}/port-classes.h
)
