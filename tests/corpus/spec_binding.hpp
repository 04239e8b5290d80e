// SPDX-License-Identifier: Apache-2.0
#pragma once

// A family folder's launch specs as the benchmark runner reads them: its kforecast.toml parses
// with bench's own reader, and every spec binds to its kernel's scanned signature at every size.
// Catch checks inside; returns how many sizes bound.

#include <algorithm>
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "bench/launch_spec_reader.hpp"
#include "bench/resolved_launch.hpp"
#include "corpus/corpus.hpp"
#include "kernels/scanner.hpp"

namespace kforecast::testing {

inline std::size_t check_specs_bind(const std::filesystem::path& family) {
  const auto spec_path = family / "kforecast.toml";
  auto specs = bench::read_config_specs(read_text(spec_path), spec_path.string());
  INFO(spec_path.string());
  REQUIRE(specs.has_value());
  std::size_t bound = 0;
  for (const auto& spec : *specs) {
    INFO(spec.name);
    const std::string text = read_text(family / spec.file);  // the scan refers to it
    const auto scanned = kernels::scan_cuda_source(text);
    const auto kernel = std::ranges::find_if(scanned.functions, [&](const auto& f) { return f.name == spec.name; });
    REQUIRE(kernel != scanned.functions.end());
    for (const auto& size : spec.sizes) {
      auto launch = bench::resolve_launch(spec, size, kernel->parameters);
      INFO((launch ? std::string() : launch.error().message));
      CHECK(launch.has_value());
      ++bound;
    }
  }
  return bound;
}

}  // namespace kforecast::testing
