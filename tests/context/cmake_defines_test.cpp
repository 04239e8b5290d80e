// SPDX-License-Identifier: Apache-2.0
// read_cmake_defines: the defines a CMake project states, read without running CMake.
#include "context/cmake_defines.hpp"

#include <map>

#include <catch2/catch.hpp>

using namespace kforecast::context;
using Strings = std::vector<std::string>;

namespace {

BuildFileReader files_reader(std::map<std::string, std::string> files) {
  return [files = std::move(files)](const std::string& path) -> std::optional<std::string> {
    auto found = files.find(path);
    return found == files.end() ? std::nullopt : std::optional(found->second);
  };
}

// The defines' texts, references shown as ${NAME} and <arch NAME>.
Strings texts(const CMakeDefines& read) {
  Strings out;
  for (const auto& define : read.defines) {
    std::string text;
    for (char c : define.text) {
      if (c == unknown_open)
        text += "${";
      else if (c == unknown_close)
        text += "}";
      else if (c == arch_open)
        text += "<arch ";
      else if (c == arch_close)
        text += ">";
      else
        text += c;
    }
    out.push_back(text);
  }
  return out;
}

// tiny-cuda-nn's shape, written for this test: an architecture list worked out at configure
// time, its lowest taken by list(GET), a half-precision option whose default depends on it, and
// the defines gathered in a list that target_compile_definitions() hands on.
constexpr const char* tcnn_like = R"(
option(TCNN_BUILD_WITH_RTC "runtime compilation" ON)
option(TCNN_BUILD_NO_FWD_BWD "no forward and backward kernels" OFF)
option(TCNN_ALLOW_CUBLAS "cuBLAS" OFF)
set(TCNN_EXTERNAL_FMT "" CACHE STRING "external fmt")
if (DEFINED ENV{TCNN_CUDA_ARCHITECTURES})
  set(CMAKE_CUDA_ARCHITECTURES $ENV{TCNN_CUDA_ARCHITECTURES})
else()
  detect_architectures(CMAKE_CUDA_ARCHITECTURES)
endif()
list(SORT CMAKE_CUDA_ARCHITECTURES)
list(GET CMAKE_CUDA_ARCHITECTURES 0 MIN_GPU_ARCH)
string(REPLACE "-virtual" "" MIN_GPU_ARCH "${MIN_GPU_ARCH}")
if (MIN_GPU_ARCH EQUAL 61 OR MIN_GPU_ARCH LESS_EQUAL 52)
  set(HALF_DEFAULT OFF)
else()
  set(HALF_DEFAULT ON)
endif()
option(TCNN_HALF_PRECISION "half" ${HALF_DEFAULT})
if (TCNN_HALF_PRECISION)
  list(APPEND TCNN_DEFINITIONS -DTCNN_HALF_PRECISION=1)
else()
  list(APPEND TCNN_DEFINITIONS -DTCNN_HALF_PRECISION=0)
endif()
if (TCNN_ALLOW_CUBLAS AND CUDA_VERSION VERSION_GREATER_EQUAL 11.0)
  set(WITH_SHAMPOO ON)
else()
  set(WITH_SHAMPOO OFF)
endif()
if (WITH_SHAMPOO)
  list(APPEND TCNN_DEFINITIONS -DTCNN_SHAMPOO)
endif()
if (TCNN_BUILD_WITH_RTC)
  list(APPEND TCNN_DEFINITIONS -DTCNN_RTC)
endif()
if (TCNN_BUILD_NO_FWD_BWD)
  list(APPEND TCNN_DEFINITIONS -DTCNN_NO_FWD_BWD)
endif()
if (TCNN_EXTERNAL_FMT)
  list(APPEND TCNN_DEFINITIONS -DFMT_UNICODE=0)
endif()
if (MSVC)
  list(APPEND CUDA_NVCC_FLAGS "-Xcompiler=/bigobj")
endif()
list(APPEND CUDA_NVCC_FLAGS "--extended-lambda")
list(APPEND TCNN_DEFINITIONS -DTCNN_MIN_GPU_ARCH=${MIN_GPU_ARCH})
add_library(tiny-cuda-nn STATIC src/a.cu)
target_compile_definitions(tiny-cuda-nn PUBLIC ${TCNN_DEFINITIONS})
target_compile_options(tiny-cuda-nn PUBLIC $<$<COMPILE_LANGUAGE:CUDA>:${CUDA_NVCC_FLAGS}>)
function(never_called)
  add_definitions(-DFROM_A_FUNCTION)
endfunction()
)";

}  // namespace

TEST_CASE("cmake defines: tiny-cuda-nn's shape, with the target architecture") {
  const auto read = read_cmake_defines(files_reader({{"CMakeLists.txt", tcnn_like}}), 90);
  CHECK(read.files == Strings{"CMakeLists.txt"});
  CHECK(texts(read) == Strings{"TCNN_HALF_PRECISION=1", "TCNN_RTC", "TCNN_MIN_GPU_ARCH=<arch MIN_GPU_ARCH>"});
  CHECK(read.defines[0].where == "CMakeLists.txt:48");  // the target_compile_definitions() that hands them on
  CHECK(read.notes.empty());
}

