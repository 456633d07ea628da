# SPDX-License-Identifier: GPL-2.0-only
# Helpers (helper/): topology builders, one helper per part, the scenario runner.
set(_dir ${MLNET_ROOT}/helper)
list(APPEND MLNET_SOURCES
  ${_dir}/fabric-helper.cc
  ${_dir}/fabric-topology-helper.cc
)
list(APPEND MLNET_HEADERS
  ${_dir}/fabric-helper.h
  ${_dir}/fabric-topology-helper.h
)
list(APPEND MLNET_TEST_SOURCES
)
