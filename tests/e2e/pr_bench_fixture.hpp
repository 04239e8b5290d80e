// SPDX-License-Identifier: Apache-2.0
#pragma once

// A repository whose head makes one kernel 8x slower: `settle` runs the same dependent loop 8
// times (the result is the same, the loop's fixed point 0.5, so the outputs agree) and has a
// launch spec; `nospec` also changed but has no spec, so it cannot be measured. The base's
// config makes the policy trust no forecast, so both go to the GPU.

#include <string>

#include "support/fixture_repo.hpp"

namespace kforecast::e2e {

inline std::string settle_source(bool slower) {
  const std::string loop =
      slower ? "  for (int rep = 0; rep < 8; ++rep)\n    for (int r = 0; r < 64; ++r) v = v * 0.5f + 0.25f;\n"
             : "  for (int r = 0; r < 64; ++r) v = v * 0.5f + 0.25f;\n";
  return "// kforecast:\n"
         "// sizes = [{ n = 4194304 }]\n"
         "// grid = [\"ceil_div(n, 256)\"]\n"
         "// block = [256]\n"
         "// [kernel.args]\n"
         "// x = { count = \"n\", init = \"uniform(-1, 1)\" }\n"
         "// y = { count = \"n\", role = \"out\" }\n"
         "// n = \"n\"\n"
         "__global__ void settle(const float* x, float* y, int n) {\n"
         "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (i >= n) return;\n"
         "  float v = x[i];\n" +
         loop +
         "  y[i] = v;\n"
         "}\n\n"
         "__global__ void nospec(float* a) { a[0] = " +
         (slower ? "2.0f" : "1.0f") + "; }\n";
}

// Commits the base and the head; `config` is the base's .kforecast.toml after the [policy] lines
// that trust nothing.
inline void commit_slower_kernel(const testing::FixtureRepo& repo, const std::string& extra_config = "") {
  repo.write(".kforecast.toml", "[policy]\nmax_p_regression = 0.0\n" + extra_config);
  repo.write("src/settle.cu", settle_source(false));
  repo.commit("base");
  repo.write("src/settle.cu", settle_source(true));
  repo.commit("head: settle does its loop 8 times");
}

}  // namespace kforecast::e2e
