// SPDX-License-Identifier: Apache-2.0
// The corpus's launch specs as the benchmark runner reads them: every family's kforecast.toml
// parses with bench's own reader, and every spec binds to its kernel's scanned signature at every
// size, so a corpus measurement cannot stop at a spec mistake on the GPU machine.

#include <catch2/catch.hpp>

#include "corpus/spec_binding.hpp"

using namespace kforecast;

TEST_CASE("corpus: every launch spec reads and binds with the benchmark runner's reader") {
  std::size_t bound = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::corpus_root()))
    if (entry.is_directory()) bound += testing::check_specs_bind(entry.path());
  CHECK(bound >= 91);  // one size per kernel, 91 kernels (README.md)
}
