# SPDX-License-Identifier: Apache-2.0
# Shared build settings: every kforecast library links kf_build_flags, so warnings and
# sanitizers are set once. Third-party headers are included as SYSTEM and stay outside -Werror.

add_library(kf_build_flags INTERFACE)
# Warnings fail our own builds (every preset sets KFORECAST_WERROR), not a user's build with a
# compiler we never test: GCC 13 warns falsely inside fmt (-Warray-bounds) on ubuntu-24.04.
set(kf_werror "")
if(KFORECAST_WERROR)
  set(kf_werror -Werror)
endif()
target_compile_options(kf_build_flags INTERFACE -Wall -Wextra ${kf_werror} -Wshadow -Wnon-virtual-dtor
                                                -Wno-missing-field-initializers  # designated initialisers may omit defaulted members
                                                -Wno-restrict)  # GCC 12 false positives in std::string at -O3 (GCC bug 105329)
# A test's own code (targets marked KF_TEST_CODE, tests/CMakeLists.txt) is compiled without
# optimisation even in the release build: the code under test is the optimised libraries and
# binary, and -O0 halves the compile time of ~350 Catch2 files on CI's 2 cores.
target_compile_options(kf_build_flags INTERFACE "$<$<BOOL:$<TARGET_PROPERTY:KF_TEST_CODE>>:-O0>")
# Each function and object in its own section, so the linker drops what the binary never calls
# (--gc-sections on kforecast, src/CMakeLists.txt): fmt's, nlohmann's and our own unused code.
target_compile_options(kf_build_flags INTERFACE -ffunction-sections -fdata-sections)
# Not src/: each library publishes its own folder (kf_library below), so a library can include
# only what it links. Generated headers (the version, the embedded model) stay open to all.
target_include_directories(kf_build_flags INTERFACE ${PROJECT_BINARY_DIR}/generated)
if(KFORECAST_SANITIZE)
  # kforecast's own code is instrumented; a test's own code is not (a target marked KF_TEST_CODE,
  # tests/CMakeLists.txt): the sanitizers look for faults in what ships, and instrumenting ~350
  # Catch2 test files tripled their compile time, the largest part of CI on 2 cores. The tests
  # still link the runtimes and run every instrumented library and the instrumented binary.
  set(kf_sanitize_compile -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_compile_options(kf_build_flags INTERFACE
    "$<$<NOT:$<BOOL:$<TARGET_PROPERTY:KF_TEST_CODE>>>:${kf_sanitize_compile}>")
  target_link_options(kf_build_flags INTERFACE -fsanitize=address,undefined)
  # The sanitizer runtimes bring libstdc++ back as a shared library; tests that check the
  # shipped binary's dependencies need to know.
  target_compile_definitions(kf_build_flags INTERFACE KF_SANITIZED=1)
endif()

# toml++ header-only (Debian also ships a shared build; header-only keeps the binary self-contained).
add_library(kf_toml INTERFACE)
target_compile_definitions(kf_toml INTERFACE TOML_HEADER_ONLY=1 TOML_EXCEPTIONS=1)
get_target_property(_toml_inc tomlplusplus::tomlplusplus INTERFACE_INCLUDE_DIRECTORIES)
target_include_directories(kf_toml SYSTEM INTERFACE ${_toml_inc})

# fmt: Debian ships headers and a shared library, no static archive. kf_fmt compiles fmt's
# implementation once (src/third_party/fmt_implementation.cpp) into the binary, so the binary
# needs no libfmt.so, and every other file includes fmt's headers as it would for the shared
# library (FMT_HEADER_ONLY would compile the implementation into each of them). Nothing links
# fmt::fmt, which carries FMT_SHARED.
add_library(kf_fmt STATIC ${PROJECT_SOURCE_DIR}/src/third_party/fmt_implementation.cpp)
get_target_property(_fmt_inc fmt::fmt INTERFACE_INCLUDE_DIRECTORIES)
target_include_directories(kf_fmt SYSTEM PUBLIC ${_fmt_inc})
target_link_libraries(kf_fmt PRIVATE kf_build_flags)

# JSON: nlohmann/json, header-only (Debian ships no static simdjson, and its shared one brought
# the shared C++ runtime with it). Headers declare with <nlohmann/json_fwd.hpp>; only the files
# that read or write JSON include <nlohmann/json.hpp>. Untrusted text is parsed through
# base/json_document.hpp, which bounds the nesting depth.
add_library(kf_json INTERFACE)
target_link_libraries(kf_json INTERFACE nlohmann_json::nlohmann_json)
# libcurl is not linked but opened when the first request is made (src/http/libcurl_on_demand.cpp):
# linked, it and the ~30 libraries it needs were loaded at every start of every command.
add_library(kf_curl STATIC ${PROJECT_SOURCE_DIR}/src/http/libcurl_on_demand.cpp)
get_target_property(_curl_inc CURL::libcurl INTERFACE_INCLUDE_DIRECTORIES)
if(_curl_inc)
  target_include_directories(kf_curl SYSTEM PUBLIC ${_curl_inc})
endif()
target_link_libraries(kf_curl PUBLIC kf_build_flags ${CMAKE_DL_LIBS})

# kf_library(NAME SOURCES... [DEPS ...]): one static library per pipeline stage or shared piece.
# A stage lists only the libraries it may use, and CMake enforces the one-way dependencies: kf_X
# (folder src/X) publishes only its own headers, as "X/...", through a folder of its own,
# ${PROJECT_BINARY_DIR}/include/X/, that holds one symbolic link X -> src/X (ccache lays its
# headers out the same way). A library that includes "Y/..." without linking kf_Y (directly or
# through a PUBLIC dependency) does not compile. Nothing puts src/ itself on an include path: a
# quoted include also searches the including file's own folder, and src/X/*.cpp can reach no other
# library's headers from there (src/main.cpp can, and links kf_cli anyway).
function(kf_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  string(REGEX REPLACE "^kf_" "" folder ${name})
  if(NOT IS_DIRECTORY ${PROJECT_SOURCE_DIR}/src/${folder})
    message(FATAL_ERROR "kf_library(${name}): a library kf_X lives in src/X, and src/${folder} does not exist")
  endif()
  set(include_dir ${PROJECT_BINARY_DIR}/include/${folder})
  file(MAKE_DIRECTORY ${include_dir})
  file(CREATE_LINK ${PROJECT_SOURCE_DIR}/src/${folder} ${include_dir}/${folder} SYMBOLIC)
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${include_dir})
  target_link_libraries(${name} PUBLIC kf_build_flags kf_fmt ${ARG_DEPS})
  # Size over speed in a release build, except where throughput is measured against a target:
  # most of kforecast runs once per kernel or per run (orchestration, small files), and the
  # shipped binary must stay under 5 MB stripped (docs/perf/binary-size.md).
  if(CMAKE_BUILD_TYPE STREQUAL "Release" AND NOT name IN_LIST KF_SPEED_LIBRARIES)
    target_compile_options(${name} PRIVATE -Os)
  endif()
endfunction()
# The libraries kept at the build type's -O2: the diff parser, the CUDA scanner, the changed kernels
# found with it, and lint (each with a throughput benchmark in bench/), the embedded forecaster's
# features and the forecast math, and the GPU runner and capture replay, whose host work (inputs generated, outputs compared,
# captures restored) is on the GPU clock: about 30 ms per correctness seed for a 1M-element kernel.
set(KF_SPEED_LIBRARIES kf_diff kf_kernels kf_kernel_changes kf_lint kf_embedded kf_forecast kf_bench kf_capture)
