// SPDX-License-Identifier: Apache-2.0
#include "kernels/token_similarity.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::kernels;

namespace {

TokenShingles of(std::string_view text) { return token_shingles(text, Span{0, text.size(), 1, 1}); }

}  // namespace

TEST_CASE("kernels: token similarity ignores layout and sees edits") {
  const auto a = of("{ int i = threadIdx.x; if (i < n) y[i] = a * x[i] + y[i]; }");
  const auto reformatted = of("{\n  int i = threadIdx.x;  // index\n  if (i < n)\n    y[i] = a * x[i] + y[i];\n}");
  const auto edited = of("{ int i = threadIdx.x; if (i < n) y[i] = a * x[i] - y[i]; }");
  const auto other = of("{ __shared__ float s[32]; s[threadIdx.x] = 0; __syncthreads(); }");
  CHECK(jaccard(a, reformatted) == 1.0);
  CHECK(jaccard(a, edited) > 0.6);
  CHECK(jaccard(a, edited) < 1.0);
  CHECK(jaccard(a, other) < 0.2);
  CHECK(jaccard(of(""), of("")) == 1.0);
  CHECK(jaccard(of(""), of("{ }")) == 0.0);
  CHECK(jaccard(of("{}"), of("{ x; }")) < 1.0);
}

TEST_CASE("kernels: token similarity reads a bounded prefix of a huge span") {
  std::string huge = "{";
  for (int i = 0; i < 100000; ++i) huge += " x" + std::to_string(i) + " ;";
  const auto shingles = of(huge);
  CHECK(shingles.hashes.size() <= most_tokens_read);
  CHECK(jaccard(shingles, shingles) == 1.0);
}
