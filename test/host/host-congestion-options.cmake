# SPDX-License-Identifier: GPL-2.0-only
# examples/host-congestion's options (issue 31, item 5): a bad or ignored option exits 2 with one
# error line naming it; --mode=training --response=N runs the memory task with response N.
# cmake -DPROGRAM=<host-congestion> -DWORKDIR=<dir> -P host-congestion-options.cmake

function(expect_error args pattern)
  separate_arguments(argv UNIX_COMMAND "${args}")
  execute_process(COMMAND ${PROGRAM} ${argv} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  string(STRIP "${err}" err)
  string(REGEX MATCHALL "\n" lines "${err}")
  list(LENGTH lines extra)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "${pattern}" OR NOT extra EQUAL 0)
    message(FATAL_ERROR "host-congestion ${args}: exit ${rc}, stderr '${err}' "
                        "(expected exit 2 and one line matching '${pattern}')")
  endif()
endfunction()

expect_error("--mode=training --response=7" "^host-congestion: --response=7: must be 0 .* or 3")
expect_error("--mode=training --response=-1" "--response=-1: must be 0")
expect_error("--mode=sweep --response=1" "--response: not used by --mode=sweep")
expect_error("--mode=iotlb --response=3" "--response: not used by --mode=iotlb")
expect_error("--mode=training --flows=8" "--flows: not used by --mode=training")
expect_error("--mode=iotlb --flows=33" "--flows=33: must be an integer in \\[1, 32\\]")
expect_error("--mode=training --demand=0" "--demand: must be in \\(0, 1\\]")
expect_error("--mode=single --rate=300" "--rate: must be 100, 200 or 400")
expect_error("--mode=iotlb --rates=100,250" "--rates=100,250: each rate")
expect_error("--mode=single --cc=tcp" "--cc=tcp: .*accepted: dcqcn")
expect_error("--mode=sweep --summary=x.csv" "--summary: only in iotlb mode")

# Honoured: the third run of the training mode uses the response asked for (2: throttling
# only; --response=0 leaves that run out, not run here to keep the test short).
foreach(resp 2)
  set(csv ${WORKDIR}/host-training-response${resp}.csv)
  execute_process(COMMAND ${PROGRAM} --mode=training --iterations=5 --seeds=1 --demand=0.9
                          --response=${resp} --csv=${csv}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "--mode=training --response=${resp}: exit ${rc}: ${err}")
  endif()
  file(STRINGS ${csv} rows)
  set(runs "")
  foreach(row ${rows})
    if(row MATCHES "^([0-9.]+),([0-9]),")
      list(APPEND runs "${CMAKE_MATCH_1}/${CMAKE_MATCH_2}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES runs)
  set(expected "0/0;0.9/0;0.9/${resp}")
  if(NOT "${runs}" STREQUAL "${expected}")
    message(FATAL_ERROR "--mode=training --response=${resp}: runs (demand/response) '${runs}', "
                        "expected '${expected}'")
  endif()
endforeach()
