# SPDX-License-Identifier: GPL-2.0-only
#
# cmake --install (standalone build): the library, the ns3/*.h headers, a relocatable CMake
# package and a pkg-config file, so that a user's own project can do
#
#   find_package(mlnet REQUIRED)                     # -DCMAKE_PREFIX_PATH=<prefix> if not /usr/local
#   target_link_libraries(app PRIVATE ns3::mlnet)
#
# or  g++ app.cc $(pkg-config --cflags --libs mlnet). contrib-scripts/user-project/ is a
# template built against the installed package by the test "user-project". Generic over the
# part lists (MLNET_HEADERS); included by CMakeLists.txt after the targets are defined.

include(CMakePackageConfigHelpers)

set(MLNET_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/mlnet)
set(MLNET_PKGCONFIG_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

set_target_properties(ns3-mlnet PROPERTIES EXPORT_NAME mlnet VERSION ${PROJECT_VERSION}
                                           SOVERSION ${PROJECT_VERSION_MAJOR})
install(
  TARGETS ns3-mlnet
  EXPORT mlnetTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The headers as the build sees them (ns3/<name>.h) plus the generated ns3/mlnet-module.h.
install(FILES ${MLNET_HEADERS} ${MLNET_INCLUDE_DIR}/ns3/mlnet-module.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)
install(EXPORT mlnetTargets NAMESPACE ns3:: DESTINATION ${MLNET_CMAKE_DIR})

configure_package_config_file(${MLNET_ROOT}/cmake/mlnetConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/mlnetConfig.cmake INSTALL_DESTINATION ${MLNET_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/mlnetConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/mlnetConfig.cmake ${CMAKE_BINARY_DIR}/mlnetConfigVersion.cmake
        DESTINATION ${MLNET_CMAKE_DIR})

# pkg-config: paths relative to the .pc file, so the installed tree may be moved.
file(RELATIVE_PATH MLNET_PC_TO_PREFIX ${CMAKE_INSTALL_PREFIX}/${MLNET_PKGCONFIG_DIR}
     ${CMAKE_INSTALL_PREFIX})
configure_file(${MLNET_ROOT}/cmake/mlnet.pc.in ${CMAKE_BINARY_DIR}/mlnet.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/mlnet.pc DESTINATION ${MLNET_PKGCONFIG_DIR})

# The scenario runner, finding the library next to it.
if(TARGET mlnet-run)
  set_target_properties(mlnet-run PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
  install(TARGETS mlnet-run RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
