// SPDX-License-Identifier: Apache-2.0
#pragma once

// Defines inferred from the project's build files, for units that neither a compile database
// nor the config gives a context (inferred_context.hpp): the root's CMakeLists.txt and the
// folders its add_subdirectory() reaches (cmake_defines.hpp), then the root's setup.py
// (setup_py_build.hpp), and relocatable device code from its Makefile (makefile_flags.hpp).
// Each value is settled here:
//   - a value the build computes from the GPU it configures on (a variable or define whose name
//     contains ARCH, e.g. TCNN_MIN_GPU_ARCH=${MIN_GPU_ARCH}) takes kforecast's target
//     architecture's number (90 for sm_90), with a note;
//   - any other value not known leaves the define out, with a note;
//   - where a name is given two values (the branches of an if() not known), the first wins, with
//     a note;
//   - every define then passes the flag allow-list (flag_filter.hpp) as a -D would.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "context/cmake_defines.hpp"
#include "context/found_define.hpp"

namespace kforecast::context {

// How a PyTorch extension is built, where the build files say it is one: torch's build adds its
// own include folders, defines and flags to every CUDA compile (context/torch_context.hpp).
struct TorchBuild {
  enum class Kind { setuptools, cmake };
  Kind kind = Kind::setuptools;
  std::string extension_name;  // setup.py's CUDAExtension name, last dotted part; "" not known
  std::string file;            // the build file that said so: "setup.py", "CMakeLists.txt"
};

struct BuildFileDefines {
  std::vector<std::pair<std::string, std::string>> defines;  // {"NAME", "VALUE"}, in the build's order
  std::vector<std::string> undefines;                        // -U names from setup.py, in its order
  // The build's code flags (cmake_defines.hpp's code_flag(), -std=c++NN for CMAKE_CUDA_STANDARD),
  // each once, in the build's order; they still pass the allow-list where a context takes them.
  std::vector<std::string> flags;
  std::vector<std::string> sources;   // the build files that gave them: "CMakeLists.txt", "setup.py"
  std::vector<std::string> left_out;  // "TCNN_X (value ${FOO} not known; CMakeLists.txt:12)"
  std::vector<std::string> notes;     // arch values given, conflicts, files not read
  std::optional<TorchBuild> torch;    // set where the project builds a PyTorch extension

  // "defines from CMakeLists.txt: TCNN_MIN_GPU_ARCH=90, TCNN_RTC; left out: ...; flags from
  // CMakeLists.txt: --extended-lambda, -std=c++17", or "" where there are none and none were
  // left out.
  std::string summary() const;
};

// The defines of `found`, settled as above. `arch` is the target architecture's number.
BuildFileDefines settle_defines(const std::vector<FoundDefine>& found, std::optional<int> arch);

// Reads the build files through `read` and settles their defines.
BuildFileDefines read_build_file_defines(const BuildFileReader& read, std::optional<int> arch);

// Files of the checkout at `root`: regular files inside it (a link leading out is not read) of
// at most `max_bytes`.
BuildFileReader repository_file_reader(const std::filesystem::path& root, std::size_t max_bytes = 1 << 20);

// 90 for "sm_90", "sm_90a" or "compute_90"; nullopt for anything else.
std::optional<int> architecture_number(std::string_view arch);

}  // namespace kforecast::context
