// SPDX-License-Identifier: Apache-2.0
// pytest-benchmark's JSON (--benchmark-json FILE): benchmarks[i].stats holds the rounds' summary
// in seconds; with --benchmark-save-data also stats.data, every round's time, which is used where
// present. A test's name is its "fullname" (path::test[param]) where written, else "name".

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "harness/benchmark_output.hpp"
#include "harness/json_fields.hpp"

namespace kforecast::harness {

using namespace json_fields;

Result<std::vector<BenchmarkTimes>> parse_pytest_benchmark_json(std::string_view text, std::string_view file) {
  return read_json(text, file, [&](const Json& root) -> Result<std::vector<BenchmarkTimes>> {
    const auto& benchmarks = as_array(field(as_object(root, "the top level"), "benchmarks", "benchmarks"), "benchmarks");
    std::vector<BenchmarkTimes> times;
    std::size_t index = 0;
    for (const Json& item : benchmarks) {
      const std::string at = fmt::format("benchmarks[{}]", index++);
      const auto& benchmark = as_object(item, at);
      auto name_field = optional_field(benchmark, "fullname");
      const std::string name = name_field ? as_string(*name_field, at + ".fullname")
                                          : as_string(field(benchmark, "name", at + ".name"), at + ".name");
      const auto& stats = as_object(field(benchmark, "stats", at + ".stats"), at + ".stats");
      BenchmarkTimes benchmark_times{name, {}};
      if (auto data = optional_field(stats, "data")) {
        std::size_t round = 0;
        for (const Json& value : as_array(*data, at + ".stats.data")) {
          const std::string value_at = fmt::format("{}.stats.data[{}]", at, round++);
          benchmark_times.seconds.push_back(as_time(as_number(value, value_at), value_at));
        }
      }
      if (benchmark_times.seconds.empty())
        benchmark_times.seconds.push_back(
            as_time(as_number(field(stats, "median", at + ".stats.median"), at + ".stats.median"), at + ".stats.median"));
      times.push_back(std::move(benchmark_times));
    }
    return times;
  });
}

}  // namespace kforecast::harness
