// SPDX-License-Identifier: Apache-2.0
// The corpus's launch specs as the benchmark runner reads them: every family's kforecast.toml
// parses with bench's own reader, and every spec binds to its kernel's scanned signature at every
// size, so a corpus measurement cannot stop at a spec mistake on the GPU machine.

#include <catch2/catch.hpp>

#include "bench/launch_spec_reader.hpp"
#include "bench/resolved_launch.hpp"
#include "corpus.hpp"
#include "kernels/scanner.hpp"

using namespace kforecast;

TEST_CASE("corpus: every launch spec reads and binds with the benchmark runner's reader") {
  std::size_t bound = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::corpus_root())) {
    if (!entry.is_directory()) continue;
    const auto spec_path = entry.path() / "kforecast.toml";
    auto specs = bench::read_config_specs(testing::read_text(spec_path), spec_path.string());
    INFO(spec_path.string());
    REQUIRE(specs.has_value());
    for (const auto& spec : *specs) {
      INFO(spec.name);
      const auto scanned = kernels::scan_cuda_source(testing::read_text(entry.path() / spec.file));
      const auto kernel = std::ranges::find_if(scanned.functions, [&](const auto& f) { return f.name == spec.name; });
      REQUIRE(kernel != scanned.functions.end());
      for (const auto& size : spec.sizes) {
        auto launch = bench::resolve_launch(spec, size, kernel->parameters);
        INFO((launch ? std::string() : launch.error().message));
        CHECK(launch.has_value());
        ++bound;
      }
    }
  }
  CHECK(bound >= 91);  // one size per kernel, 91 kernels (README.md)
}
