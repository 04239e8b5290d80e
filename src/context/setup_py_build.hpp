// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a Python extension's setup.py tells its CUDA compiles, read from the text without running
// Python (a pull request's setup.py is untrusted):
//   - defines: every string literal that is a -D flag ("-DX=1", in an nvcc or cxx argument list or
//     anywhere else), and each ("NAME", "VALUE") or ("NAME", None) tuple of a define_macros=[...]
//     list written out in place; -U flags; the code flags code_flag() takes (--use_fast_math,
//     -std=c++17, -rdc=true, ...);
//   - whether it builds a PyTorch extension (CUDAExtension, torch.utils.cpp_extension), and the
//     extension's name where it is written out.
// Conditions are evaluated only where a CUDA build with no opt-in environment plainly decides
// them (python_tokens.hpp): what a ROCm branch or an opt-in environment variable's branch adds
// is left out, with the reason; every other literal counts, the first of two values for one name
// winning (build_file_defines.hpp). An f-string's {expression} is a value not known.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "context/found_define.hpp"

namespace kforecast::context {

struct SetupPyBuild {
  std::vector<FoundDefine> defines;
  std::vector<FoundDefine> undefines;  // text: the name
  std::vector<FoundDefine> flags;      // text: the flag, one argument
  // Each flag of a branch not taken: "-DDISABLE_X (setup.py:130, in a branch not taken unless the
  // environment sets DISABLE_X)".
  std::vector<std::string> not_taken;
  bool torch_extension = false;
  // The last dotted part of the first CUDAExtension's literal name ("deep_ep._C" gives "_C"), as
  // torch's build makes TORCH_EXTENSION_NAME; "" where it is not written out.
  std::string extension_name;
};

// `name` is the file's repository-relative path, for FoundDefine::where.
SetupPyBuild read_setup_py(std::string_view text, std::string_view name);

}  // namespace kforecast::context
