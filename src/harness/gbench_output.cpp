// SPDX-License-Identifier: Apache-2.0
// Google Benchmark's JSON (--benchmark_format=json or --benchmark_out=FILE): per benchmark run,
// real_time (or cpu_time) per iteration in time_unit. With --benchmark_repetitions=N each repetition is an
// entry of run_type "iteration" under the same run_name, followed by aggregates (mean, median,
// stddev, cv) that are derived from them and so not used; where only aggregates were written
// (--benchmark_report_aggregates_only) the median stands for the run.

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "harness/benchmark_output.hpp"
#include "harness/json_fields.hpp"

namespace kforecast::harness {
namespace {

using namespace json_fields;

double seconds_per_unit(const std::string& unit, std::string_view path) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  if (unit == "s") return 1;
  malformed(path, fmt::format("is \"{}\", expected ns, us, ms or s", unit));
}

bool flag(const Json& object, std::string_view key, std::string_view path) {
  auto element = optional_field(object, key);
  if (!element) return false;
  return as_bool(*element, path);
}

std::string optional_string(const Json& object, std::string_view key, std::string_view path) {
  auto element = optional_field(object, key);
  return element ? as_string(*element, path) : std::string();
}

struct Entries {
  std::vector<std::string> order;  // run names, first seen first
  std::map<std::string, std::vector<double>, std::less<>> iterations;
  std::map<std::string, std::map<std::string, double>, std::less<>> aggregates;  // run name -> aggregate -> s
};

void read_entry(const Json& entry, const std::string& at, TimeField time, Entries& entries) {
  const std::string name = as_string(field(entry, "name", at + ".name"), at + ".name");
  std::string run_name = optional_string(entry, "run_name", at + ".run_name");
  if (run_name.empty()) run_name = name;
  // Google Benchmark 1.7 says error_occurred; 1.8 and later say skipped (1: an error, 2: skipped
  // by the program), each with its message.
  if (flag(entry, "error_occurred", at + ".error_occurred"))
    malformed(at, fmt::format("(benchmark '{}') reported an error: {}", name,
                              optional_string(entry, "error_message", at + ".error_message")));
  if (auto skipped = optional_field(entry, "skipped")) {
    if (as_number(*skipped, at + ".skipped") != 0)
      malformed(at, fmt::format("(benchmark '{}') was skipped: {}", name,
                                optional_string(entry, "skip_message", at + ".skip_message")));
  }
  const std::string run_type = optional_string(entry, "run_type", at + ".run_type");
  if (!run_type.empty() && run_type != "iteration" && run_type != "aggregate")
    malformed(at + ".run_type", fmt::format("is \"{}\", expected iteration or aggregate", run_type));
  const std::string aggregate = run_type == "aggregate" ? optional_string(entry, "aggregate_name", at + ".aggregate_name") : "";
  // Only times are read: stddev and cv aggregates, and aggregates in other units (the
  // coefficient of variation is a percentage), are not times of a run.
  if (run_type == "aggregate" && aggregate != "median" && aggregate != "mean") return;
  const double unit = seconds_per_unit(as_string(field(entry, "time_unit", at + ".time_unit"), at + ".time_unit"),
                                       at + ".time_unit");
  const std::string key = time == TimeField::cpu ? "cpu_time" : "real_time";
  const double seconds = as_time(as_number(field(entry, key, at + "." + key), at + "." + key) * unit, at + "." + key);
  if (std::ranges::find(entries.order, run_name) == entries.order.end()) entries.order.push_back(run_name);
  if (run_type == "aggregate")
    entries.aggregates[run_name][aggregate] = seconds;
  else
    entries.iterations[run_name].push_back(seconds);
}

}  // namespace

Result<std::vector<BenchmarkTimes>> parse_gbench_json(std::string_view text, std::string_view file, TimeField time) {
  return read_json(text, file, [&](const Json& root) -> Result<std::vector<BenchmarkTimes>> {
    const auto& benchmarks = as_array(field(as_object(root, "the top level"), "benchmarks", "benchmarks"), "benchmarks");
    Entries entries;
    std::size_t index = 0;
    for (const Json& item : benchmarks) {
      const std::string at = fmt::format("benchmarks[{}]", index++);
      read_entry(as_object(item, at), at, time, entries);
    }
    std::vector<BenchmarkTimes> times;
    for (const auto& name : entries.order) {
      BenchmarkTimes benchmark{name, {}};
      if (auto found = entries.iterations.find(name); found != entries.iterations.end()) {
        benchmark.seconds = found->second;
      } else {
        const auto& aggregates = entries.aggregates[name];
        const auto chosen = aggregates.contains("median") ? aggregates.find("median") : aggregates.find("mean");
        benchmark.seconds.push_back(chosen->second);
      }
      times.push_back(std::move(benchmark));
    }
    return times;
  });
}

}  // namespace kforecast::harness
