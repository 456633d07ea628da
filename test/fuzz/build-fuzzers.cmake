# SPDX-License-Identifier: GPL-2.0-only
#
# cmake -P script run by the test fuzz-build: configure and build test/fuzz with clang into
# BINARY_DIR and empty the directories the fuzz runs write new inputs into (each run starts from
# the committed seed corpus only, so it is repeatable).
# Inputs: SOURCE_DIR, BINARY_DIR, MLNET_ROOT, MLNET_OBJECTS_FILE, MLNET_INCLUDE_DIR, CLANGXX,
# LAUNCHER (may be empty), TARGETS (comma-separated).
string(REPLACE "," ";" TARGETS "${TARGETS}")
set(launcher "")
if(LAUNCHER)
  set(launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BINARY_DIR} -DCMAKE_BUILD_TYPE=
          -DCMAKE_CXX_COMPILER=${CLANGXX} ${launcher} -DMLNET_ROOT=${MLNET_ROOT}
          -DMLNET_OBJECTS_FILE=${MLNET_OBJECTS_FILE} -DMLNET_INCLUDE_DIR=${MLNET_INCLUDE_DIR}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the fuzz targets failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY_DIR} -j2 RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the fuzz targets failed")
endif()
foreach(t ${TARGETS})
  file(REMOVE_RECURSE ${BINARY_DIR}/new/${t})
  file(MAKE_DIRECTORY ${BINARY_DIR}/new/${t} ${BINARY_DIR}/crashes)
endforeach()
