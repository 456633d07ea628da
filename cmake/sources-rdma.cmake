# SPDX-License-Identifier: GPL-2.0-only
# Files of the rdma part (model/rdma/). Paths are relative to MLNET_ROOT.
set(_dir ${MLNET_ROOT}/model/rdma)
list(APPEND MLNET_SOURCES
)
list(APPEND MLNET_HEADERS
)
list(APPEND MLNET_TEST_SOURCES
)
