# SPDX-License-Identifier: GPL-2.0-only
# Files of the scheduling part (model/scheduling/). Paths are relative to MLNET_ROOT.
set(_dir ${MLNET_ROOT}/model/scheduling)
list(APPEND MLNET_SOURCES
)
list(APPEND MLNET_HEADERS
)
list(APPEND MLNET_TEST_SOURCES
)
