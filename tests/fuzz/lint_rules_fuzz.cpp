// SPDX-License-Identifier: Apache-2.0
// Fuzz target: rule files come from the repository (lint.rules_path), so they are untrusted. Any
// input must give rules or an Error with a message, never a crash or a hang; rules that parse
// are then run over a sample kernel, so odd patterns and parameters are exercised too.

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "lint/linter.hpp"
#include "lint/rule_set.hpp"

namespace {
constexpr std::string_view sample = R"(#define TILE 32
__global__ void __launch_bounds__(100) k(float* x, float* y, int n) {
  __shared__ float t[TILE][TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; ++j) { x[i * n] += y[j % n] * 0.5; t[threadIdx.x][j] = sqrt(x[j]); }
  if (i < n) { atomicAdd(x, 1.0f); __syncthreads(); }
}
void run(float* x) { k<<<1, 100>>>(x, x, 1); }
)";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  kforecast::lint::RuleSet rules;
  auto read = rules.read(text, "fuzz.toml");
  if (!read && read.error().message.empty()) std::abort();
  if (read) (void)kforecast::lint::lint_source("fuzz.cu", sample, rules.rules());
  return 0;
}
