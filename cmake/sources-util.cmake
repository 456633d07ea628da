# SPDX-License-Identifier: GPL-2.0-only
# Generic utilities (model/util/): header-only building blocks that know nothing of networks
# (enum attribute accessor, watched trace source, ring queue, fast modulus). Every part may use
# them; they include only ns-3 core and the standard library.
# Paths relative to MLNET_ROOT; tests and examples need every part (CMakeLists.txt).
set(_dir ${MLNET_ROOT}/model/util)
list(APPEND MLNET_HEADERS
  ${_dir}/fast-mod.h
  ${_dir}/mlnet-enum-accessor.h
  ${_dir}/ring-queue.h
  ${_dir}/watched-traced-callback.h
)
list(APPEND MLNET_TEST_SOURCES
  ${MLNET_ROOT}/test/util/fast-mod-test.cc
)
