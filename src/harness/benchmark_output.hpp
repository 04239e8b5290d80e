// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a project's benchmark program wrote, read into one list of times per benchmark. The output
// is untrusted (the pull request's code wrote it): every reader checks each field it uses, and an
// Error names the file and the field ("bench-out.json: benchmarks[3].real_time is a string"), so
// a harness that wrote nonsense never reads as a measurement.
//
// Formats:
//   gbench            Google Benchmark's --benchmark_format=json / --benchmark_out: each
//                     iteration entry's real_time (or cpu_time) in its time_unit (repetitions
//                     give several);
//                     aggregates are used only where no iteration entry was written
//                     (--benchmark_report_aggregates_only), the median first.
//   nvbench           nvbench's --json: per state, the "nv/cold/time/gpu/mean" summary (else
//                     "nv/batch/time/gpu/mean"; for the CPU time "nv/cold/time/cpu/mean"),
//                     named "BENCHMARK/STATE".
//   pytest-benchmark  pytest-benchmark's --benchmark-json: stats.data (every round, with
//                     --benchmark-save-data), else stats.median.
//   simple            one line per timed run, "NAME<TAB>SECONDS"; blank lines and lines starting
//                     with '#' are skipped; a name on several lines gives several times.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"

namespace kforecast::harness {

enum class OutputFormat { gbench, nvbench, pytest_benchmark, simple };

std::optional<OutputFormat> output_format(std::string_view name);
std::string_view format_name(OutputFormat format);

// Which of a format's times is read: the wall (GPU) time, or the CPU time where the format
// reports one (gbench's cpu_time, nvbench's CPU mean). A CPU benchmark on a shared machine is
// steadier on its CPU time.
enum class TimeField { real, cpu };
bool reports_cpu_time(OutputFormat format);

struct BenchmarkTimes {
  std::string name;
  std::vector<double> seconds;  // one per repetition the program reported, in the order written
};

// The benchmarks of one run of the program, in the order first written. `file` names the output
// in messages. A benchmark that reported an error is an Error naming it and its message.
Result<std::vector<BenchmarkTimes>> parse_benchmark_output(OutputFormat format, std::string_view text,
                                                           std::string_view file, TimeField time = TimeField::real);

// The readers, one per format (benchmark_output.cpp chooses).
Result<std::vector<BenchmarkTimes>> parse_gbench_json(std::string_view text, std::string_view file,
                                                     TimeField time = TimeField::real);
Result<std::vector<BenchmarkTimes>> parse_nvbench_json(std::string_view text, std::string_view file,
                                                      TimeField time = TimeField::real);
Result<std::vector<BenchmarkTimes>> parse_pytest_benchmark_json(std::string_view text, std::string_view file);
Result<std::vector<BenchmarkTimes>> parse_simple_output(std::string_view text, std::string_view file);

}  // namespace kforecast::harness
