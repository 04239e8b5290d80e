// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a parent and its batch measuring child (`kforecast bench --in-process --batch FILE
// --results FILE`) exchange. The batch file lists the pairs, in the order to measure them:
//
//   {"pairs": [{"candidate": "head/a.cu:k", "versus": "base/a.cu:k", "against": "",
//               "project_build": "", "capture": ""}, ...]}
//
// The child appends one line of JSON to the results file per pair as it finishes it, so a child
// that crashes or hangs leaves every result it reached behind:
//
//   {"index": 0, "seconds": 0.81, "measurement": {...}}       measured (bench/measurement.hpp)
//   {"index": 1, "seconds": 0.02, "error": "...", "exit_status": 2}   could not be measured
//   {"index": 2, "skipped": "the GPU budget ..."}             not started: the budget was spent
//
// `seconds` is the wall time the child spent on that pair since the one before. Both files are
// written by kforecast for kforecast, but a child runs code under review, so the parent reads the
// results file as untrusted: a line it cannot read is an error, never a crash.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/error.hpp"
#include "bench/measurement.hpp"
#include "measure/bench_measure.hpp"

namespace kforecast::measure {

std::string batch_file_json(const std::vector<BenchPair>& pairs);
Result<std::vector<BenchPair>> parse_batch_file(std::string_view text);

struct BatchSkipped {
  std::string reason;
};
struct BatchError {
  std::string message;
  int exit_status = 2;  // 2: the pair cannot be measured as given; 3: nothing can run here
};

struct BatchResult {
  std::size_t index = 0;
  double seconds = 0;
  std::variant<bench::Measurement, BatchError, BatchSkipped> outcome;
};

std::string batch_result_line(const BatchResult& result);
// Every complete line of a results file; a line that is not a result is an Error naming it.
Result<std::vector<BatchResult>> parse_batch_results(std::string_view text);

}  // namespace kforecast::measure
