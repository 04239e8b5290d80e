// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the [[harness]] tables of .kforecast.toml (untrusted where a repository's config is
// read), after the config loader accepted the text. Any input gives harnesses or an Error with a
// message; every harness read has a name, a run command holding {filter}, rounds in range and at
// least one map with globs and a filter, or a list command to learn its map.

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "config/config.hpp"
#include "harness/harness_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kforecast::harness;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (!kforecast::config::parse_config(text, "fuzz.toml")) return 0;
  auto harnesses = read_harnesses(text, "fuzz.toml");
  if (!harnesses) {
    if (harnesses.error().message.empty()) std::abort();
    return 0;
  }
  for (const Harness& harness : *harnesses) {
    if (harness.name.empty() || harness.run.find("{filter}") == std::string::npos) std::abort();
    if (harness.rounds < min_rounds || harness.rounds > max_rounds) std::abort();
    if (harness.maps.empty() && harness.list.empty()) std::abort();
    for (const BenchmarkMap& map : harness.maps)
      if (map.kernels.empty() || map.benchmarks.empty()) std::abort();
    (void)harness_for(*harnesses, "src/a.cu", "ns::k");
  }
  return 0;
}
