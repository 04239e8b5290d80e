// SPDX-License-Identifier: Apache-2.0
#pragma once

// The kernel the launch-rule e2e tests lint (lint_launch_test.cpp, lint_launch_nvrtc_test.cpp).

#include <string>

namespace kforecast::e2e {

// A kernel with a spec block of `block` threads and `shared` dynamic shared bytes; `bounds` is
// the __launch_bounds__ clause ("" for none), `trailer` text after the signature's ')'.
inline std::string kernel(int block, int shared, const std::string& bounds = "", const std::string& trailer = "") {
  return "// kforecast:\n"
         "// sizes = [{ n = 1048576 }]\n"
         "// grid = [\"ceil_div(n, " +
         std::to_string(block) +
         ")\"]\n"
         "// block = [" +
         std::to_string(block) +
         "]\n"
         "// shared_bytes = \"" +
         std::to_string(shared) +
         "\"\n"
         "// [kernel.args]\n"
         "// x = { count = \"n\" }\n"
         "// n = \"n\"\n"
         "__global__ void " +
         bounds + "k(float* __restrict__ x, int n) {" + trailer +
         "\n"
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (i < n) x[i] = 2.0f * x[i];\n"
         "}\n";
}

}  // namespace kforecast::e2e
