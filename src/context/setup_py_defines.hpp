// SPDX-License-Identifier: Apache-2.0
#pragma once

// The defines a Python extension's setup.py gives its compiles, read from the text without
// running Python (a pull request's setup.py is untrusted): every string literal that is a -D
// flag ("-DX=1", in an nvcc or cxx argument list or anywhere else), and each ("NAME", "VALUE")
// or ("NAME", None) tuple of a define_macros=[...] list written out in place. Conditions are not
// evaluated: every literal counts, the first of two values for one name winning
// (build_file_defines.hpp). An f-string's {expression} is a value not known.

#include <string_view>
#include <vector>

#include "context/found_define.hpp"

namespace kforecast::context {

// `name` is the file's repository-relative path, for FoundDefine::where.
std::vector<FoundDefine> read_setup_py_defines(std::string_view text, std::string_view name);

}  // namespace kforecast::context
