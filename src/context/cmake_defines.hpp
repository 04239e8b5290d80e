// SPDX-License-Identifier: Apache-2.0
#pragma once

// The defines a CMake project gives its compiles, read from its CMakeLists.txt files without
// running CMake: a pull request's build files are untrusted, so nothing is executed and nothing
// outside the repository is read. A small reader follows the script in order:
//   - variables from set(), option(), unset(), list(APPEND|PREPEND|REMOVE_ITEM) and
//     string(APPEND|PREPEND); ${VAR} expands to them; a variable some other command computes
//     (list(GET), string(REPLACE), math(), find_*, ...) or nothing set is not known;
//   - defines from add_definitions(), add_compile_definitions(), target_compile_definitions()
//     (every target), -D words of add_compile_options() and target_compile_options(), and the
//     -D words of CMAKE_CUDA_FLAGS and CUDA_NVCC_FLAGS as each directory ends; generator
//     expressions ($<...>) are skipped;
//   - if()/elseif()/else(): a condition is worked out where it can be (constants, known
//     variables, NOT/AND/OR, EQUAL/LESS/GREATER/..., STREQUAL, DEFINED; WIN32, MSVC and APPLE
//     false, UNIX true); a branch known not to run is skipped. Where a condition is not known,
//     every branch that may run gives its defines (the first of two values for one name wins,
//     build_file_defines.hpp), and the variables after the if() are those of the first such
//     branch: an option's default, written first, is preferred;
//   - foreach()/while() bodies count once, with the loop variable not known, and their variable
//     changes are not kept; function() and macro() bodies are not run, nor are calls to them;
//   - add_subdirectory() of a folder inside the repository reads its CMakeLists.txt with a copy
//     of the variables, as CMake's directory scope does. include() is not followed.
// A variable whose value the reader cannot work out (nothing set it, or a command it does not
// model computed it: list(GET CMAKE_CUDA_ARCHITECTURES 0 MIN_GPU_ARCH)) and whose name contains
// ARCH reads as `arch` where one is given, in conditions and values alike.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "context/code_flags.hpp"
#include "context/found_define.hpp"

namespace kforecast::context {

// A build file's text by repository-relative path, or nullopt where it does not exist or may not
// be read (too large, a link out of the repository).
using BuildFileReader = std::function<std::optional<std::string>(const std::string& path)>;

struct CMakeLimits {
  std::size_t max_files = 32;                   // CMakeLists.txt files read, the root's included
  std::size_t max_depth = 8;                    // add_subdirectory() nesting
  std::size_t max_block_depth = 64;             // if()/foreach() nesting
  std::size_t max_value_bytes = 65536;          // a variable longer is not known
  std::size_t max_defines = 2000;               // defines collected
  std::size_t max_steps = 200000;               // commands run, over all files
  std::size_t max_work = std::size_t{1} << 27;  // bytes expanded and scopes copied, over all files
};

struct CMakeDefines {
  std::vector<FoundDefine> defines;  // in the order the build states them
  // The flags among the same words that change what device code means or compiles to
  // (code_flag(): --extended-lambda, --use_fast_math, -std=c++17, ...), -rdc=true for -dc and for
  // CUDA_SEPARABLE_COMPILATION, and -std=c++NN for CMAKE_CUDA_STANDARD (else CMAKE_CXX_STANDARD),
  // in the order the build states them; each once.
  std::vector<FoundDefine> flags;
  std::vector<std::string> files;    // the CMakeLists.txt files read, the root's first
  std::vector<std::string> notes;    // what could not be read ("samples/CMakeLists.txt: line 3: ...")
};

// Reads CMakeLists.txt at the root, then the folders add_subdirectory() reaches. `arch` is the
// target architecture's number (90 for sm_90), or nullopt.
CMakeDefines read_cmake_defines(const BuildFileReader& read, std::optional<int> arch, const CMakeLimits& limits = {});

}  // namespace kforecast::context
