# SPDX-License-Identifier: Apache-2.0
# The direction rule: cli wires the outside world into the stages, so nothing under src/ but
# src/cli/ and src/main.cpp may include a "cli/..." header. kf_check_cli_includes(SRC_DIR) fails
# with file:line and the rule for every such include. src/CMakeLists.txt runs it at configure
# time and again at build time whenever a source changes; `cmake -DSOURCE_DIR=src -P
# cmake/CheckCliIncludes.cmake` runs it on any tree (tests/cmake/ does, on a violating one).

function(kf_check_cli_includes src_dir)
  file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE ${src_dir}
       ${src_dir}/*.cpp ${src_dir}/*.hpp ${src_dir}/*.h ${src_dir}/*.cc ${src_dir}/*.inl ${src_dir}/*.in)
  list(SORT files)
  set(violations "")
  foreach(file IN LISTS files)
    if(file MATCHES "^cli/" OR file STREQUAL "main.cpp")
      continue()
    endif()
    file(READ ${src_dir}/${file} text)
    if(NOT text MATCHES "#[ \t]*include[ \t]*[\"<]cli/")
      continue()
    endif()
    # One list element per line, for line numbers: first hide the characters a CMake list treats
    # specially (; \ [ ]), none of which an include of cli/ needs.
    string(REGEX REPLACE "[;\\\\[]|]" "_" text "${text}")
    string(REPLACE "\n" ";" all_lines "${text}")
    set(number 0)
    foreach(line IN LISTS all_lines)
      math(EXPR number "${number} + 1")
      if(line MATCHES "^[ \t]*#[ \t]*include[ \t]*[\"<]cli/")
        string(APPEND violations "  src/${file}:${number}: includes cli (${line})\n")
      endif()
    endforeach()
  endforeach()
  if(violations)
    message(FATAL_ERROR "The direction rule is broken: nothing under src/ but src/cli/ and src/main.cpp may "
                        "include cli/ (cli wires the outside world into the stages; move what is needed out of "
                        "cli, into gate/ or the stage it belongs to; ARCHITECTURE.md):\n${violations}")
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  if(NOT SOURCE_DIR)
    message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=<src folder> [-DSTAMP=<file>] -P ${CMAKE_CURRENT_LIST_FILE}")
  endif()
  kf_check_cli_includes(${SOURCE_DIR})
  if(STAMP)
    file(TOUCH ${STAMP})
  endif()
endif()
