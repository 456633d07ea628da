# SPDX-License-Identifier: GPL-2.0-only
#
# In-tree build: this directory is an ns-3 source tree's contrib/mlnet, ns-3's CMake defines
# build_lib(), and CMakeLists.txt includes this file after reading every part's lists (so new
# parts need nothing here). Tested with ns-3.37 (C++17) and ns-3.48 (C++20); see
# doc/upstream.rst. Where the two differ, and how this file copes (the only per-version
# handling in mlnet):
#  * target names: ns-3.37 names the library target "libmlnet" and the test library
#    "libmlnet-test", ns-3.48 "mlnet" and "mlnet-test"; both versions store the names in the
#    cache variables libmlnet and testmlnet, which are used below;
#  * build_lib(): ns-3.48 has TEST_LIBRARIES_TO_LINK, ns-3.37 does not (it would read the
#    keyword as a library name): the test library's extra link is added after build_lib();
#  * build_lib_example() reads the module name from BLIB_LIBNAME, which ns-3 sets only inside
#    build_lib(): it is set here, as a module's examples/CMakeLists.txt would see it.
# Inputs from CMakeLists.txt: MLNET_ROOT, MLNET_SOURCES, MLNET_HEADERS, MLNET_TEST_SOURCES,
# MLNET_EXAMPLES (absolute paths / names) and MLNET_NS3_LIBRARIES (the ns-3 modules).

find_package(nlohmann_json 3 REQUIRED)
find_package(Boost 1.74 REQUIRED)
find_package(Eigen3 3.3 REQUIRED NO_MODULE)

# build_lib() prepends the module directory to header paths: hand it relative paths.
function(mlnet_relative_paths out)
  set(result "")
  foreach(f ${ARGN})
    file(RELATIVE_PATH r ${CMAKE_CURRENT_SOURCE_DIR} ${f})
    list(APPEND result ${r})
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

mlnet_relative_paths(mlnet_sources ${MLNET_SOURCES})
mlnet_relative_paths(mlnet_headers ${MLNET_HEADERS})

# Tests: the Catch2 cases, run by ns-3's test runner through test/ns3-test-suite.cc.
set(mlnet_tests "")
if(ENABLE_TESTS)
  find_package(Catch2 2 QUIET)
  if(Catch2_FOUND)
    mlnet_relative_paths(mlnet_tests ${MLNET_TEST_SOURCES} ${MLNET_ROOT}/test/common/test-utilities.cc
                         ${MLNET_ROOT}/test/ns3-test-suite.cc)
  else()
    # A warning, not a status line: ns-3's configure prints a hundred of those, and a suite that
    # is silently missing makes `./test.py -s mlnet` run nothing.
    message(WARNING "mlnet: Catch2 2.x not found (Debian: apt-get install catch2; Catch2 3 is "
                    "not supported): the mlnet test suite is NOT built, and `./test.py -s mlnet` "
                    "will find no suite named mlnet. The library and examples build as usual.")
  endif()
endif()

build_lib(
  LIBNAME mlnet
  SOURCE_FILES ${mlnet_sources}
  HEADER_FILES ${mlnet_headers}
  LIBRARIES_TO_LINK ${MLNET_NS3_LIBRARIES} nlohmann_json::nlohmann_json Boost::headers Eigen3::Eigen
  TEST_SOURCES ${mlnet_tests}
)
# Public headers include <nlohmann/json.hpp> (ns-3 links third-party libraries privately).
target_link_libraries(${libmlnet} PUBLIC nlohmann_json::nlohmann_json)

if(mlnet_tests AND TARGET ${testmlnet})
  # ns-3 links its test libraries with the plain signature: so must we.
  target_link_libraries(${testmlnet} Catch2::Catch2)
  target_include_directories(${testmlnet} PRIVATE ${MLNET_ROOT}/test)
  set_source_files_properties(${MLNET_ROOT}/test/helper/scenario-outputs-test.cc
                              ${MLNET_ROOT}/test/helper/scenario-naming-test.cc
                              PROPERTIES COMPILE_DEFINITIONS MLNET_SOURCE_ROOT="${MLNET_ROOT}")
endif()

if(ENABLE_EXAMPLES)
  set(BLIB_LIBNAME mlnet)
  foreach(ex ${MLNET_EXAMPLES})
    list(TRANSFORM MLNET_EXAMPLE_SOURCES_${ex} PREPEND ${MLNET_ROOT}/examples/ OUTPUT_VARIABLE _more)
    build_lib_example(NAME ${ex} SOURCE_FILES ${MLNET_ROOT}/examples/${ex}.cc ${_more}
                      LIBRARIES_TO_LINK ${libmlnet})
  endforeach()
endif()
