// SPDX-License-Identifier: Apache-2.0
#pragma once

// A [[harness]] without [[harness.map]] tables learns its map (docs/harness.md): at the base
// revision, built in the harness's worktree, its `list` command names the benchmarks, and each is
// run once with the filter that selects it alone under the capture library (no contents kept, one
// launch per shape); the kernels each launched are read from the capture files it wrote
// (capture/capture_summary.hpp). The map is kept in the cache by the base's tree hash and the
// harness's commands, as a tab-separated file of benchmark and kernel, so a later run on the same
// base reads it. The commands are the base revision's config's and run confined, as the
// harness's always do.

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "harness/harness_config.hpp"
#include "harness/shell_runner.hpp"

namespace kforecast::measure {

struct LearnedMap {
  std::vector<std::pair<std::string, std::string>> launches;  // benchmark, kernel (demangled, as launched)
  bool reused = false;                                        // read from the cache
  std::filesystem::path file;                                 // where it is kept
};

struct LearnRequest {
  const harness::Harness& harness;
  std::filesystem::path repository;
  std::string base_commit;
  std::filesystem::path trees;    // the harness's worktrees
  std::filesystem::path learned;  // where learned maps are kept
  std::filesystem::path injection_library;
  EnvLookup env;
};

// An Error where the base cannot be built, `list` fails or names nothing, or a benchmark's run
// fails: the message names the harness, the command and its last line.
Result<LearnedMap> learn_harness_map(const LearnRequest& request, const harness::ShellRunner& shell);

// The benchmarks that launched `kernel` (its qualified name, "ns::scale"), in listed order.
std::vector<std::string> benchmarks_launching(const LearnedMap& map, std::string_view kernel);

// The map's text in the cache, and back; a line that is not "BENCHMARK<TAB>KERNEL" is an Error
// naming the file and line (the cache is a file anyone with the runner's account could edit).
std::string learned_map_text(const LearnedMap& map);
Result<LearnedMap> parse_learned_map(std::string_view text, std::string_view file);

}  // namespace kforecast::measure