TEST_CASE("cmake defines: without a target architecture, the branches of a condition not known both count") {
  const auto read = read_cmake_defines(files_reader({{"CMakeLists.txt", tcnn_like}}), std::nullopt);
  // The half-precision default is not known: the if() branch's OFF is preferred for the option,
  // so =0 comes first; build_file_defines settles the conflict.
  CHECK(texts(read) == Strings{"TCNN_HALF_PRECISION=0", "TCNN_RTC", "TCNN_MIN_GPU_ARCH=${MIN_GPU_ARCH}"});
}

TEST_CASE("cmake defines: each command that states defines, and flags variables") {
  const auto read = read_cmake_defines(files_reader({{"CMakeLists.txt", R"(
add_definitions(-DA=1 -Wall -DB)
add_compile_definitions(C=2 -DD $<$<CONFIG:Debug>:DEBUG_ONLY>)
target_compile_definitions(lib PRIVATE E INTERFACE F=x)
add_compile_options(-O3 -DG)
target_compile_options(lib PRIVATE -DH=1)
set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -DI=1 --use_fast_math")
string(APPEND CMAKE_CUDA_FLAGS " -D J")
set(ARGS -DK)
add_definitions(${ARGS})
)"}}),
                                       std::nullopt);
  CHECK(texts(read) == Strings{"A=1", "B", "C=2", "D", "E", "F=x", "G", "H=1", "K", "I=1", "J"});
  CHECK(read.defines.back().where == "CMakeLists.txt (CMAKE_CUDA_FLAGS)");
}

TEST_CASE("cmake defines: add_subdirectory reads the folder's CMakeLists.txt in a copy of the scope") {
  const auto read = read_cmake_defines(
      files_reader({{"CMakeLists.txt", R"(
set(LEVEL 3)
add_subdirectory(src)
add_subdirectory(${CMAKE_CURRENT_SOURCE_DIR}/missing)
add_subdirectory(../outside)
add_subdirectory(/etc)
add_definitions(-DROOT_LEVEL=${LEVEL})
)"},
                    {"src/CMakeLists.txt", "set(LEVEL 4)\nadd_definitions(-DSRC_LEVEL=${LEVEL})\n"}}),
      std::nullopt);
  CHECK(read.files == Strings{"CMakeLists.txt", "src/CMakeLists.txt"});
  CHECK(texts(read) == Strings{"SRC_LEVEL=4", "ROOT_LEVEL=3"});
  REQUIRE(read.notes.size() == 3);
  CHECK(read.notes[0] == "missing/CMakeLists.txt not read: not found in the repository");
  CHECK(read.notes[1] == "CMakeLists.txt:5: add_subdirectory(../outside) not followed: not a folder of the repository");
}

TEST_CASE("cmake defines: an if() known false is skipped, elseif and else follow") {
  const auto read = read_cmake_defines(files_reader({{"CMakeLists.txt", R"(
set(MODE fast)
if (MODE STREQUAL "slow")
  add_definitions(-DSLOW)
elseif (MODE STREQUAL "fast")
  add_definitions(-DFAST)
else()
  add_definitions(-DOTHER)
endif()
if (WIN32)
  add_definitions(-DWINDOWS)
endif()
foreach (item IN LISTS ITEMS)
  add_definitions(-DITEM=${item} -DIN_LOOP)
endforeach()
)"}}),
                                       std::nullopt);
  CHECK(texts(read) == Strings{"FAST", "ITEM=${item}", "IN_LOOP"});
}

TEST_CASE("cmake defines: bad input is a note, never a crash") {
  SECTION("a file that does not parse") {
    const auto read = read_cmake_defines(files_reader({{"CMakeLists.txt", "add_definitions(-DA\n"}}), std::nullopt);
    CHECK(read.defines.empty());
    REQUIRE(read.notes.size() == 1);
    CHECK(read.notes[0].starts_with("CMakeLists.txt not read: line "));
  }
  SECTION("an endif without its if") {
    const auto read = read_cmake_defines(
        files_reader({{"CMakeLists.txt", "add_definitions(-DA)\nendif()\nadd_definitions(-DB)\n"}}), std::nullopt);
    CHECK(texts(read) == Strings{"A"});
    CHECK(read.notes == Strings{"CMakeLists.txt:2: endif() without its block; the rest of the file not read"});
  }
  SECTION("a directory that adds itself stops at the file limit") {
    const auto read =
        read_cmake_defines(files_reader({{"CMakeLists.txt", "add_definitions(-DA)\nadd_subdirectory(.)\n"}}),
                           std::nullopt, CMakeLimits{.max_files = 4});
    CHECK(read.files.size() == 4);
  }
  SECTION("a value that doubles itself stops growing") {
    std::string text = "set(X aaaaaaaaaaaaaaaa)\n";
    for (int i = 0; i < 40; ++i) text += "set(X \"${X}${X}\")\n";
    text += "add_definitions(-DV=${X})\n";
    const auto read = read_cmake_defines(files_reader({{"CMakeLists.txt", text}}), std::nullopt);
    REQUIRE(read.defines.size() == 1);
    CHECK(read.defines[0].text.size() < 100000);
  }
  SECTION("deeply nested blocks") {
    std::string text;
    for (int i = 0; i < 200; ++i) text += "if(ON)\n";
    text += "add_definitions(-DDEEP)\n";
    const auto read = read_cmake_defines(files_reader({{"CMakeLists.txt", text}}), std::nullopt);
    CHECK(read.defines.empty());
    CHECK_FALSE(read.notes.empty());
  }
  SECTION("no CMakeLists.txt") {
    const auto read = read_cmake_defines(files_reader({}), 90);
    CHECK(read.files.empty());
    CHECK(read.defines.empty());
    CHECK(read.notes.empty());
  }
}

TEST_CASE("cmake defines: many if()s over long variables stop at the work limit") {
  std::string text;
  for (int i = 0; i < 50; ++i) text += "set(V" + std::to_string(i) + " " + std::string(1000, 'x') + ")\n";
  for (int i = 0; i < 1000; ++i) text += "if(ON)\nendif()\n";
  text += "add_definitions(-DAFTER)\n";
  const auto limited =
      read_cmake_defines(files_reader({{"CMakeLists.txt", text}}), std::nullopt, CMakeLimits{.max_work = 1000000});
  CHECK(limited.defines.empty());
  REQUIRE(limited.notes.size() == 1);
  CHECK(limited.notes[0].find("too much to expand") != std::string::npos);
  CHECK(texts(read_cmake_defines(files_reader({{"CMakeLists.txt", text}}), std::nullopt)) == Strings{"AFTER"});
}

TEST_CASE("cmake defines: a block that does not run is walked past, its nested blocks too") {
  const auto read = read_cmake_defines(files_reader({{"CMakeLists.txt", R"(
if (OFF)
  if (ON)
    add_definitions(-DINNER)
  else()
    add_definitions(-DINNER_ELSE)
  endif()
  foreach (x a b)
    add_definitions(-DLOOP)
  endforeach()
elseif (ON)
  add_definitions(-DSECOND)
endif()
add_definitions(-DAFTER)
)"}}),
                                       std::nullopt);
  CHECK(texts(read) == Strings{"SECOND", "AFTER"});
}

TEST_CASE("cmake defines: separable compilation, a target's or the default, and -dc make the code relocatable") {
  const auto flags = [](const std::string& cmake) {
    Strings out;
    for (const auto& flag : read_cmake_defines(files_reader({{"CMakeLists.txt", cmake}}), std::nullopt).flags)
      out.push_back(flag.text);
    return out;
  };
  CHECK(flags("set_target_properties(a b PROPERTIES POSITION_INDEPENDENT_CODE ON CUDA_SEPARABLE_COMPILATION ON)\n") ==
        Strings{"-rdc=true"});
  CHECK(flags("set_property(TARGET a PROPERTY CUDA_SEPARABLE_COMPILATION TRUE)\n") == Strings{"-rdc=true"});
  CHECK(flags("set(CMAKE_CUDA_SEPARABLE_COMPILATION ON)\n") == Strings{"-rdc=true"});
  CHECK(flags("set(SEP YES)\nset_target_properties(a PROPERTIES CUDA_SEPARABLE_COMPILATION ${SEP})\n") ==
        Strings{"-rdc=true"});
  CHECK(flags("set(CMAKE_CUDA_FLAGS \"-dc --relocatable-device-code=true\")\n") ==
        Strings{"-rdc=true", "--relocatable-device-code=true"});
  CHECK(flags("set_target_properties(a PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)\n").empty());
  // FindCUDA's variable, and a helper function that sets the property on each library it adds (the
  // reader does not run functions, but the property is the project's).
  CHECK(flags("set(CUDA_SEPARABLE_COMPILATION ON)\n") == Strings{"-rdc=true"});
  CHECK(flags("function(add_lib name)\n  add_library(${name} x.cu)\n  set_target_properties(${name} PROPERTIES\n"
              "    CUDA_STANDARD 17\n    CUDA_SEPARABLE_COMPILATION ON)\nendfunction()\n") == Strings{"-rdc=true"});
  CHECK(flags("function(f)\n  set_target_properties(a PROPERTIES CUDA_SEPARABLE_COMPILATION ${ARG})\nendfunction()\n")
            .empty());
  const auto read = read_cmake_defines(
      files_reader({{"CMakeLists.txt", "set_target_properties(a PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n"}}),
      std::nullopt);
  REQUIRE(read.flags.size() == 1);
  CHECK(read.flags[0].where == "CMakeLists.txt:1");
}
