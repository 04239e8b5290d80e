// SPDX-License-Identifier: Apache-2.0
#pragma once

// The project's own benchmark harnesses, as the config declares them (docs/harness.md):
//
//   [[harness]]
//   name = "cpu"
//   build = "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j2"
//   run = "build/bench --benchmark_filter='{filter}' --benchmark_out={out} --benchmark_out_format=json"
//   format = "gbench"        # gbench | nvbench | pytest-benchmark | simple
//   time = "real"            # or "cpu": gbench's cpu_time, nvbench's CPU mean
//   rounds = 8               # most A B B A rounds of processes per kernel
//   timeout_seconds = 600    # one build, one run
//
//   [[harness.map]]
//   kernels = ["src/gemm/*.cu", "gemm_kernel*"]   # globs over kernel files or kernel names
//   benchmarks = "BM_Gemm.*"                      # what {filter} becomes for them
//
// The commands run through `sh -c` in a worktree of each revision. In `pr` the tables are read
// from the base revision's config, never the head's: the pull request under review does not
// choose what is run to judge it.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "harness/benchmark_output.hpp"

namespace kforecast::harness {

struct BenchmarkMap {
  std::vector<std::string> kernels;  // fnmatch globs ('*' also matches '/') over files and names
  std::string benchmarks;            // the filter
  std::string origin;                // ".kforecast.toml:14"
};

struct Harness {
  std::string name;
  std::string build;  // "" : nothing to build
  std::string run;    // holds {filter}; {out}: a file kforecast reads, else standard output is read
  OutputFormat format = OutputFormat::gbench;
  TimeField time = TimeField::real;
  int rounds = 8;
  double timeout_seconds = 600;
  std::vector<BenchmarkMap> maps;
  std::string origin;
  // Prints the benchmarks' names, one per line. With no maps, the map is learned: each benchmark
  // run once under the capture library (measure/learned_harness_map.hpp).
  std::string list;
};

inline constexpr int min_rounds = 2;   // an interval needs two
inline constexpr int max_rounds = 64;

// Every [[harness]] table of a config's TOML text. A table of the wrong shape is an Error naming
// FILE:LINE:COLUMN and the key, every problem on its own line.
Result<std::vector<Harness>> read_harnesses(std::string_view toml_text, std::string_view display_name);

// The harness and map that measure a kernel: the first map, in config order, one of whose globs
// matches the kernel's file or its name (qualified or not). nullopt: none does.
struct HarnessChoice {
  const Harness* harness = nullptr;
  const BenchmarkMap* map = nullptr;
};
std::optional<HarnessChoice> harness_for(const std::vector<Harness>& harnesses, std::string_view file,
                                         std::string_view kernel);

// Whether a benchmark name may go into a command's {filter}: the command runs through `sh -c`, and
// a name a program printed (a learned map) is not the config's own text, so a name holding a quote,
// `$`, a backquote, a backslash or a control character is never substituted.
bool fits_in_command(std::string_view benchmark);

// The filter that selects exactly `benchmarks` (names as the format's output gives them): gbench
// "^(A|B)$" (regular expression characters escaped), pytest-benchmark "A or B"; nvbench and the
// simple format take one name, so the first.
std::string filter_selecting(OutputFormat format, const std::vector<std::string>& benchmarks);

// `command` with every {filter} and {out} replaced.
std::string expand_command(std::string_view command, std::string_view filter, std::string_view out);

}  // namespace kforecast::harness
